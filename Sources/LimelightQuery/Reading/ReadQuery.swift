import Foundation
import LimelightModel

/// A query as a person typed it, read: what every front end searches.
///
/// `find-in`, the picker, the desktop's providers, the library's
/// `SearchQuery` and the shared store all search ``node`` the same way
/// (``ReadingSearch``): names that hold the typed words first
/// (``literal``), then the reading; when nothing holds every word, what
/// holds most of them.
public struct ReadQuery: Equatable, Sendable {
  /// What was typed.
  public var typed: String
  /// The reading, in the filter language (what `--explain` prints).
  public var line: String
  /// The reading as a query.
  public var node: QueryNode
  /// The typed words in paths (names and their folders), when the reading
  /// has filters: a file named `yesterday.txt` is still found by "yesterday".
  public var literal: QueryNode?
  /// Words that carry no meaning, left out.
  public var ignored: [String]
  /// Whether the largest come first (`sort:size`, "big videos").
  public var largestFirst: Bool

  /// Words a query holds besides what it filters by, at least, to be a
  /// sentence: a description rather than a search with filters ("pdfs
  /// from last week" and "photos of the holiday in Rome" hold none or
  /// two, "keep records in a small embedded database file without a
  /// server" six). A sentence's kinds, sizes and people are words of it
  /// (of the 65 descriptions of `benchmarks/meaning.py`, 20 read as
  /// filters that kept out the documents they described); its words but
  /// the last were typed whole; and they are in any long text, so that
  /// its matches in texts alone are poor ones.
  public static let sentenceWords = 4

  /// Everything the query finds, in one node: for counting and following.
  public var everything: QueryNode { literal.map { .or([$0, node]) } ?? node }

  /// The words of ``node`` a result must all hold (its top-level words),
  /// each with how it was typed; the other top-level parts are its filters.
  public var parts: (words: [(text: String, node: QueryNode)], filters: [QueryNode]) {
    let top: [QueryNode]
    if case .and(let all) = node { top = all } else { top = [node] }
    var words: [(String, QueryNode)] = []
    var filters: [QueryNode] = []
    for part in top {
      if case .text(let text, _, nil) = part {
        words.append((text, part))
      } else {
        filters.append(part)
      }
    }
    return (words, filters)
  }
}

extension QueryParser {
  /// Reads a query in a person's words (``PhraseReader``) and parses the
  /// reading; a query in the filter or the predicate language is read as
  /// itself.
  public mutating func read(_ query: String) throws(QueryError) -> ReadQuery {
    if PredicateParser.looksLikePredicate(query) {
      let node = try parsePredicate(query)
      return ReadQuery(
        typed: query, line: query, node: node, literal: nil, ignored: [], largestFirst: false)
    }
    let reading = try PhraseReader(now: now, calendar: calendar).read(query)
    let line = reading.isRead ? reading.line : query
    let node = Self.wholeButTheLast(try parse(line))
    let largest = largestFirst
    var literal: QueryNode?
    // Only a reading with filters can leave out a name holding every typed
    // word: words left out alone give a superset of those names.
    if reading.isRead && !reading.filters.isEmpty {
      // Each typed word in the path (which ends with the name): a file
      // named so, or in a folder named so (`Documents/report.csv` for
      // "documents report"), as the words found it before they were read.
      var parts: [QueryNode] = []
      for token in PhraseReader.rawTokens(query) {
        if PhraseReader.isSyntax(token) {
          parts.append(try parse(token))
        } else {
          parts.append(QueryParser.textNode(token, prefix: true, column: .path))
        }
      }
      let node = QueryParser.simplify(.and(parts))
      literal = node == .and([]) ? nil : node
    }
    return ReadQuery(
      typed: query, line: line, node: node, literal: literal, ignored: reading.ignored,
      largestFirst: largest)
  }
}

extension QueryParser {
  /// A sentence's words (``ReadQuery/sentenceWords``) but the last, as
  /// typed whole: a person types a sentence a word at a time. As prefixes,
  /// every word of a description was looked for as the start of terms
  /// longer than the text index's prefixes (four letters): 30 to 50 ms of
  /// a seven-word description over 355,000 entries.
  static func wholeButTheLast(_ node: QueryNode) -> QueryNode {
    guard case .and(let parts) = node else { return node }
    let words = parts.indices.filter { index in
      if case .text(_, _, nil) = parts[index] { return true }
      return false
    }
    guard words.count >= ReadQuery.sentenceWords, let last = words.last else { return node }
    return .and(
      parts.enumerated().map { index, part in
        guard index != last, case .text(let text, true, nil) = part else { return part }
        return .text(text, prefix: false, column: nil)
      })
  }
}

