import LimelightMeaning
import LimelightModel
import LimelightQuery
import LimelightStore

/// Where a search runs: this host's index (``LocalBackend``) or a shared
/// PostgreSQL store (``StoreBackend``). Every front end (`find-in`, its
/// `--live` follower, the picker, the desktop's providers) searches through
/// one, chosen in one place (``SearchBackends``), so that both answer the
/// same calls with the same results, ranks and errors.
public protocol SearchBackend: AnyObject {
  /// The best results for a read query, at most `limit` (nil: all), each
  /// with the words it lacks, and the query as it ran.
  func search(_ query: ReadQuery, limit: Int?) throws -> FoundResults
  /// The snippets of results by URI: the words of the text around the
  /// first that `query` looks for, those that match between "\u{1}" and
  /// "\u{2}"; results without one are left out.
  func snippets(for results: [SearchResult], query: QueryNode) throws -> [String: String]
  /// How many items `query` finds (typos as ``search(_:limit:)`` takes them).
  func count(_ query: QueryNode) throws -> Int
  /// The item a URI names now, for acting on a result shown earlier.
  func result(uri: String) throws -> SearchResult?
  /// The documents nearest a query's vector (meaning search) that
  /// `selection` shows, narrowed by `filters`, nearest first, marked as
  /// found by meaning.
  func nearest(
    to query: MeaningQuery, filteredBy filters: QueryNode, limit: Int
  ) throws -> [SearchResult]
  /// What a meaning search of `words` asks of the index besides their
  /// meaning (the rows holding their stems), read while the meaning is
  /// made on another thread: ``nearest(to:filteredBy:limit:)`` takes it
  /// with the query (``MeaningQuery/readAhead``).
  func readAheadForMeaning(of words: [String]) throws -> StemRows?
  /// A note to show while the first crawl is still running (nil: none).
  func buildingNote() -> String?

  /// The number of the last change written: the index's generation, the
  /// store's change sequence.
  func lastChange() throws -> Int64
  /// Waits for a change, at most `timeout` seconds; a caller looks at
  /// ``lastChange()`` after it whatever it returns.
  func waitForChange(timeout: Double) throws
  /// After change `seen`: the items `query` matches among those written
  /// since, and the ids of every item written or removed since, matching
  /// or not (a store entry's id is its URI).
  func changes(after seen: Int64, matching query: QueryNode) throws -> (
    matching: [SearchResult], touched: [String]
  )
}

/// A search's results, best first, and the query as it ran (its typos
/// read as the words they stand for), which their snippets show.
public struct FoundResults {
  public var results: [SearchResult]
  public let ran: QueryNode

  public init(results: [SearchResult], ran: QueryNode) {
    self.results = results
    self.ran = ran
  }
}

extension SearchBackend {
  /// Nothing to read ahead: the shared store reads its words' evidence
  /// with the near entries, in one statement.
  public func readAheadForMeaning(of words: [String]) throws -> StemRows? { nil }
}
