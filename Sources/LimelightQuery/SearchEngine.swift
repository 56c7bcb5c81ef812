import Foundation
import GRDB
import LimelightModel
import LimelightStore

/// One item found by a query.
public struct SearchResult: Sendable {
  public var rowID: Int64
  public var id: String
  public var domain: String
  public var uri: String
  public var path: RawPath?
  public var displayName: String
  public var contentType: String?
  public var kind: String?
  public var modified: Date?
  public var size: Int64?
  public var isFolder: Bool
  /// Lower is better: the rank that ordered the results.
  public var score: Double
}

/// Runs queries against the index.
public struct SearchEngine: Sendable {
  public let store: IndexStore

  public init(store: IndexStore) { self.store = store }

  /// The best matches first; `limit` nil for all of them.
  public func search(_ query: QueryNode, limit: Int? = nil) throws -> [SearchResult] {
    try store.read { db in
      let (sql, arguments) = build(
        try TypoExpander(db: db).expand(query), counting: false, limit: limit)
      return try Row.fetchAll(db, sql: sql, arguments: StatementArguments(arguments)).map(
        Self.result)
    }
  }

  /// How many items match.
  public func count(_ query: QueryNode) throws -> Int {
    try store.read { db in
      let (sql, arguments) = build(
        try TypoExpander(db: db).expand(query), counting: true, limit: nil)
      return try Int.fetchOne(db, sql: sql, arguments: StatementArguments(arguments)) ?? 0
    }
  }

  /// Items removed after a generation: (id, uri) pairs, for `--live` followers.
  public func removals(after generation: Int64) throws -> [(id: String, uri: String)] {
    try store.read { db in
      try Row.fetchAll(
        db, sql: "SELECT id, uri FROM removal WHERE generation > ? ORDER BY generation",
        arguments: [generation]
      ).map { (id: $0["id"], uri: $0["uri"]) }
    }
  }

  /// Of these ids, the ones whose items still exist.
  public func existing(ids: [String]) throws -> Set<String> {
    guard !ids.isEmpty else { return [] }
    return try store.read { db in
      var found: Set<String> = []
      for chunk in stride(from: 0, to: ids.count, by: 500) {
        let slice = Array(ids[chunk..<min(chunk + 500, ids.count)])
        let marks = Array(repeating: "?", count: slice.count).joined(separator: ",")
        found.formUnion(
          try String.fetchAll(
            db, sql: "SELECT id FROM item WHERE id IN (\(marks))",
            arguments: StatementArguments(slice)))
      }
      return found
    }
  }

  /// The query as it runs: words that match nothing replaced by their near misses.
  public func expanded(_ query: QueryNode) throws -> QueryNode {
    try store.read { db in try TypoExpander(db: db).expand(query) }
  }

  /// A fragment of the item's text around the match, the matched words between
  /// `open` and `close`, or nil when the match is not in the text.
  public func snippet(for result: SearchResult, query: QueryNode, open: String, close: String)
    -> String?
  {
    guard let expression = SQLCompiler.ftsExpression(Self.positiveText(query) ?? .nothing) else {
      return nil
    }
    let text = try? store.read { db in
      try String.fetchOne(
        db,
        sql: """
          SELECT snippet(item_text, 3, ?, ?, '…', 16) FROM item_text
          WHERE item_text MATCH ? AND rowid = ?
          """, arguments: [open, close, expression, result.rowID])
    }
    guard let text, text.contains(open) else { return nil }
    return text.split(whereSeparator: \.isNewline).joined(separator: " ")
  }

  /// The text that must match, ANDed at the top of the query (what FTS can rank).
  static func positiveText(_ query: QueryNode) -> QueryNode? {
    let parts: [QueryNode]
    if case .and(let all) = query { parts = all } else { parts = [query] }
    let text = parts.filter { SQLCompiler.ftsExpression($0) != nil }
    if text.isEmpty { return nil }
    return text.count == 1 ? text[0] : .and(text)
  }

