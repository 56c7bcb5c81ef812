/// Which scalars belong to words, which are marks, and which fold to ASCII.
extension PhraseCheck {
  /// Whether a character belongs to a word: letters and digits, told
  /// without Unicode's tables for ASCII and the CJK blocks.
  static func isWordScalar(_ scalar: Unicode.Scalar) -> Bool {
    switch scalar.value {
    case 0x30...0x39, 0x41...0x5A, 0x61...0x7A: return true
    case 0...0x7F: return false
    case 0x80..<0x800: return twoByteScalars[Int(scalar.value) - 0x80] & wordFlag != 0
    case _ where isNeitherWordNorMark(scalar): return false
    default:
      return isFoldedAlready(scalar)
        || (scalar.properties.isAlphabetic || scalar.properties.numericType != nil)
          && !isMark(scalar)
    }
  }

  /// What Unicode's tables say of each character of two UTF-8 bytes
  /// (U+0080 to U+07FF: Latin beyond ASCII, Greek, Cyrillic, Hebrew,
  /// Arabic), asked once a process: a phrase check over a Russian man page
  /// asked them of every letter (a seventh of `"the quick"`'s time).
  private static let twoByteScalars: [UInt8] = (0x80..<0x800).map { value in
    guard let scalar = Unicode.Scalar(UInt32(value)) else { return 0 }
    // A mark belongs to the word it follows and begins none, though
    // Unicode calls some alphabetic (the Greek iota below, Hebrew points).
    switch scalar.properties.generalCategory {
    case .nonspacingMark, .spacingMark, .enclosingMark: return markFlag
    default:
      return scalar.properties.isAlphabetic || scalar.properties.numericType != nil ? wordFlag : 0
    }
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
}
