import Foundation
import GRDB
import LimelightModel
import LimelightPlatform
import Synchronization

/// One version of a file as the index knows it: what a thumbnail is drawn
/// for, and checked against (the file must still be that version).
public struct FileVersion: Sendable, Equatable {
  public var path: RawPath
  /// The content type and its ancestors, the most specific first.
  public var contentTypeTree: [String]
  /// The modification time in nanoseconds.
  public var modifiedNs: Int64

  public init(path: RawPath, contentTypeTree: [String], modifiedNs: Int64) {
    (self.path, self.contentTypeTree, self.modifiedNs) = (path, contentTypeTree, modifiedNs)
  }
}

/// The lists of columns an item's row is written with (``IndexWriter/writeItemRow``),
/// each with its UPDATE and INSERT statements, made on first use.
enum ItemRowShape {
  case file, applicationItem

  typealias Statements = (update: String, insert: String)
  private static let made = Mutex<[ItemRowShape: Statements]>([:])

  func statements(_ names: @autoclosure () -> [String], _ insertedOnly: @autoclosure () -> [String])
    -> Statements
  {
    Self.made.withLock { made in
      if let statements = made[self] { return statements }
      let (names, all) = (names(), names() + insertedOnly())
      let statements = (
        update: "UPDATE item SET " + names.map { $0 + " = ?" }.joined(separator: ", ")
          + " WHERE rowid = ?",
        insert: "INSERT INTO item (" + all.joined(separator: ", ") + ") VALUES ("
          + all.map { _ in "?" }.joined(separator: ", ") + ")"
      )
      made[self] = statements
      return statements
    }
  }
}

/// The writes of one transaction; everything it changes is stamped with its generation.
public struct IndexWriter {
  let db: Database
  /// The generation this transaction creates.
  public let generation: Int64
  /// How the index packs the texts it stores.
  let texts: TextPacker
  /// The name terms this transaction has put in the deletion index.
  let seenTerms: SeenTerms

  init(
    db: Database, generation: Int64, texts: TextPacker, committed: CommittedTerms = CommittedTerms()
  ) {
    self.db = db
    self.generation = generation
    self.texts = texts
    seenTerms = SeenTerms(committed: committed)
  }

  /// What `upsert` did.
  public enum UpsertOutcome: Sendable { case inserted, updated }

  /// Adds or replaces the item of a file, keeping the id already given to that path.
  @discardableResult
  public func upsert(_ record: FileRecord) throws -> UpsertOutcome {
    let pathData = Data(record.path.bytes)
    let existing = try db.cachedStatement(sql: "SELECT rowid, id, added FROM item WHERE path = ?")
      .firstRow([pathData])
    let attributes = record.attributes
    let now = Date().timeIntervalSince1970
    let id = existing.flatMap { String.fromDatabaseValue($0[1]) } ?? Self.newFileID()
    let added = existing.flatMap { Double.fromDatabaseValue($0[2]) } ?? now
    let text = record.indexedText ?? IndexedText(attributes, path: record.path)
    let columns: [ItemColumn] =
      [("id", id), ("domain", fileDomain), ("storedURI", ""), ("path", pathData)]
      + Self.attributeColumns(attributes, text: text)
      + [
        try typeColumn(attributes),
        ("modified", attributes.modified?.timeIntervalSince1970), ("added", added),
        ("device", Int64(bitPattern: record.status.device)),
        ("inode", Int64(bitPattern: record.status.inode)),
        ("mtimeNs", record.status.modified), ("ctimeNs", record.status.changed),
        ("isFolder", record.status.isDirectory), ("hidden", record.hidden),
        ("depth", record.path.depth), ("generation", generation),
        ("extractionError", record.extractionError), ("contentPending", record.contentPending),
        ("recent", ItemRank.isRecent(attributes.modified?.timeIntervalSince1970, now: now)),
      ]
    let (rowID, outcome) = try writeItemRow(
      .file, columns, existing: existing.flatMap { Int64.fromDatabaseValue($0[0]) })
    let facets = try facets(ofRow: rowID)
    if outcome == .updated {
      try replaceText(rowID, with: text, facets: facets, path: record.path)
    } else {
      try insertText(rowID, text, facets: facets, path: record.path)
    }
    try clearFailure(record.path)
    return outcome
  }

