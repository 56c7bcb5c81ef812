import Foundation
import Synchronization

/// The one folding that both the index and queries apply, so that what the user
/// types meets what was stored: compatibility composition (full-width letters
/// become ASCII, decomposed accents compose), and Chinese, Japanese and Korean
/// characters split one per token, so that any run of them is found as a phrase
/// (substring search in text that has no spaces); then the FTS tokenizer folds
/// case and strips diacritics.
public enum SearchText {
  public static func fold(_ text: String) -> String {
    var text = text
    return text.withUTF8(foldRuns) ?? text
  }

  /// ASCII bytes this many or more apart end one run of other characters
  /// and begin the next: the runs are composed one by one, and a long text
  /// with an accent here and there is not composed whole.
  static let runGap = 64

  /// The text with its runs of characters beyond ASCII folded (with the
  /// ASCII letter before each, which a combining accent may join), the
  /// ASCII between them as it is; nil when it is ASCII alone. Composition
  /// never crosses an ASCII character that no accent follows: each one
  /// starts afresh, so the runs fold as the whole text would.
  private static func foldRuns(_ bytes: UnsafeBufferPointer<UInt8>) -> String? {
    guard var high = bytes.firstIndex(where: { $0 >= 0x80 }) else { return nil }
    var out: [UInt8] = []
    out.reserveCapacity(bytes.count + bytes.count / 8)
    var copied = 0
    while true {
      let start = high > copied && bytes[high - 1] < 0x80 ? high - 1 : high
      var end = high + 1
      var next: Int?
      var index = end
      while index < bytes.count {
        if bytes[index] >= 0x80 {
          end = index + 1
        } else if index - end >= runGap {
          next = bytes[index...].firstIndex(where: { $0 >= 0x80 })
          break
        }
        index += 1
      }
      out.append(contentsOf: bytes[copied..<start])
      out.append(contentsOf: foldRun(String(decoding: bytes[start..<end], as: UTF8.self)).utf8)
      copied = end
      guard let found = next else { break }
      high = found
    }
    out.append(contentsOf: bytes[copied...])
    return String(decoding: out, as: UTF8.self)
  }

  /// One run folded: composed, and its Chinese, Japanese and Korean
  /// characters spaced out; the Cyrillic titlo and its kin, which the
  /// tokenizer reads as spaces and the folding of queries drops, dropped.
  private static func foldRun(_ text: String) -> String {
    let composed = text.precomposedStringWithCompatibilityMapping
    guard composed.unicodeScalars.contains(where: { isCJK($0) || isCyrillicMark($0) }) else {
      return composed
    }
    var out = String.UnicodeScalarView()
    for scalar in composed.unicodeScalars where !isCyrillicMark(scalar) {
      if isCJK(scalar) {
        out.append(" ")
        out.append(scalar)
        out.append(" ")
      } else {
        out.append(scalar)
      }
    }
    return String(out)
  }

  /// The Cyrillic combining marks (titlo, palatalization, the
  /// hundred-thousands and millions signs).
  private static func isCyrillicMark(_ scalar: Unicode.Scalar) -> Bool {
    (0x483...0x489).contains(scalar.value)
  }

  /// The pairs of Chinese, Japanese or Korean characters side by side in a
  /// folded text ("硬盘分区" → 硬盘, 盘分, 分区), which the text index holds
  /// as terms of their own: two characters the tokenizer keeps as words,
  /// with only the two spaces the folding put between them (a space or
  /// punctuation in the text makes no pair). The text index's tokenizer
  /// (`limelight_pairs`) makes the same.
  public static func cjkPairs(ofFolded folded: String) -> [String] {
    if folded.utf8.allSatisfy({ $0 < 0x80 }) { return [] }
    var pairs: [String] = []
    var previous: Unicode.Scalar?
    var spaces = 0
    for scalar in folded.unicodeScalars {
      if scalar == " " {
        spaces += 1
        continue
      }
      let isCharacter = isCJK(scalar) && isWordCharacter(scalar)
      if isCharacter, let first = previous, spaces == 2 {
        var pair = String.UnicodeScalarView()
        pair.append(first)
        pair.append(scalar)
        pairs.append(String(pair))
      }
      previous = isCharacter ? scalar : nil
      spaces = 0
    }
    return pairs
  }

