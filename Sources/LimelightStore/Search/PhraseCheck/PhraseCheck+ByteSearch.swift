import CLinux

/// Phrases looked for in a text's bytes: memmem(3) on the longest word, folding only what may fold.
extension PhraseCheck {
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
}