  /// Sets the thumbnail of the file at `path`, if it is still the version
  /// (modification time in nanoseconds) the thumbnail was made of.
  public func setThumbnail(path: RawPath, modifiedNs: Int64, thumbnail: RawPath) throws {
    try db.execute(
      sql: """
        UPDATE item SET thumbnailPath = ?, generation = ?
        WHERE path = ? AND mtimeNs = ? AND thumbnailPath IS NOT ?
        """,
      arguments: [thumbnail.string, generation, Data(path.bytes), modifiedNs, thumbnail.string])
  }

  /// Forgets a thumbnail (deleted from the cache) on the item that showed
  /// it, unless the item has another by now. Returns whether it did.
  public func dropThumbnail(_ thumbnail: String, ofItem rowID: Int64) throws -> Bool {
    try db.cachedStatement(
      sql:
        "UPDATE item SET thumbnailPath = NULL, generation = ? WHERE rowid = ? AND thumbnailPath = ?"
    ).execute(arguments: [generation, rowID, thumbnail])
    return db.changesCount > 0
  }

  /// Clears the "changed in the last week" flag of at most `limit` items
  /// whose week is over (the writers set it), and moves them to their new
  /// rank band. Returns how many changed. It reads every item (0.3 s at a
  /// million, once an hour) rather than keep an index of the recent ones,
  /// which every write of a freshly copied tree would grow.
  @discardableResult
  public func expireRecency(now: Date = Date(), atMost limit: Int = .max) throws -> Int {
    let expired = try Int64.fetchAll(
      db,
      sql: "SELECT rowid FROM item WHERE recent = 1 AND NOT coalesce(modified > ?, 0) LIMIT ?",
      arguments: [now.timeIntervalSince1970 - Double(ItemRank.recentSeconds), limit])
    for rowID in expired {
      try db.cachedStatement(sql: "UPDATE item SET recent = 0 WHERE rowid = ?").execute(
        arguments: [rowID])
      try refreshFacets(rowID)
    }
    return expired.count
  }

  /// The facets (``ItemFacets``) of an item as its row stands.
  func facets(ofRow rowID: Int64) throws -> String {
    let row = try db.cachedStatement(
      sql: "SELECT kindClasses, typeID, modified, nameRank FROM item WHERE rowid = ?"
    ).firstRow([rowID])
    return ItemFacets.text(
      kindClassesColumn: row.flatMap { String.fromDatabaseValue($0[0]) },
      typeID: row.flatMap { Int64.fromDatabaseValue($0[1]) },
      modified: row.flatMap { Double.fromDatabaseValue($0[2]) },
      nameRank: row.flatMap { Double.fromDatabaseValue($0[3]) })
  }

  /// Writes an item's facets again after a change to its row that moves
  /// them (its use count, its recency), indexing its names again if they moved.
  func refreshFacets(_ rowID: Int64) throws {
    let facets = try facets(ofRow: rowID)
    guard
      let row = try Row.fetchOne(
        db.cachedStatement(sql: "SELECT facets, textID FROM item_words_stored WHERE rowid = ?"),
        arguments: [rowID]),
      let stored = row["facets"] as String?, stored != facets
    else { return }
    // The text index holds the kinds, type and month of an item with a text.
    let hasText = row["textID"] as Int64? != nil
    let textToo =
      ItemFacets.textFacets(stored, hasText: hasText)
      != ItemFacets.textFacets(facets, hasText: hasText)
    try replaceNameTexts(rowID, textToo: textToo) {
      try db.cachedStatement(sql: "UPDATE item_words_stored SET facets = ? WHERE rowid = ?")
        .execute(arguments: [facets, rowID])
    }
  }

  /// Updates what a metadata change (tags, mode, times) can alter, keeping the text.
  public func updateMetadata(path: RawPath, status: FileStatus, keywords: [String]) throws {
    let pathData = Data(path.bytes)
    guard
      let row = try Row.fetchOne(
        db,
        sql: """
          SELECT rowid, title, authors, customAttributes FROM item WHERE path = ?
          """,
        arguments: [pathData])
    else { return }
    let rowID: Int64 = row["rowid"]
    let modified = Double(status.modified) / 1e9
    try db.execute(
      sql: """
        UPDATE item SET keywords = ?, ctimeNs = ?, mtimeNs = ?, modified = ?, recent = ?,
          generation = ?
        WHERE rowid = ?
        """,
      arguments: [
        Self.json(keywords), status.changed, status.modified, modified,
        ItemRank.isRecent(modified), generation, rowID,
      ])
    let kept =
      Self.strings(inJSON: row["authors"])
      + Self.searchableStrings(inCustomAttributes: row["customAttributes"])
    let text = SearchText.fold(IndexedText.keywords(keywords + kept, title: row["title"]))
    let facets = try facets(ofRow: rowID)
    try replaceNameTexts(rowID) {
      try db.cachedStatement(
        sql: "UPDATE item_words_stored SET keywords = ?, facets = ? WHERE rowid = ?"
      )
      .execute(arguments: [text, facets, rowID])
    }
    try TermDeletions(db: db, seen: seenTerms).add(text: text)
  }

