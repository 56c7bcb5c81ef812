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

  /// Follows changes from `generation` on, knowing `shown` items (by id → uri).
  public func follow(from generation: Int64, shown: [String: String]) throws -> Never {
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
        emit(shown[result.id] == nil ? "+" : "~", uri: result.uri, id: result.id)
        shown[result.id] = result.uri
      }
      // Shown items that went away, or changed and no longer match.
      var gone = try engine.removals(after: seen).filter { shown[$0.id] != nil }
      let changedIDs = try engine.store.read { db in
        try String.fetchAll(
          db, sql: "SELECT id FROM item WHERE generation > ?", arguments: [seen])
      }
      for id in changedIDs where shown[id] != nil && !matching.contains(id) {
        gone.append((id: id, uri: shown[id]!))
      }
      let stillThere = try engine.existing(ids: gone.map(\.id))
      for item in gone where shown[item.id] != nil {
        if stillThere.contains(item.id) && matching.contains(item.id) { continue }
        emit("-", uri: item.uri, id: item.id)
        shown[item.id] = nil
      }
      output.flush()
      if output.isClosed { exit(0) }
      seen = now
    }
  }

  func emit(_ change: String, uri: String, id: String) {
    if json {
      let event = change == "+" ? "added" : change == "~" ? "changed" : "removed"
      let object = ["event": event, "uri": uri, "id": id]
      if let data = try? JSONSerialization.data(
        withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes])
      {
        output.write(String(decoding: data, as: UTF8.self) + "\n")
      }
    } else {
      output.write(change + " " + uri + "\n")
    }
  }
}
