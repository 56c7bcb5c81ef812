import Foundation
import GRDB
import LimelightModel
import LimelightPlatform
import LimelightQuery

/// Runs queries against the index.
public struct SearchEngine: Sendable {
  public let store: IndexStore

  public init(store: IndexStore) { self.store = store }

  /// The best matches first; `limit` nil for all of them. `typos`: a word
  /// that matches nothing is read as a typo (false: the words as typed).
  public func search(_ query: QueryNode, limit: Int? = nil, typos: Bool = true) throws
    -> [SearchResult]
  {
    try searchAsRun(query, limit: limit, typos: typos).results
  }

  /// The best matches first, and the query as it ran (typos replaced by the
  /// words they stand for), which snippets are cut for.
  public func searchAsRun(_ query: QueryNode, limit: Int? = nil, typos: Bool = true) throws -> (
    results: [SearchResult], query: QueryNode
  ) {
    try store.read { db in
      try TextsRead.during { try searchAsRun(query, limit: limit, typos: typos, in: db) }
    }
  }

  private func searchAsRun(_ query: QueryNode, limit: Int?, typos: Bool, in db: Database) throws
    -> (results: [SearchResult], query: QueryNode)
  {
    let expanded = typos ? try TypoExpander(db: db).expand(query) : query
    if expanded == .nothing { return ([], expanded) }
    let typeIDs = try FilterNarrowing.typeIDs(of: Self.filters(of: expanded), in: db)
    let run = SearchRun(
      db: db, limit: limit, rankBandSplit: rankBandSplit, inOrderLimit: inOrderLimit,
      inOrderStretch: inOrderStretch)
    // Enough found: the next tier's crowding is not even asked (a
    // one-letter prefix's count merges the lists of every word it starts).
    // Only filters alone walk `item_order`: a text's query never asks.
    let ordered = try Self.rankedText(expanded) != nil || Self.holdsFilterOrder(db)
    for pass in plan(expanded, typeIDs: typeIDs, ordered: ordered) where !run.isDone {
      try run.run(pass)
    }
    return (run.results, expanded)
  }

  /// `LIMELIGHT_TRACE_SQL=1`: each statement of a search, its time and rows, on standard error.
  static let trace = getenv("LIMELIGHT_TRACE_SQL").map { String(cString: $0) == "1" } ?? false

  /// One line of that trace: the time since `started`, what came of it, and what ran.
  static func traceLine(since started: Date, _ outcome: String, _ what: String) {
    let ms = String(format: "%.1f", Date().timeIntervalSince(started) * 1000)
    FileHandle.standardError.write(Data("[\(ms) ms, \(outcome)] \(what)\n".utf8))
  }

  /// How many items match.
  public func count(_ query: QueryNode) throws -> Int {
    try store.read { db in
      let expanded = try TypoExpander(db: db).expand(query)
      let (sql, arguments) = countStatement(
        expanded, typeIDs: try FilterNarrowing.typeIDs(of: Self.filters(of: expanded), in: db))
      return try TextsRead.during {
        try Int.fetchOne(db, sql: sql, arguments: StatementArguments(arguments)) ?? 0
      }
    }
  }

  /// Whether the index holds `item_order`, which a first crawl's names
  /// pass goes without (``Schema/deferredIndexes``): a statement that
  /// names a missing index fails.
  static func holdsFilterOrder(_ db: Database) throws -> Bool {
    try Bool.fetchOne(
      db.cachedStatement(
        sql: "SELECT EXISTS (SELECT 1 FROM sqlite_schema WHERE type = 'index' AND name = ?)"),
      arguments: ["item_order"]) == true
  }

  /// The text a query's items are ranked by, nil for filters alone.
  static func rankedText(_ query: QueryNode) -> QueryNode? {
    positiveText(query).flatMap { SQLCompiler.ftsExpression($0) == nil ? nil : $0 }
  }

  /// The parts ANDed at the top of a query.
  static func parts(of query: QueryNode) -> [QueryNode] {
    if case .and(let all) = query { return all }
    return [query]
  }

  /// The text that must match, ANDed at the top of the query (what FTS can rank).
  static func positiveText(_ query: QueryNode) -> QueryNode? {
    let text = parts(of: query).filter { SQLCompiler.ftsExpression($0) != nil }
    if text.isEmpty { return nil }
    return text.count == 1 ? text[0] : .and(text)
  }

  /// Whether every word of a text is asked of a column the name index
  /// holds (name, keywords or path), none of the content.
  static func inNameColumnsAlone(_ text: QueryNode) -> Bool {
    switch text {
    case .text(_, _, let column?): column != .content
    case .and(let parts), .or(let parts): parts.allSatisfy(inNameColumnsAlone)
    default: false
    }
  }

  /// Whether a text is words ANDed (no alternative, no exclusion): every
  /// text its match finds holds each of its phrases, which the ranking then
  /// only counts.
  static func isConjunction(_ text: QueryNode) -> Bool {
    switch text {
    case .text: true
    case .and(let parts): parts.allSatisfy(isConjunction)
    default: false
    }
  }

  /// Above this many names matching a tier's words, the tier lists them
  /// rank band by rank band instead of ranking every match (a sort of a
  /// few microseconds a row, after reading it; the bands stop at the
  /// results asked for).
  var rankedNameLimit = 5_000
  /// Above this many matches in a coarse rank band, a crowded tier reads it
  /// fine band by fine band.
  var rankBandSplit = 2_000

  /// Whether filters narrow the words' matches inside the full-text
  /// indexes (``FilterNarrowing``); off, they are checked on each match alone.
  var narrowsByFilters = true

  /// Whether a phrase's pairs of common words narrow its match in the text
  /// index (``SQLCompiler/commonWordPairs(_:exact:)``); off, its words alone.
  var pairsCommonWords = true

  /// At most this many items holding the filters' terms are read first, and
  /// the texts that match the words looked for among them, when the words
  /// are in many texts (an ephemeral index of their rows: a few milliseconds;
  /// `.txt` names a million entries give 14,000 of, and walking the texts
  /// of two common words for them instead took 100 ms a tier; 57,000
  /// images for `gz type:image/*`, 12 ms, where reading the rows of the
  /// texts holding `gz` took 190).
  var fewFilteredLimit = 100_000

  /// Above this many texts matching the words, their matches are listed newest
  /// first instead of by BM25 (`limelight_rank`, which reads only which
  /// columns hold each word: a few microseconds a row).
  var rankedTextLimit = 3_000
  /// The same for a phrase, whose candidates are checked after they are
  /// ranked: a phrase of common words is in most of its candidates
  /// (`"is distributed in the hope"`, 2,773 texts of the corpus, every one
  /// ranked took 39 ms), and the newest of them are as good an answer as
  /// any order of texts that hold it alike.
  var rankedPhraseLimit = 1_000

  /// Filters alone read at most this many items in their order (stretches
  /// of growing size) before they list every item that passes instead (a
  /// filter few items pass: `size:>1G`, or whose items cluster at the end of
  /// the order). Reading one costs about a microsecond.
  var inOrderLimit = 10_000
  /// The first stretch filters alone read, in items for each result asked for.
  var inOrderStretch = 10
  /// Filters alone whose terms are in at most this many items list those
  /// items sorted when the first items in order are not enough (a
  /// microsecond or so an item: 17,000 images of 300,000 entries in 12 ms,
  /// where walking the order for the few of them a second filter passes
  /// took 48); above it, stretches of them in order come first.
  var sortedFiltersLimit = 50_000

}
