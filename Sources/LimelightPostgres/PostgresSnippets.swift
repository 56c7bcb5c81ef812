import Foundation
import LimelightModel
import LimelightPlatform
import LimelightQuery

extension PostgresIndex {
  /// The words a snippet is cut around: ``snippets(for:query:open:close:)``
  /// shows this many of a text at most.
  static let snippetWords = 16

  /// For the hits whose text holds one of the words `query` looks for in
  /// texts (not under a NOT), a snippet by their URI: the words around the
  /// first such word, those that match between `open` and `close`, "…"
  /// where the text goes on. The store keeps a text's words, not the text:
  /// a snippet is its words, lower case, one space between.
  public func snippets(for hits: [Hit], query: QueryNode, open: String, close: String)
    throws(PostgresError) -> [String: String]
  {
    let words = Self.textWords(query)
    guard !hits.isEmpty, !words.isEmpty else { return [:] }
    // Each word as the store's text (one space between words, one added
    // at either end) holds it: a whole word between spaces, a prefix
    // after one.
    let patterns = words.map { " " + $0.word + ($0.prefix ? "" : " ") }
    let rows = try connection.execute(
      """
      SELECT host, encode(path, 'hex'), domain, p, substr(t, greatest(1, p - $4::int), $5::int)
      FROM item, LATERAL (SELECT ' ' || \(PostgresQuery.text) || ' ' AS t) AS s,
        LATERAL (SELECT min(nullif(strpos(s.t, w), 0)) AS p FROM unnest($3::text[]) AS w) AS x
      WHERE (host, path) IN (SELECT * FROM unnest($1::text[], $2::bytea[])) AND p IS NOT NULL
      """,
      [
        PostgresQuery.array(hits.map(\.host)),
        PostgresQuery.array(hits.map { PostgresQuery.hex($0.path.bytes) }),
        PostgresQuery.array(patterns), String(Self.snippetBefore),
        String(Self.snippetCharacters),
      ])
    var snippets: [String: String] = [:]
    for row in rows.rows {
      guard let start = row[3].flatMap({ Int($0) }), let text = row[4] else { continue }
      let uri = Self.uri(
        host: row[0] ?? "", path: RawPath(bytes: Self.bytes(fromHex: row[1] ?? "")),
        domain: row[2])
      let cutBefore = start - Self.snippetBefore > 1
      let cutAfter = text.unicodeScalars.count >= Self.snippetCharacters
      snippets[uri] = Self.snippet(
        of: text, cutBefore: cutBefore, cutAfter: cutAfter, words: words, open: open,
        close: close)
    }
    return snippets
  }

  /// Characters of the text read before the first word found, and in all.
  static let snippetBefore = 120
  static let snippetCharacters = 400

  /// A piece of a store's text cut into a snippet: its partial words at
  /// cut ends dropped, at most ``snippetWords`` from a few before the first
  /// that matches.
  static func snippet(
    of text: String, cutBefore: Bool, cutAfter: Bool, words: [(word: String, prefix: Bool)],
    open: String, close: String
  ) -> String? {
    var pieces = text.split(separator: " ", omittingEmptySubsequences: false)
    if cutBefore, !pieces.isEmpty { pieces.removeFirst() }
    if cutAfter, !pieces.isEmpty { pieces.removeLast() }
    pieces.removeAll { $0.isEmpty }
    let matches = { (piece: Substring) in
      words.contains { $0.prefix ? piece.hasPrefix($0.word) : piece == $0.word }
    }
    guard let first = pieces.firstIndex(where: matches) else { return nil }
    let from = max(0, first - 4)
    let to = min(pieces.count, from + snippetWords)
    let shown = pieces[from..<to].map { matches($0) ? open + $0 + close : String($0) }
    let before = cutBefore || from > 0 ? "…" : ""
    let after = cutAfter || to < pieces.count ? "…" : ""
    return before + shown.joined(separator: " ") + after
  }

  /// The words a query looks for in texts, as the store folds them (the
  /// last of a prefix text a prefix): its texts not under a NOT, of any
  /// column but the name's, keywords' and path's.
  static func textWords(_ node: QueryNode) -> [(word: String, prefix: Bool)] {
    switch node {
    case .text(let text, let prefix, let column):
      guard column == nil || column == .content else { return [] }
      let words = PostgresWords.words(text)
      return words.enumerated().map { ($1, prefix && $0 == words.count - 1) }
    case .and(let nodes), .or(let nodes): return nodes.flatMap(textWords)
    case .not, .filter, .nothing: return []
    }
  }
}
