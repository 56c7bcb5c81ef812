import Foundation

/// A shared store's name and the hot standby read in its place, if any.
public struct StoreNames: Hashable, Sendable {
  public var store: String
  public var standby: String?
}

/// Connections to shared stores kept between the searches a long-lived
/// process serves (the watcher's query service): a search takes one for
/// its store and gives it back, and the next search of that store skips
/// connecting (a new server process, its settings and checks, and the
/// first plans of a fresh one: about 7 ms of a served query). One search
/// at a time has a backend; a connection the server lost is made again
/// at its next use (``StoreBackend``).
public final class StoreBackendPool: @unchecked Sendable {
  /// Guards `kept`: a backend is handed to one search at a time.
  private let lock = NSLock()
  private var kept: [StoreNames: [StoreBackend]] = [:]

  public init() {}

  /// A kept backend of the store `names` name, its warnings sent to
  /// `errors`; or a new one.
  func take(_ names: StoreNames, errors: Int32?) throws -> StoreBackend {
    let backend = lock.withLock { kept[names]?.popLast() }
    guard let backend else {
      return try StoreBackend(name: names.store, standby: names.standby, errors: errors)
    }
    backend.errors = errors
    return backend
  }

  /// Keeps `backend`, if it is a store's, for the next search; not one
  /// that lost its standby, so that the next search tries it again.
  public func giveBack(_ backend: any SearchBackend) {
    guard let backend = backend as? StoreBackend, !backend.readsPrimaryInstead else { return }
    backend.errors = nil
    lock.withLock { kept[backend.names, default: []].append(backend) }
  }

  /// Closes every kept connection (a quiet spell); how many there were.
  @discardableResult public func removeAll() -> Int {
    lock.withLock {
      defer { kept.removeAll() }
      return kept.values.map(\.count).reduce(0, +)
    }
  }
}
