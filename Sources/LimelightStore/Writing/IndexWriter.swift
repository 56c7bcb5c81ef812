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
    let typeID = try typeID(attributes)
    let recent = ItemRank.isRecent(attributes.modified?.timeIntervalSince1970, now: now)
    let columns: [ItemColumn] =
      [
        (ItemTable.id, id), (ItemTable.domain, fileDomain), (ItemTable.storedURI, ""),
        (ItemTable.path, pathData),
      ]
      + Self.attributeColumns(attributes, text: text)
      + [
        (ItemTable.typeID, typeID),
        (ItemTable.modified, attributes.modified?.timeIntervalSince1970), (ItemTable.added, added),
        (ItemTable.device, Int64(bitPattern: record.status.device)),
        (ItemTable.inode, Int64(bitPattern: record.status.inode)),
        (ItemTable.mtimeNs, record.status.modified), (ItemTable.ctimeNs, record.status.changed),
        (ItemTable.isFolder, record.status.isDirectory), (ItemTable.hidden, record.hidden),
        (ItemTable.depth, record.path.depth), (ItemTable.generation, generation),
        (ItemTable.extractionError, record.extractionError),
        (ItemTable.contentPending, record.contentPending),
        (ItemTable.recent, recent),
      ]
    let (rowID, outcome) = try writeItemRow(
      .file, columns, existing: existing.flatMap { Int64.fromDatabaseValue($0[0]) })
    if outcome == .updated {
      // Its use count, which ranks it, is the row's.
      try replaceText(rowID, with: text, facets: try facets(ofRow: rowID), path: record.path)
    } else {
      let facets = ItemFacets.text(
        kindClasses: Self.kindClasses(attributes), typeID: typeID,
        modified: attributes.modified?.timeIntervalSince1970,
        nameRank: ItemRank.nameRank(
          displayName: attributes.displayName, isFolder: record.status.isDirectory,
          depth: record.path.depth, uses: 0, recent: recent))
      try insertText(rowID, text, facets: facets, path: record.path)
    }
    try clearFailure(record.path)
    return outcome
  }

  /// A column of `item` and its value.
  typealias ItemColumn = (column: Column, value: (any DatabaseValueConvertible)?)

  /// The columns an item's attributes fill, for files and application
  /// items alike; `text` is what the index stores of it (its description
  /// may be made from there, ``ItemDescription``).
  static func attributeColumns(_ attributes: AttributeSet, text: IndexedText) -> [ItemColumn] {
    [
      (ItemTable.displayName, attributes.displayName), (ItemTable.title, attributes.title),
      (ItemTable.contentType, attributes.contentType), (ItemTable.kind, attributes.kind),
      (ItemTable.kindClasses, spaced(kindClasses(attributes))),
      (ItemTable.keywords, json(attributes.keywords)),
    ] + ItemDescription.columns(attributes, text: text) + [
      (ItemTable.thumbnailPath, attributes.thumbnailPath),
      (ItemTable.authors, json(attributes.authors)),
      (ItemTable.size, attributes.size),
      (ItemTable.created, attributes.created?.timeIntervalSince1970),
      (ItemTable.customAttributes, json(attributes.extra)),
    ]
  }

  /// The kind classes of an item (``KindClass``), sorted: its row's
  /// `kindClasses` and its facets' kinds.
  static func kindClasses(_ attributes: AttributeSet) -> [String] {
    KindClass.classes(for: attributes.contentTypeTree).map(\.rawValue).sorted()
  }

  /// An item's content type tree as SQL: kept once for each type, in
  /// `content_type` (39 bytes an entry when each item held it).
  static let typeTree = "(SELECT tree FROM content_type WHERE id = item.typeID)"

  /// ``typeID(_:)`` as the column `item.typeID`.
  func typeColumn(_ attributes: AttributeSet) throws -> ItemColumn {
    (ItemTable.typeID, try typeID(attributes))
  }

  /// The row of an item's content type with its tree in `content_type`,
  /// added when new (``ItemFacets``: `type:` narrows by it).
  func typeID(_ attributes: AttributeSet) throws -> Int64? {
    let pair = [attributes.contentType ?? "", Self.spaced(attributes.contentTypeTree)]
    if let known = seenTerms.contentTypes[pair] ?? seenTerms.committed.contentType(pair) {
      return known
    }
    try db.cachedStatement(sql: "INSERT OR IGNORE INTO content_type (type, tree) VALUES (?, ?)")
      .execute(arguments: StatementArguments(pair))
    let id = try Int64.fetchOne(
      db.cachedStatement(sql: "SELECT id FROM content_type WHERE type = ? AND tree = ?"),
      arguments: StatementArguments(pair))
    seenTerms.contentTypes[pair] = id
    return id
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
    let sql = shape.statements(columns.map(\.column.name), insertedOnly.map(\.column.name))
    if let existing {
      try db.cachedStatement(sql: sql.update).run(columns.map(\.value) + [existing])
      return (existing, .updated)
    }
    try db.cachedStatement(sql: sql.insert).run((columns + insertedOnly).map(\.value))
    return (db.lastInsertedRowID, .inserted)
  }
}