  /// Moves the item at `old` (and, for a folder, everything below it) to `new`,
  /// keeping ids and text. An item already at `new` is replaced.
  /// Returns the number of items moved.
  @discardableResult
  public func move(from old: RawPath, to new: RawPath, hidden: (RawPath) -> Bool) throws -> Int {
    guard old != new else { return 0 }
    try removeTree(new, except: old)
    var moved = 0
    for (rowID, path) in try paths(inTreeOf: old) {
      let target = path.rebased(from: old, to: new)
      let name = IndexedText.name(target.lastComponent.string)
      // The item's path changes after its words left the full-text
      // indexes: they read it there (``keptPath(_:of:)``).
      try replaceNameTexts(rowID) {
        try db.cachedStatement(
          sql: """
            UPDATE item SET path = ?, storedURI = '', displayName = ?, depth = ?, hidden = ?,
              generation = ?
            WHERE rowid = ?
            """
        ).execute(arguments: [
          Data(target.bytes), target.lastComponent.string, target.depth,
          hidden(target), generation, rowID,
        ])
        // A new name or depth is a new rank.
        let facets = try facets(ofRow: rowID)
        try db.cachedStatement(
          sql: "UPDATE item_words_stored SET name = ?, path = ?, facets = ? WHERE rowid = ?"
        ).execute(arguments: [
          name, Self.keptPath(SearchText.fold(target.string), of: target), facets, rowID,
        ])
      }
      try TermDeletions(db: db, seen: seenTerms).add(text: name)
      moved += 1
    }
    return moved
  }

  /// The files at `root` and below it that have a thumbnail: their paths,
  /// types and modification times (nanoseconds).
  public func thumbnailed(inTreeOf root: RawPath) throws -> [FileVersion] {
    try rows(
      "path, \(Self.typeTree) AS contentTypeTree, mtimeNs", inTreeOf: root,
      where: "thumbnailPath IS NOT NULL AND isFolder = 0"
    ).map(Self.fileVersion)
  }

  /// A file's version from a row that selected `path`, `contentTypeTree`
  /// and `mtimeNs`.
  static func fileVersion(_ row: Row) -> FileVersion {
    FileVersion(
      path: RawPath(bytes: Array(row["path"] as Data)),
      contentTypeTree: (row["contentTypeTree"] as String? ?? "").split(separator: " ").map(
        String.init),
      modifiedNs: row["mtimeNs"] ?? 0)
  }

  /// The rowids and paths of `root` and everything below it.
  public func paths(inTreeOf root: RawPath) throws -> [(Int64, RawPath)] {
    try rows("rowid, path", inTreeOf: root).map {
      ($0["rowid"], RawPath(bytes: Array($0["path"] as Data)))
    }
  }

  /// Removes the item at `root` and everything below it. Returns how many went.
  @discardableResult
  public func removeTree(_ root: RawPath, except: RawPath? = nil) throws -> Int {
    var removed = 0
    for row in try rows("rowid, id, domain, uri, path", inTreeOf: root, belowFirst: true) {
      let path = RawPath(bytes: Array(row["path"] as Data))
      if let except, path.isInside(except) { continue }
      try removeRow(row)
      removed += 1
    }
    return removed
  }

  func removeRow(_ row: Row) throws {
    let rowID: Int64 = row["rowid"]
    // The words first: the full-text indexes read the item's path to remove them.
    try deleteText(rowID)
    try db.cachedStatement(sql: "DELETE FROM item WHERE rowid = ?").execute(arguments: [rowID])
    try db.cachedStatement(
      sql: "INSERT INTO removal (generation, id, domain, uri) VALUES (?, ?, ?, ?)"
    )
    .execute(arguments: [
      generation, row["id"] as String, row["domain"] as String, row["uri"] as String,
    ])
  }

