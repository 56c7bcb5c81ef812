import Foundation
import LimelightModel

/// Reads dates the way people say them into the values of `modified:`
/// (and `created:`, `used:`, `taken:`): past-facing, both named ends of a
/// range included, weeks as the calendar counts them.
struct DateReader {
  let now: Date
  let calendar: Calendar
  /// The start of the day `now` is in, reckoned once.
  let startOfToday: Date
  /// The languages the query is written in, by its words that carry no
  /// meaning (none known: any): a weekday or a month named in another
  /// language is a word ("mon" is Monday in English, "my" in French).
  var languages: Set<String> = []

  init(now: Date, calendar: Calendar) {
    self.now = now
    self.calendar = calendar
    startOfToday = calendar.startOfDay(for: now)
  }

  /// A span of days: its first day and its last (inclusive), and the
  /// period it is, when one (`2026-11`, `2024`, `2026-11-20`).
  struct Span {
    var first: DateComponents
    var last: DateComponents
    var period: String?
  }

  typealias Units = [PhraseReader.Unit]

  // MARK: Calendar words of every language

  /// Named spans ("yesterday", "letzte Woche"), month and weekday names,
  /// and "ago" patterns, of every language read, folded.
  static let named: [String: (CalendarWords.Unit, Int)] = {
    var table: [String: (CalendarWords.Unit, Int)] = [:]
    for words in CalendarWords.cldr.values {
      for (text, unit, offset) in words.named where table[PhraseReader.fold(text)] == nil {
        table[PhraseReader.fold(text)] = (unit, offset)
        // As the query's units hold an elision: "l annee derniere".
        let apart = String(PhraseReader.fold(text).map { $0 == "'" ? " " : $0 })
        if table[apart] == nil { table[apart] = (unit, offset) }
      }
    }
    // Where ICU has a number instead ("2 days ago" for English).
    for (text, unit, offset) in LanguageWords.namedSpans {
      table[PhraseReader.fold(text)] = (unit, offset)
    }
    return table
  }()
  static let months: [String: Int] = names(\.months)
  static let weekdays: [String: Int] = names(\.weekdays)
  /// The languages each folded month or weekday name is of.
  static let nameLanguages: [String: Set<String>] = {
    var table: [String: Set<String>] = [:]
    for (language, words) in CalendarWords.cldr {
      for forms in words.months + words.weekdays {
        for form in forms { table[PhraseReader.fold(form), default: []].insert(language) }
      }
    }
    return table
  }()

  /// Whether `word` (folded) names a month or a weekday in a language the
  /// query may be written in.
  func namesInQueryLanguage(_ word: String) -> Bool {
    !LanguageWords.isForeign(Self.nameLanguages[word], to: languages)
  }
  static let agoPatterns: [([String], CalendarWords.Unit)] = CalendarWords.cldr.values.flatMap {
    // "#" apart, also where CJK writes it against its unit ("#天前").
    $0.ago.map {
      (
        PhraseReader.fold($0.0).flatMap { $0 == "#" ? [" ", "#", " "] : [$0] }
          .split(separator: " ").map { String($0) }, $0.1
      )
    }
  }
  static let longestNamed =
    named.keys.map { $0.utf8.count { $0 == UInt8(ascii: " ") } + 1 }.max() ?? 1

  private static func names(_ path: KeyPath<CalendarWords, [[String]]>) -> [String: Int] {
    var table: [String: Int] = [:]
    for words in CalendarWords.cldr.values {
      for (index, forms) in words[keyPath: path].enumerated() {
        for form in forms { table[PhraseReader.fold(form)] = index + 1 }
      }
    }
    return table
  }

  // MARK: Expressions

