import Foundation
import GRDB

/// Terms for what an item's filters compare, in a column of the name index
/// of their own (`item_name.facets`): its kind classes and the month it was
/// changed in. With them FTS5 narrows a common word's matches to those of a
/// `kind:` or `modified:` filter before any item row is read (at a million
/// entries, `gz kind:text` read 450,000 rows per tier to keep none).
///
/// Each term is one private-use character, which no one types and no
/// prefix index holds (they index two letters and more). The query still
/// checks the filter itself: a facet only ever lets more items through.
public enum ItemFacets {
  /// The kind classes with a term, in the order of their characters: append
  /// only, the index holds them.
  static let kinds = [
    "image", "audio", "video", "text", "pdf", "document", "spreadsheet", "presentation",
    "archive", "code", "folder", "app",
  ]
  static let kindBase: UInt32 = 0xE000
  /// Months from January 1970 on, one character each, in supplementary
  /// private use area A (65,534 of them: a little over 5,000 years).
  static let monthBase: UInt32 = 0xF0000
  static let monthCount = 65_534
  /// The widest range of months a query narrows by (an OR of that many terms).
  public static let widestMonthRange = 240

  /// The facets column of an item of these kind classes changed at `modified`
  /// (seconds since 1970).
  public static func text(kindClasses: some Sequence<String>, modified: Double?) -> String {
    var terms = kindClasses.compactMap(kindTerm)
    if let modified, let month = monthTerm(month(of: modified)) { terms.append(month) }
    return terms.joined(separator: " ")
  }

  /// The term of a kind class, nil for a class without one.
  public static func kindTerm(_ kind: String) -> String? {
    guard let index = kinds.firstIndex(of: kind) else { return nil }
    return character(kindBase + UInt32(index))
  }

  /// The terms of the months from the one holding `lower` to the one holding
  /// `upper` (seconds since 1970, in UTC, so the months a query names in its
  /// own time zone are inside them), or nil when there are more than
  /// ``widestMonthRange`` or some is before 1970.
  public static func monthTerms(from lower: Double, to upper: Double) -> [String]? {
    let first = month(of: lower)
    let last = month(of: upper)
    guard first >= 0, last >= first, last - first < widestMonthRange else { return nil }
    return (first...last).compactMap(monthTerm)
  }

  /// Months since January 1970 (UTC) of a time in seconds since 1970.
  static func month(of seconds: Double) -> Int {
    guard seconds.isFinite else { return -1 }
    let days = Int((seconds / 86_400).rounded(.down))
    let (year, month) = civilDate(daysSince1970: days)
    return (year - 1970) * 12 + month - 1
  }

  private static func monthTerm(_ month: Int) -> String? {
    guard month >= 0, month < monthCount else { return nil }
    return character(monthBase + UInt32(month))
  }

  private static func character(_ value: UInt32) -> String {
    String(Character(Unicode.Scalar(value)!))
  }

  /// The year and month (1–12) of a day counted from 1970-01-01 in the
  /// proleptic Gregorian calendar (H. Hinnant's `civil_from_days`).
  static func civilDate(daysSince1970 days: Int) -> (year: Int, month: Int) {
    let z = days + 719_468
    let era = (z >= 0 ? z : z - 146_096) / 146_097
    let dayOfEra = z - era * 146_097
    let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
    let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
    let shiftedMonth = (5 * dayOfYear + 2) / 153
    let month = shiftedMonth < 10 ? shiftedMonth + 3 : shiftedMonth - 9
    return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month)
  }

  /// `limelight_facets(kindClasses, modified)`: ``text(kindClasses:modified:)``
  /// of an item's columns, for the upgrade that adds the column.
  static let function = DatabaseFunction("limelight_facets", argumentCount: 2, pure: true) {
    values in
    let classes = String.fromDatabaseValue(values[0]) ?? ""
    let modified = Double.fromDatabaseValue(values[1])
    return text(kindClasses: classes.split(separator: " ").map(String.init), modified: modified)
  }
}