  /// Removes every file item (for `erase`). Returns how many went.
  @discardableResult
  public func removeAllFiles() throws -> Int {
    let count =
      try Int.fetchOne(
        db, sql: "SELECT count(*) FROM item WHERE domain = ?", arguments: [fileDomain]) ?? 0
    // The full-text indexes first: they read the words they remove there;
    // the bodies before the rows that count on them.
    let files = "rowid IN (SELECT rowid FROM item WHERE domain = ?)"
    for table in ["item_text", "item_name"] {
      try db.execute(sql: "DELETE FROM \(table) WHERE \(files)", arguments: [fileDomain])
    }
    try TextBodies(db: db).releaseAll(ofItems: files, arguments: [fileDomain])
    try db.execute(sql: "DELETE FROM item_words_stored WHERE \(files)", arguments: [fileDomain])
    try db.execute(sql: "DELETE FROM item WHERE domain = ?", arguments: [fileDomain])
    try db.execute(sql: "DELETE FROM failure")
    try db.execute(sql: "DELETE FROM removal")
    // No removal before this generation is known now: a shared store
    // that follows the index gets every entry again, and loses the rest.
    try setMeta("removalsKeptFrom", generation + 1)
    return count
  }

  /// What the index remembers of the files in `folder` (not below), by path.
  public func childStates(of folder: RawPath) throws -> [RawPath: StoredFileState] {
    var result: [RawPath: StoredFileState] = [:]
    let (prefix, end) = Self.subtreeBounds(folder)
    let statement = try db.cachedStatement(
      sql: "SELECT \(Self.stateColumns), path FROM item WHERE path >= ? AND path < ?"
        + " ORDER BY path LIMIT 1")
    // Each child found by a seek, the items below it passed over by another
    // (its subtree ends where `child + "0"` begins): a folder's own items
    // are read, never the whole tree below it.
    var from = prefix
    while let row = try Row.fetchOne(statement, arguments: [from, end]) {
      let path: Data = row["path"]
      let rest = path[(path.startIndex + prefix.count)...]
      if let slash = rest.firstIndex(of: UInt8(ascii: "/")) {
        from = Data(path[..<slash] + [UInt8(ascii: "0")])
        continue
      }
      result[RawPath(bytes: Array(path))] = Self.storedState(row)
      from = path + [0]
    }
    return result
  }

  /// The files the index holds with this identity (several: hard links),
  /// by path.
  public func fileStates(device: UInt64, inode: UInt64) throws -> [RawPath: StoredFileState] {
    var result: [RawPath: StoredFileState] = [:]
    let rows = try Row.fetchAll(
      db.cachedStatement(
        sql: "SELECT \(Self.stateColumns), path FROM item WHERE device = ? AND inode = ?"),
      arguments: [Int64(bitPattern: device), Int64(bitPattern: inode)])
    for row in rows { result[RawPath(bytes: Array(row["path"] as Data))] = Self.storedState(row) }
    return result
  }

  static let stateColumns =
    "rowid, device, inode, size, mtimeNs, ctimeNs, isFolder, \(failedColumn)"

  /// The stored state of one path.
  public func fileState(at path: RawPath) throws -> StoredFileState? {
    // Cached: a burst looks up every settled path, one at a time.
    try Row.fetchOne(
      db.cachedStatement(sql: "SELECT \(Self.stateColumns) FROM item WHERE path = ?"),
      arguments: [Data(path.bytes)]
    ).map(Self.storedState)
  }

  static func storedState(_ row: Row) -> StoredFileState {
    StoredFileState(
      rowID: row["rowid"], device: UInt64(bitPattern: row["device"] ?? 0),
      inode: UInt64(bitPattern: row["inode"] ?? 0), size: row["size"] ?? -1,
      modified: row["mtimeNs"] ?? 0, changed: row["ctimeNs"] ?? 0, isFolder: row["isFolder"],
      failed: row["failed"])
  }

  /// Whether an item could not be read when last tried: a file's extraction
  /// error, a folder's failure to list (looked up for folders alone).
  static let failedColumn = """
    CASE WHEN isFolder THEN EXISTS (SELECT 1 FROM failure WHERE failure.path = item.path)
      ELSE extractionError IS NOT NULL END AS failed
    """

  /// Marks the file at `path` as one that cannot be read now, keeping what
  /// was read of it before (its item stays until the file is gone).
  public func markUnreadable(_ path: RawPath, message: String) throws {
    try db.cachedStatement(
      sql: "UPDATE item SET extractionError = ?, generation = ? WHERE path = ?"
    ).execute(arguments: [message, generation, Data(path.bytes)])
    try recordFailure(path, message: message)
  }

