import Foundation
import LimelightPostgres
import LimelightQuery
import LimelightStore

#if canImport(Glibc)
  import Glibc
#endif

/// What `find-in --live` follows: the local index or a shared store, each
/// telling its changes in its own numbers (the index's generations, the
/// store's change sequence).
protocol LiveSource {
  /// The number of the last change written.
  func lastChange() throws -> Int64
  /// Waits for a change, at most `timeout` seconds; the follower looks at
  /// `lastChange()` after it whatever it returns.
  func waitForChange(timeout: Double) throws
  /// After change `seen`: the items the query matches among those written
  /// since, and the keys (``LiveFollower/Shown/key``) of every item written
  /// or removed since, matching or not.
  func changes(after seen: Int64) throws -> (matching: [LiveFollower.Shown], touched: [String])
}

/// `find-in --live`: after the first results, follows a ``LiveSource`` and
/// prints what starts matching (`+`), changes while matching (`~`), and
/// stops matching or disappears (`-`), until whoever reads the output goes
/// away, like `mdfind -live`.
struct LiveFollower {
  let source: any LiveSource
  let json: Bool
  let output: OutputBuffer

  /// What a follower printed of an item: the key its source knows it by
  /// (the local index's own id; a store entry's URI), its URI, and the id
  /// and domain that `--json` shows (an application's own id, not the
  /// index's).
  struct Shown: Sendable {
    let key: String
    let uri: String
    let publicID: String
    let domain: String

    init(_ result: SearchResult) {
      key = result.id
      uri = result.uri
      publicID = result.localID ?? result.id
      domain = result.domain
    }
  }

  /// Follows changes from `change` on, knowing the `shown` items.
  func follow(from change: Int64, shown: [Shown]) throws {
    signal(SIGPIPE, SIG_IGN)
    var seen = change
    var shown = Dictionary(shown.map { ($0.key, $0) }, uniquingKeysWith: { first, _ in first })
    while true {
      try source.waitForChange(timeout: 1)
      let now = try source.lastChange()
      guard now > seen else { continue }
      let (matching, touched) = try source.changes(after: seen)
      var matched: Set<String> = []
      for item in matching {
        matched.insert(item.key)
        emit(shown[item.key] == nil ? "+" : "~", item)
        shown[item.key] = item
      }
      // Shown items that went away, or changed and no longer match.
      for key in touched where !matched.contains(key) {
        guard let item = shown.removeValue(forKey: key) else { continue }
        emit("-", item)
      }
      output.flush()
      if output.isClosed { return }
      seen = now
    }
  }

  func emit(_ change: String, _ item: Shown) {
    guard json else { return output.write(change + " " + item.uri + "\n") }
    let event = change == "+" ? "added" : change == "~" ? "changed" : "removed"
    let object = ["event": event, "uri": item.uri, "id": item.publicID, "domain": item.domain]
    if let data = try? JSONSerialization.data(
      withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes])
    {
      output.write(String(decoding: data, as: UTF8.self) + "\n")
    }
  }
}

/// The local index as a follower reads it: by generations, looked at five
/// times a second (the watcher writing on the same machine is not waited
/// for otherwise).
struct IndexChanges: LiveSource {
  let engine: SearchEngine
  let query: QueryNode

  func lastChange() throws -> Int64 { try engine.store.generation() }

  func waitForChange(timeout: Double) throws { usleep(UInt32(min(timeout, 0.2) * 1_000_000)) }

  func changes(after seen: Int64) throws -> (matching: [LiveFollower.Shown], touched: [String]) {
    let matching = try engine.search(.and([query, .filter(.changedAfter(generation: seen))]))
    let touched = try engine.removals(after: seen).map(\.id) + engine.changedIDs(after: seen)
    return (matching.map(LiveFollower.Shown.init), touched)
  }
}

/// A shared store as a follower reads it: by its change sequence, woken by
/// the store when any host's write commits.
struct StoreChanges: LiveSource {
  let index: PostgresIndex
  let query: QueryNode

  /// Asks the store to tell of its writes.
  init(index: PostgresIndex, query: QueryNode) throws {
    self.index = index
    self.query = query
    try index.listenForChanges()
  }

  func lastChange() throws -> Int64 { try index.lastChange() }

  func waitForChange(timeout: Double) throws { _ = try index.waitForChange(timeout: timeout) }

  func changes(after seen: Int64) throws -> (matching: [LiveFollower.Shown], touched: [String]) {
    let (matching, touched) = try index.changes(after: seen, matching: query)
    return (matching.map { LiveFollower.Shown(SharedSearch.result($0)) }, touched)
  }
}
