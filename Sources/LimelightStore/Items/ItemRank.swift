import Foundation

/// How items are ranked, in SQL shared by the schema (whose `item.nameRank`
/// column and index hold the rank of a name match) and the searches that
/// order by it. Lower is better.
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
  /// `table` qualifies the columns ("item." in a join, "" in the schema).
  public static func nameScore(_ table: String) -> String {
    """
    -10.0 / (1.0 + (CASE WHEN instr(\(table)displayName, '.') > 1
      THEN length(rtrim(\(table)displayName, '\(extensionCharacters)')) - 1
      ELSE length(\(table)displayName) END) / 10.0) + \(table)isFolder * 0.3
    """
  }

  /// What every match gains or loses besides its score: shallow first, then
  /// opened often, then changed in the last week.
  public static func boost(_ table: String) -> String {
    "\(table)depth * 0.05 - min(\(table)useCount, 20) * 0.5 - \(table)recent * 0.5"
  }

  /// The order of the items a query of filters alone lists (no match to
  /// score): hidden last, then `item.boost`, newest, by name; ties broken
  /// by the kind classes and the row. The columns of the index
  /// `item_order`, in its order.
  static func filterOrder(_ table: String) -> String {
    "\(table)hidden, \(table)boost, \(table)modified DESC, \(table)displayName, "
      + "\(table)kindClasses, \(table)rowid"
  }

  /// `item.nameRank`: a name match's whole rank.
  static let nameRankColumn = nameScore("") + " + " + boost("")

  static let extensionCharacters =
    "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"
}
