import Foundation
import LimelightModel

extension PhraseReader {
  /// Reads a query; an impossible date ("February 30") or an empty range
  /// ("from 22 to 4 January") throws, naming the words.
  public func read(_ query: String) throws(QueryError) -> PhraseReading {
    let units = Self.units(of: query)
    var dates = DateReader(now: now, calendar: calendar)
    dates.languages = Reading.languages(of: units)
    var reader = Reading(units: units, dates: dates)
    try reader.read()
    guard reader.isDescription else { return reader.result }
    var description = Reading(units: units, dates: dates, asDescription: true)
    try description.read()
    return description.result
  }
}

/// One reading as it goes: the units, what each was read as, the result.
struct Reading {
  let units: [PhraseReader.Unit]
  let dates: DateReader
  var result = PhraseReading()
  private var kinds: [KindClass] = []
  private var field = DateField.modified
  private var datesRead: [String] = []
  private var size: String?
  private var people: [String] = []
  private var sizeWord: WordMeaning?
  /// The unit the last word came from: a CJK run's unread segments join
  /// back into one word ("日本" stays one, though "日" is a unit of time).
  private var lastWordUnit = -2
  /// Whether the query is read as a description (``isDescription``): its
  /// words of kinds, sizes and people are words, its dates still dates.
  let asDescription: Bool

  init(units: [PhraseReader.Unit], dates: DateReader, asDescription: Bool = false) {
    self.units = units
    self.dates = dates
    self.asDescription = asDescription
  }

  /// Whether the query, read, reads as a description: enough words beside
  /// its filters (``ReadQuery/sentenceWords``), and a kind, a size or a
  /// person read from its words ("small", "below a folder", "by sending
  /// it a signal" in a sentence).
  var isDescription: Bool {
    result.words.count { !$0.contains(":") } >= ReadQuery.sentenceWords
      && (!kinds.isEmpty || sizeWord != nil || !people.isEmpty)
  }

  func phrase(at index: Int) -> (meanings: [WordMeaning], length: Int)? {
    units.phrase(at: index)
  }

  func meanings(at index: Int) -> [WordMeaning] { units.meanings(at: index) }

  /// Units as a table key: words apart, CJK segments together.
  static func key(_ units: ArraySlice<PhraseReader.Unit>) -> String {
    var key = ""
    for (offset, unit) in units.enumerated() {
      if offset > 0 && !unit.joined { key += " " }
      key += unit.folded
    }
    return key
  }

  /// The languages the words of `units` that carry no meaning are of
  /// ("the", "de", "の"): none when they have none, as a query of a few words.
  static func languages(of units: [PhraseReader.Unit]) -> Set<String> {
    units.reduce(into: Set<String>()) { found, unit in
      if !unit.isSyntax, let languages = LanguageWords.functionLanguages[unit.typed.lowercased()] {
        found.formUnion(languages)
      }
    }
  }

  /// Whether the query names e-mail (`kind:email` read, or typed).
  private var aboutEmail: Bool {
    units.indices.contains { index in
      meanings(at: index).contains(.kind(.email)) || units[index].folded == "kind:email"
    }
  }

  mutating func read() throws(QueryError) {
    // The verb chooses the date wherever it is ("photos taken last week").
    var used = Set<Int>()
    for index in units.indices where !units[index].isSyntax {
      guard let (meanings, length) = phrase(at: index) else { continue }
      for case .dateField(let verb) in meanings {
        field = verb
        used.formUnion(index..<index + length)
      }
    }
    let email = aboutEmail
    var index = 0
    while index < units.count {
      if used.contains(index) {
        index += 1
        continue
      }
      let unit = units[index]
      if unit.isSyntax {
        result.words.append(unit.typed)
        index += 1
        continue
      }
      if let (value, length) = try dates.expression(units, at: index) {
        datesRead.append(value)
        index += length
        continue
      }
      if let (value, length) = dates.sizeExpression(units, at: index, phrase: phrase) {
        size = value
        index += length
        continue
      }
      let found = phrase(at: index)
      let length = found?.length ?? 1
      var meanings = found?.meanings ?? []
      // A kind named in a language the query is not written in is a word:
      // "capture" is a screenshot in French, not in "capture what they print".
      if LanguageWords.isForeign(
        LanguageWords.kindLanguages[Self.key(units[index..<index + length])], to: dates.languages)
      {
        meanings.removeAll { if case .kind = $0 { true } else { false } }
      }
      if !asDescription, !isCompound(index, length),
        let kind = meanings.lazy.compactMap({ if case .kind(let k) = $0 { k } else { nil } }).first
      {
        if !kinds.contains(kind) { kinds.append(kind) }
        index += length
        continue
      }
      if !asDescription,
        let word = meanings.first(where: { [.big, .huge, .small, .tiny].contains($0) })
      {
        sizeWord = word
        index += length
        continue
      }
      // People: "by" always names one; "from" a sender or an author
      // written with a capital; "to" a recipient, of e-mail alone.
      let role: String? =
        meanings.contains(.by)
        ? "author"
        : meanings.contains(.from) && (email || startsCapitalized(index + length))
          && !LanguageWords.fromTheArticle.contains(units[index].folded)
          ? (email ? "from" : "author")
          : meanings.contains(.to) && email ? "to" : nil
      if !asDescription, let role, let (name, nameLength) = personName(at: index + length) {
        people.append(role + ":" + name)
        index += length + nameLength
        continue
      }
      let ignorable: [WordMeaning] = [.function, .files, .during, .and, .from, .until, .to, .by]
      if (meanings.contains(.function)
        || !meanings.isEmpty && meanings.allSatisfy(ignorable.contains))
        && !joinedToKana(index, length)
      {
        result.ignored.append(units[index..<index + length].map(\.typed).joined(separator: " "))
        index += length
        continue
      }
      if unit.joined && lastWordUnit == index - 1, let last = result.words.popLast() {
        result.words.append(last + unit.typed)
      } else {
        result.words.append(unit.typed)
      }
      lastWordUnit = index
      index += 1
    }
    finish()
  }