  func build(_ query: QueryNode, counting: Bool, limit: Int?) -> (
    String, [any DatabaseValueConvertible]
  ) {
    let parts: [QueryNode]
    if case .and(let all) = query { parts = all } else { parts = [query] }
    let text = Self.positiveText(query)
    var compiler = SQLCompiler()
    var sql: String
    var joinArguments: [any DatabaseValueConvertible] = []
    let columns = """
      item.rowid, item.id, item.domain, item.uri, item.path, item.displayName, item.contentType,
      item.kind, item.modified, item.size, item.isFolder
      """
    if let text, let fts = SQLCompiler.ftsExpression(text) {
      if counting {
        sql = "SELECT count(*) FROM item_text JOIN item ON item.rowid = item_text.rowid"
      } else {
        // Where it matched: the name, then keywords, then the path (all three
        // answered by the small name index), then the text. Name-like matches
        // rank by exactness and name length (what BM25 amounts to on a short
        // field); only text matches pay for BM25 over the whole index.
        var tier = "3"
        var exact = "0"
        var score = "bm25(item_text, 10.0, 6.0, 2.0, 1.0)"
        if SQLCompiler.fitsNames(text) {
          let inNames = "item.rowid IN (SELECT rowid FROM item_name WHERE item_name MATCH ?)"
          tier =
            "CASE WHEN \(inNames) THEN 0 WHEN \(inNames) THEN 1 WHEN \(inNames) THEN 2 ELSE 3 END"
          joinArguments += [
            SQLCompiler.ftsExpression(text, within: "name") ?? fts,
            SQLCompiler.ftsExpression(text, within: "{name keywords}") ?? fts, fts,
          ]
          if SQLCompiler.hasPrefix(text) {
            exact = inNames
            joinArguments.append(
              SQLCompiler.ftsExpression(text, within: "name", exact: true) ?? fts)
          }
          score =
            "CASE WHEN \(inNames) THEN -10.0 / (1.0 + length(item.displayName) / 10.0) ELSE \(score) END"
          joinArguments.append(fts)
        }
        sql = """
          SELECT \(columns), \(tier) AS tier, \(exact) AS exact, \(score) AS score
          FROM item_text JOIN item ON item.rowid = item_text.rowid
          """
      }
      sql += " WHERE item_text MATCH ?"
      joinArguments.append(fts)
    } else {
      sql =
        counting
        ? "SELECT count(*) FROM item WHERE 1"
        : "SELECT \(columns), 1 AS tier, 0 AS exact, 0.0 AS score FROM item WHERE 1"
    }
    let rest = parts.filter { SQLCompiler.ftsExpression($0) == nil }
    for part in rest { sql += " AND " + compiler.condition(part) }
    sql += " AND (item.expirationDate IS NULL OR item.expirationDate > ?)"
    compiler.arguments.append(Date().timeIntervalSince1970)
    if !counting {
      sql +=
        " ORDER BY item.hidden, tier, exact DESC, score + item.depth * 0.05 - min(item.useCount, 20) * 0.5"
        + " - (item.modified > ?) * 0.5, item.modified DESC, item.displayName, item.rowid"
      // Recently modified items (the last week) rank a little higher.
      compiler.arguments.append(Date().timeIntervalSince1970 - 7 * 86_400)
      if let limit { sql += " LIMIT \(max(0, limit))" }
    }
    return (sql, joinArguments + compiler.arguments)
  }

  static func result(_ row: Row) -> SearchResult {
    let pathData: Data? = row["path"]
    return SearchResult(
      rowID: row["rowid"], id: row["id"], domain: row["domain"], uri: row["uri"],
      path: pathData.map { RawPath(bytes: Array($0)) }, displayName: row["displayName"],
      contentType: row["contentType"], kind: row["kind"],
      modified: (row["modified"] as Double?).map { Date(timeIntervalSince1970: $0) },
      size: row["size"], isFolder: row["isFolder"], score: row["score"])
  }
}
