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
  ///
  /// Without Foundation's folding, whose first use loads ICU's data (tens
  /// of milliseconds a process): the languages read write their accents
  /// on Latin letters, which ``baseLetters`` maps, and full-width forms
  /// are shifted to ASCII.
  static func fold(_ text: String) -> String {
    if text.utf8.allSatisfy({ $0 < 0x80 }) { return text.lowercased() }
    var out = String.UnicodeScalarView()
    for scalar in text.lowercased().unicodeScalars {
      switch scalar.value {
      case 0x2019, 0x2018: out.append("'")
      case 0xFF01...0xFF5E: out.append(Unicode.Scalar(scalar.value - 0xFEE0)!)
      case 0x300...0x36F: continue  // A combining accent.
      default: out.append(baseLetters[scalar] ?? scalar)
      }
    }
    return String(out)
  }

  /// Latin letters with accents, lower case, and the letter without.
  static let baseLetters: [Unicode.Scalar: Unicode.Scalar] = {
    let groups = [
      ("a", "àáâãäåāăą"), ("c", "çćĉċč"), ("d", "ď"), ("e", "èéêëēĕėęě"), ("g", "ĝğġģ"),
      ("h", "ĥ"), ("i", "ìíîïĩīĭįı"), ("j", "ĵ"), ("k", "ķ"), ("l", "ĺļľŀł"), ("n", "ñńņňŉ"),
      ("o", "òóôõöøōŏő"), ("r", "ŕŗř"), ("s", "śŝşš"), ("t", "ţťŧ"), ("u", "ùúûüũūŭůűų"),
      ("w", "ŵ"), ("y", "ýÿŷ"), ("z", "źżž"),
    ]
    var table: [Unicode.Scalar: Unicode.Scalar] = [:]
    for (base, accented) in groups {
      for scalar in accented.unicodeScalars { table[scalar] = base.unicodeScalars.first! }
    }
    return table
  }()

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
      let trimmed = trimmedPunctuation(raw)
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

  /// A token without the punctuation around it (a sentence's commas and
  /// question marks).
  static func trimmedPunctuation(_ token: String) -> String {
    let marks: Set<Character> = [
      ",", ".", ";", "!", "?", "¿", "¡", "\"", "'", "(", ")", "、", "。", "，", "？", "！",
    ]
    guard let first = token.firstIndex(where: { !marks.contains($0) }),
      let last = token.lastIndex(where: { !marks.contains($0) })
    else { return "" }
    return String(token[first...last])
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

  /// The words the tables know that a CJK run may hold, by their first
  /// character, longest first.
  static let cjkVocabulary: [Character: [[Character]]] = {
    var words = Set(
      LanguageWords.all.keys.filter { $0.unicodeScalars.contains(where: SearchText.isCJK) })
    for language in ["ja", "zh"] {
      guard let calendar = CalendarWords.cldr[language] else { continue }
      words.formUnion(calendar.months.joined().map(fold))
      words.formUnion(calendar.weekdays.joined().map(fold))
      words.formUnion(calendar.named.map { fold($0.0) })
      for (pattern, _) in calendar.ago {
        words.formUnion(fold(pattern).split { $0 == " " || $0 == "#" }.map(String.init))
      }
    }
    var table: [Character: [[Character]]] = [:]
    for word in words.sorted(by: { $0.count > $1.count }) {
      guard let first = word.first else { continue }
      table[first, default: []].append(Array(word))
    }
    return table
  }()

  /// A CJK run cut at the longest known word at each place; digits apart;
  /// what is left between known words is one unit.
  static func segments(of text: String) -> [Unit] {
    var units: [Unit] = []
    // Folded once (folding keeps the characters' count: lower case, an
    // accent off, a full-width form to ASCII).
    let folded = Array(fold(text))
    let typed = Array(text)
    guard folded.count == typed.count else {
      return [Unit(folded: fold(text), typed: text)]
    }
    var position = 0
    var unknown = ""
    func flushUnknown() {
      guard !unknown.isEmpty else { return }
      units.append(Unit(folded: fold(unknown), typed: unknown, joined: !units.isEmpty))
      unknown = ""
    }
    while position < folded.count {
      let first = folded[position]
      let word = cjkVocabulary[first]?.first { word in
        word.count <= folded.count - position
          && zip(word, folded[position...]).allSatisfy { $0 == $1 }
      }
      if let word {
        flushUnknown()
        let length = word.count
        units.append(
          Unit(
            folded: String(word), typed: String(typed[position..<position + length]),
            joined: !units.isEmpty))
        position += length
      } else if first.isASCII && first.isNumber {
        flushUnknown()
        let digits = folded[position...].prefix { $0.isASCII && $0.isNumber }
        units.append(Unit(folded: String(digits), typed: String(digits), joined: !units.isEmpty))
        position += digits.count
      } else {
        unknown.append(typed[position])
        position += 1
      }
    }
    flushUnknown()
    return units
  }
}
