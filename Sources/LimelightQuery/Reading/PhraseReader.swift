import Foundation
import LimelightModel

/// What a person's words were read as: filters in `find-in`'s own
/// language, the words still to find, and the words that carry no meaning.
public struct PhraseReading: Equatable, Sendable {
  /// The filters read, each as a person could type it (`kind:pdf`,
  /// `modified:2026-11-16..2026-11-22`, `author:"Miles Davis"`).
  public var filters: [String] = []
  /// The words left to find, as typed (and any filter syntax typed, as is).
  public var words: [String] = []
  /// Words that carry no meaning ("how", "the", "von"), left out.
  public var ignored: [String] = []
  /// Whether the largest should come first ("big videos").
  public var largestFirst = false

  /// Whether anything was read: otherwise the query is its words as typed.
  public var isRead: Bool { !filters.isEmpty || !ignored.isEmpty }

  /// The reading in the filter language, on one line.
  public var line: String {
    (filters + (largestFirst ? ["sort:size"] : []) + words).joined(separator: " ")
  }
}

/// Reads a query in a person's words — "pdfs from last week", "Fotos von
/// gestern", "emails from anna about the budget", "先週の写真" — into
/// `find-in`'s filters: kinds by the words people use, dates the way people
/// say them (past-facing, the date chosen by the verb), sizes relative to
/// the kind, people by "by", "from" and "to". English, German, French,
/// Spanish, Japanese and Chinese at once; the calendar words come from ICU
/// (``CalendarWords``), the rest from ``LanguageWords``.
///
/// Filter syntax typed among the words (`kind:pdf`, `"a phrase"`, `-word`)
/// is kept as typed. A query that reads as nothing is its words.
public struct PhraseReader {
  /// The moment relative dates count back from.
  public let now: Date
  /// The calendar dates are read in: its time zone, and its first weekday
  /// for "this week" and "last week".
  public let calendar: Calendar

  public init(now: Date, calendar: Calendar) {
    self.now = now
    self.calendar = calendar
  }

  /// A word as the tables hold it: lower case, no accents, typographic
  /// apostrophes as plain ones.
  static func fold(_ text: String) -> String {
    text.lowercased().replacingOccurrences(of: "\u{2019}", with: "'")
      .folding(options: [.diacriticInsensitive, .widthInsensitive], locale: nil)
      .precomposedStringWithCanonicalMapping
  }

  // MARK: Units

  /// One unit of the query: a word (folded, and as typed), a CJK segment
  /// or a piece of filter syntax.
  struct Unit {
    var folded: String
    var typed: String
    /// Filter syntax, a quoted phrase, an exclusion or a group: kept as typed.
    var isSyntax = false
    /// Joined to the unit before it without a space (a CJK segment).
    var joined = false
  }

  /// The query cut into units: words at spaces (punctuation around them
  /// dropped), Chinese and Japanese runs cut at the words the tables know.
  static func units(of query: String) -> [Unit] {
    var units: [Unit] = []
    for raw in rawTokens(query) {
      if isSyntax(raw) {
        units.append(Unit(folded: raw, typed: raw, isSyntax: true))
        continue
      }
      let trimmed = raw.trimmingCharacters(in: CharacterSet(charactersIn: ",.;!?¿¡\"'()、。，？！"))
      guard !trimmed.isEmpty else { continue }
      if trimmed.unicodeScalars.contains(where: SearchText.isCJK) {
        units += segments(of: trimmed)
      } else if let parts = compoundParts(trimmed) {
        // "PDF-Dateien": a compound of words the tables know.
        units += parts.map { Unit(folded: fold($0), typed: $0) }
      } else if let (article, word) = elision(trimmed) {
        // French "d'hier", "l'année": the article a word of its own.
        units.append(Unit(folded: fold(article), typed: article))
        units.append(Unit(folded: fold(word), typed: word))
      } else {
        units.append(Unit(folded: fold(trimmed), typed: trimmed))
      }
    }
    return units
  }

