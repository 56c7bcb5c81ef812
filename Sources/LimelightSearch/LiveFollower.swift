import Foundation
import LimelightQuery
import LimelightStore

#if canImport(Glibc)
  import Glibc
#endif

/// `find-in --live`: after the first results, follows a backend's changes and
/// prints what starts matching (`+`), changes while matching (`~`), and
/// stops matching or disappears (`-`), until whoever reads the output goes
/// away, like `mdfind -live`.
struct LiveFollower {
  let backend: any SearchBackend
  /// The query whose matches are followed.
  let query: QueryNode
  let json: Bool
  let output: OutputBuffer

  /// What a follower printed of an item: the key its backend knows it by
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
      try backend.waitForChange(timeout: 1)
      let now = try backend.lastChange()
      guard now > seen else { continue }
      let (matching, touched) = try backend.changes(after: seen, matching: query)
      var matched: Set<String> = []
      for item in matching.map(Shown.init) {
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