  /// A date expression at `index` as a filter's value, and how many units
  /// it took; nil when none starts there.
  func expression(_ units: Units, at index: Int) throws(QueryError) -> (String, Int)? {
    // A preposition may be several words ("antes de", "older than").
    let found = units.phrase(at: index)
    let meanings = found?.meanings ?? []
    let prepositionLength = found?.length ?? 1
    // "between P and Q", "from P to Q"
    if meanings.contains(.between) || meanings.contains(.from) {
      if let range = try range(units, from: index + prepositionLength) {
        return (range.0, range.1 + prepositionLength)
      }
    }
    for (meaning, form) in [
      (WordMeaning.since, ">="), (.before, "<"), (.after, ">"), (.until, "<="), (.during, ""),
      (.from, ""),
    ] where meanings.contains(meaning) {
      // "in the last 2 weeks", "im vergangenen Monat": words that mean
      // nothing between, when the point is not read without them.
      var start = index + prepositionLength
      while start - index <= prepositionLength + 2 {
        if let (span, length) = try point(units, at: start, bare: false) {
          return (value(span, form), start - index + length)
        }
        guard units.meanings(at: start).contains(.function) else {
          break
        }
        start += 1
      }
    }
    guard let (span, length) = try point(units, at: index, bare: true) else { return nil }
    // A Chinese or Japanese postposition: 先週から, 2020年以前.
    let after = index + length
    if after < units.count, units[after].joined {
      let next = units.meanings(at: after)
      for (meaning, form) in [(WordMeaning.since, ">="), (.before, "<"), (.until, "<=")]
      where next.contains(meaning) {
        return (value(span, form), length + 1)
      }
    }
    return (value(span, ""), length)
  }

  /// A span as a filter's value, after a comparison (`>=`, `<`, `>`, `<=`, or none).
  func value(_ span: Span, _ form: String) -> String {
    switch form {
    case ">=", "<": return form + (span.period ?? day(span.first))
    case ">", "<=": return form + (span.period ?? day(span.last))
    default:
      return span.period ?? day(span.first) + ".." + day(span.last)
    }
  }

  /// "P and Q", "P to Q" after "between" or "from", and its units.
  private func range(_ units: Units, from index: Int) throws(QueryError) -> (String, Int)? {
    // "from 4 to 22 January": the first end a day of the second's month.
    var firstDay: Int?
    var firstSpan: Span?
    var length = 0
    if index < units.count, let day = Int(units[index].folded.trimmingCharacters(in: ["."])),
      (1...31).contains(day), index + 1 < units.count,
      !units.meanings(at: index + 1).contains(
        where: Self.isUnitMeaning),
      Self.months[units[index + 1].folded] == nil
    {
      firstDay = day
      length = 1
    } else if let (span, taken) = try point(units, at: index, bare: false) {
      firstSpan = span
      length = taken
    } else {
      return nil
    }
    let joint = index + length
    guard joint < units.count else { return nil }
    let jointMeanings = units.meanings(at: joint)
    guard jointMeanings.contains(.and) || jointMeanings.contains(.until) else { return nil }
    guard let (last, lastLength) = try point(units, at: joint + 1, bare: false) else { return nil }
    let words = units[index..<joint + 1 + lastLength].map(\.typed).joined(separator: " ")
    var first: Span
    if let firstDay {
      var components = last.first
      components.day = firstDay
      first = try dayOrThrow(components, words)
    } else {
      first = firstSpan!
      // "between March and May": March before May, the year May is in.
      if first.first.year != last.first.year, first.period?.count == 7,
        last.period?.count == 7, let year = last.first.year,
        let month = first.first.month, month <= (last.first.month ?? 12)
      {
        first = monthSpan(year: year, month: month)
      }
    }
    guard let start = calendar.date(from: first.first), let end = calendar.date(from: last.last),
      start <= end
    else {
      throw QueryError("'\(words)' is an empty range of dates: its start comes after its end")
    }
    let low = first.period ?? day(first.first)
    let high = last.period ?? day(last.last)
    return (low + ".." + high, 1 + joint + lastLength - index)
  }

  private static func isUnitMeaning(_ meaning: WordMeaning) -> Bool {
    if case .unit = meaning { return true }
    return false
  }

