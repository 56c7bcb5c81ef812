import Foundation
import LimelightModel
import LimelightQuery
import LimelightStore

#if canImport(Glibc)
  import Glibc
#endif

/// `find-in --live`: after the first results, follows the index generation and
/// prints what starts matching (`+`), changes while matching (`~`), and stops
/// matching or disappears (`-`), until interrupted, like `mdfind -live`.
public struct LiveFollower {
  let engine: SearchEngine
  let query: QueryNode
  let json: Bool
  let output = OutputBuffer()

  public init(engine: SearchEngine, query: QueryNode, json: Bool) {
    self.engine = engine
    self.query = query
    self.json = json
  }

  /// What a follower printed of an item: its URI, and the id and domain that
  /// `--json` shows (an application's own id, not the index's).
  public struct Shown: Sendable {
    let uri: String
    let publicID: String
    let domain: String

    public init(_ result: SearchResult) {
      uri = result.uri
      publicID = result.localID ?? result.id
      domain = result.domain
    }
  }

  /// Follows changes from `generation` on, knowing `shown` items (by index
  /// id), until whoever reads the output goes away.
  public func follow(from generation: Int64, shown: [String: Shown]) throws {
    signal(SIGPIPE, SIG_IGN)
    var seen = generation
    var shown = shown
    while true {
      usleep(200_000)
      let now = try engine.store.generation()
      guard now > seen else { continue }
      let changed = try engine.search(.and([query, .filter(.changedAfter(generation: seen))]))
      var matching: Set<String> = []
      for result in changed {
        matching.insert(result.id)
        let item = Shown(result)
        emit(shown[result.id] == nil ? "+" : "~", item)
        shown[result.id] = item
      }
      // Shown items that went away, or changed and no longer match.
      var gone = try engine.removals(after: seen).map(\.id).filter { shown[$0] != nil }
      for id in try engine.changedIDs(after: seen) where shown[id] != nil && !matching.contains(id)
      {
        gone.append(id)
      }
      let stillThere = try engine.existing(ids: gone)
      for id in gone {
        guard let item = shown[id] else { continue }
        if stillThere.contains(id) && matching.contains(id) { continue }
        emit("-", item)
        shown[id] = nil
      }
      output.flush()
      if output.isClosed { return }
      seen = now
    }
  }

  func emit(_ change: String, _ item: Shown) {
    if json {
      let event = change == "+" ? "added" : change == "~" ? "changed" : "removed"
      let object = ["event": event, "uri": item.uri, "id": item.publicID, "domain": item.domain]
      if let data = try? JSONSerialization.data(
        withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes])
      {
        output.write(String(decoding: data, as: UTF8.self) + "\n")
      }
    } else {
      output.write(change + " " + item.uri + "\n")
    }
  }
}
