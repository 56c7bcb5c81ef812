import Foundation
import LimelightExit
import LimelightModel
import LimelightPlatform
import LimelightPostgres
import LimelightQuery
import LimelightStore

/// Searches for a front end that stays up and asks again and again (the
/// terminal picker, the desktop's search providers): the same parser, engine
/// and ranking as `find-in`, on an index held open between searches and
/// opened again when the watcher replaced it (a rebuild after damage); or,
/// for the picker, on the shared store `find-in` would search, over one
/// connection.
public final class SearchSession {
  public let location: IndexLocation
  /// The environment the session's queries are read in (time zone, locale).
  private let environment: [String: String]
  private var store: IndexStore?
  private var storeIdentity: (device: UInt64, inode: UInt64)?
  /// Whether a shared store may be searched, and the one `--store` named.
  private let mayShare: Bool
  private let storeOption: String?
  /// The shared store searched instead of the local index, once found.
  private var shared: (name: String?, index: PostgresIndex?)?

  /// A session on the local index; with `shared`, on the store `store`
  /// (`--store`) or limelight.conf names, as `find-in` searches (`local`:
  /// the local index).
  public init(
    environment: [String: String] = ProcessEnvironment.current, shared: Bool = false,
    store: String? = nil
  ) {
    location = IndexLocation.fromEnvironment(environment)
    self.environment = environment
    (mayShare, storeOption) = (shared, store)
  }

  /// The shared store this session searches, connected, or nil for the
  /// local index.
  private func sharedIndex() throws -> PostgresIndex? {
    guard mayShare else { return nil }
    if shared == nil {
      shared = (try Configuration.sharedStore(option: storeOption, for: location), nil)
    }
    guard let name = shared?.name else { return nil }
    if let index = shared?.index { return index }
    do {
      let index = try PostgresIndex(reading: name)
      shared = (name, index)
      return index
    } catch {
      throw CommandFailure(error.description, status: ExitStatus.usage)
    }
  }

  /// The results for a read query, at most `limit`, with what makes a
  /// snippet of one (its matches between "\u{1}" and "\u{2}"; nil: none).
  public func searchAsRun(_ query: ReadQuery, limit: Int) throws -> (
    results: [SearchResult], snippet: (SearchResult) -> String?
  ) {
    if let index = try sharedIndex() {
      let search = SharedReadingSearch(index: index)
      let results: [SearchResult]
      do { results = try search.results(query, limit: limit) } catch let error as PostgresError {
        // Connected again at the next search.
        shared?.index = nil
        throw CommandFailure(error.description, status: ExitStatus.usage)
      }
      let hits = search.hits
      return (
        results,
        { result in
          guard let hit = hits[result.uri] else { return nil }
          return try? index.snippets(for: [hit], query: query.node, open: "\u{1}", close: "\u{2}")[
            hit.uri]
        }
      )
    }
    let search = LocalReadingSearch(engine: try engine(), query: query)
    let results = try search.results(limit: limit)
    let (engine, ran) = (search.engine, search.ran)
    return (results, { engine.snippet(for: $0, query: ran, open: "\u{1}", close: "\u{2}") })
  }

  /// The engine over the index as it is now on disk.
  public func engine() throws -> SearchEngine {
    let status = FileSystem.status(location.databasePath)
    if let store, let status, let known = storeIdentity,
      known == (status.device, status.inode)
    {
      return SearchEngine(store: store)
    }
    store = nil
    do {
      let opened = try IndexStore.open(location, create: false, readOnly: true, longLived: true)
      store = opened
      storeIdentity = status.map { ($0.device, $0.inode) }
      return SearchEngine(store: opened)
    } catch IndexStore.OpenError.missing {
      throw CommandFailure("there is no index yet: start limelightd")
    }
  }

  /// The query the words make, read as a person's words (``PhraseReader``)
  /// in this session's environment, or the reason they make none.
  public func query(_ words: [String]) throws -> ReadQuery {
    var parser = QueryParser(home: location.home, clock: QueryClock(environment: environment))
    do {
      return try parser.read(words.joined(separator: " "))
    } catch {
      throw CommandFailure(error.message)
    }
  }

  /// The best matches for the words, at most `limit`.
  public func search(_ words: [String], limit: Int) throws -> [SearchResult] {
    try searchAsRun(query(words), limit: limit).results
  }

  /// The item a URI names now, for acting on a result shown earlier.
  public func result(uri: String) throws -> SearchResult? {
    try engine().result(uri: uri)
  }

  /// A note to show while the first crawl is still running.
  public func buildingNote() -> String? { shared?.index == nil ? store?.buildingNote() : nil }

  /// Opens a result (or its containing folder) and records the use, on an
  /// index opened for writing just for that. A shared store's result opens
  /// as this host's own item; another host's cannot be opened here.
  public func open(_ result: SearchResult, containingFolder: Bool = false) throws {
    var result = result
    if let host = result.host {
      let here = (try? Configuration.load(for: location))?.resolvedHostName ?? HostName.system
      guard host == here || HostName.isThisHost(host) else {
        throw CommandFailure(
          "\(result.uri) is on \(host), not on this host: it cannot be opened here")
      }
      let uri = result.path.map(FileURI.uri(for:)) ?? result.uri
      guard let own = try engine().result(uri: uri) else {
        throw CommandFailure("\(uri) is not in this host's index")
      }
      result = own
    }
    let writable = try IndexStore.open(location, create: false)
    if containingFolder {
      try Opener.openContainingFolder(result, store: writable)
    } else {
      try Opener.open(result, store: writable)
    }
  }
}
