import Foundation
import LimelightModel
import LimelightPlatform

extension PostgresIndex {
  /// Every attribute the store keeps of the entry `host` wrote at `path`,
  /// named as `limelight show` names the local index's (and `host`,
  /// `change`: the store's change number of its last write); nil when the
  /// store holds none, or none the reading role may see.
  public func details(host: String, path: RawPath) throws(PostgresError)
    -> [(name: String, value: AttributeValue?)]?
  {
    guard
      let row = try connection.execute(
        """
        SELECT name, folder, array_to_string(limelight_chain_types(type_chain), ' '),
          array_to_string(limelight_chain_kinds(type_chain), ' '), size, extract(epoch FROM modified), change,
          length(\(PostgresQuery.text)), title, kind, array_to_string(keywords, $3),
          array_to_string(authors, $3), \(PostgresQuery.description), extract(epoch FROM created),
          extract(epoch FROM last_used)
        FROM item WHERE host = $1 AND path = $2::bytea
        """, [host, PostgresQuery.hex(path.bytes), Self.listSeparator]
      ).rows.first
    else { return nil }
    func words(_ text: String?, between separator: String = " ") -> AttributeValue? {
      let values = (text ?? "").split(separator: separator).map(String.init)
      return values.isEmpty ? nil : .strings(values)
    }
    func list(_ text: String?) -> AttributeValue? { words(text, between: Self.listSeparator) }
    func date(_ text: String?) -> AttributeValue? {
      text.flatMap { Double($0) }.map { .date(Date(timeIntervalSince1970: $0)) }
    }
    let types = row[2].map { $0.split(separator: " ").map(String.init) } ?? []
    return [
      ("host", .string(host)), ("uri", .string(Self.uri(host: host, path: path))),
      ("path", .string(path.string)), ("displayName", row[0].map(AttributeValue.string)),
      ("title", row[8].map(AttributeValue.string)),
      ("contentType", types.first.map(AttributeValue.string)),
      ("contentTypeTree", words(row[2])), ("kind", row[9].map(AttributeValue.string)),
      ("kindClasses", words(row[3])), ("keywords", list(row[10])), ("authors", list(row[11])),
      ("contentDescription", row[12].map(AttributeValue.string)),
      ("folder", .string(row[1] == "t" ? "yes" : "no")),
      ("size", row[4].flatMap { Double($0) }.map(AttributeValue.number)),
      ("contentCreationDate", date(row[13])), ("contentModificationDate", date(row[5])),
      ("lastUsedDate", date(row[14])),
      ("textContentLength", row[7].flatMap { Double($0) }.map(AttributeValue.number)),
      ("change", row[6].flatMap { Double($0) }.map(AttributeValue.number)),
    ]
  }
}
