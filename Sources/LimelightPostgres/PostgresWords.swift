import Foundation
import LimelightModel

/// The words of names, texts and queries as the store's vectors hold them,
/// made here rather than by the server's parser: every host makes its own
/// (the server's parser read 10 MB of text a second, the one cost that
/// grew with every host), and a query's words meet the stored ones because
/// both are made by the same code. A word is a run of letters, marks and
/// digits of the folded text (``SearchText``), lower-cased, without
/// diacritics, as the SQLite index's tokenizer makes its terms.
enum PostgresWords {
  /// Words longer than this are left out (PostgreSQL refuses lexemes of
  /// 2 KB, and nobody types them).
  static let longestWord = 255
  /// A vector's text stays below PostgreSQL's 1 MB for a `tsvector`.
  static let longestVector = 1_000_000

  /// The words of `text`, in order (`folded`: the local index folded it):
  /// the SQLite tokenizer's terms (``SearchText/terms(of:)``), the longest
  /// left out.
  static func words(_ text: String, folded: Bool = false) -> [String] {
    SearchText.terms(of: folded ? text : SearchText.fold(text)).filter {
      $0.utf8.count <= longestWord
    }
  }

  /// The pairs of words side by side in `words` whose first is among the
  /// commonest (``commonWords``) and whose second is not, both of ASCII,
  /// as one lexeme each (`the+quick`), each once: those a phrase asks the
  /// store's index for, which the server makes of each text alike
  /// (`limelight_pair_words`). A pair that ends in a common word (`of+the`)
  /// is left out, as the local text index leaves it out: a fifth of the
  /// pairs, and a phrase ends in a common word alone far less often.
  static func pairs<Words: Sequence>(of words: Words) -> [String]
  where Words.Element: StringProtocol {
    pairs(of: words, endingInCommonWords: false)
  }

  /// The pairs of `words` as ``pairs(of:)`` makes them, those that end in
  /// a common word too with `endingInCommonWords`.
  private static func pairs<Words: Sequence>(of words: Words, endingInCommonWords: Bool)
    -> [String]
  where Words.Element: StringProtocol {
    var pairs: [String] = []
    var seen: Set<String> = []
    var previous: Words.Element?
    for word in words {
      defer { previous = word }
      guard let first = previous, isCommon(first), word.utf8.allSatisfy({ $0 < 0x80 }),
        endingInCommonWords || !isCommon(word)
      else { continue }
      let pair = first + "+" + word
      if seen.insert(pair).inserted { pairs.append(pair) }
    }
    return pairs
  }

  /// The pairs a text's words (``textWords(_:)``) hold, one space between,
  /// those that end in a common word too: sent with the text, whose hash
  /// they are part of as they were when the store first kept them (the
  /// server makes the pairs of its index itself, and keeps none).
  static func pairWords(_ textWords: String) -> String {
    pairs(of: textWords.split(separator: " "), endingInCommonWords: true)
      .joined(separator: " ")
  }

  /// Whether a word is one whose pairs the store's index holds: among
  /// ``commonWords``.
  private static func isCommon<Word: StringProtocol>(_ word: Word) -> Bool {
    commonWords.contains(String(word))
  }

  /// The words whose pairs the store's index holds: the server makes the
  /// pairs of each text from its words (`limelight_pair_words`, which
  /// store migration `v22-text-words-once` made of this list), and a
  /// phrase asks for them. The local text index's list
  /// (`limelight_is_common_word`), ASCII all. Leave it as it is: a store
  /// made before a change keeps the pairs of the list it was made with,
  /// and a new list needs a migration of its own, its list written out,
  /// that makes the function and the index again.
  static let commonWords: Set<String> = [
    "a", "an", "as", "at", "be", "by", "de", "do", "en", "et", "fn", "he", "if", "in", "is",
    "it", "la", "le", "no", "of", "on", "or", "so", "to", "we", "all", "and", "are", "but",
    "can", "def", "der", "des", "die", "for", "has", "his", "int", "its", "les", "let", "may",
    "new", "not", "one", "pub", "the", "und", "use", "var", "was", "you", "also", "been",
    "char", "else", "from", "func", "have", "impl", "into", "more", "self", "than", "that",
    "then", "they", "this", "void", "will", "with", "about", "class", "const", "other", "their",
    "there", "these", "which", "define", "import", "public", "return", "static", "struct",
  ]

