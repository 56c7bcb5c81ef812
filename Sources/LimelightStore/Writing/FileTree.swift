import Foundation
import GRDB
import LimelightModel
import LimelightPlatform
import Synchronization

/// Files as a tree of paths: their metadata, moves and removals of whole
/// subtrees, and the states a crawl compares the disk with.
extension IndexWriter {
  /// Updates what a metadata change (tags, mode, times) can alter, keeping
  /// the text. `tags` are the file's tags as they are now.
  ///
  /// An item's keywords are its tags, then those its importer read (a
  /// drawing's, a document's own); which of them were tags is not kept. So
  /// a keyword the tags no longer hold stays, and a file whose content was
  /// read is read again by the second pass, which settles them: replaced
  /// by the tags alone, a chmod dropped a drawing's own keywords. A file
  /// that cannot be `readable` now is not read again: it keeps what was
  /// read of it.
  public func updateMetadata(
    path: RawPath, status: FileStatus, keywords tags: [String], readable: () -> Bool = { true }
  ) throws {
    let pathData = Data(path.bytes)
    guard
      // Statements kept prepared: a `chmod -R` asks this of every file,
      // and parsing them was two fifths of the work.
      let row = try Row.fetchOne(
        db.cachedStatement(
          sql: """
            SELECT rowid, title, authors, customAttributes, keywords, contentPending
            FROM item WHERE path = ?
            """),
        arguments: [pathData])
    else { return }
    let rowID: Int64 = row[ItemTable.rowID]
    let modified = Double(status.modified) / 1e9
    let stored = Self.strings(inJSON: row[ItemTable.keywords])
    let untagged = stored.filter { !tags.contains($0) }
    let keepUntagged =
      !untagged.isEmpty && status.kind == .regular && !(row[ItemTable.contentPending] as Bool)
    let readAgain = keepUntagged && readable()
    let keywords = tags + (keepUntagged ? untagged : [])
    try db.cachedStatement(
      sql: """
        UPDATE item SET keywords = ?, ctimeNs = ?, mtimeNs = ?, modified = ?, recent = ?,
          generation = ?, contentPending = contentPending OR ?
        WHERE rowid = ?
        """
    ).execute(
      arguments: [
        Self.json(keywords), status.changed, status.modified, modified,
        ItemRank.isRecent(modified), generation, readAgain, rowID,
      ])
    // A mode, an owner or a link count changed (`chmod -R`, a tree
    // hard-linked elsewhere), not the keywords: the full-text indexes hold
    // nothing that moved but perhaps the facets. Indexing the item again
    // tokenized its whole text twice, and grew a home's index by 45 %.
    guard keywords != stored else {
      try refreshFacets(rowID)
      return
    }
    let kept =
      Self.strings(inJSON: row[ItemTable.authors])
      + Self.searchableStrings(inCustomAttributes: row[ItemTable.customAttributes])
    let text = SearchText.fold(IndexedText.keywords(keywords + kept, title: row[ItemTable.title]))
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
      path: RawPath(bytes: Array(row[ItemTable.path] as Data)),
      contentTypeTree: (row["contentTypeTree"] as String? ?? "").split(separator: " ").map(
        String.init),
      modifiedNs: row[ItemTable.mtimeNs] ?? 0)
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
      let path = RawPath(bytes: Array(row[ItemTable.path] as Data))
      if let except, path.isInside(except) { continue }
      try removeRow(row)
      removed += 1
    }
    return removed
  }

  func removeRow(_ row: Row) throws {
    let rowID: Int64 = row[ItemTable.rowID]
    // The words first: the full-text indexes read the item's path to remove them.
    try deleteText(rowID)
    try db.cachedStatement(sql: "DELETE FROM item WHERE rowid = ?").execute(arguments: [rowID])
    try db.cachedStatement(
      sql: "INSERT INTO removal (generation, id, domain, uri) VALUES (?, ?, ?, ?)"
    )
    .execute(arguments: [
      generation, row[ItemTable.id] as String, row[ItemTable.domain] as String,
      row[ItemTable.uri] as String,
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
        + " ORDER BY path")
    // The folder's own items read in the order of paths, and the items
    // below each child folder passed over by a seek (its subtree ends where
    // `child + "0"` begins): a folder's own items are read, never the whole
    // tree below it. (A seek for each child, as before, was half of a
    // rescan of an unchanged tree: 3.3 of 6.6 s for 177,677 entries.)
    var from: Data? = prefix
    while let start = from {
      from = nil
      let rows = try Row.fetchCursor(statement, arguments: [start, end])
      while let row = try rows.next() {
        let path: Data = row[ItemTable.path]
        let rest = path[(path.startIndex + prefix.count)...]
        if let slash = rest.firstIndex(of: UInt8(ascii: "/")) {
          from = Data(path[..<slash] + [UInt8(ascii: "0")])
          break
        }
        result[RawPath(bytes: Array(path))] = Self.storedState(row)
      }
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
    for row in rows {
      result[RawPath(bytes: Array(row[ItemTable.path] as Data))] = Self.storedState(row)
    }
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
      rowID: row[ItemTable.rowID], device: UInt64(bitPattern: row[ItemTable.device] ?? 0),
      inode: UInt64(bitPattern: row[ItemTable.inode] ?? 0), size: row[ItemTable.size] ?? -1,
      modified: row[ItemTable.mtimeNs] ?? 0, changed: row[ItemTable.ctimeNs] ?? 0,
      isFolder: row[ItemTable.isFolder],
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
}
