import Foundation
import LimelightMeaning
import LimelightQuery
import LimelightStore

#if canImport(Glibc)
  import Glibc
#endif

/// This host's index as a ``SearchBackend``.
public final class LocalBackend: SearchBackend {
  public let store: IndexStore
  let engine: SearchEngine

  public init(store: IndexStore) {
    self.store = store
    engine = SearchEngine(store: store)
  }

  public func search(_ query: ReadQuery, limit: Int?) throws -> FoundResults {
    // The reading as it ran (its typos read) makes the snippets.
    var ran = query.node
    let search = ReadingSearch<SearchResult>(
      search: { [engine] node, limit, typos in
        let (results, asRun) = try engine.searchAsRun(node, limit: limit, typos: typos)
        if node == query.node { ran = asRun }
        return results
      }, key: \.uri, size: \.size)
    let results = try search.results(query, limit: limit)
    return FoundResults(results: results, ran: ran)
  }

  public func snippets(for results: [SearchResult], query: QueryNode) throws -> [String: String] {
    var snippets: [String: String] = [:]
    for result in results {
      snippets[result.uri] = engine.snippet(
        for: result, query: query, open: "\u{1}", close: "\u{2}")
    }
    return snippets
  }

  public func count(_ query: QueryNode) throws -> Int { try engine.count(query) }

  public func result(uri: String) throws -> SearchResult? { try engine.result(uri: uri) }

  public func nearest(
    to query: MeaningQuery, filteredBy filters: QueryNode, limit: Int
  ) throws -> [SearchResult] {
    try engine.meaningMatches(
      query.vector, words: query.words, ordinary: query.ordinary, selection: query.selection,
      centring: query.centring, filters: filters, limit: limit, readAhead: query.readAhead
    ).map(MeaningSearch.markedAsMeaning)
  }

  /// The rows holding the words' stems (8 to 10 ms of a description's
  /// meaning search over 355,000 entries), read while the model makes its
  /// meaning (15 to 20 ms on one core).
  public func readAheadForMeaning(of words: [String]) throws -> StemRows? {
    try engine.stemRows(of: words)
  }

  public func buildingNote() -> String? { store.buildingNote() }

  public func lastChange() throws -> Int64 { try store.generation() }

  /// The watcher writing on the same machine tells nothing: the
  /// generation is looked at five times a second.
  public func waitForChange(timeout: Double) throws {
    usleep(UInt32(min(timeout, 0.2) * 1_000_000))
  }

  public func changes(after seen: Int64, matching query: QueryNode) throws -> (
    matching: [SearchResult], touched: [String]
  ) {
    let matching = try engine.search(.and([query, .filter(.changedAfter(generation: seen))]))
    let touched = try engine.removals(after: seen).map(\.id) + engine.changedIDs(after: seen)
    return (matching, touched)
  }
}