  /// A point in time at `index` (a day, a week, a month, a year or a run
  /// of days) and its units. `bare`: with no preposition before it, when
  /// only what cannot be a plain word is read ("yesterday", "last week",
  /// "March 2024", "3 days ago", not "may" or "2019" alone).
  func point(_ units: Units, at index: Int, bare: Bool) throws(QueryError) -> (Span, Int)? {
    guard index < units.count, !units[index].isSyntax else { return nil }
    // Named: the longest phrase first.
    var length = min(Self.longestNamed, units.count - index)
    while length > 0 {
      let key = Reading.key(units[index..<index + length])
      if let (unit, offset) = Self.named[key] {
        return (span(of: unit, back: -offset), length)
      }
      length -= 1
    }
    // "3 days ago", "vor 3 Tagen", "il y a 3 jours", "3日前"
    for (pattern, unit) in Self.agoPatterns where index + pattern.count <= units.count {
      var count: Int?
      var matches = true
      for (offset, word) in pattern.enumerated() {
        let folded = units[index + offset].folded
        if word == "#" {
          count = Int(folded)
          if count == nil { matches = false }
        } else if folded != word {
          matches = false
        }
        if !matches { break }
      }
      if matches, let count, count < 10_000 {
        return (span(of: unit, back: count), pattern.count)
      }
    }
    let meanings = units.meanings(at: index)
    // "last 3 days", "past few weeks", "letzten 2 Wochen", "過去3日間"
    if meanings.contains(.last) {
      var next = index + 1
      var count = 1
      if next < units.count, let n = Int(units[next].folded), n > 0, n < 10_000 {
        count = n
        next += 1
      } else if units.meanings(at: next).contains(.few) {
        count = 3
        next += 1
      }
      if let unit = unitAt(units, next) {
        // No number: the calendar's last one ("letzter Woche", "past month").
        if next == index + 1 { return (span(of: unit, back: 1), 2) }
        return (lastRun(count, unit), next + 1 - index)
      }
      // "last sept", "last Friday"
      if next == index + 1, next < units.count {
        if let month = Self.months[units[next].folded] {
          return (recentMonth(month, strictlyBefore: true), 2)
        }
        if let weekday = Self.weekdays[units[next].folded] {
          return (recentWeekday(weekday, strictlyBefore: true), 2)
        }
      }
    }
    // "les 3 derniers jours", "3 past days"
    if let n = Int(units[index].folded), n > 0, n < 10_000, index + 2 < units.count,
      units.meanings(at: index + 1).contains(.last), let unit = unitAt(units, index + 2)
    {
      return (lastRun(n, unit), 3)
    }
    return try calendarPoint(units, at: index, bare: bare)
  }

  private func unitAt(_ units: Units, _ index: Int) -> CalendarWords.Unit? {
    for case .unit(let unit) in units.meanings(at: index) { return unit }
    return nil
  }

