import CLinux

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
      let characters = Self.singleCJKCharacters(words)
      let anchor = characters == nil ? Self.anchor(of: words) : nil
      return indices.contains { index in
        guard index < columns else { return false }
        guard let found = texts.found, found.column == index else {
          return holds(words, prefix: prefix, in: index, texts: &texts, characters, anchor)
        }
        let key = PhraseKey(words: words, prefix: prefix)
        if let known = found.holds[key] { return known }
        let holds = holds(words, prefix: prefix, in: index, texts: &texts, characters, anchor)
        found.holds[key] = holds
        return holds
      }
    }
  }

  /// Whether text `index` holds a phrase (`characters`: its Chinese or
  /// Japanese characters one by one; `anchor`: the word looked for first).
  private func holds(
    _ words: [String], prefix: Bool, in index: Int, texts: inout Texts,
    _ characters: [Unicode.Scalar]?, _ anchor: Anchor?
  ) -> Bool {
    if let characters { return Self.contains(texts.text(index), characters) }
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

  /// For each part of an `.and` of one-word phrases, the best of the first
  /// three texts (name, keywords, path) that holds its word: "3" for the
  /// name, "2" keywords, "1" path, "0" none, one character each.
  public func fieldHits(_ texts: [String?]) -> String {
    guard case .and(let parts) = self else { return "" }
    var fields = texts.prefix(3).map { FieldWords($0 ?? "") }
    var hits = ""
    for part in parts {
      guard case .phrase(let phrase, let prefix, _) = part else {
        hits += "0"
        continue
      }
      let column = fields.indices.first { fields[$0].holds(phrase, prefix: prefix) }
      hits += column.map { String(3 - $0) } ?? "0"
    }
    return hits
  }

  /// A name, keywords or path as the ranking looks for a word in it: one of
  /// ASCII split at once (cheaply, byte by byte); any other looked through
  /// in its bytes (``anchoredContains(_:_:prefix:)``), and split into
  /// words, each beyond ASCII folded by Foundation, only when its bytes
  /// cannot tell: the ranking looks at every candidate's name and path.
  private struct FieldWords {
    let text: String
    var words: [String]?

    init(_ text: String) {
      var text = text
      words = text.withUTF8(PhraseCheck.asciiWords)
      self.text = text
    }

    mutating func holds(_ phrase: [String], prefix: Bool) -> Bool {
      if words == nil {
        var text = text
        if let found = text.withUTF8({ PhraseCheck.anchoredContains($0, phrase, prefix: prefix) }) {
          return found
        }
        words = PhraseCheck.words(of: text)
      }
      return PhraseCheck.contains(words ?? [], phrase, prefix: prefix)
    }
  }

  /// The words of a stored text as the tokenizer splits them, folded the way
  /// queries fold theirs: split at what is neither letter nor digit (a mark
  /// stays with its letter); a word of ASCII, or of one Chinese or Japanese
  /// character, folded by hand, any other by Foundation, one word at a time
  /// (folding a whole man page at once took milliseconds, and a common
  /// character finds hundreds of candidates to check).
  public static func words(of text: String) -> [String] {
    var text = text
    if let words = text.withUTF8(asciiWords) { return words }
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

  /// ``words(of:)`` of a word beyond ASCII, remembered for the search
  /// running (``FoldedWords``), if one is: a text in German or Russian says
  /// its words again and again, and folding each with Foundation was a
  /// fifth of a phrase's time over the candidates of a tree with such texts.
  static func foldedWords(of word: String) -> [String] {
    guard let memory = FoldedWords.current else { return words(of: word) }
    if let known = memory.known[word] { return known }
    let made = words(of: word)
    if memory.known.count >= FoldedWords.most { memory.known.removeAll(keepingCapacity: true) }
    memory.known[word] = made
    return made
  }

  /// Words beyond ASCII folded during one search, for its phrase checks.
  /// Kept for the search alone (``during(_:)``): kept for the process, the
  /// words a day of searches met stayed resident in the watcher (7 MB).
  public final class FoldedWords: @unchecked Sendable {
    /// Read and written only by the thread running the search.
    var known: [String: [String]] = [:]
    /// Words remembered at most (a few megabytes): past it, forgotten at once.
    static let most = 65_536

    @TaskLocal static var current: FoldedWords?

    /// Runs `body` (a search) with words folded once for all its checks.
    public static func during<T>(_ body: () throws -> T) rethrows -> T {
      try $current.withValue(FoldedWords()) { try body() }
    }
  }

  /// The words of a text of ASCII alone, lowered byte by byte; nil for any
  /// other text. Names and paths are mostly ASCII, and the ranking splits
  /// those of every candidate of a text match (a fifth of its time when
  /// split by scalars).
  static func asciiWords(_ bytes: UnsafeBufferPointer<UInt8>) -> [String]? {
    var words: [String] = []
    var start = -1
    for index in 0...bytes.count {
      let byte = index < bytes.count ? bytes[index] : 0
      if byte >= 0x80 { return nil }
      let isWord =
        byte >= 0x30 && byte <= 0x39 || byte >= 0x41 && byte <= 0x5A
        || byte >= 0x61 && byte <= 0x7A
      if isWord {
        if start < 0 { start = index }
      } else if start >= 0 {
        let word = UnsafeBufferPointer(rebasing: bytes[start..<index])
        words.append(
          String(unsafeUninitializedCapacity: word.count) { buffer in
            for (offset, byte) in word.enumerated() {
              buffer[offset] = byte >= 0x41 && byte <= 0x5A ? byte | 0x20 : byte
            }
            return word.count
          })
        start = -1
      }
    }
    return words
  }

  /// Whether a text's bytes hold a phrase of ASCII words, looked for only
  /// where its longest word stands (found by memmem(3) in the text with
  /// its ASCII letters in lower case), the words before it read backwards
  /// and those after it forwards. nil when the bytes alone cannot tell: a
  /// word beyond ASCII next to a place, or one that could fold to the
  /// longest word (``streamContains(_:_:prefix:)`` then reads every word).
  /// Every candidate holds the phrase's words somewhere: reading only
  /// around the rarest is what makes a phrase of common words cheap.
  static func anchoredContains(
    _ text: UnsafeBufferPointer<UInt8>, _ words: [String], prefix: Bool
  ) -> Bool? {
    let phrase = words.map { Array($0.utf8) }
    guard !phrase.isEmpty, phrase.allSatisfy({ !$0.isEmpty && $0.allSatisfy { $0 < 0x80 } })
    else { return nil }
    // The last word typed as a prefix may begin a longer word: never the anchor.
    let candidates = prefix ? phrase.indices.dropLast() : phrase.indices[...]
    guard let anchor = candidates.max(by: { phrase[$0].count < phrase[$1].count }) else {
      return nil
    }
    // A word beyond ASCII may fold to the anchor ("thé" to "the"): a place
    // memmem(3) cannot find. Few such words are folded to see (each once:
    // a changelog names its authors again and again); many, and every
    // word is read.
    var seen: Set<String> = []
    var index = 0
    while let high = firstBeyondASCII(text, from: index) {
      // Punctuation beyond ASCII (quotes, dashes) is no word.
      guard let (scalar, length) = scalar(in: text, at: high) else { return nil }
      if !belongsToWord(scalar) {
        index = high + length
        continue
      }
      let (start, end) = Self.wordAround(text, high)
      index = max(end, high + length)
      // Told from the bytes: a text may have thousands of such words.
      guard Self.mayFold(text, start, end, to: phrase[anchor]) else { continue }
      let word = String(decoding: UnsafeBufferPointer(rebasing: text[start..<end]), as: UTF8.self)
      if !seen.insert(word).inserted { continue }
      if seen.count > 256
        || Self.foldedWords(of: word).contains(where: { $0.utf8.elementsEqual(phrase[anchor]) })
      {
        return nil
      }
    }
    var places = LoweredSearch(for: phrase[anchor], in: text)
    while let start = places.next() {
      let end = start + phrase[anchor].count
      // A whole word: no ASCII letter or digit on either side, nor a
      // character beyond ASCII that belongs to a word (it may fold to
      // a letter or stay one: the bytes cannot tell).
      if start > 0 && text[start - 1] < 0x80 && isWordByte(text[start - 1])
        || end < text.count && text[end] < 0x80 && isWordByte(text[end])
      {
        continue
      }
      if start > 0 && text[start - 1] >= 0x80 {
        guard let (scalar, _) = scalar(in: text, before: start), !belongsToWord(scalar)
        else { return nil }
      }
      if end < text.count && text[end] >= 0x80 {
        guard let (scalar, _) = scalar(in: text, at: end), !belongsToWord(scalar)
        else { return nil }
      }
      guard let before = Self.precedes(text, at: start, phrase[..<anchor]) else { return nil }
      if !before { continue }
      let following = words[(anchor + 1)...]
      switch follows(text, at: end, Array(following), prefix: prefix) {
      case .yes: return true
      case .no: continue
      case .unknown: return nil
      }
    }
    return false
  }

  /// Where the first byte beyond ASCII at or after `index` stands, read
  /// eight bytes at a time (most texts are ASCII throughout).
  static func firstBeyondASCII(_ text: UnsafeBufferPointer<UInt8>, from index: Int) -> Int? {
    guard let base = text.baseAddress else { return nil }
    var index = index
    while index + 8 <= text.count {
      let eight = UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self)
      if eight & 0x8080_8080_8080_8080 != 0 { break }
      index += 8
    }
    while index < text.count {
      if text[index] >= 0x80 { return index }
      index += 1
    }
    return nil
  }

  /// The places of a word of ASCII in a text, its letters in any case,
  /// one after the other: found by memmem(3) in a stretch of the text at a
  /// time with its ASCII letters in lower case. (The whole text lowered at
  /// once, a copy of megabytes for a large text, was most of a phrase's
  /// time over the candidates of a million entries.)
  struct LoweredSearch {
    let needle: [UInt8]
    let text: UnsafeBufferPointer<UInt8>
    /// The stretch lowered, and where in the text it starts and how far it goes.
    private var stretch: [UInt8]
    private var stretchStart = 0
    private var stretchCount = 0
    /// Where the next place may start.
    private var from = 0
    /// The bytes of text lowered at a time (a stretch fits in the cache).
    static let stretchBytes = 32 * 1024

    init(for needle: [UInt8], in text: UnsafeBufferPointer<UInt8>) {
      self.needle = needle
      self.text = text
      stretch = [UInt8](repeating: 0, count: min(text.count, Self.stretchBytes + needle.count))
    }

    /// The next place, nil when there is none.
    mutating func next() -> Int? {
      guard !needle.isEmpty else { return nil }
      while from + needle.count <= text.count {
        if from + needle.count > stretchStart + stretchCount { lower(from: from) }
        let offset = from - stretchStart
        let found = stretch.withUnsafeBufferPointer { lowered in
          needle.withUnsafeBytes { wanted in
            limelight_memmem(
              lowered.baseAddress! + offset, stretchCount - offset, wanted.baseAddress,
              wanted.count)
          }
        }
        guard let found else {
          // The next stretch starts where a place could still begin.
          from = stretchStart + stretchCount - needle.count + 1
          if stretchStart + stretchCount == text.count { return nil }
          lower(from: from)
          continue
        }
        let place = stretch.withUnsafeBufferPointer {
          stretchStart + $0.baseAddress!.distance(to: found.assumingMemoryBound(to: UInt8.self))
        }
        from = place + 1
        return place
      }
      return nil
    }

    private mutating func lower(from start: Int) {
      stretchStart = start
      stretchCount = min(stretch.count, text.count - start)
      let count = stretchCount
      guard let base = text.baseAddress else { return }
      stretch.withUnsafeMutableBufferPointer { out in
        limelight_lower_ascii(out.baseAddress, base + start, count)
      }
    }
  }

  /// Whether the word `text[start..<end]` folds to one word with a letter
  /// beyond ASCII: it holds a letter or digit of a script that folds to
  /// none of ASCII (``mayFoldToASCII(_:)``), and no mark (a spacing mark
  /// survives folding and parts the word in two).
  static func foldsBeyondASCII(_ text: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int)
    -> Bool
  {
    var beyond = false
    var index = start
    while index < end {
      guard text[index] >= 0x80 else {
        index += 1
        continue
      }
      guard let (scalar, length) = scalar(in: text, at: index), !isMark(scalar) else {
        return false
      }
      if !mayFoldToASCII(scalar) { beyond = true }
      index += length
    }
    return beyond
  }

  /// Whether the word `text[start..<end]` may fold to `target` (ASCII,
  /// lower case), told from its bytes: each of its characters but marks
  /// folds to one letter or, rarely, two (ß), so its count is the target's
  /// or up to half of it; none is of a script that folds to none of ASCII
  /// (a Russian word of five letters is no "quick"); and with one letter
  /// each, its ASCII letters stand where the target's do.
  static func mayFold(
    _ text: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int, to target: [UInt8]
  ) -> Bool {
    var letters = 0
    var aligned = true
    var index = start
    while index < end {
      guard let (scalar, length) = scalar(in: text, at: index) else { return false }
      index += length
      if isMark(scalar) { continue }
      if scalar.value >= 0x80 && !mayFoldToASCII(scalar) || letters == target.count {
        return false
      }
      if scalar.value < 0x80 && isWordScalar(scalar)
        && UInt8(scalar.value) | 0x20 != target[letters]
      {
        aligned = false
      }
      letters += 1
    }
    return letters * 2 >= target.count && (letters < target.count || aligned)
  }

  /// The word that holds the character beyond ASCII at `index`: the
  /// letters, digits and marks on either side of it, of any script.
  static func wordAround(_ text: UnsafeBufferPointer<UInt8>, _ index: Int) -> (Int, Int) {
    var start = index
    while start > 0, let (scalar, lead) = scalar(in: text, before: start), belongsToWord(scalar) {
      start = lead
    }
    var end = index
    while end < text.count {
      guard let (scalar, length) = scalar(in: text, at: end),
        isWordScalar(scalar) || (end > start && isMark(scalar))
      else { break }
      end += length
    }
    return (start, end)
  }

  /// Whether `words` (ASCII, lower case) come right before `offset` in a
  /// text, in any case, each whole; nil when a
  /// character beyond ASCII that belongs to a word stands in the way.
  static func precedes(
    _ text: UnsafeBufferPointer<UInt8>, at offset: Int, _ words: ArraySlice<[UInt8]>
  )
    -> Bool?
  {
    var index = offset
    for word in words.reversed() {
      // Back over what separates words: ASCII that is no letter or digit,
      // and characters beyond ASCII that belong to no word.
      while index > 0 {
        let byte = text[index - 1]
        if byte < 0x80 {
          if isWordByte(byte) { break }
          index -= 1
          continue
        }
        guard let (scalar, lead) = scalar(in: text, before: index), !belongsToWord(scalar)
        else { return nil }
        index = lead
      }
      var start = index
      while start > 0 && text[start - 1] < 0x80 && isWordByte(text[start - 1]) { start -= 1 }
      if start > 0 && text[start - 1] >= 0x80 {
        guard let (scalar, _) = scalar(in: text, before: start), !belongsToWord(scalar)
        else { return nil }
      }
      // Letters and digits of ASCII: `| 0x20` lowers the one, keeps the other.
      guard index - start == word.count,
        word.indices.allSatisfy({ text[start + $0] | 0x20 == word[$0] })
      else { return false }
      index = start
    }
    return true
  }

  /// Whether a text's bytes hold the phrase, its words read one after the
  /// other as ``words(of:)`` splits and folds them, without making them
  /// strings: a word of ASCII is compared in place, in lower case; only a
  /// word beyond ASCII is folded. (A long text's every word made a string
  /// took milliseconds a candidate, and a phrase of common words, "the
  /// quick", has thousands of candidates.)
  static func streamContains(_ bytes: UnsafeBufferPointer<UInt8>, _ words: [String], prefix: Bool)
    -> Bool
  {
    guard !words.isEmpty else { return true }
    let phrase = words.map { Array($0.utf8) }
    let phraseIsASCII = phrase.allSatisfy { $0.allSatisfy { $0 < 0x80 } }
    let last = phrase.count - 1
    // How many of the phrase's words the words just read end, for each
    // start still alive.
    var alive: [Int] = []
    var next: [Int] = []
    func accept(_ same: (Int) -> Bool) -> Bool {
      next.removeAll(keepingCapacity: true)
      if same(0) {
        if last == 0 { return true }
        next.append(1)
      }
      for matched in alive where same(matched) {
        if matched == last { return true }
        next.append(matched + 1)
      }
      swap(&alive, &next)
      return false
    }
    var index = 0
    let count = bytes.count
    while index < count {
      let byte = bytes[index]
      if byte < 0x80 && !isWordByte(byte) {
        index += 1
        continue
      }
      // A word: ASCII letters and digits, unless a character beyond ASCII
      // belongs to it too.
      let start = index
      while index < count && bytes[index] < 0x80 && isWordByte(bytes[index]) { index += 1 }
      var end = index
      var ascii = true
      while end < count && bytes[end] >= 0x80 || end < count && !ascii && isWordByte(bytes[end]) {
        if bytes[end] < 0x80 {
          end += 1
          continue
        }
        guard let (scalar, length) = scalar(in: bytes, at: end),
          isWordScalar(scalar) || (end > start && isMark(scalar))
        else { break }
        ascii = false
        end += length
      }
      if ascii {
        if end == start {
          // A character beyond ASCII that belongs to no word.
          index = start + (scalar(in: bytes, at: start)?.1 ?? 1)
          continue
        }
        let length = end - start
        // Most words start nothing and continue nothing: told by their
        // length and first letter before any closure runs.
        if alive.isEmpty
          && (length < phrase[0].count || (length > phrase[0].count && !(last == 0 && prefix))
            || (bytes[start] | 0x20) != phrase[0][0])
        {
          index = end
          continue
        }
        let found = accept { position in
          let wanted = phrase[position]
          guard length == wanted.count || (position == last && prefix && length > wanted.count)
          else { return false }
          return wanted.indices.allSatisfy { (bytes[start + $0] | 0x20) == wanted[$0] }
        }
        if found { return true }
        index = end
        continue
      }
      index = end
      // A word that folds to one beyond ASCII is none of a phrase of ASCII
      // words (Russian, Greek): told from its bytes, without folding it.
      // (It may begin with one: "linux文" with "linux" typed as a prefix.)
      if phraseIsASCII && !prefix && Self.foldsBeyondASCII(bytes, start, end) {
        _ = accept { _ in false }
        continue
      }
      let word = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<end]), as: UTF8.self)
      for part in Self.foldedWords(of: word) {
        let found = accept { position in
          position == last && prefix ? part.hasPrefix(words[position]) : part == words[position]
        }
        if found { return true }
      }
    }
    return false
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

  /// A phrase's first word that is one Chinese or Japanese character, and
  /// how many bytes of the phrase come before and after it: the phrase can
  /// only be where the text holds that character.
  struct Anchor {
    var character: [UInt8]
    var before: Int
    var after: Int
    /// The phrase's words after the character, and whether the character
    /// is its first word.
    var following: [String]
    var isFirst: Bool
  }

  static func anchor(of words: [String]) -> Anchor? {
    guard
      let position = words.firstIndex(where: { word in
        word.unicodeScalars.count == 1 && word.unicodeScalars.first.map(isFoldedAlready) == true
      })
    else { return nil }
    let bytes = words.map(\.utf8.count)
    return Anchor(
      character: Array(words[position].utf8), before: bytes[..<position].reduce(0, +),
      after: bytes[(position + 1)...].reduce(0, +),
      following: Array(words[(position + 1)...]), isFirst: position == 0)
  }

  /// Whether `text` holds the phrase, looked for only around each place
  /// that holds the anchor's character: a man page's every word made into
  /// a string took a millisecond, for each of hundreds of candidates of a
  /// Latin word glued to a common character ("一个linux"). The phrase's
  /// words may be folded from longer text (accents, case) and stand apart,
  /// so each side of a window is four times the phrase's bytes and more.
  static func contains(_ text: String, _ words: [String], prefix: Bool, around anchor: Anchor)
    -> Bool
  {
    var text = text
    return text.withUTF8 { contains($0, words, prefix: prefix, around: anchor) }
  }

  static func contains(
    _ bytes: UnsafeBufferPointer<UInt8>, _ words: [String], prefix: Bool, around anchor: Anchor
  ) -> Bool {
    let count = bytes.count
    var index = 0
    while index + anchor.character.count <= count, let base = bytes.baseAddress {
      guard
        let found = anchor.character.withUnsafeBytes({
          limelight_memmem(base + index, count - index, $0.baseAddress, $0.count)
        })
      else { break }
      index = base.distance(to: found.assumingMemoryBound(to: UInt8.self))
      // The character as a word of its own, not inside a longer one.
      if !isWholeWord(bytes, index, index + anchor.character.count) {
        index += anchor.character.count
        continue
      }
      // Most places that hold a common character are not followed by
      // the phrase's next words: told from the bytes, without words.
      switch follows(bytes, at: index + anchor.character.count, anchor.following, prefix: prefix)
      {
      case .no:
        index += anchor.character.count
        continue
      case .yes where anchor.isFirst: return true
      default: break
      }
      var start = max(0, index - anchor.before * 4 - 64)
      var end = min(count, index + anchor.character.count + anchor.after * 4 + 64)
      // Whole characters, then whole words: a word cut in two could
      // pass for another.
      while start > 0 && bytes[start] & 0xC0 == 0x80 { start -= 1 }
      while end < count && bytes[end] & 0xC0 == 0x80 { end += 1 }
      while start > 0 && isWordByte(bytes[start - 1]) { start -= 1 }
      while end < count && isWordByte(bytes[end]) { end += 1 }
      let window = String(
        decoding: UnsafeBufferPointer(rebasing: bytes[start..<end]), as: UTF8.self)
      if contains(Self.words(of: window), words, prefix: prefix) { return true }
      index += anchor.character.count
    }
    return false
  }

  /// Whether a text's bytes say that words follow a place.
  enum Follows: Equatable {
    case yes
    case no
    /// A word with letters that folding may change: the words must tell.
    case unknown
  }

  /// Whether `words` come next in `bytes` from `offset` on, the last a
  /// prefix when `prefix`, told for words of ASCII and of one Chinese or
  /// Japanese character.
  static func follows(
    _ bytes: UnsafeBufferPointer<UInt8>, at offset: Int, _ words: [String], prefix: Bool
  ) -> Follows {
    var index = offset
    for (position, word) in words.enumerated() {
      guard let start = nextWord(in: bytes, from: index) else { return .no }
      let expected = Array(word.utf8)
      if expected.allSatisfy({ $0 < 0x80 }) {
        // An ASCII word: the text's, lower-cased, up to its end.
        var end = start
        while end < bytes.count && bytes[end] < 0x80 && isWordByte(bytes[end]) { end += 1 }
        let isLast = position == words.count - 1
        // A Chinese or Japanese character folds to nothing of ASCII: the
        // word is another (longer) one; an accented letter may fold to one.
        var longer = false
        if end < bytes.count && bytes[end] >= 0x80 {
          guard let (next, _) = scalar(in: bytes, at: end), isFoldedAlready(next) else {
            return .unknown
          }
          longer = true
        }
        let length = end - start
        if length < expected.count
          || ((length > expected.count || longer) && !(isLast && prefix))
        {
          return .no
        }
        // The phrase's words are folded already: lower case.
        guard expected.indices.allSatisfy({ (bytes[start + $0] | 0x20) == expected[$0] }) else {
          return .no
        }
        index = end
        continue
      }
      guard word.unicodeScalars.count == 1, let only = word.unicodeScalars.first,
        isFoldedAlready(only)
      else { return .unknown }
      guard start + expected.count <= bytes.count,
        expected.indices.allSatisfy({ bytes[start + $0] == expected[$0] })
      else { return .no }
      // One character, not the start of a longer word.
      let after = start + expected.count
      if !isWholeWord(bytes, start, after) { return .no }
      index = after
    }
    return .yes
  }

  /// Whether `bytes[start..<end]` is no part of a longer word: no word
  /// character before it, none (nor a mark) after it.
  static func isWholeWord(_ bytes: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int) -> Bool {
    if end < bytes.count {
      guard let (next, _) = scalar(in: bytes, at: end) else { return false }
      if isWordScalar(next) || isMark(next) { return false }
    }
    guard start > 0 else { return true }
    guard let (before, _) = scalar(in: bytes, before: start) else { return false }
    return !isWordScalar(before)
  }

  /// The character whose UTF-8 ends right before `index`, and where it
  /// starts.
  static func scalar(in bytes: UnsafeBufferPointer<UInt8>, before index: Int)
    -> (Unicode.Scalar, Int)?
  {
    var lead = index - 1
    while lead > 0 && bytes[lead] & 0xC0 == 0x80 { lead -= 1 }
    return scalar(in: bytes, at: lead).map { ($0.0, lead) }
  }

  /// Whether a character is part of a word: a letter or digit, or a mark
  /// (after one).
  static func belongsToWord(_ scalar: Unicode.Scalar) -> Bool {
    isWordScalar(scalar) || isMark(scalar)
  }

  /// Where the next word starts at or after `index`: past ASCII that is no
  /// letter or digit, and characters that belong to no word.
  static func nextWord(in bytes: UnsafeBufferPointer<UInt8>, from index: Int) -> Int? {
    var index = index
    while index < bytes.count {
      let byte = bytes[index]
      if byte < 0x80 {
        if isWordByte(byte) { return index }
        index += 1
        continue
      }
      guard let (scalar, length) = scalar(in: bytes, at: index) else { return index }
      if isWordScalar(scalar) || isMark(scalar) { return index }
      index += length
    }
    return nil
  }

  /// The character whose UTF-8 starts at `index`, and its length.
  static func scalar(in bytes: UnsafeBufferPointer<UInt8>, at index: Int) -> (Unicode.Scalar, Int)?
  {
    let lead = bytes[index]
    let length = lead >= 0xF0 ? 4 : lead >= 0xE0 ? 3 : lead >= 0xC0 ? 2 : 1
    guard index + length <= bytes.count else { return nil }
    var value = UInt32(lead) & (length == 1 ? 0x7F : length == 2 ? 0x1F : length == 3 ? 0x0F : 0x07)
    if length > 1 {
      for offset in 1..<length { value = value << 6 | UInt32(bytes[index + offset] & 0x3F) }
    }
    return Unicode.Scalar(value).map { ($0, length) }
  }

  /// Whether a byte may belong to a word: an ASCII letter or digit, or any
  /// byte of a character beyond ASCII (a space or punctuation of ASCII ends
  /// the word; beyond it, the window only reaches a little further).
  static func isWordByte(_ byte: UInt8) -> Bool {
    byte >= 0x80 || (byte >= 0x30 && byte <= 0x39) || (byte | 0x20 >= 0x61 && byte | 0x20 <= 0x7A)
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
    case 0x80..<0x800: return twoByteScalars[Int(scalar.value) - 0x80] & wordFlag != 0
    case _ where isNeitherWordNorMark(scalar): return false
    default:
      return isFoldedAlready(scalar) || scalar.properties.isAlphabetic
        || scalar.properties.numericType != nil
    }
  }

  /// What Unicode's tables say of each character of two UTF-8 bytes
  /// (U+0080 to U+07FF: Latin beyond ASCII, Greek, Cyrillic, Hebrew,
  /// Arabic), asked once a process: a phrase check over a Russian man page
  /// asked them of every letter (a seventh of `"the quick"`'s time).
  private static let twoByteScalars: [UInt8] = (0x80..<0x800).map { value in
    guard let scalar = Unicode.Scalar(UInt32(value)) else { return 0 }
    var flags: UInt8 = 0
    if scalar.properties.isAlphabetic || scalar.properties.numericType != nil { flags |= wordFlag }
    switch scalar.properties.generalCategory {
    case .nonspacingMark, .spacingMark, .enclosingMark: flags |= markFlag
    default: break
    }
    return flags
  }
  private static let wordFlag: UInt8 = 1
  private static let markFlag: UInt8 = 2

  /// Blocks of punctuation and symbols without a letter, digit or mark:
  /// dashes and quotes, arrows, box drawing (a table in a manual drawn in
  /// thousands of them), CJK punctuation. Told without Unicode's tables.
  static func isNeitherWordNorMark(_ scalar: Unicode.Scalar) -> Bool {
    switch scalar.value {
    case 0x2000...0x206F, 0x218A...0x245F, 0x2500...0x2775, 0x2794...0x2BFF, 0x2E00...0x2E2E,
      0x2E30...0x3004:
      return true
    default: return false
    }
  }

  /// Whether a letter beyond ASCII may fold to ASCII letters (ü to u, ß to
  /// ss, ﬁ to fi): Latin letters with accents, a few signs and ligatures;
  /// never Greek, Cyrillic, or any other script (a test holds this to
  /// Foundation's folding of every character).
  static func mayFoldToASCII(_ scalar: Unicode.Scalar) -> Bool {
    switch scalar.value {
    case 0xC0...0x24F, 0x1E00...0x1EFF, 0x212A, 0x212B, 0xFB00...0xFB06: return true
    default: return false
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
    if scalar.value < 0x800 { return twoByteScalars[Int(scalar.value) - 0x80] & markFlag != 0 }
    if isNeitherWordNorMark(scalar) { return false }
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
