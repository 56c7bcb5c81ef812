import Foundation
import LimelightModel
import LimelightPlatform
import LimelightQuery
import LimelightStore

/// Searches for a front end that stays up and asks again and again (the
/// terminal picker, the desktop's search providers): the same parser, engine
/// and ranking as `find-in`, on an index held open between searches and
/// opened again when the watcher replaced it (a rebuild after damage).
public final class SearchSession {
  public let location: IndexLocation
  private var store: IndexStore?
  private var storeIdentity: (device: UInt64, inode: UInt64)?

  public init(environment: [String: String] = ProcessEnvironment.current) {
    location = IndexLocation.fromEnvironment(environment)
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

  /// The query the words make (`find-in`'s language), or the reason they make none.
  public func query(_ words: [String]) throws -> QueryNode {
    var parser = QueryParser(home: location.home)
    do {
      return try parser.parse(words.joined(separator: " "))
    } catch {
      throw CommandFailure(error.message)
    }
  }

  /// The best matches for the words, at most `limit`.
  public func search(_ words: [String], limit: Int) throws -> [SearchResult] {
    let node = try query(words)
    return try engine().search(node, limit: limit)
  }

  /// The item a URI names now, for acting on a result shown earlier.
  public func result(uri: String) throws -> SearchResult? {
    try engine().result(uri: uri)
  }

  /// A note to show while the first crawl is still running.
  public func buildingNote() -> String? { store?.buildingNote() }

  /// Opens a result (or its containing folder) and records the use, on an
  /// index opened for writing just for that.
  public func open(_ result: SearchResult, containingFolder: Bool = false) throws {
    let writable = try IndexStore.open(location, create: false)
    if containingFolder {
      try Opener.openContainingFolder(result, store: writable)
    } else {
      try Opener.open(result, store: writable)
    }
  }
}
