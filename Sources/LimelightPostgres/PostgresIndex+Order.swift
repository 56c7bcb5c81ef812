import LimelightModel
import LimelightQuery

/// How the store orders what a search finds, in SQL over `item`'s columns:
/// as the local index ranks its items (``ItemRank``), with the parts that
/// do not change with time kept with each entry (`name_rank`, `depth`).
extension PostgresIndex {
  /// Whether `query` asks for times of change alone (`modified:today`,
  /// `this week`): every entry of a home may match.
  static func isChangesAlone(_ query: QueryNode) -> Bool {
    switch query {
    case .filter(.range(.modified, _, _)): true
    case .and(let nodes): !nodes.isEmpty && nodes.allSatisfy(isChangesAlone)
    default: false
    }
  }

  /// The entries `condition` finds, at most `limit` (a `LIMIT` clause)
  /// changed in the last week and as many changed before, each in the
  /// order of the boost (``boost``: shallow first) and the newest, which
  /// the index `item_order` walks: the first page of what changed this
  /// week is read from the index, not sorted from every entry (100 ->
  /// 2 ms at 100,000 entries). A range of times is checked in the index.
  static func byRecency(_ condition: String, _ limit: String) -> String {
    let arms = ["modified > \(weekAgo)", "modified <= \(weekAgo)"].map { arm in
      "(SELECT * FROM item WHERE \(condition) AND \(arm) ORDER BY depth, \(tieBreak) \(limit))"
    }
    return "(\(arms.joined(separator: " UNION ALL "))) AS item"
  }

  /// An entry's rank among names that hold the words alike, as the local
  /// index ranks its items (``ItemRank``): its name's length, a folder
  /// after a file, shallow first (the column `name_rank`), changed in the
  /// last week first.
  ///
  /// In floating point, as the local index computes it (numeric
  /// arithmetic on every row was a third of ordering 100,000 entries).
  static let nameRank =
    "name_rank + " + ItemRank.boost(depth: "0", uses: "0", recent: "\(recent)::float8")

  /// What every entry gains or loses besides its score (``ItemRank``).
  static let boost = ItemRank.boost(
    depth: "depth::float8", uses: "0", recent: "\(recent)::float8")

  /// 1 for an entry changed in the last week, else 0.
  static let recent = "coalesce(modified > \(weekAgo), false)::int"

  /// Since when a change counts as recent (``ItemRank/recentSeconds``).
  static let weekAgo = "now() - interval '\(ItemRank.recentSeconds) seconds'"

  /// Entries alike in rank: the newest first, then by name, then for good.
  static let tieBreak = "modified DESC NULLS LAST, name, host, path"

  /// How many folders deep an entry's path is (the column `depth`): the
  /// slashes of its bytes (`escape` writes a slash as it is), which need
  /// not be UTF-8.
  static let depthOfPath =
    "length(encode(path, 'escape')) - length(replace(encode(path, 'escape'), '/', ''))"

  /// An entry's rank as a name match apart from a recent change, the
  /// store counting no uses (the column `name_rank`), with its depth
  /// computed by `depth`.
  static func staticNameRank(depth: String = depthOfPath) -> String {
    ItemRank.nameScore(name: "name", isFolder: "folder::int", position: "strpos") + " + "
      + ItemRank.boost(depth: "(\(depth))", uses: "0", recent: "0")
  }

  /// The words of a text and its path, counted by the host that sent
  /// them: what the local index's BM25 weighs a text by (counting them in
  /// a query read every matching text whole: 614 ms for a common word).
  static let textLength = "word_count"
}
