import Foundation

/// How items are ranked, in SQL that both indexes order by: the local
/// index (whose `item.nameRank` column and index hold the rank of a name
/// match) and the shared store, each naming its own columns. Lower is
/// better.
public enum ItemRank {
  /// How long an item counts as recently changed, in seconds (a week).
  public static let recentSeconds = 7 * 86_400

  /// Whether an item changed at `modified` (seconds since 1970) counts as
  /// recently changed at `now` (the flag `item.recent`, kept by the writers).
  public static func isRecent(_ modified: Double?, now: Double = Date().timeIntervalSince1970)
    -> Bool
  {
    guard let modified else { return false }
    return modified > now - Double(recentSeconds)
  }

  /// The score of a name match, from the item alone: the length of the name
  /// without its extension (the closer the words cover it, the better: BM25
  /// on a short field), files a little ahead of folders of the same name.
  /// `name` and `isFolder` are the SQL of the item's name and of 1 for a
  /// folder, 0 for a file; `position`, the database's function that finds
  /// a string in another (SQLite's `instr`, PostgreSQL's `strpos`).
  public static func nameScore(name: String, isFolder: String, position: String = "instr")
    -> String
  {
    """
    -10.0 / (1.0 + (CASE WHEN \(position)(\(name), '.') > 1
      THEN length(rtrim(\(name), '\(extensionCharacters)')) - 1
      ELSE length(\(name)) END) / 10.0) + \(isFolder) * 0.3
    """
  }

  /// The name score of the local index's item table (`table` qualifies
  /// its columns: "item." in a join, "" in the schema).
  public static func nameScore(_ table: String) -> String {
    nameScore(name: "\(table)displayName", isFolder: "\(table)isFolder")
  }

  /// What every match gains or loses besides its score: shallow first, then
  /// opened often (`uses`: the SQL of the times opened, 20 at most), then
  /// changed in the last week (`recent`: 1 or 0).
  public static func boost(depth: String, uses: String, recent: String) -> String {
    "\(depth) * 0.05 - \(uses) * 0.5 - \(recent) * 0.5"
  }

  /// The boost of the local index's item table.
  public static func boost(_ table: String) -> String {
    boost(
      depth: "\(table)depth", uses: "min(\(table)useCount, 20)", recent: "\(table)recent")
  }

  /// The order of the items a query of filters alone lists (no match to
  /// score): hidden last, then `item.boost`, newest, by name; ties broken
  /// by the kind classes and the row. The columns of the index
  /// `item_order`, in its order.
  public static func filterOrder(_ table: String) -> String {
    "\(table)hidden, \(table)boost, \(table)modified DESC, \(table)displayName, "
      + "\(table)kindClasses, \(table)rowid"
  }

  /// `item.nameRank`: a name match's whole rank.
  public static let nameRankColumn = nameScore("") + " + " + boost("")

  /// ``nameRankColumn`` of an item about to be written, computed as SQLite
  /// computes it (the same operations on doubles, in the same order), so
  /// that a new row's facets need not read it back: a tenth of a first
  /// crawl's writing did.
  public static func nameRank(
    displayName: String, isFolder: Bool, depth: Int, uses: Int, recent: Bool
  ) -> Double {
    let scalars = displayName.unicodeScalars
    var length = scalars.count
    // `instr(name, '.') > 1`: a dot after the first character.
    if let dot = scalars.firstIndex(of: "."), dot != scalars.startIndex {
      // `length(rtrim(name, letters and digits)) - 1`.
      let trailing = scalars.reversed().prefix { extensionScalars.contains($0) }.count
      length = length - trailing - 1
    }
    // Term by term, left to right, as SQLite adds them up.
    var rank = -10.0 / (1.0 + Double(length) / 10.0)
    rank += Double(isFolder ? 1 : 0) * 0.3
    rank += Double(depth) * 0.05
    rank -= Double(min(uses, 20)) * 0.5
    rank -= Double(recent ? 1 : 0) * 0.5
    return rank
  }

  static let extensionCharacters =
    "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"
  private static let extensionScalars = Set(extensionCharacters.unicodeScalars)
}