  /// A weekday, a month (with its year), a day of a month, or a year.
  private func calendarPoint(_ units: Units, at index: Int, bare: Bool) throws(QueryError) -> (
    Span, Int
  )? {
    let word = units[index].folded
    let cjk = units[index].typed.unicodeScalars.contains(where: SearchText.isCJK)
    func number(_ at: Int) -> Int? {
      guard at < units.count else { return nil }
      var text = units[at].folded
      if text.hasSuffix(".") || text.hasSuffix(",") { text.removeLast() }
      return Int(text)
    }
    func isYear(_ at: Int) -> Int? { number(at).flatMap { (1900...2200).contains($0) ? $0 : nil } }
    func skipOf(_ at: Int) -> Int {
      // "4 de enero de 2024"
      at < units.count && units[at].folded == "de" ? at + 1 : at
    }
    guard namesInQueryLanguage(word) else { return nil }
    if let weekday = Self.weekdays[word], !bare || cjk {
      return (recentWeekday(weekday, strictlyBefore: false), 1)
    }
    if let month = Self.months[word] {
      // "March 4, 2024", "January 4"
      if let day = number(index + 1), (1...31).contains(day), isYear(index + 1) == nil {
        let yearAt = index + 2
        if let year = isYear(yearAt) {
          return (try dayOrThrow(year: year, month: month, day: day, units, index..<yearAt + 1), 3)
        }
        return (try recentDay(month: month, day: day, units, index..<index + 2), 2)
      }
      let yearAt = skipOf(index + 1)
      if let year = isYear(yearAt) {
        return (monthSpan(year: year, month: month), yearAt + 1 - index)
      }
      if bare && !cjk { return nil }
      return (recentMonth(month, strictlyBefore: false), 1)
    }
    // "4 January", "4. Januar", "4 de enero 2024"
    if let day = number(index), (1...31).contains(day), isYear(index) == nil {
      let monthAt = skipOf(index + 1)
      if monthAt < units.count, let month = Self.months[units[monthAt].folded] {
        let yearAt = skipOf(monthAt + 1)
        if let year = isYear(yearAt) {
          return (
            try dayOrThrow(year: year, month: month, day: day, units, index..<yearAt + 1),
            yearAt + 1 - index
          )
        }
        return (
          try recentDay(month: month, day: day, units, index..<monthAt + 1), monthAt + 1 - index
        )
      }
    }
    if let year = isYear(index) {
      // "2024年3月", "2024年"
      if index + 1 < units.count, units[index + 1].joined, ["年"].contains(units[index + 1].folded) {
        if index + 2 < units.count, let month = Self.months[units[index + 2].folded] {
          return (monthSpan(year: year, month: month), 3)
        }
        return (yearSpan(year), 2)
      }
      if bare { return nil }
      return (yearSpan(year), 1)
    }
    return nil
  }

  // MARK: Spans

  func components(_ date: Date) -> DateComponents {
    calendar.dateComponents([.year, .month, .day], from: date)
  }

  func day(_ components: DateComponents) -> String {
    Self.padded(components.year ?? 0, 4) + "-" + Self.padded(components.month ?? 1, 2) + "-"
      + Self.padded(components.day ?? 1, 2)
  }

  /// A number with zeros before it to `width` digits (no `String(format:)`,
  /// which costs more than the rest of a reading).
  static func padded(_ number: Int, _ width: Int) -> String {
    let digits = String(number)
    return String(repeating: "0", count: max(0, width - digits.count)) + digits
  }

  var today: Date { startOfToday }

  private func adding(_ unit: Calendar.Component, _ value: Int, to date: Date) -> Date {
    calendar.date(byAdding: unit, value: value, to: date) ?? date
  }

  /// The day, week, month or year `back` of them before this one.
  func span(of unit: CalendarWords.Unit, back: Int) -> Span {
    switch unit {
    case .day:
      let day = components(adding(.day, -back, to: today))
      return Span(first: day, last: day, period: self.day(day))
    case .week:
      let weekday = calendar.component(.weekday, from: today)
      let sinceStart = (weekday - calendar.firstWeekday + 7) % 7
      let start = adding(.day, -sinceStart - 7 * back, to: today)
      return Span(first: components(start), last: components(adding(.day, 6, to: start)))
    case .month:
      let date = components(adding(.month, -back, to: today))
      return monthSpan(year: date.year!, month: date.month!)
    case .year:
      return yearSpan(components(today).year! - back)
    }
  }

  /// The `count` days, weeks, months or years up to today.
  func lastRun(_ count: Int, _ unit: CalendarWords.Unit) -> Span {
    let component: Calendar.Component =
      switch unit {
      case .day: .day
      case .week: .weekOfYear
      case .month: .month
      case .year: .year
      }
    let start = adding(.day, 1, to: adding(component, -count, to: today))
    return Span(first: components(start), last: components(today))
  }

  func monthSpan(year: Int, month: Int) -> Span {
    let first = DateComponents(year: year, month: month, day: 1)
    let days = calendar.date(from: first).flatMap { calendar.range(of: .day, in: .month, for: $0) }
    return Span(
      first: first, last: DateComponents(year: year, month: month, day: days?.count ?? 28),
      period: Self.padded(year, 4) + "-" + Self.padded(month, 2))
  }

  func yearSpan(_ year: Int) -> Span {
    Span(
      first: DateComponents(year: year, month: 1, day: 1),
      last: DateComponents(year: year, month: 12, day: 31), period: Self.padded(year, 4))
  }

