import LimelightPostgres
import LimelightQuery
import LimelightStore

/// A read query searched in the local index (``ReadingSearch``), keeping
/// the reading as it ran (its typos read) for the snippets of its results.
final class LocalReadingSearch {
  let engine: SearchEngine
  let query: ReadQuery
  /// The reading's query as it ran, once searched.
  private(set) var ran: QueryNode

  init(engine: SearchEngine, query: ReadQuery) {
    self.engine = engine
    self.query = query
    ran = query.node
  }

  /// The results, best first, each with the words it lacks.
  func results(limit: Int?) throws -> [SearchResult] {
    let search = ReadingSearch<SearchResult>(
      search: { [self] node, limit, typos in
        let (results, ran) = try engine.searchAsRun(node, limit: limit, typos: typos)
        if node == query.node { self.ran = ran }
        return results
      }, key: \.uri, size: \.size)
    return try search.results(query, limit: limit)
  }
}

/// A read query searched in a shared store, keeping each result's entry
/// for its snippet.
final class SharedReadingSearch {
  let index: PostgresIndex
  /// The store's entries of the results, by URI.
  private(set) var hits: [String: PostgresIndex.Hit] = [:]

  init(index: PostgresIndex) { self.index = index }

  /// The results, best first, each with the words it lacks.
  func results(_ query: ReadQuery, limit: Int?) throws -> [SearchResult] {
    let search = ReadingSearch<SearchResult>(
      search: { [self] node, limit, typos in
        let found = try index.search(node, limit: limit, typos: typos)
        for hit in found { hits[hit.uri] = hit }
        return found.map(SharedSearch.result)
      }, key: \.uri, size: \.size)
    return try search.results(query, limit: limit)
  }
}