  /// Whether the tokenizer keeps a character in words: letters, digits,
  /// private use.
  public static func isWordCharacter(_ scalar: Unicode.Scalar) -> Bool {
    switch scalar.properties.generalCategory {
    case .uppercaseLetter, .lowercaseLetter, .titlecaseLetter, .modifierLetter, .otherLetter,
      .decimalNumber, .letterNumber, .otherNumber, .privateUse:
      return true
    default:
      return false
    }
  }

  /// The words of a text as the tokenizer stores them: lower case, without
  /// accents, split at anything that is not a letter or digit.
  public static func terms(of text: String) -> [String] {
    let folded = caseAndAccentFolded(text)
    guard folded.utf8.allSatisfy({ $0 < 0x80 }) else {
      return folded.split { !$0.isLetter && !$0.isNumber }.map(String.init)
    }
    // ASCII: split by bytes, not by characters.
    return folded.utf8.split { !isASCIIWordByte($0) }.map { String(decoding: $0, as: UTF8.self) }
  }

  /// A lower-case ASCII letter or a digit (the folding lowered the rest).
  private static func isASCIIWordByte(_ byte: UInt8) -> Bool {
    (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte)
      || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
  }

  /// Lower case without accents, as the tokenizer folds; ASCII skips the
  /// Unicode folding (which would load ICU's data: milliseconds).
  public static func caseAndAccentFolded(_ text: String) -> String {
    text.utf8.allSatisfy({ $0 < 0x80 })
      ? text.lowercased()
      : text.folding(options: [.caseInsensitive, .diacriticInsensitive], locale: nil).lowercased()
  }

  /// Whether a string holds anything a tokenizer would keep (a letter or digit).
  public static func hasWordCharacters(_ text: String) -> Bool {
    text.unicodeScalars.contains { $0.properties.isAlphabetic || $0.properties.numericType != nil }
  }

  /// Han ideographs, kana and hangul: scripts written without spaces between words.
  public static func isCJK(_ scalar: Unicode.Scalar) -> Bool {
    switch scalar.value {
    case 0x3040...0x30FF, 0x31F0...0x31FF, 0x3400...0x4DBF, 0x4E00...0x9FFF, 0xAC00...0xD7AF,
      0xF900...0xFAFF, 0x20000...0x2FA1F:
      return true
    default:
      return false
    }
  }

  /// 1 Han, 2 hiragana, 3 katakana, 4 hangul, 5 Cyrillic, 6 Greek, 7 other
  /// alphabets with a Latin transliteration (Arabic, Hebrew, Armenian,
  /// Georgian, Thai, Devanagari); 0 for the prolonged sound mark, which
  /// continues whatever kana it follows; nil for everything else.
  static func scriptClass(_ scalar: Unicode.Scalar) -> Int? {
    switch scalar.value {
    case 0x30FC: return 0
    case 0x3040...0x309F: return 2
    case 0x30A0...0x30FF, 0x31F0...0x31FF: return 3
    case 0xAC00...0xD7AF: return 4
    case 0x0400...0x052F: return 5
    case 0x0370...0x03FF, 0x1F00...0x1FFF: return 6
    case 0x0530...0x058F, 0x0590...0x05FF, 0x0600...0x06FF, 0x0900...0x097F, 0x0E00...0x0E7F,
      0x10A0...0x10FF:
      return scalar.properties.isAlphabetic ? 7 : nil
    default: return isCJK(scalar) ? 1 : nil
    }
  }