/// One search of a read query over any store: names holding the typed
/// words first, the reading next; when nothing holds every word, results
/// that hold most of them, ranked by how many, each saying the words it
/// lacks; the largest first when asked. The store is a function: the
/// local index and the shared store search alike.
public struct ReadingSearch<Result> {
  /// A store's search: the best results for a query, at most a number of
  /// them, typos forgiven or (false) the words as typed: a name holding
  /// the typed words is found as they were typed.
  public var search: (QueryNode, Int?, Bool) throws -> [Result]
  /// What tells two results apart (their URI).
  public var key: (Result) -> String
  /// A result's size in bytes, for the largest first.
  public var size: (Result) -> Int64?
  /// Whether a query finds anything, typos forgiven, when the store tells
  /// it cheaper than a search of one result (nil: such a search). Asked of
  /// each word of a query nothing holds whole.
  public var holds: ((QueryNode) throws -> Bool)?

  /// The most words looked at for partial matches, and the most searches
  /// run for them.
  static var mostWords: Int { 6 }
  static var mostSearches: Int { 24 }
  /// The most results read to put the largest first.
  public static var largestFirstWindow: Int { 5_000 }

  public init(
    search: @escaping (QueryNode, Int?, Bool) throws -> [Result],
    key: @escaping (Result) -> String,
    size: @escaping (Result) -> Int64?,
    holds: ((QueryNode) throws -> Bool)? = nil
  ) {
    self.search = search
    self.key = key
    self.size = size
    self.holds = holds
  }

  /// The results, best first, at most `limit`, each with the words of the
  /// query it does not hold (none when it holds them all).
  public func run(_ query: ReadQuery, limit: Int?) throws -> [(result: Result, unmatched: [String])]
  {
    var found: [(result: Result, unmatched: [String])] = []
    var seen = Set<String>()
    let asked = query.largestFirst ? Self.largestFirstWindow : limit
    func add(_ results: [Result], unmatched: [String]) {
      for result in results where seen.insert(key(result)).inserted {
        found.append((result, unmatched))
      }
    }
    func remaining() -> Int? { asked.map { max(0, $0 - found.count) } }
    if let literal = query.literal { add(try search(literal, asked, false), unmatched: []) }
    if remaining() != 0 { add(try search(query.node, remaining(), true), unmatched: []) }
    if found.isEmpty { try relax(query, add: add, remaining: remaining) }
    if query.largestFirst {
      found.sort { (size($0.result) ?? -1) > (size($1.result) ?? -1) }
      if let limit { found = Array(found.prefix(limit)) }
    }
    return found
  }

  /// Nothing holds every word: the words no item holds (with the filters)
  /// are left out, then items holding most of the others come, those
  /// holding more first.
  private func relax(
    _ query: ReadQuery, add: ([Result], [String]) -> Void, remaining: () -> Int?
  ) throws {
    let (words, filters) = query.parts
    guard words.count >= 2, words.count <= Self.mostWords else { return }
    var searches = 0
    // The query of the words kept with the filters, one search more.
    func counted(_ kept: [(text: String, node: QueryNode)]) -> QueryNode {
      searches += 1
      return QueryParser.simplify(.and(filters + kept.map(\.node)))
    }
    func run(_ kept: [(text: String, node: QueryNode)], limit: Int?) throws -> [Result] {
      try search(counted(kept), limit, true)
    }
    func finds(_ word: (text: String, node: QueryNode)) throws -> Bool {
      let alone = counted([word])
      return try holds.map { try $0(alone) } ?? !search(alone, 1, true).isEmpty
    }
    let matching = try words.filter(finds)
    let missing = words.filter { word in !matching.contains { $0.text == word.text } }.map(\.text)
    guard !matching.isEmpty else { return }
    var size = matching.count
    while size >= 1 && remaining() != 0 && searches < Self.mostSearches {
      // A subset of the same size as the query was searched already.
      if size < words.count {
        for kept in Self.subsets(of: matching, size: size) {
          guard remaining() != 0, searches < Self.mostSearches else { break }
          let lacking =
            missing + matching.filter { m in !kept.contains { $0.text == m.text } }.map(\.text)
          add(try run(kept, limit: remaining()), lacking)
        }
      }
      size -= 1
    }
  }

  /// The subsets of `size` elements, in the order of the elements.
  static func subsets<T>(of elements: [T], size: Int) -> [[T]] {
    guard size > 0 else { return [[]] }
    guard elements.count >= size else { return [] }
    if elements.count == size { return [elements] }
    let first = elements[0]
    let rest = Array(elements.dropFirst())
    return subsets(of: rest, size: size - 1).map { [first] + $0 } + subsets(of: rest, size: size)
  }
}
