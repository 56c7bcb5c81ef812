/// Whether an item's texts hold a query's phrases in order.
///
/// The text index records which items hold a word but not where nor in
/// which column (it is a fraction of the size that way), so it can only tell
/// that a phrase's words are all there, and a word confined to a column
/// (`name:`, `tag:`) is checked here too. A query with a phrase of several words ("exact phrase",
/// `file.txt`, a run of Chinese characters) finds candidates by those words
/// and then checks each candidate's text here. The expression travels as a
/// string (see ``encoded``) bound into the SQL, so one prepared statement
/// serves every query of the same shape.
public indirect enum PhraseCheck: Equatable, Sendable {
  /// Words in a row; `prefix`: the last may begin a longer word; `column`:
  /// the index of the text it must be in (nil: any).
  case phrase([String], prefix: Bool, column: Int?)
  case and([PhraseCheck])
  case or([PhraseCheck])

  /// Whether the index's words alone cannot decide: some phrase has several
  /// words, or is confined to a column.
  public var needsText: Bool {
    switch self {
    case .phrase(let words, _, let column): return words.count > 1 || column != nil
    case .and(let parts), .or(let parts): return parts.contains(where: \.needsText)
    }
  }

  /// Whether `texts` (name, keywords, path, content, as stored) satisfy it.
  public func matches(_ texts: [String?]) -> Bool {
    matches(columns: texts.count) { texts[$0] }
  }

  /// Whether the texts of `columns` columns satisfy it, each asked of
  /// `text` at most once and only when needed (the content is inflated
  /// only when the small columns do not decide).
  public func matches(columns: Int, text: (Int) -> String?) -> Bool {
    var texts: [Int: String] = [:]
    var words: [Int: [String]] = [:]
    func column(_ index: Int) -> String {
      if let known = texts[index] { return known }
      let read = text(index) ?? ""
      texts[index] = read
      return read
    }
    return matches(columns: columns, text: column, words: &words)
  }

  private func matches(
    columns: Int, text: (Int) -> String, words cache: inout [Int: [String]]
  ) -> Bool {
    switch self {
    case .and(let parts):
      return parts.allSatisfy { $0.matches(columns: columns, text: text, words: &cache) }
    case .or(let parts):
      return parts.contains { $0.matches(columns: columns, text: text, words: &cache) }
    case .phrase(let words, let prefix, let column):
      let indices = column.map { [$0] } ?? Array(0..<columns)
      let characters = Self.singleCJKCharacters(words)
      return indices.contains { index in
        guard index < columns else { return false }
        if let characters { return Self.contains(text(index), characters) }
        if cache[index] == nil { cache[index] = Self.words(of: text(index)) }
        return Self.contains(cache[index]!, words, prefix: prefix)
      }
    }
  }

  /// For each part of an `.and` of one-word phrases, the best of the first
  /// three texts (name, keywords, path) that holds its word: "3" for the
  /// name, "2" keywords, "1" path, "0" none, one character each.
  public func fieldHits(_ texts: [String?]) -> String {
    guard case .and(let parts) = self else { return "" }
    let words = texts.prefix(3).map { Self.words(of: $0 ?? "") }
    var hits = ""
    for part in parts {
      guard case .phrase(let phrase, let prefix, _) = part else {
        hits += "0"
        continue
      }
      let column = words.firstIndex { Self.contains($0, phrase, prefix: prefix) }
      hits += column.map { String(3 - $0) } ?? "0"
    }
    return hits
  }

  /// The words of a stored text as the tokenizer splits them, folded the way
  /// queries fold theirs: split at what is neither letter nor digit (a mark
  /// stays with its letter); a word of ASCII, or of one Chinese or Japanese
  /// character, folded by hand, any other by Foundation, one word at a time
  /// (folding a whole man page at once took milliseconds, and a common
  /// character finds hundreds of candidates to check).
  public static func words(of text: String) -> [String] {
    var words: [String] = []
    let scalars = text.unicodeScalars
    var start: String.UnicodeScalarView.Index?
    var isASCII = true
    func endWord(at end: String.UnicodeScalarView.Index) {
      guard let begin = start else { return }
      start = nil
      let word = scalars[begin..<end]
      if isASCII {
        words.append(String(word).lowercased())
      } else if scalars.index(after: begin) == end, isFoldedAlready(scalars[begin]) {
        words.append(String(word))
      } else {
        words += SearchText.caseAndAccentFolded(String(word))
          .split { !$0.isLetter && !$0.isNumber }.map(String.init)
      }
      isASCII = true
    }
    var index = scalars.startIndex
    while index < scalars.endIndex {
      let scalar = scalars[index]
      if isWordScalar(scalar) || start != nil && isMark(scalar) {
        if start == nil { start = index }
        if scalar.value >= 0x80 { isASCII = false }
      } else {
        endWord(at: index)
      }
      index = scalars.index(after: index)
    }
    endWord(at: scalars.endIndex)
    return words
  }

  /// The phrase's words when each is one Chinese or Japanese character (a
  /// run typed without spaces, the commonest phrase): those are found by a
  /// scan of the text's characters, without making its words.
  static func singleCJKCharacters(_ words: [String]) -> [Unicode.Scalar]? {
    var characters: [Unicode.Scalar] = []
    for word in words {
      let scalars = word.unicodeScalars
      guard scalars.count == 1, let scalar = scalars.first, isFoldedAlready(scalar) else {
        return nil
      }
      characters.append(scalar)
    }
    return characters
  }

  /// Whether `text` holds `characters` as consecutive one-character words.
  static func contains(_ text: String, _ characters: [Unicode.Scalar]) -> Bool {
    // The text's words: one-character ones, nil for longer ones. The same
    // split as `words(of:)`, in a loop of its own: made from a shared one
    // that yields ranges, a common run's check took a quarter longer.
    var words: [Unicode.Scalar?] = []
    var length = 0
    for scalar in text.unicodeScalars {
      if isWordScalar(scalar) || length > 0 && isMark(scalar) {
        if length == 0 { words.append(scalar) } else if length == 1 { words[words.count - 1] = nil }
        length += 1
      } else {
        length = 0
      }
    }
    guard !characters.isEmpty, words.count >= characters.count else { return characters.isEmpty }
    outer: for start in 0...(words.count - characters.count) {
      for (offset, wanted) in characters.enumerated() where words[start + offset] != wanted {
        continue outer
      }
      return true
    }
    return false
  }

  /// Whether a character belongs to a word: letters and digits, told
  /// without Unicode's tables for ASCII and the CJK blocks.
  static func isWordScalar(_ scalar: Unicode.Scalar) -> Bool {
    switch scalar.value {
    case 0x30...0x39, 0x41...0x5A, 0x61...0x7A: return true
    case 0...0x7F: return false
    default:
      return isFoldedAlready(scalar) || scalar.properties.isAlphabetic
        || scalar.properties.numericType != nil
    }
  }

  /// Kana and Han characters, which neither case nor accent folding changes.
  static func isFoldedAlready(_ scalar: Unicode.Scalar) -> Bool {
    switch scalar.value {
    case 0x3041...0x3096, 0x30A1...0x30FA, 0x30FC...0x30FF, 0x4E00...0x9FFF: return true
    default: return false
    }
  }

  static func isMark(_ scalar: Unicode.Scalar) -> Bool {
    // Below U+0300 (spaces, punctuation, Latin) and in the CJK blocks there
    // are none: the tables are not asked.
    if scalar.value < 0x300 || (0x3100...0x9FFF).contains(scalar.value) { return false }
    switch scalar.properties.generalCategory {
    case .nonspacingMark, .spacingMark, .enclosingMark: return true
    default: return false
    }
  }

  static func contains(_ haystack: [String], _ words: [String], prefix: Bool) -> Bool {
    guard !words.isEmpty, haystack.count >= words.count else { return words.isEmpty }
    let last = words.count - 1
    outer: for start in 0...(haystack.count - words.count) {
      for (offset, word) in words.enumerated() {
        let candidate = haystack[start + offset]
        let same = offset == last && prefix ? candidate.hasPrefix(word) : candidate == word
        if !same { continue outer }
      }
      return true
    }
    return false
  }

  /// A compact form that ``init(encoded:)`` reads back: `&` and `|` groups in
  /// parentheses; a phrase as `"` words separated by U+001F, a `*` when the
  /// last word is a prefix, and the column's index after `@`.
  public var encoded: String {
    switch self {
    case .and(let parts): return "&(" + parts.map(\.encoded).joined(separator: "\u{1E}") + ")"
    case .or(let parts): return "|(" + parts.map(\.encoded).joined(separator: "\u{1E}") + ")"
    case .phrase(let words, let prefix, let column):
      return "\"" + words.joined(separator: "\u{1F}") + (prefix ? "*" : "")
        + (column.map { "@\($0)" } ?? "") + "\u{1D}"
    }
  }

  public init?(encoded text: String) {
    var scalars = Substring(text)
    guard let check = Self.parse(&scalars), scalars.isEmpty else { return nil }
    self = check
  }

  private static func parse(_ text: inout Substring) -> PhraseCheck? {
    if text.hasPrefix("&(") || text.hasPrefix("|(") {
      let isAnd = text.first == "&"
      text = text.dropFirst(2)
      var parts: [PhraseCheck] = []
      while !text.hasPrefix(")") {
        guard let part = parse(&text) else { return nil }
        parts.append(part)
        if text.hasPrefix("\u{1E}") { text = text.dropFirst() }
      }
      text = text.dropFirst()
      return isAnd ? .and(parts) : .or(parts)
    }
    guard text.hasPrefix("\""), let end = text.firstIndex(of: "\u{1D}") else { return nil }
    var body = text[text.index(after: text.startIndex)..<end]
    text = text[text.index(after: end)...]
    var column: Int?
    if let at = body.lastIndex(of: "@") {
      column = Int(body[body.index(after: at)...])
      body = body[..<at]
    }
    let prefix = body.hasSuffix("*")
    if prefix { body = body.dropLast() }
    return .phrase(
      body.split(separator: "\u{1F}", omittingEmptySubsequences: true).map(String.init),
      prefix: prefix, column: column)
  }
}