  /// The latest such month that has begun (before this one, when `strictlyBefore`).
  func recentMonth(_ month: Int, strictlyBefore: Bool) -> Span {
    let now = components(today)
    var year = now.year!
    if month > now.month! || (strictlyBefore && month == now.month!) { year -= 1 }
    return monthSpan(year: year, month: month)
  }

  /// The latest such weekday (before today, when `strictlyBefore`); Monday is 1.
  func recentWeekday(_ weekday: Int, strictlyBefore: Bool) -> Span {
    let todayWeekday = (calendar.component(.weekday, from: today) + 5) % 7 + 1
    var back = (todayWeekday - weekday + 7) % 7
    if back == 0 && strictlyBefore { back = 7 }
    return span(of: .day, back: back)
  }

  /// The latest such day that has come, this year or last.
  private func recentDay(month: Int, day: Int, _ units: Units, _ range: Range<Int>)
    throws(QueryError)
    -> Span
  {
    let year = components(today).year!
    let words = units[range].map(\.typed).joined(separator: " ")
    let this = try dayOrThrow(
      DateComponents(year: year, month: month, day: day), words, leapOK: true)
    if let date = calendar.date(from: this.first), date <= today { return this }
    return try dayOrThrow(DateComponents(year: year - 1, month: month, day: day), words)
  }

  private func dayOrThrow(
    year: Int, month: Int, day: Int, _ units: Units, _ range: Range<Int>
  ) throws(QueryError) -> Span {
    try dayOrThrow(
      DateComponents(year: year, month: month, day: day),
      units[range.clamped(to: units.indices)].map(\.typed).joined(separator: " "))
  }

  /// The day named, or an error naming the words when there is none
  /// ("February 30"). `leapOK`: February 29 of a year without one is
  /// left for the year before to settle.
  private func dayOrThrow(_ components: DateComponents, _ words: String, leapOK: Bool = false)
    throws(QueryError) -> Span
  {
    guard let month = components.month, let day = components.day,
      let first = calendar.date(from: DateComponents(year: components.year, month: month, day: 1)),
      let days = calendar.range(of: .day, in: .month, for: first)
    else { throw QueryError("'\(words)' is not a date") }
    if day > days.count {
      if leapOK && month == 2 && day == 29 {
        return Span(first: components, last: components, period: self.day(components))
      }
      let name = CalendarWords.cldr["en"]?.months[month - 1].first?.capitalized ?? String(month)
      throw QueryError("'\(words)' is not a date: \(name) has no day \(day)")
    }
    return Span(first: components, last: components, period: self.day(components))
  }

  // MARK: Sizes

  /// "over 50 MB", "larger than 1 GB", "unter 100k": a `size:` value and
  /// its units.
  func sizeExpression(
    _ units: Units, at index: Int, phrase: (Int) -> (meanings: [WordMeaning], length: Int)?
  ) -> (String, Int)? {
    guard let (meanings, length) = phrase(index) else { return nil }
    let op: String
    if meanings.contains(.larger) {
      op = ">"
    } else if meanings.contains(.smaller) {
      op = "<"
    } else {
      return nil
    }
    let at = index + length
    guard at < units.count else { return nil }
    let word = String(units[at].folded.map { $0 == "," ? "." : $0 })
    if RangeParser.bytes(word) != nil, word.contains(where: \.isLetter) {
      return (op + word.uppercased(), length + 1)
    }
    guard Double(word) != nil, at + 1 < units.count else { return nil }
    let unit = units[at + 1].folded
    guard ["b", "k", "kb", "m", "mb", "g", "gb", "t", "tb", "ko", "mo", "go"].contains(unit) else {
      return nil
    }
    // French octets: ko, Mo, Go.
    let english = unit.hasSuffix("o") ? String(unit.dropLast()) + "b" : unit
    guard RangeParser.bytes(word + english) != nil else { return nil }
    return (op + word + english.uppercased(), length + 2)
  }
}
