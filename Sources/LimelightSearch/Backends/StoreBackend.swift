import LimelightExit
import LimelightMeaning
import LimelightModel
import LimelightPlatform
import LimelightPostgres
import LimelightQuery
import LimelightStore

/// A shared PostgreSQL store as a ``SearchBackend``: every host's entries,
/// files named `file://HOST/path`. The store's errors (a server away, a
/// role refused) are the command's: exit status 2, said as the store said
/// them.
public final class StoreBackend: SearchBackend {
  let index: PostgresIndex
  /// Whether the store was asked to tell of its writes.
  private var listening = false

  /// Connects to the store `name` (checked as limelight.conf's is) for
  /// reading; within the connection's 2 seconds when it cannot be reached.
  public init(name: String) throws {
    index = try Self.failing { () throws(PostgresError) in try PostgresIndex(reading: name) }
  }

  /// A store's error as the command's.
  static func failing<T>(_ body: () throws(PostgresError) -> T) throws(CommandFailure) -> T {
    do { return try body() } catch {
      throw CommandFailure(error.description, status: ExitStatus.usage)
    }
  }

  public func search(_ query: ReadQuery, limit: Int?) throws -> FoundResults {
    let search = ReadingSearch<SearchResult>(
      search: { [index] node, limit, typos in
        let found = try Self.failing { () throws(PostgresError) in
          try index.search(node, limit: limit, typos: typos)
        }
        return found.map(Self.result)
      }, key: \.uri, size: \.size)
    let results = try search.results(query, limit: limit)
    return FoundResults(results: results, ran: query.node)
  }

  public func snippets(for results: [SearchResult], query: QueryNode) throws -> [String: String] {
    // The entries the results are: a file's host and path, an
    // application item's URI as its path.
    let entries = results.compactMap { result in
      result.host.map { host in
        PostgresIndex.Hit(
          host: host, path: result.path ?? RawPath(bytes: Array(result.uri.utf8)),
          name: result.displayName,
          domain: result.domain == fileDomain ? nil : result.domain)
      }
    }
    return try Self.failing { () throws(PostgresError) in
      try index.snippets(for: entries, query: query, open: "\u{1}", close: "\u{2}")
    }
  }

  public func count(_ query: QueryNode) throws -> Int {
    try Self.failing { () throws(PostgresError) in try index.count(query) }
  }

  public func result(uri: String) throws -> SearchResult? {
    try Self.failing { () throws(PostgresError) in try index.hit(uri: uri) }.map(Self.result)
  }

  /// The store keeps no vectors yet.
  public func nearest(
    about text: String, filteredBy filters: QueryNode, limit: Int, model: MeaningEngine
  ) throws -> [SearchResult]? { nil }

  /// The store is written by watchers that crawled first.
  public func buildingNote() -> String? { nil }

  /// The first asking also listens for the store's writes, before the
  /// number is read: no write after it goes untold.
  public func lastChange() throws -> Int64 {
    try Self.failing { () throws(PostgresError) in
      if !listening {
        try index.listenForChanges()
        listening = true
      }
      return try index.lastChange()
    }
  }

  /// Woken by the store when any host's write commits.
  public func waitForChange(timeout: Double) throws {
    _ = try Self.failing { () throws(PostgresError) in try index.waitForChange(timeout: timeout) }
  }

  public func changes(after seen: Int64, matching query: QueryNode) throws -> (
    matching: [SearchResult], touched: [String]
  ) {
    let (matching, touched) = try Self.failing { () throws(PostgresError) in
      try index.changes(after: seen, matching: query)
    }
    return (matching.map(Self.result), touched)
  }

  /// A store's entry as a result: its id is its URI.
  static func result(_ hit: PostgresIndex.Hit) -> SearchResult {
    SearchResult(
      rowID: 0, id: hit.uri, localID: nil, domain: hit.domain ?? fileDomain, uri: hit.uri,
      path: hit.domain == nil ? hit.path : nil,
      displayName: hit.name, contentType: hit.contentType, kind: hit.kind,
      modified: hit.modified, size: hit.size, isFolder: hit.isFolder, thumbnailPath: nil,
      score: -hit.rank, host: hit.host)
  }
}
