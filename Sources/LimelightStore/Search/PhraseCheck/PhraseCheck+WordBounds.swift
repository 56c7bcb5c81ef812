/// Where words begin and end in a text's bytes.
extension PhraseCheck {
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

}