  /// A word as a quoted lexeme of a `tsvector` or `tsquery` text.
  static func quoted(_ word: String) -> String {
    "'" + word.replacingOccurrences(of: "'", with: "''") + "'"
  }

  /// A `tsquery` text of quoted lexemes (``quoted(_:)``, perhaps `:*`)
  /// with each lexeme restricted to weight A: matched by a vector's name
  /// words alone (``positionedVector(_:nameCount:)``), not its keywords',
  /// as `ts_filter(vector, '{a}')` would match, without making a new
  /// vector for each row.
  static func inNameAlone(_ query: String) -> String {
    // A quoted lexeme (`''` an apostrophe inside it), perhaps a prefix.
    query.replacing(/'(?:[^']|'')*'(:\*)?/) { lexeme in
      lexeme.output.0 + (lexeme.output.1 == nil ? ":A" : "A")
    }
  }

  /// A name's words then its keywords' with their positions (for
  /// phrases), the name's weighted A and the keywords' B (a name that
  /// holds a word ranks above one whose keywords do, as in the local
  /// index): `'a':1A 'b':2A,4B`. The first `nameCount` words are the name's.
  static func positionedVector(_ words: [String], nameCount: Int) -> String {
    var positions: [String: [String]] = [:]
    var order: [String] = []
    for (index, word) in words.enumerated() where index < 16383 {
      if positions[word] == nil { order.append(word) }
      positions[word, default: []].append(String(index + 1) + (index < nameCount ? "A" : "B"))
    }
    return order.map { word in
      quoted(word) + ":" + positions[word]!.prefix(256).joined(separator: ",")
    }.joined(separator: " ")
  }

  /// A text's words (folded by the local index), one space between, at
  /// most ``longestVector`` bytes:
  /// the store keeps them, and makes the text's vector of them
  /// (`array_to_tsvector`, which reads no text). One pass over the bytes;
  /// only a word that is not ASCII is made a string (to lower its case and
  /// strip its diacritics).
  static func textWords(_ folded: String) -> String {
    var source = folded
    return source.withUTF8 { bytes -> String in
      var out: [UInt8] = []
      out.reserveCapacity(min(bytes.count, longestVector))
      var start = -1  // where the word being read began in `bytes`
      var ascii = true
      func finish(_ end: Int) {
        defer { (start, ascii) = (-1, true) }
        guard start >= 0, end - start <= longestWord else { return }
        if ascii {
          if !out.isEmpty { out.append(0x20) }
          for byte in bytes[start..<end] {
            out.append(byte >= 0x41 && byte <= 0x5A ? byte | 0x20 : byte)
          }
        } else {
          // Never an empty word: the store makes lexemes of what is between spaces.
          for word in SearchText.terms(of: String(decoding: bytes[start..<end], as: UTF8.self)) {
            if !out.isEmpty { out.append(0x20) }
            out.append(contentsOf: word.utf8)
          }
        }
      }
      var index = 0
      while index < bytes.count && out.count < longestVector {
        let byte = bytes[index]
        if byte < 0x80 {
          let lower = byte | 0x20
          if (byte >= 0x30 && byte <= 0x39) || (lower >= 0x61 && lower <= 0x7A) {
            if start < 0 { start = index }
          } else {
            finish(index)
          }
          index += 1
          continue
        }
        // A scalar of several bytes: decoded to tell a letter from punctuation.
        let length = byte >= 0xF0 ? 4 : byte >= 0xE0 ? 3 : 2
        let end = min(index + length, bytes.count)
        let scalar = String(decoding: bytes[index..<end], as: UTF8.self).unicodeScalars.first
        if let scalar, isWordScalar(scalar) {
          if start < 0 { start = index }
          ascii = false
        } else {
          finish(index)
        }
        index = end
      }
      finish(min(index, bytes.count))
      if out.count > longestVector {
        // Cut at the last whole word.
        var cut = longestVector
        while cut > 0 && out[cut] != 0x20 { cut -= 1 }
        out.removeSubrange(cut...)
      }
      return String(decoding: out, as: UTF8.self)
    }
  }

  /// A character words hold: the tokenizer's, and the marks that may
  /// follow a letter (taken off with its accents).
  static func isWordScalar(_ scalar: Unicode.Scalar) -> Bool {
    switch scalar.properties.generalCategory {
    case .nonspacingMark, .spacingMark, .enclosingMark: return true
    default: return SearchText.isWordCharacter(scalar)
    }
  }
}
