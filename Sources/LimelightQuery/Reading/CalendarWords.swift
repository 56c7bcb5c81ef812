import Foundation

/// The calendar words of one language, as ICU's locale data (CLDR) has
/// them: what ``PhraseReader`` reads dates with. Generated, never written
/// by hand (`CalendarWords+CLDR.swift`, from scripts/generate-calendar-words),
/// so that another language costs data, not code.
struct CalendarWords: Sendable {
  /// A unit of calendar time a relative phrase counts in.
  enum Unit: String, Sendable { case day, week, month, year }

  /// Every form of each month's name, January first.
  var months: [[String]]
  /// Every form of each weekday's name, Monday first.
  var weekdays: [[String]]
  /// Named relative spans: "yesterday" is a day, one back.
  var named: [(String, Unit, Int)]
  /// "# days ago", with `#` where the number goes.
  var ago: [(String, Unit)]
}