  /// The Latin reading of the Chinese, Japanese and Korean runs in a text
  /// (pinyin without tones, romaji), each run both syllable by syllable and run
  /// together ("星球" → "xing qiu xingqiu"), so that "xingqiu" and "qiu" find it,
  /// and of words in other alphabets (Москва → "moskva"); nil when there are
  /// none. `fromEverySyllable` also runs each run together from every syllable
  /// on ("wendang" then finds 中文文档, for names) and reads characters
  /// with two common readings both ways (长城 → "changcheng" as well as
  /// "zhangcheng"). Reads at most `limit`
  /// characters of such runs.
  ///
  /// Kana make a text Japanese: its kanji are read as Japanese, word by word
  /// (``JapaneseReadings``: 天気予報 → "tenki yohou tenkiyohou", and "tenkiyoho"
  /// without the long vowels). Kanji without kana could be either: a name gets
  /// both readings (the Japanese one when the dictionary knows its every
  /// word), a text the Mandarin one.
  public static func romanized(
    _ text: String, limit: Int = 20_000, fromEverySyllable: Bool = false
  ) -> String? {
    guard hasScripts(text) else { return nil }
    let runs = scriptRuns(text, limit: limit)
    guard !runs.isEmpty else { return nil }
    let hasKana = runs.contains { $0.script == 2 || $0.script == 3 }
    let japanese =
      (hasKana || fromEverySyllable && runs.contains { $0.script == 1 })
      && JapaneseReadings.areAvailable
    var out: [String] = []
    func add(_ words: [Substring]) {
      guard !words.isEmpty else { return }
      out.append(words.joined(separator: " "))
      if words.count > 1 {
        let starts = fromEverySyllable ? Array(0..<min(words.count - 1, 12)) : [0]
        for start in starts { out.append(words[start...].joined()) }
      }
    }
    let scripts = Dictionary(
      runs.filter { !(japanese && hasKana && $0.isJapanese) }.map { ($0.text, $0.script) },
      uniquingKeysWith: { first, _ in first })
    for (run, script) in scripts.sorted(by: { $0.key < $1.key }) {
      // A text's Chinese and Cyrillic are read character by character; a
      // name's whole, with the few readings ICU knows from the words around.
      let byCharacter = (script == 1 || script == 5) && !fromEverySyllable
      let words = byCharacter ? characterWords(run, oneWord: script == 5) : latinWords(run)
      add(words)
      // A name is short: its characters with two common readings are read
      // both ways (``ChinesePolyphones``).
      if fromEverySyllable {
        for variant in ChinesePolyphones.variants(of: run, syllables: words) { add(variant) }
      }
    }
    if japanese {
      // A name is short: it is read every likely way (``JapaneseReadings``).
      let readings = Set(japaneseSentences(runs)).sorted().map {
        JapaneseReadings.readings($0, count: fromEverySyllable ? 3 : 1)
      }
      // Kanji alone are read as Japanese only when the dictionary knows
      // every word of the text (in its likeliest reading): 天気 is,
      // 嵌入的 SQL 预处理器 is not.
      if hasKana || readings.allSatisfy({ $0.first?.allKnown ?? false }) {
        for reading in readings.joined() {
          let words = reading.words.flatMap(latinWords)
          add(words)
          let short = words.map { Substring(withoutLongVowels($0)) }
          if short != words { add(short) }
        }
      }
    }
    return out.isEmpty ? nil : out.joined(separator: " ")
  }

  /// A run of one script: `script` as ``scriptClass(_:)`` numbers them, and
  /// whether it directly follows the run before (no space or other script
  /// between).
  struct ScriptRun {
    var script: Int
    var text: String
    var followsPrevious: Bool
    var isJapanese: Bool { (1...3).contains(script) }
  }

  /// The runs of one script each in a text, up to `limit` characters: ICU
  /// glues kana to the syllable before it otherwise.
  /// Whether a text holds a character of a script read (``scriptClass(_:)``),
  /// from its bytes: every such script starts at U+0370 or later, whose
  /// UTF-8 starts 0xCD, and only characters starting so are decoded (a
  /// text's ASCII, Latin accents and punctuation, most of most texts, are
  /// passed over).
  static func hasScripts(_ text: String) -> Bool {
    var text = text
    return text.withUTF8 { bytes in
      var index = 0
      while index < bytes.count {
        let lead = bytes[index]
        guard lead >= 0xCD else {
          index += 1
          continue
        }
        let length = lead >= 0xF0 ? 4 : lead >= 0xE0 ? 3 : 2
        guard index + length <= bytes.count else { return false }
        var value = UInt32(lead) & (length == 4 ? 0x07 : length == 3 ? 0x0F : 0x1F)
        for offset in 1..<length { value = value << 6 | UInt32(bytes[index + offset] & 0x3F) }
        if let scalar = Unicode.Scalar(value), scriptClass(scalar) != nil { return true }
        index += length
      }
      return false
    }
  }

