/// The words inside a file name that a tokenizer splitting on punctuation would
/// miss: camelCase humps and letter–digit changes ("fooBar2Baz" → "foo Bar 2 Baz").
public enum NameWords {
  /// The name, followed by its hump-split words when they differ from what
  /// splitting on punctuation gives.
  public static func searchableName(_ name: String) -> String {
    let split = humps(name)
    var text = split == name ? name : name + " " + split
    let words = stemWords(name)
    if let all = initials(of: words, skippingNumbers: false) {
      text += " " + all
      if let letters = initials(of: words, skippingNumbers: true), letters != all {
        text += " " + letters
      }
    }
    return text
  }

  /// The first letters of the words of a name without its extension, when it
  /// has at least two ("Natural Bridges State Park.jpg" → "nbsp"), so that
  /// typing the initials finds it.
  /// With `skippingNumbers`, words that are numbers are left out
  /// ("e2fsck.conf" → "efc" as well as "e2fc").
  public static func initials(_ name: String, skippingNumbers: Bool = false) -> String? {
    initials(of: stemWords(name), skippingNumbers: skippingNumbers)
  }

  /// The words of a name without its extension, split at punctuation and humps.
  static func stemWords(_ name: String) -> [Substring] {
    var stem = Substring(name)
    if let dot = stem.lastIndex(of: "."), dot != stem.startIndex,
      stem.distance(from: dot, to: stem.endIndex) <= 6
    {
      stem = stem[..<dot]
    }
    let split = humps(String(stem))
    // A crawl splits every name: an ASCII one byte by byte, not by grapheme.
    if split.utf8.allSatisfy({ $0 < 0x80 }) {
      return split.utf8.split { !Self.isASCIIAlphanumeric($0) }.map { Substring($0) }
    }
    return split.split { !$0.isLetter && !$0.isNumber }
  }

  static func isASCIIAlphanumeric(_ byte: UInt8) -> Bool {
    (byte >= 0x30 && byte <= 0x39) || (byte | 0x20 >= 0x61 && byte | 0x20 <= 0x7A)
  }

  static func initials(of words: [Substring], skippingNumbers: Bool) -> String? {
    let kept = skippingNumbers ? words.filter { !$0.allSatisfy(\.isNumber) } : words
    guard kept.count >= 2 else { return nil }
    return String(kept.compactMap(\.first)).lowercased()
  }

  /// `name` with a space inserted at each lower-to-upper or letter–digit change.
  public static func humps(_ name: String) -> String {
    if name.utf8.allSatisfy({ $0 < 0x80 }) { return asciiHumps(name) }
    return unicodeHumps(name)
  }

  /// ``humps(_:)`` of an ASCII name, byte by byte: a crawl splits every name.
  static func asciiHumps(_ name: String) -> String {
    func isLower(_ b: UInt8) -> Bool { b >= 0x61 && b <= 0x7A }
    func isUpper(_ b: UInt8) -> Bool { b >= 0x41 && b <= 0x5A }
    func isDigit(_ b: UInt8) -> Bool { b >= 0x30 && b <= 0x39 }
    var out: [UInt8] = []
    out.reserveCapacity(name.utf8.count + 8)
    var previous: UInt8?
    for byte in name.utf8 {
      if let p = previous {
        let lowerToUpper = isLower(p) && isUpper(byte)
        let pLetter = isLower(p) || isUpper(p)
        let letter = isLower(byte) || isUpper(byte)
        let digitChange = (isDigit(p) && letter) || (pLetter && isDigit(byte))
        if lowerToUpper || digitChange { out.append(0x20) }
      }
      out.append(byte)
      previous = byte
    }
    return String(decoding: out, as: UTF8.self)
  }

  static func unicodeHumps(_ name: String) -> String {
    var out = ""
    var previous: Character?
    for ch in name {
      if let p = previous {
        let lowerToUpper = p.isLowercase && ch.isUppercase
        let digitChange = (p.isNumber && ch.isLetter) || (p.isLetter && ch.isNumber)
        if lowerToUpper || digitChange { out.append(" ") }
      }
      out.append(ch)
      previous = ch
    }
    return out
  }
}
