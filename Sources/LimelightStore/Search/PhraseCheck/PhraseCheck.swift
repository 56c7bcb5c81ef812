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
    matches(columns: columns, text: text, utf8: { _ in nil })
  }

  /// The same, where `utf8` may give a text's bytes instead (nil: ask
  /// `text`): a phrase with a Chinese or Japanese character is looked for
  /// in the bytes, which a large text need not be made a string for.
  /// `found`, when given, holds what is known of one column's text
  /// (another item's copy of it was read): whether it holds each phrase,
  /// asked before the text is read, and told what reading it found.
  public func matches(
    columns: Int, text: (Int) -> String?, utf8: (Int) -> [UInt8]?, found: PhrasesFound? = nil
  ) -> Bool {
    withoutActuallyEscaping(text) { text in
      withoutActuallyEscaping(utf8) { utf8 in
        var texts = Texts(string: text, utf8: utf8, found: found)
        return matches(columns: columns, texts: &texts)
      }
    }
  }

  /// Which phrases one column's text of an item holds, as far as they were
  /// looked for: copies of a text (shared by several items) are read once
  /// for a query's phrases.
  public final class PhrasesFound {
    /// The column whose text this is.
    public let column: Int
    var holds: [PhraseKey: Bool] = [:]
    public init(column: Int) { self.column = column }
  }

  /// A phrase as a text is searched for it.
  struct PhraseKey: Hashable {
    var words: [String]
    var prefix: Bool
  }

  /// An item's texts, each read once, as a string, its bytes or its words.
  private struct Texts {
    let string: (Int) -> String?
    let utf8: (Int) -> [UInt8]?
    let found: PhrasesFound?
    var strings: [Int: String] = [:]
    var bytes: [Int: [UInt8]] = [:]
    var words: [Int: [String]] = [:]

    init(
      string: @escaping (Int) -> String?, utf8: @escaping (Int) -> [UInt8]?, found: PhrasesFound?
    ) {
      self.string = string
      self.utf8 = utf8
      self.found = found
    }

    mutating func text(_ index: Int) -> String {
      if let known = strings[index] { return known }
      let read = bytes[index].map { String(decoding: $0, as: UTF8.self) } ?? string(index) ?? ""
      strings[index] = read
      return read
    }

    mutating func utf8(_ index: Int) -> [UInt8] {
      if let known = bytes[index] { return known }
      let read = strings[index].map { Array($0.utf8) } ?? utf8(index) ?? Array(text(index).utf8)
      bytes[index] = read
      return read
    }

    mutating func words(_ index: Int) -> [String] {
      if let known = words[index] { return known }
      let made = PhraseCheck.words(of: text(index))
      words[index] = made
      return made
    }
  }

  private func matches(columns: Int, texts: inout Texts) -> Bool {
    switch self {
    case .and(let parts):
      return parts.allSatisfy { $0.matches(columns: columns, texts: &texts) }
    case .or(let parts):
      return parts.contains { $0.matches(columns: columns, texts: &texts) }
    case .phrase(let words, let prefix, let column):
      let indices = column.map { [$0] } ?? Array(0..<columns)
      let anchor = Self.anchor(of: words)
      return indices.contains { index in
        guard index < columns else { return false }
        guard let found = texts.found, found.column == index else {
          return holds(words, prefix: prefix, in: index, texts: &texts, anchor)
        }
        let key = PhraseKey(words: words, prefix: prefix)
        if let known = found.holds[key] { return known }
        let holds = holds(words, prefix: prefix, in: index, texts: &texts, anchor)
        found.holds[key] = holds
        return holds
      }
    }
  }

  /// Whether text `index` holds a phrase (`anchor`: its Chinese or
  /// Japanese character looked for first, in the text's bytes: a run of
  /// them was checked by reading every character of each candidate's text,
  /// 40 ms for the 24 texts that hold the characters of "コルーチン").
  private func holds(
    _ words: [String], prefix: Bool, in index: Int, texts: inout Texts, _ anchor: Anchor?
  ) -> Bool {
    if texts.words[index] == nil, let anchor {
      return texts.utf8(index).withUnsafeBufferPointer {
        Self.contains($0, words, prefix: prefix, around: anchor)
      }
    }
    if let known = texts.words[index] { return Self.contains(known, words, prefix: prefix) }
    return texts.utf8(index).withUnsafeBufferPointer {
      Self.anchoredContains($0, words, prefix: prefix)
        ?? Self.streamContains($0, words, prefix: prefix)
    }
  }
}
