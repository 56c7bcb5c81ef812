import Foundation
import LimelightExit
import LimelightMeaning
import LimelightModel
import LimelightPlatform
import LimelightQuery
import LimelightStore

/// Searches for a front end that stays up and asks again and again (the
/// terminal picker, the desktop's search providers): the same parser,
/// backends and ranking as `find-in`, on an index held open between
/// searches and opened again when the watcher replaced it (a rebuild after
/// damage); or, for the picker, on the shared store `find-in` would
/// search, over one connection.
public final class SearchSession {
  public let location: IndexLocation
  /// The environment the session's queries are read in (time zone, locale).
  private let environment: [String: String]
  /// Whether a shared store may be searched, and the one `--store` named.
  private let mayShare: Bool
  private let storeOption: String?
  /// The shared store searched instead of the local index, once its name
  /// is known (nil inside: the local index), and its connection.
  private var storeName: (store: String, standby: String?)??
  private var storeBackend: StoreBackend?
  /// The local index, and the identity of its file when it was opened.
  private var local: (backend: LocalBackend, device: UInt64, inode: UInt64)?
  /// Meaning search's model, loaded at the first search that asks for it
  /// when limelight.conf allows and it is installed (nil inside: it is not).
  private var model: MeaningEngine??

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

  /// The backend this session searches now.
  public func backend() throws -> any SearchBackend {
    if mayShare && storeName == nil {
      storeName = .some(
        try SearchBackends.storeNames(option: storeOption, readOption: nil, location: location))
    }
    if case .some(.some(let names)) = storeName {
      if let storeBackend { return storeBackend }
      let connected = try StoreBackend(name: names.store, standby: names.standby, errors: nil)
      storeBackend = connected
      return connected
    }
    return try localBackend()
  }

  /// The local index as it is now on disk.
  private func localBackend() throws -> LocalBackend {
    let status = FileSystem.status(location.databasePath)
    if let local, let status, (local.device, local.inode) == (status.device, status.inode) {
      return local.backend
    }
    local = nil
    let backend = LocalBackend(
      store: try SearchBackends.openIndex(location, writable: false, longLived: true))
    if let status { local = (backend, status.device, status.inode) }
    return backend
  }

  /// The results for a read query, at most `limit`, with what makes a
  /// snippet of one (its matches between "\u{1}" and "\u{2}"; nil: none).
  public func searchAsRun(_ query: ReadQuery, limit: Int) throws -> (
    results: [SearchResult], snippet: (SearchResult) -> String?
  ) {
    let backend: any SearchBackend
    let found: FoundResults
    do {
      backend = try self.backend()
      found = try backend.searchWithMeaning(query, limit: limit, model: meaning(for: query))
    } catch {
      // A store's connection is made again at the next search.
      storeBackend = nil
      throw error
    }
    return (
      found.results,
      { result in try? backend.snippets(for: [result], query: found.ran)[result.uri] }
    )
  }

  /// The model for a query that reads as a description, loaded the first
  /// time one does (the desktop and the picker then find what `find-in`
  /// finds by meaning too); nil for any other query, or without a model.
  private func meaning(for query: ReadQuery) -> MeaningEngine? {
    guard MeaningSearch.readsAsDescription(query.parts.words.map(\.text)) else { return nil }
    if let model { return model }
    let allowed = (try? Configuration.load(for: location))?.meaning ?? true
    let loaded = allowed ? try? MeaningEngine.load() : nil
    model = .some(loaded)
    return loaded
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
    try backend().result(uri: uri)
  }

  /// A note to show while the first crawl is still running.
  public func buildingNote() -> String? { try? backend().buildingNote() }

  /// Opens a result (or its containing folder) and records the use in
  /// this host's index.
  public func open(_ result: SearchResult, containingFolder: Bool = false) throws {
    try Opener.open(result, location: location, containingFolder: containingFolder)
  }
}