  /// Whether the units at `index` (`length` of them) are Chinese
  /// characters written against kana, without a space: Japanese, where a
  /// Chinese function word is a part of a word (的 in 動的ホスト, "dynamic
  /// host", is no particle). Kana's own function words (の) are not.
  private func joinedToKana(_ index: Int, _ length: Int) -> Bool {
    let isKana = { (unit: PhraseReader.Unit) in
      unit.typed.unicodeScalars.contains { (0x3040...0x30FF).contains($0.value) }
    }
    if units[index..<index + length].contains(where: isKana) { return false }
    let before = units[index].joined && index > 0 && isKana(units[index - 1])
    let next = index + length
    let after = next < units.count && units[next].joined && isKana(units[next])
    return before || after
  }

  /// Whether the phrase at `index` (`length` units) names a thing with
  /// the word after it, an article before ("the directory tree", "a text
  /// editor"): a compound, whose kind word is no kind.
  private func isCompound(_ index: Int, _ length: Int) -> Bool {
    let next = index + length
    guard index > 0, next < units.count, !units[next].isSyntax,
      LanguageWords.articles.contains(units[index - 1].folded)
    else { return false }
    return phrase(at: next) == nil && Int(units[next].folded) == nil
  }

  /// Whether the unit at `index` is a word typed with a capital letter.
  private func startsCapitalized(_ index: Int) -> Bool {
    guard index < units.count, !units[index].isSyntax else { return false }
    return units[index].typed.first?.isUppercase ?? false
  }

  /// A person's name at `index`: up to three words the tables give no
  /// meaning, quoted when more than one.
  private func personName(at index: Int) -> (String, Int)? {
    var words: [String] = []
    var next = index
    while next < units.count, words.count < 3, !units[next].isSyntax, phrase(at: next) == nil,
      !units[next].folded.allSatisfy(\.isNumber)
    {
      words.append(units[next].typed)
      next += 1
    }
    guard !words.isEmpty else { return nil }
    let name = words.joined(separator: " ")
    return (words.count == 1 ? name : "\"" + name + "\"", words.count)
  }

  private mutating func finish() {
    var filters: [String] = []
    switch kinds.count {
    case 0: break
    case 1: filters.append("kind:" + kinds[0].rawValue)
    default:
      filters.append("(" + kinds.map { "kind:" + $0.rawValue }.joined(separator: " OR ") + ")")
    }
    filters += datesRead.map { field.rawValue + ":" + $0 }
    if let sizeWord {
      let (big, small) = SizeWords.thresholds(for: kinds.count == 1 ? kinds[0] : nil)
      switch sizeWord {
      case .big: filters.append("size:>=" + SizeWords.text(big))
      case .huge: filters.append("size:>=" + SizeWords.text(big * 4))
      case .small: filters.append("size:<" + SizeWords.text(small))
      default: filters.append("size:<" + SizeWords.text(small / 4))
      }
      result.largestFirst = sizeWord == .big || sizeWord == .huge
    }
    if let size { filters.append("size:" + size) }
    filters += people
    result.filters = filters
    // Nothing read: the words as typed, none left out.
    if !result.isRead {
      result.words = units.map(\.typed)
    } else if filters.isEmpty && result.words.isEmpty {
      result = PhraseReading(words: units.map(\.typed))
    }
  }
}

/// What "big" and "small" mean for each kind: a big video is not a big note.
enum SizeWords {
  static let kb = 1024.0
  static let mb = 1024.0 * 1024
  static let gb = 1024.0 * 1024 * 1024

  /// The least size of a big item and the size a small one stays under.
  static func thresholds(for kind: KindClass?) -> (big: Double, small: Double) {
    switch kind {
    case .video?: (gb, 50 * mb)
    case .audio?: (20 * mb, mb)
    case .image?: (10 * mb, 100 * kb)
    case .pdf?, .document?, .spreadsheet?, .presentation?: (10 * mb, 100 * kb)
    case .text?, .code?, .email?: (mb, 4 * kb)
    case .archive?: (gb, mb)
    default: (100 * mb, 100 * kb)
    }
  }

  /// A size as `size:` reads it, in the largest whole unit.
  static func text(_ bytes: Double) -> String {
    for (unit, factor) in [("G", gb), ("M", mb), ("K", kb)]
    where bytes >= factor && (bytes / factor).rounded() == bytes / factor {
      return String(Int(bytes / factor)) + unit
    }
    return String(Int(bytes))
  }
}

extension [PhraseReader.Unit] {
  /// The meanings of the longest phrase the tables know at `index`, and its length.
  func phrase(at index: Int) -> (meanings: [WordMeaning], length: Int)? {
    var length = Swift.min(LanguageWords.longestPhrase, count - index)
    while length > 0 {
      let slice = self[index..<index + length]
      if !slice.contains(where: \.isSyntax), let meanings = LanguageWords.all[Reading.key(slice)] {
        return (meanings, length)
      }
      length -= 1
    }
    return nil
  }

  /// The meanings of the word at `index` alone (none past the end).
  func meanings(at index: Int) -> [WordMeaning] {
    guard index < count, let found = phrase(at: index), found.length == 1 else { return [] }
    return found.meanings
  }
}