  /// Removes file items under no root at all (after roots were removed
  /// from the configuration). Only those rows are read: a restart over
  /// 281,000 entries read them all to keep none, 150 MB at once.
  @discardableResult
  public func removeFiles(outside roots: [RawPath]) throws -> Int {
    var condition = "domain = ?"
    var arguments: [any DatabaseValueConvertible] = [fileDomain]
    for root in roots {
      let (low, high) = Self.subtreeBounds(root)
      condition += " AND NOT (path = ? OR (path > ? AND path < ?))"
      arguments += [Data(root.bytes), low, high]
    }
    let rows = try Row.fetchAll(
      db, sql: "SELECT rowid, id, domain, uri, path FROM item WHERE \(condition)",
      arguments: StatementArguments(arguments))
    for row in rows { try removeRow(row) }
    return rows.count
  }

  /// Records that a path could not be read.
  public func recordFailure(_ path: RawPath, message: String) throws {
    try db.execute(
      sql: "INSERT OR REPLACE INTO failure (path, message, time) VALUES (?, ?, ?)",
      arguments: [Data(path.bytes), message, Date().timeIntervalSince1970])
  }

  public func clearFailure(_ path: RawPath) throws {
    try db.cachedStatement(sql: "DELETE FROM failure WHERE path = ?").run([Data(path.bytes)])
  }

  /// Forgets removals older than `keep` generations, and remembers from
  /// which generation on they are all kept (``IndexStore/sharedChanges(after:limit:)``).
  public func pruneRemovals(keep: Int64 = 10_000) throws {
    try db.execute(sql: "DELETE FROM removal WHERE generation < ?", arguments: [generation - keep])
    // Never earlier than an erase left it.
    let kept =
      try Int64.fetchOne(db, sql: "SELECT value FROM meta WHERE key = 'removalsKeptFrom'") ?? 0
    if generation - keep > kept { try setMeta("removalsKeptFrom", generation - keep) }
  }

  /// Sets a value in the meta table.
  /// Records whether indexing is paused (`limelight pause`), kept across restarts.
  public func setPaused(_ paused: Bool) throws { try setMeta("paused", paused) }

  func setMeta(_ key: String, _ value: (any DatabaseValueConvertible)?) throws {
    try db.cachedStatement(sql: "INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)")
      .execute(arguments: [key, value])
  }

  /// Marks a request as carried out by this transaction.
  public func complete(_ request: IndexRequest, outcome: RequestOutcome) throws {
    try db.execute(
      sql: "UPDATE request SET doneGeneration = ?, outcome = ? WHERE id = ?",
      arguments: [generation, outcome.stored, request.id])
  }

  // MARK: - Helpers

  /// A column of `item` and its value.
  typealias ItemColumn = (name: String, value: (any DatabaseValueConvertible)?)

  /// The columns an item's attributes fill, for files and application
  /// items alike; `text` is what the index stores of it (its description
  /// may be made from there, ``ItemDescription``).
  static func attributeColumns(_ attributes: AttributeSet, text: IndexedText) -> [ItemColumn] {
    let tree = attributes.contentTypeTree
    return [
      ("displayName", attributes.displayName), ("title", attributes.title),
      ("contentType", attributes.contentType), ("kind", attributes.kind),
      ("kindClasses", spaced(KindClass.classes(for: tree).map(\.rawValue).sorted())),
      ("keywords", json(attributes.keywords)),
    ] + ItemDescription.columns(attributes, text: text) + [
      ("thumbnailPath", attributes.thumbnailPath), ("authors", json(attributes.authors)),
      ("size", attributes.size), ("created", attributes.created?.timeIntervalSince1970),
      ("customAttributes", json(attributes.extra)),
    ]
  }

  /// An item's content type tree as SQL: kept once for each type, in
  /// `content_type` (39 bytes an entry when each item held it).
  static let typeTree = "(SELECT tree FROM content_type WHERE id = item.typeID)"

  /// The row of an item's content type with its tree in `content_type`,
  /// added when new (``ItemFacets``: `type:` narrows by it), as the column
  /// `item.typeID`.
  func typeColumn(_ attributes: AttributeSet) throws -> ItemColumn {
    let pair = [attributes.contentType ?? "", Self.spaced(attributes.contentTypeTree)]
    if let known = seenTerms.contentTypes[pair] ?? seenTerms.committed.contentType(pair) {
      return ("typeID", known)
    }
    try db.cachedStatement(sql: "INSERT OR IGNORE INTO content_type (type, tree) VALUES (?, ?)")
      .execute(arguments: StatementArguments(pair))
    let id = try Int64.fetchOne(
      db.cachedStatement(sql: "SELECT id FROM content_type WHERE type = ? AND tree = ?"),
      arguments: StatementArguments(pair))
    seenTerms.contentTypes[pair] = id
    return ("typeID", id)
  }