  static func scriptRuns(_ text: String, limit: Int) -> [ScriptRun] {
    var runs: [ScriptRun] = []
    var current = String.UnicodeScalarView()
    var currentScript = 0
    var adjacent = false
    var total = 0
    for scalar in text.unicodeScalars {
      if let script = scriptClass(scalar) {
        if !current.isEmpty && script != 0 && script != currentScript {
          runs.append(
            ScriptRun(script: currentScript, text: String(current), followsPrevious: adjacent))
          current = String.UnicodeScalarView()
          adjacent = true
        }
        if script != 0 { currentScript = script }
        current.append(scalar)
        total += 1
        if total >= limit { break }
      } else if !current.isEmpty {
        runs.append(
          ScriptRun(script: currentScript, text: String(current), followsPrevious: adjacent))
        current = String.UnicodeScalarView()
        adjacent = false
      }
    }
    if !current.isEmpty {
      runs.append(
        ScriptRun(script: currentScript, text: String(current), followsPrevious: adjacent))
    }
    return runs
  }

  /// Runs of kanji and kana that follow one another, joined: what MeCab
  /// reads as a sentence (送り仮名 stay with their kanji).
  static func japaneseSentences(_ runs: [ScriptRun]) -> [String] {
    var sentences: [String] = []
    var current = ""
    var previousWasJapanese = false
    for run in runs {
      if run.isJapanese {
        if !(run.followsPrevious && previousWasJapanese), !current.isEmpty {
          sentences.append(current)
          current = ""
        }
        current += run.text
      }
      previousWasJapanese = run.isJapanese
    }
    if !current.isEmpty { sentences.append(current) }
    return sentences
  }

  /// The readings of the characters met so far, by code point (an empty
  /// string for a character with none).
  private static let characterReadings = Mutex<[UInt32: String]>([:])

  /// A run of Han or Cyrillic characters in Latin letters, each character
  /// read once by ICU and then looked up: Chinese a syllable a character,
  /// Cyrillic (`oneWord`) a word a run. ICU reads Chinese at about 15,000
  /// characters a second, and the texts of a home's manual pages and
  /// translations in Chinese and Russian took the content pass a fifth of
  /// its time.
  static func characterWords(_ run: String, oneWord: Bool) -> [Substring] {
    let scalars = Array(run.unicodeScalars)
    var readings = characterReadings.withLock { known in scalars.map { known[$0.value] } }
    // Each character not met before is read once, outside the lock.
    let unread = Set(scalars.indices.filter { readings[$0] == nil }.map { scalars[$0] })
    if !unread.isEmpty {
      let read = Dictionary(
        uniqueKeysWithValues: unread.map { ($0.value, latinWords(String($0)).joined()) })
      characterReadings.withLock { $0.merge(read) { known, _ in known } }
      readings = zip(readings, scalars).map { $0 ?? read[$1.value] }
    }
    let syllables = readings.compactMap { $0.flatMap { $0.isEmpty ? nil : Substring($0) } }
    return oneWord && !syllables.isEmpty ? [Substring(syllables.joined())] : syllables
  }

  /// A run in Latin letters, lower case, without accents, split into words.
  static func latinWords(_ run: String) -> [Substring] {
    guard
      let latin = run.applyingTransform(.toLatin, reverse: false)?
        .applyingTransform(.stripDiacritics, reverse: false)?.lowercased()
    else { return [] }
    return latin.filter { $0 != "'" && $0 != "ʼ" }.split { !$0.isLetter && !$0.isNumber }
  }

  /// Romaji as English spells it, without long vowels: "toukyou" → "tokyo".
  static func withoutLongVowels<S: StringProtocol>(_ word: S) -> String {
    var out = ""
    var previous: Character?
    for letter in word {
      if let previous,
        previous == "o" && letter == "u" || previous == letter && "aiueo".contains(letter)
      {
        continue
      }
      out.append(letter)
      previous = letter
    }
    return out
  }
}
