import LimelightModel

/// The words of a text as the index splits and folds them.
extension PhraseCheck {
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
}