  /// Writes an item's row from its columns, described once: updated in
  /// place when the item has a row (`existing`), else inserted with
  /// `insertedOnly` too. `shape` names the list of columns (every call with
  /// it passes the same names): the statements are made once for it, not
  /// for every row of a crawl.
  func writeItemRow(
    _ shape: ItemRowShape, _ columns: [ItemColumn], existing: Int64?,
    insertedOnly: [ItemColumn] = []
  ) throws -> (rowID: Int64, outcome: UpsertOutcome) {
    let sql = shape.statements(columns.map(\.name), insertedOnly.map(\.name))
    if let existing {
      try db.cachedStatement(sql: sql.update).run(columns.map(\.value) + [existing])
      return (existing, .updated)
    }
    try db.cachedStatement(sql: sql.insert).run((columns + insertedOnly).map(\.value))
    return (db.lastInsertedRowID, .inserted)
  }

  /// Indexes an item's words and facets (``ItemFacets``): stored once in
  /// `item_words` (the text in its shared body, ``TextBodies``), the
  /// name-like fields and facets in `item_name`, all but the facets in
  /// `item_text`, and new name terms in the deletion index.
  func insertText(_ rowID: Int64, _ text: IndexedText, facets: String, path: RawPath?) throws {
    try storeWords("INSERT", rowID, text, body: try holdBody(text), facets: facets, path: path)
    try insertNames(rowID, text, facets: facets)
    try insertContent(rowID, text, facets: facets)
  }

  /// Replaces an item's words and facets. When its name, keywords, path and
  /// facets stay (the second pass reading a file the first named), the name
  /// index is left alone: only the text changes; when its text stays too
  /// (a restart that finds a file's status changed, not its content),
  /// neither index is touched.
  func replaceText(_ rowID: Int64, with text: IndexedText, facets: String, path: RawPath?) throws {
    let old = try Row.fetchOne(
      db.cachedStatement(
        sql: "SELECT name, keywords, path, facets, textID FROM item_words WHERE rowid = ?"),
      arguments: [rowID])
    let sameNames =
      old?["name"] == text.name && old?["keywords"] == text.keywords
      && old?["path"] == text.path && old?["facets"] == facets
    let oldBody: Int64? = old?["textID"]
    let bodies = TextBodies(db: db)
    if sameNames, old != nil,
      try bodies.isBody(oldBody, of: text.content, packed: packed(text), key: text.contentKey)
    {
      return
    }
    let body = try holdBody(text)
    // Its meaning is that of the text it had: made again by the third pass.
    try db.cachedStatement(sql: "DELETE FROM item_meaning WHERE rowid = ?").execute(arguments: [
      rowID
    ])
    // The full-text indexes first: they read the words to remove through
    // item_words, which still names the old body.
    try deleteRow(rowID, from: sameNames ? ["item_text"] : ["item_text", "item_name"])
    try storeWords("REPLACE", rowID, text, body: body, facets: facets, path: path)
    try bodies.release(oldBody)
    if !sameNames { try insertNames(rowID, text, facets: facets) }
    try insertContent(rowID, text, facets: facets)
  }

  /// Writes an item's words (`verb`: INSERT or REPLACE) with its text's
  /// body, its facets and the path they keep (``keptPath(_:of:)``).
  private func storeWords(
    _ verb: String, _ rowID: Int64, _ text: IndexedText, body: Int64?, facets: String,
    path: RawPath?
  ) throws {
    try db.cachedStatement(
      sql: """
        \(verb) INTO item_words_stored (rowid, name, keywords, path, textID, facets)
          VALUES (?, ?, ?, ?, ?, ?)
        """
    ).run([rowID, text.name, text.keywords, Self.keptPath(text.path, of: path), body, facets])
  }

  private func insertNames(_ rowID: Int64, _ text: IndexedText, facets: String) throws {
    try db.cachedStatement(
      sql: "INSERT INTO item_name (rowid, name, keywords, path, facets) VALUES (?, ?, ?, ?, ?)"
    ).run([rowID, text.name, text.keywords, text.path, facets])
    let deletions = TermDeletions(db: db, seen: seenTerms)
    try deletions.add(text: text.name)
    try deletions.add(text: text.keywords)
  }