  /// The parts of a hyphenated word the tables do not know whole but know
  /// each part of ("PDF-Dateien"; "e-mail" is a word of its own).
  static func compoundParts(_ token: String) -> [String]? {
    guard token.contains("-"), LanguageWords.all[fold(token)] == nil else { return nil }
    let parts = token.split(separator: "-").map(String.init)
    guard parts.count > 1, parts.allSatisfy({ LanguageWords.all[fold($0)] != nil }) else {
      return nil
    }
    return parts
  }

  /// An elided article and the word after it ("d'" and "hier").
  static func elision(_ token: String) -> (String, String)? {
    guard let mark = token.firstIndex(where: { $0 == "'" || $0 == "\u{2019}" }) else { return nil }
    let article = token[..<mark].lowercased()
    let word = token[token.index(after: mark)...]
    guard ["l", "d", "j", "qu", "n", "s", "c", "m", "t"].contains(article), !word.isEmpty else {
      return nil
    }
    return (String(token[..<mark]), String(word))
  }

  /// Tokens at spaces, a quoted phrase (alone or as a filter's value) one token.
  static func rawTokens(_ query: String) -> [String] {
    var tokens: [String] = []
    var current = ""
    var quoted = false
    for ch in query {
      if ch == "\"" { quoted.toggle() }
      if ch.isWhitespace && !quoted {
        if !current.isEmpty { tokens.append(current) }
        current = ""
      } else {
        current.append(ch)
      }
    }
    if !current.isEmpty { tokens.append(current) }
    return tokens
  }

  /// Whether a token is the query language's own syntax.
  static func isSyntax(_ token: String) -> Bool {
    if token.hasPrefix("\"") || token.hasPrefix("(") || token.hasSuffix(")") { return true }
    if token == "OR" || token == "|" || token == "||" { return true }
    if token.count > 1 && token.hasPrefix("-") && !token.dropFirst().allSatisfy(\.isNumber) {
      return true
    }
    if let colon = token.firstIndex(of: ":"), colon != token.startIndex,
      QueryParser.filterNames.contains(token[..<colon].lowercased())
    {
      return true
    }
    return false
  }

  /// The words the tables know that a CJK run may hold, longest first.
  static let cjkVocabulary: [String] = {
    var words = Set(
      LanguageWords.all.keys.filter { $0.unicodeScalars.contains(where: SearchText.isCJK) })
    for language in ["ja", "zh"] {
      guard let calendar = CalendarWords.cldr[language] else { continue }
      words.formUnion(calendar.months.joined().map(fold))
      words.formUnion(calendar.weekdays.joined().map(fold))
      words.formUnion(calendar.named.map { fold($0.0) })
      for (pattern, _) in calendar.ago {
        words.formUnion(fold(pattern).split(separator: " ").map(String.init).filter { $0 != "#" })
      }
    }
    return words.sorted { $0.count > $1.count }
  }()

  /// A CJK run cut at the longest known word at each place; digits apart;
  /// what is left between known words is one unit.
  static func segments(of text: String) -> [Unit] {
    var units: [Unit] = []
    var rest = Substring(text)
    var unknown = ""
    func flushUnknown() {
      guard !unknown.isEmpty else { return }
      units.append(Unit(folded: fold(unknown), typed: unknown, joined: !units.isEmpty))
      unknown = ""
    }
    while let first = rest.first {
      let folded = fold(String(rest))
      if let word = cjkVocabulary.first(where: { folded.hasPrefix($0) }) {
        flushUnknown()
        let length = word.count
        units.append(Unit(folded: word, typed: String(rest.prefix(length)), joined: !units.isEmpty))
        rest = rest.dropFirst(length)
      } else if first.isASCII && first.isNumber {
        flushUnknown()
        let digits = rest.prefix { $0.isASCII && $0.isNumber }
        units.append(Unit(folded: String(digits), typed: String(digits), joined: !units.isEmpty))
        rest = rest.dropFirst(digits.count)
      } else {
        unknown.append(first)
        rest = rest.dropFirst()
      }
    }
    flushUnknown()
    return units
  }
}
