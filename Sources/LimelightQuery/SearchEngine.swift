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
      let expanded = try TypoExpander(db: db).expand(query)
      var results: [SearchResult] = []
      for pass in plan(expanded) {
        let remaining = limit.map { $0 - results.count }
        if let remaining, remaining <= 0 { break }
        var (sql, arguments) = pass.statement
        // Whether the words as typed, whole, are in that many texts (whole words
        // are one lookup each; their prefixes would merge many).
        if let crowded = pass.whenCrowded,
          try Int.fetchOne(
            db,
            sql:
              "SELECT count(*) FROM (SELECT rowid FROM item_text WHERE item_text MATCH ? LIMIT ?)",
            arguments: [crowded.match, Self.rankedTextLimit + 1]) ?? 0 > Self.rankedTextLimit
        {
          (sql, arguments) = crowded.statement
        }
        let rows = try Row.fetchAll(
          db, sql: sql + (remaining.map { " LIMIT \($0)" } ?? ""),
          arguments: StatementArguments(arguments))
        results += rows.map(Self.result)
      }
      return results
    }
  }

  /// How many items match.
  public func count(_ query: QueryNode) throws -> Int {
    try store.read { db in
      let (sql, arguments) = countStatement(try TypoExpander(db: db).expand(query))
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

  /// One SQL statement and its arguments.
  typealias Statement = (sql: String, arguments: [any DatabaseValueConvertible])

  /// One step of a search: a statement that lists results in order, and, for
  /// text matches, the statement used instead when the words are in more than
  /// ``rankedTextLimit`` texts.
  struct Pass {
    var statement: Statement
    var whenCrowded: (match: String, statement: Statement)?
  }

  /// Above this many texts holding the words, their matches are listed newest
  /// first instead of by BM25, which would cost milliseconds per thousand.
  static let rankedTextLimit = 20_000

  static let columns = """
    item.rowid, item.id, item.domain, item.uri, item.path, item.displayName, item.contentType,
    item.kind, item.modified, item.size, item.isFolder
    """

  /// Within a tier: the shorter name (names, keywords, paths) or BM25 (text),
  /// then opened often, changed in the last week, shallow; ties broken for good.
  static let order =
    " score + item.depth * 0.05 - min(item.useCount, 20) * 0.5 - (item.modified > ?) * 0.5,"
    + " item.modified DESC, item.displayName, item.rowid"
  /// A name match scores by the length of the name without its extension
  /// (the closer the words cover it, the better: BM25 on a short field), files
  /// a little ahead of folders of the same name.
  static let nameScore = """
    -10.0 / (1.0 + (CASE WHEN instr(item.displayName, '.') > 1
      THEN length(rtrim(item.displayName, '\(extensionCharacters)')) - 1
      ELSE length(item.displayName) END) / 10.0) + item.isFolder * 0.3
    """
  static let extensionCharacters = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"

  /// The statements that list the results, best first, run in turn until
  /// enough results are found (each gets a `LIMIT` for what is still missing).
  /// Queries whose words all fit the name index run tier by tier (name,
  /// keywords, path, text; hidden items after the others), so a common word
  /// stops after the names it matches instead of ranking every text that holds
  /// it; the rest run as one statement.
  func plan(_ query: QueryNode) -> [Pass] {
    let parts: [QueryNode]
    if case .and(let all) = query { parts = all } else { parts = [query] }
    var filters = SQLCompiler()
    var conditions = ""
    for part in parts where SQLCompiler.ftsExpression(part) == nil {
      conditions += " AND " + filters.condition(part)
    }
    conditions += " AND (item.expirationDate IS NULL OR item.expirationDate > ?)"
    let now = Date().timeIntervalSince1970
    filters.arguments.append(now)
    let tail: [any DatabaseValueConvertible] = [now - 7 * 86_400]
    guard let text = Self.positiveText(query), let fts = SQLCompiler.ftsExpression(text) else {
      return [
        Pass(
          statement: (
            "SELECT \(Self.columns), 0.0 AS score FROM item WHERE 1\(conditions)"
              + " ORDER BY item.hidden,\(Self.order)", filters.arguments + tail
          ))
      ]
    }
    let bm25 = "bm25(item_text, 10.0, 6.0, 2.0, 1.0)"
    guard SQLCompiler.fitsNames(text) else {
      let from =
        "FROM item_text JOIN item ON item.rowid = item_text.rowid WHERE item_text MATCH ?\(conditions)"
      return [
        Pass(
          statement: (
            "SELECT \(Self.columns), \(bm25) AS score \(from) ORDER BY item.hidden,\(Self.order)",
            [fts] + filters.arguments + tail
          ),
          whenCrowded: (
            SQLCompiler.ftsExpression(text, exact: true) ?? fts,
            (
              "SELECT \(Self.columns), 0.0 AS score \(from) ORDER BY item.hidden, item_text.rowid DESC",
              [fts] + filters.arguments
            )
          ))
      ]
    }
    // The tiers: what each matches, and the tier before it (whose items it leaves out).
    let tiers = [
      SQLCompiler.ftsExpression(text, within: "name") ?? fts,
      SQLCompiler.ftsExpression(text, within: "{name keywords}") ?? fts, fts,
    ]
    let exact =
      SQLCompiler.hasPrefix(text)
      ? SQLCompiler.ftsExpression(text, within: "name", exact: true) : nil
    let inNames = "item.rowid IN (SELECT rowid FROM item_name WHERE item_name MATCH ?)"
    var passes: [Pass] = []
    for hidden in [0, 1] {
      for (tier, match) in tiers.enumerated() {
        var sql = "SELECT \(Self.columns), \(Self.nameScore) AS score"
        var arguments: [any DatabaseValueConvertible] = []
        if tier == 0, let exact {
          sql += ", \(inNames) AS exact"
          arguments.append(exact)
        } else {
          sql += ", 0 AS exact"
        }
        sql += " FROM item_name JOIN item ON item.rowid = item_name.rowid WHERE item_name MATCH ?"
        arguments.append(match)
        if tier > 0 {
          sql += " AND NOT \(inNames)"
          arguments.append(tiers[tier - 1])
        }
        sql += " AND item.hidden = \(hidden)\(conditions) ORDER BY exact DESC,\(Self.order)"
        passes.append(Pass(statement: (sql, arguments + filters.arguments + tail)))
      }
      let from =
        "FROM item_text JOIN item ON item.rowid = item_text.rowid WHERE item_text MATCH ?"
        + " AND NOT \(inNames) AND item.hidden = \(hidden)\(conditions)"
      passes.append(
        Pass(
          statement: (
            "SELECT \(Self.columns), \(bm25) AS score \(from) ORDER BY\(Self.order)",
            [fts, fts] + filters.arguments + tail
          ),
          whenCrowded: (
            SQLCompiler.ftsExpression(text, exact: true) ?? fts,
            (
              "SELECT \(Self.columns), 0.0 AS score \(from) ORDER BY item_text.rowid DESC",
              [fts, fts] + filters.arguments
            )
          )))
    }
    return passes
  }

  /// The statement that counts the matches.
  func countStatement(_ query: QueryNode) -> Statement {
    let parts: [QueryNode]
    if case .and(let all) = query { parts = all } else { parts = [query] }
    var compiler = SQLCompiler()
    var sql = "SELECT count(*) FROM item WHERE 1"
    var arguments: [any DatabaseValueConvertible] = []
    if let text = Self.positiveText(query), let fts = SQLCompiler.ftsExpression(text) {
      sql =
        "SELECT count(*) FROM item_text JOIN item ON item.rowid = item_text.rowid"
        + " WHERE item_text MATCH ?"
      arguments.append(fts)
    }
    for part in parts where SQLCompiler.ftsExpression(part) == nil {
      sql += " AND " + compiler.condition(part)
    }
    sql += " AND (item.expirationDate IS NULL OR item.expirationDate > ?)"
    compiler.arguments.append(Date().timeIntervalSince1970)
    return (sql, arguments + compiler.arguments)
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
