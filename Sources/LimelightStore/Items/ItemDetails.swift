import Foundation
import GRDB
import LimelightModel
import LimelightPlatform

/// Every stored attribute of one item, in a fixed order (what `limelight show`
/// prints, like `mdls`).
public struct ItemDetails: Sendable {
  /// Attribute names and values; nil values are attributes the item lacks.
  public var fields: [(name: String, value: AttributeValue?)]

  /// How an item is named on the command line.
  public enum Key: Sendable {
    case path(RawPath)
    case uri(String)
    case id(String)
  }

  static func fetch(_ db: Database, key: Key) throws -> ItemDetails? {
    let row: Row?
    // The description as made when it is not stored (``ItemDescription``),
    // the type's tree from the types' table.
    let select = """
      SELECT *, \(ItemDescription.expression()) AS description,
        \(IndexWriter.typeTree) AS contentTypeTree
      FROM item
      """
    switch key {
    case .path(let path):
      row = try Row.fetchOne(db, sql: "\(select) WHERE path = ?", arguments: [Data(path.bytes)])
    case .uri(let uri):
      row = try Row.fetchOne(db, sql: "\(select) WHERE uri = ?", arguments: [uri])
    case .id(let id):
      row =
        try Row.fetchOne(db, sql: "\(select) WHERE id = ?", arguments: [id])
        ?? Row.fetchOne(
          db, sql: "\(select) WHERE localID = ? ORDER BY rowid LIMIT 1", arguments: [id])
    }
    return row.map(ItemDetails.init(row:))
  }

  init(row: Row) {
    func text(_ column: Column) -> AttributeValue? {
      (row[column] as String?).map(AttributeValue.string)
    }
    func date(_ column: Column) -> AttributeValue? {
      (row[column] as Double?).map { .date(Date(timeIntervalSince1970: $0)) }
    }
    func number(_ column: Column) -> AttributeValue? {
      (row[column] as Double?).map(AttributeValue.number)
    }
    func list(_ column: Column) -> AttributeValue? {
      let values = IndexWriter.strings(inJSON: row[column])
      return values.isEmpty ? nil : .strings(values)
    }
    func words(_ column: Column) -> AttributeValue? {
      let values = (row[column] as String? ?? "").split(separator: " ").map(String.init)
      return values.isEmpty ? nil : .strings(values)
    }
    let path = (row[ItemTable.path] as Data?).map { RawPath(bytes: Array($0)).string }
    fields = [
      ("id", (row[ItemTable.localID] as String?).map(AttributeValue.string) ?? text(ItemTable.id)),
      ("domain", text(ItemTable.domain)), ("uri", text(ItemTable.uri)),
      ("path", path.map(AttributeValue.string)), ("displayName", text(ItemTable.displayName)),
      ("title", text(ItemTable.title)), ("contentType", text(ItemTable.contentType)),
      ("contentTypeTree", words(Column("contentTypeTree"))), ("kind", text(ItemTable.kind)),
      ("kindClasses", words(ItemTable.kindClasses)), ("keywords", list(ItemTable.keywords)),
      ("authors", list(ItemTable.authors)), ("contentDescription", text(Column("description"))),
      ("thumbnailPath", text(ItemTable.thumbnailPath)), ("size", number(ItemTable.size)),
      ("contentCreationDate", date(ItemTable.created)),
      ("contentModificationDate", date(ItemTable.modified)),
      ("lastUsedDate", date(ItemTable.lastUsed)), ("addedDate", date(ItemTable.added)),
      ("useCount", number(ItemTable.useCount)), ("expirationDate", date(ItemTable.expirationDate)),
      ("hidden", (row[ItemTable.hidden] as Bool?).map { .string($0 ? "yes" : "no") }),
      ("generation", number(ItemTable.generation)),
      ("extractionError", text(ItemTable.extractionError)),
    ]
    // Type-specific attributes, by name.
    if let json = row[ItemTable.customAttributes] as String?, let data = json.data(using: .utf8),
      let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any]
    {
      for name in object.keys.sorted() {
        switch object[name] {
        case let text as String: fields.append((name, .string(text)))
        case let texts as [String]: fields.append((name, .strings(texts)))
        case let number as NSNumber: fields.append((name, .number(number.doubleValue)))
        default: break
        }
      }
    }
  }
}

extension IndexStore {
  /// Every attribute of the item a path, URI or id names; nil when there is none.
  public func details(of key: ItemDetails.Key) throws -> ItemDetails? {
    try read { db in try ItemDetails.fetch(db, key: key) }
  }
}
