import CLinux

/// Runs of Chinese and Japanese characters, which the index keeps as pairs.
extension PhraseCheck {
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
}