  private func insertContent(_ rowID: Int64, _ text: IndexedText, facets: String) throws {
    try db.cachedStatement(
      sql: """
        INSERT INTO item_text (rowid, name, keywords, path, content, facets)
          VALUES (?, ?, ?, ?, ?, ?)
        """
    ).run([
      rowID, text.name, text.keywords, text.path, text.content.isEmpty ? nil : text.content,
      ItemFacets.textFacets(facets, hasText: !text.content.isEmpty),
    ])
  }

  /// The body of an item's text (``TextBodies``), one more item counted on
  /// it: packed and keyed already by the thread that read it, or here.
  func holdBody(_ text: IndexedText) throws -> Int64? {
    try TextBodies(db: db).hold(text.content, packed: packed(text), key: text.contentKey)
  }

  /// An item's text packed: by the thread that read it, or here.
  private func packed(_ text: IndexedText) -> Data {
    text.packedContent ?? texts.pack(text.content)
  }

  /// Folds and packs the text of a record that is about to be written, so
  /// that the thread that read it does the work rather than the one that
  /// writes, and lets the text as read go (the folded text is what is
  /// written: a slice waiting to be written held every text three times).
  public static func prepare(_ record: inout FileRecord, texts: TextPacker) {
    var text = record.indexedText ?? IndexedText(record.attributes, path: record.path)
    if !text.content.isEmpty && text.packedContent == nil {
      text.packedContent = texts.pack(text.content)
      text.contentKey = TextBodies.key(of: text.content)
      if record.attributes.contentDescription != nil {
        text.contentSummary = AttributeSet.summary(of: text.content)
      }
    }
    record.indexedText = text
    record.attributes.textContent = nil
  }

  /// Removes an item's words. The full-text indexes go first: they read the
  /// words to remove through `item_words`, and its body goes last.
  func deleteText(_ rowID: Int64) throws {
    let body = try Int64.fetchOne(
      db.cachedStatement(sql: "SELECT textID FROM item_words_stored WHERE rowid = ?"),
      arguments: [rowID])
    try deleteRow(rowID, from: ["item_text", "item_name", "item_words_stored"])
    try TextBodies(db: db).release(body)
  }

  /// The path `item_words_stored` keeps for an item whose words hold
  /// `text` as its path: an empty one when that is the item's own path as
  /// text (every ASCII path, 79 bytes an entry), which the view
  /// `item_words` reads from `item` instead (no file's path is empty). So
  /// an item's path changes, and its row goes, only after its words left
  /// both full-text indexes, which read the words to remove there.
  static func keptPath(_ text: String, of path: RawPath?) -> String {
    guard let path, text.utf8.elementsEqual(path.bytes) else { return text }
    return ""
  }

  /// Deletes an item's row from each of `tables`, in that order.
  private func deleteRow(_ rowID: Int64, from tables: [String]) throws {
    for table in tables {
      try db.cachedStatement(sql: "DELETE FROM \(table) WHERE rowid = ?").execute(arguments: [
        rowID
      ])
    }
  }

  /// Changes an item's name-like texts in `item_words` (`change`), keeping
  /// its stored text, and indexes its words again. With `textToo` false
  /// (only its rank's facet changes, which the text index does not hold),
  /// its text is not split into words again.
  func replaceNameTexts(_ rowID: Int64, textToo: Bool = true, change: () throws -> Void) throws {
    try deleteRow(rowID, from: textToo ? ["item_text", "item_name"] : ["item_name"])
    try change()
    try db.cachedStatement(
      sql: """
        INSERT INTO item_name (rowid, name, keywords, path, facets)
          SELECT rowid, name, keywords, path, facets FROM item_words WHERE rowid = ?
        """
    ).execute(arguments: [rowID])
    guard textToo else { return }
    try db.cachedStatement(
      sql: """
        INSERT INTO item_text (rowid, name, keywords, path, content, facets)
          SELECT rowid, name, keywords, path, content, facets FROM item_text_source
            WHERE rowid = ?
        """
    ).execute(arguments: [rowID])
  }

  /// Blob bounds that select everything strictly below a folder: "/" is 0x2F and
  /// The `columns` of the item at `root` and of those below it that meet
  /// `condition`, in two indexed lookups (an OR of both would scan the
  /// table); those below first when `belowFirst`.
  func rows(
    _ columns: String, inTreeOf root: RawPath, where condition: String = "1",
    belowFirst: Bool = false
  ) throws -> [Row] {
    let (low, high) = Self.subtreeBounds(root)
    let select = "SELECT \(columns) FROM item WHERE (\(condition)) AND "
    let at = try Row.fetchAll(db, sql: select + "path = ?", arguments: [Data(root.bytes)])
    let below = try Row.fetchAll(
      db, sql: select + "path > ? AND path < ?", arguments: [low, high])
    return belowFirst ? below + at : at + below
  }

