import Foundation
import GRDB
import LimelightModel

/// Terms for what an item's filters compare and for its rank, in a column of
/// the name index of their own (`item_name.facets`): its kind classes, its
/// content type (with its tree: `content_type`), the month it was changed
/// in, and the band of its name rank.
///
/// - With the kind and the month, FTS5 narrows a common word's matches to
///   those of a `kind:` or `modified:` filter before any item row is read (at
///   a million entries, `gz kind:text` read 450,000 rows per tier to keep
///   none). The query still checks the filter itself: a facet only ever lets
///   more items through.
/// - With the rank band, a word in half the names lists its best matches
///   band by band, best first, reading the rows of a few bands instead of
///   all 450,000 (bands hold disjoint, ordered ranges of `item.nameRank`,
///   so their matches, each band sorted, come in the order of all of them).
///   The writers keep it with the rank: whenever the name, depth, use count
///   or recency changes.
///
/// Terms are private-use characters, which no one types. Kinds and months
/// are one character, which no prefix index holds (they index two and
/// more); a rank band is three: a marker, the coarse band (the name index's
/// two-character prefixes list all its items at once) and the fine one.
public enum ItemFacets {
  /// The kind classes with a term, in the order of their characters
  /// (``KindClass`` is append only: the index holds them).
  static let kinds = KindClass.allCases.map(\.rawValue)
  static let kindBase: UInt32 = 0xE000
  /// Months from January 1970 on, one character each, in supplementary
  /// private use area A (65,534 of them: a little over 5,000 years).
  static let monthBase: UInt32 = 0xF0000
  static let monthCount = 65_534
  /// Content types by their row in `content_type`, one character each, in
  /// supplementary private use area B.
  static let typeBase: UInt32 = 0x10_0000
  static let typeCount: Int64 = 65_534
  /// The most types a `type:` pattern narrows by (an OR of that many terms).
  public static let widestTypeList = 400
  /// The widest range of months a query narrows by (an OR of that many terms).
  public static let widestMonthRange = 240

  /// The rank bands: `coarseBands` of width 0.5 (ranks below or above their
  /// range go to the first or the last), each cut into `fineBands`.
  static let rankMarker: UInt32 = 0xE0FF
  static let coarseBase: UInt32 = 0xE100
  static let coarseRange = -50..<50
  static let fineBase: UInt32 = 0xE200
  static let fineBands = 25

  /// The facets column of an item of these kind classes changed at `modified`
  /// (seconds since 1970) whose name rank is `nameRank` (`item.nameRank`).
  public static func text(
    kindClasses: some Sequence<String>, typeID: Int64?, modified: Double?, nameRank: Double
  ) -> String {
    var terms = kindClasses.compactMap(kindTerm)
    if let type = typeID.flatMap(typeTerm) { terms.append(type) }
    if let modified, let month = monthTerm(month(of: modified)) { terms.append(month) }
    terms.append(rankTerm(nameRank))
    return terms.joined(separator: " ")
  }

  /// The band term of a name rank.
  static func rankTerm(_ rank: Double) -> String {
    let (coarse, fine) = band(of: rank)
    return coarsePrefix(coarse) + character(fineBase + UInt32(fine))
  }

  /// The coarse and fine band of a rank: never decreasing as the rank grows.
  static func band(of rank: Double) -> (coarse: Int, fine: Int) {
    let lowest = Double(coarseRange.lowerBound)
    let highest = Double(coarseRange.upperBound).nextDown
    let doubled = rank.isNaN ? lowest : min(max(rank * 2, lowest), highest)
    let coarse = Int(doubled.rounded(.down))
    let fine = ((doubled - Double(coarse)) * Double(fineBands)).rounded(.down)
    return (coarse, Int(min(fine, Double(fineBands - 1))))
  }

  /// The prefix every rank term of a coarse band starts with.
  static func coarsePrefix(_ coarse: Int) -> String {
    character(rankMarker) + character(coarseBase + UInt32(coarse - coarseRange.lowerBound))
  }

  /// The coarse bands, best ranks first: each the FTS5 expression of its
  /// items, and those of its fine bands in the same order.
  public static let rankBands: [(coarse: String, fine: [String])] = coarseRange.map { coarse in
    let prefix = coarsePrefix(coarse)
    return (
      "facets : \"\(prefix)\" *",
      (0..<fineBands).map { "facets : \"\(prefix + character(fineBase + UInt32($0)))\"" }
    )
  }

  /// The term of a kind class, nil for a class without one.
  public static func kindTerm(_ kind: String) -> String? {
    guard let index = kinds.firstIndex(of: kind) else { return nil }
    return character(kindBase + UInt32(index))
  }

  /// The term of a content type's row in `content_type`, nil past the
  /// characters there are.
  public static func typeTerm(_ id: Int64) -> String? {
    guard id > 0, id < typeCount else { return nil }
    return character(typeBase + UInt32(id - 1))
  }
  /// A type term no item holds: the narrowing of a pattern no type matches.
  static let noType = character(typeBase + UInt32(typeCount - 1))

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

  /// The facets of an item from its columns: `item.kindClasses` (spaced
  /// words), `item.typeID`, `item.modified` and `item.nameRank`.
  static func text(
    kindClassesColumn classes: String?, typeID: Int64?, modified: Double?, nameRank: Double?
  ) -> String {
    text(
      kindClasses: (classes ?? "").split(separator: " ").map(String.init), typeID: typeID,
      modified: modified, nameRank: nameRank ?? 0)
  }

  /// The facets the text index holds of an item (`item_text.facets`): its
  /// kinds, type and month, for an item with a text only (nil otherwise).
  /// Its rank band moves without its text, which would be split again.
  /// An item without a text is found by its names in the name index first:
  /// the text index's tiers leave those out, so their filters' facets
  /// narrow them (``FilterNarrowing``) without losing an item; a count of
  /// a query's items does not use them.
  static func textFacets(_ facets: String?, hasText: Bool) -> String? {
    guard hasText, let facets else { return nil }
    return facets.split(separator: " ")
      .filter { $0.unicodeScalars.first?.value != rankMarker }
      .joined(separator: " ")
  }

  /// `limelight_text_facets(facets, textID)`: ``textFacets(_:hasText:)``
  /// for `item_text_source`.
  static let textFunction = DatabaseFunction(
    "limelight_text_facets", argumentCount: 2, pure: true
  ) { values in
    textFacets(String.fromDatabaseValue(values[0]), hasText: !values[1].isNull)
  }

  /// `limelight_facets(kindClasses, modified, nameRank[, typeID])`: the
  /// facets of an item's columns, for the upgrades that add them.
  static let function = DatabaseFunction("limelight_facets", argumentCount: nil, pure: true) {
    values in
    text(
      kindClassesColumn: String.fromDatabaseValue(values[0]),
      typeID: values.count > 3 ? Int64.fromDatabaseValue(values[3]) : nil,
      modified: Double.fromDatabaseValue(values[1]), nameRank: Double.fromDatabaseValue(values[2]))
  }
}