  /// The subtree's bounds (``RawPath/subtreeBounds``) as the index keeps paths.
  static func subtreeBounds(_ root: RawPath) -> (Data, Data) {
    let (low, high) = root.subtreeBounds
    return (Data(low), Data(high))
  }

  /// A new item's id: `f` and 16 hex digits, in the order ids are made,
  /// so that the index of ids grows at its end as the rows do (a random id
  /// sent each new row to a random page of it: 4 GB more of log in a
  /// million entries' first pass). Microseconds, never the same twice in a
  /// process, above ten bits drawn once a process, so that two processes
  /// writing in the same microsecond make different ids.
  static func newFileID() -> String {
    let now = UInt64(max(0, Date().timeIntervalSince1970) * 1_000_000)
    let time = lastIDTime.withLock { last in
      last = max(last + 1, now)
      return last
    }
    let hex = String(time << 10 | idSalt, radix: 16)
    return "f" + String(repeating: "0", count: max(0, 16 - hex.count)) + hex
  }

  /// The time of the last id this process made (``newFileID()``).
  private static let lastIDTime = Mutex<UInt64>(0)
  private static let idSalt = UInt64.random(in: 0..<1024)

  static func spaced(_ words: [String]) -> String {
    words.isEmpty ? "" : " " + words.joined(separator: " ") + " "
  }

  /// The strings of a stored JSON array or object (authors, custom attributes).
  static func strings(inJSON text: String?) -> [String] {
    guard let data = text?.data(using: .utf8),
      let value = try? JSONSerialization.jsonObject(with: data)
    else { return [] }
    func collect(_ value: Any) -> [String] {
      switch value {
      case let text as String: return [text]
      case let array as [Any]: return array.flatMap(collect)
      case let object as [String: Any]: return object.keys.sorted().flatMap { collect(object[$0]!) }
      default: return []
      }
    }
    return collect(value)
  }

  /// The words of stored custom attributes, as ``AttributeValue/searchableText``
  /// has them: dates (stored as ISO 8601 text) are not words anyone searches for.
  static func searchableStrings(inCustomAttributes text: String?) -> [String] {
    strings(inJSON: text).filter { $0.wholeMatch(of: /\d{4}-\d\d-\d\dT.*/) == nil }
  }

  /// Type-specific attributes as a JSON object, nil when there are none.
  static func json(_ extra: [String: AttributeValue]) -> String? {
    guard !extra.isEmpty,
      let data = try? JSONSerialization.data(
        withJSONObject: extra.mapValues(\.jsonValue), options: [.sortedKeys]),
      let text = String(data: data, encoding: .utf8)
    else { return nil }
    return text
  }

  static func json(_ strings: [String]) -> String {
    // Most items have no keywords or authors: Foundation's encoder cost a
    // burst's writing thread a twentieth of its time for these two bytes.
    if strings.isEmpty { return "[]" }
    guard let data = try? JSONSerialization.data(withJSONObject: strings),
      let text = String(data: data, encoding: .utf8)
    else { return "[]" }
    return text
  }

}

extension IndexStore {
  /// The thumbnail and modification time (nanoseconds) stored for a file.
  public func thumbnailState(path: RawPath) throws -> (thumbnail: String?, modifiedNs: Int64)? {
    try read { db in
      try Row.fetchOne(
        db, sql: "SELECT thumbnailPath, mtimeNs FROM item WHERE path = ?",
        arguments: [Data(path.bytes)]
      ).map { ($0["thumbnailPath"], $0["mtimeNs"] ?? 0) }
    }
  }

  /// Records that the user opened an item: it ranks higher from now on.
  public func recordUse(id: String) throws {
    try write { writer in
      try writer.db.execute(
        sql: """
          UPDATE item SET useCount = useCount + 1, lastUsed = ?, generation = ? WHERE id = ?
          """, arguments: [Date().timeIntervalSince1970, writer.generation, id])
      if let rowID = try Int64.fetchOne(
        writer.db, sql: "SELECT rowid FROM item WHERE id = ?", arguments: [id])
      {
        try writer.refreshFacets(rowID)
      }
    }
  }
}
