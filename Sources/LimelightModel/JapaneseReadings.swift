import CMeCab
import Foundation
import Synchronization

#if canImport(Glibc)
  import Glibc
#endif

/// Japanese readings of kanji, from MeCab and its IPA dictionary (Debian's
/// `mecab-ipadic-utf8`): ICU reads every Han character as Mandarin, and
/// 天気 is "tenki" to whoever wrote it, not "tian qi". Without the dictionary
/// there are no Japanese readings (the Mandarin ones stay).
public enum JapaneseReadings {
  /// Where the dictionary is looked for, in order.
  static let dictionaries = ["/var/lib/mecab/dic/ipadic-utf8", "/usr/lib/mecab/dic/ipadic-utf8"]

  /// The first dictionary MeCab loads, if any (the tagger the test loaded is
  /// kept for the first reading).
  private static let dictionary: String? = {
    for dictionary in dictionaries {
      guard let tagger = Tagger(dictionary: dictionary) else { continue }
      loaded.withLock { $0 = tagger }
      return dictionary
    }
    return nil
  }()

  /// Whether a dictionary was found.
  public static var areAvailable: Bool { dictionary != nil }

  /// Up to `count` distinct readings of `text`, the likeliest first, from
  /// MeCab's best analyses: each the katakana reading of every word (its
  /// surface when the dictionary has none: kana, Latin, unknown words), and
  /// whether the dictionary knew every word (kanji it does not know are
  /// likely Chinese: 们, 这, 气). A name is short and is read every way the
  /// dictionary finds likely (色設定 is "iro settei", and "shoku settei" to whoever
  /// reads it kanji by kanji); empty without a dictionary.
  public static func readings(_ text: String, count: Int) -> [(words: [String], allKnown: Bool)] {
    guard let dictionary else { return [] }
    let tagger = loaded.withLock { tagger in
      if tagger == nil { tagger = Tagger(dictionary: dictionary) }
      return tagger
    }
    return tagger?.readings(text, count: count) ?? []
  }

  /// Lets the dictionary go: once a few Japanese texts are read, most of its
  /// 50 MB is resident. It is loaded again when next needed; a reading under
  /// way keeps it until it ends.
  public static func release() { loaded.withLock { $0 = nil } }

  private static let loaded = Mutex<Tagger?>(nil)
}

/// One model and its tagger, shared by every thread: MeCab's tagger parses
/// lattices concurrently, each call has a lattice of its own.
private final class Tagger: @unchecked Sendable {
  private let model: OpaquePointer
  private let tagger: OpaquePointer

  deinit {
    mecab_destroy(tagger)
    mecab_model_destroy(model)
  }

  init?(dictionary: String) {
    // The dictionary's own settings file stands in for a system-wide mecabrc,
    // which may name another dictionary or another encoding.
    guard FileManager.default.fileExists(atPath: dictionary + "/sys.dic"),
      let model = mecab_model_new2("-r \(dictionary)/dicrc -d \(dictionary)")
    else { return nil }
    guard let tagger = mecab_model_new_tagger(model) else {
      mecab_model_destroy(model)
      return nil
    }
    self.model = model
    self.tagger = tagger
    self.lexicon = Self.mapping(of: dictionary + "/sys.dic")
  }

  /// Where the dictionary's lexicon (sys.dic, 50 MB) is mapped, if found.
  private let lexicon: UnsafeMutableRawBufferPointer?

  /// The read-only mapping of `file`, from /proc/self/maps.
  private static func mapping(of file: String) -> UnsafeMutableRawBufferPointer? {
    let path = URL(fileURLWithPath: file).resolvingSymlinksInPath().path
    guard let maps = try? String(contentsOfFile: "/proc/self/maps", encoding: .utf8) else {
      return nil
    }
    for line in maps.split(separator: "\n") {
      // address-range permissions offset device inode path
      let fields = line.split(separator: " ", maxSplits: 5, omittingEmptySubsequences: true)
      guard fields.count == 6, !fields[1].contains("w"),
        fields[5].drop(while: { $0 == " " }) == path
      else { continue }
      let bounds = fields[0].split(separator: "-").compactMap { UInt(String($0), radix: 16) }
      guard bounds.count == 2, bounds[1] > bounds[0] else { continue }
      return UnsafeMutableRawBufferPointer(
        start: UnsafeMutableRawPointer(bitPattern: bounds[0]), count: Int(bounds[1] - bounds[0]))
    }
    return nil
  }

  /// Hands back the lexicon's pages this process has mapped, keeping them
  /// in the page cache: the kernel maps 64 KB around every page a lookup
  /// touches, so that a few hundred Japanese texts left 35 MB of it
  /// resident; mapped again, from memory, as the next text is read. At most
  /// once every ``dropInterval``: dropped after every reading, the 49 MB
  /// were handed back every few milliseconds and mapped again for every
  /// line of a Japanese manual.
  private func dropLexiconPages() {
    guard let lexicon else { return }
    let now = Double(DispatchTime.now().uptimeNanoseconds) / 1e9
    let due = lastDrop.withLock { last in
      guard now - last >= Self.dropInterval else { return false }
      last = now
      return true
    }
    // Read-only file pages: nothing is lost, a thread reading meanwhile maps them again.
    if due { _ = madvise(lexicon.baseAddress, lexicon.count, MADV_DONTNEED) }
  }

  private let lastDrop = Mutex<Double>(0)
  private static let dropInterval = 1.0

  /// Up to `count` distinct readings, from the best analysis on; the
  /// analyses after the first are looked at only among the next few.
  func readings(_ text: String, count: Int) -> [(words: [String], allKnown: Bool)] {
    guard let lattice = mecab_model_new_lattice(model) else { return [] }
    defer { mecab_lattice_destroy(lattice) }
    var readings: [(words: [String], allKnown: Bool)] = []
    text.withCString { sentence in
      mecab_lattice_set_sentence(lattice, sentence)
      if count > 1 { mecab_lattice_set_request_type(lattice, Int32(MECAB_NBEST)) }
      guard mecab_parse_lattice(tagger, lattice) != 0 else { return }
      var analyses = 0
      repeat {
        analyses += 1
        let reading = Self.reading(of: lattice)
        if !readings.contains(where: { $0.words == reading.words }) { readings.append(reading) }
      } while readings.count < count && analyses < 2 * count && mecab_lattice_next(lattice) != 0
    }
    dropLexiconPages()
    return readings
  }

  /// The reading of the lattice's current analysis, word by word.
  private static func reading(of lattice: OpaquePointer) -> (words: [String], allKnown: Bool) {
    var words: [String] = []
    var allKnown = true
    var node = mecab_lattice_get_bos_node(lattice)?.pointee.next
    while let current = node?.pointee, Int32(current.stat) != MECAB_EOS_NODE {
      node = current.next
      if Int32(current.stat) == MECAB_UNK_NODE { allKnown = false }
      // IPAdic's features: part of speech (four), conjugation (two), base
      // form, reading, pronunciation.
      let features = current.feature.map { String(cString: $0) }?.split(
        separator: ",", omittingEmptySubsequences: false)
      if let features, features.count > 7, features[7] != "*" {
        words.append(String(features[7]))
      } else if current.length > 0 {
        words.append(
          String(
            decoding: UnsafeRawBufferPointer(start: current.surface, count: Int(current.length)),
            as: UTF8.self))
      }
    }
    return (words, allKnown)
  }
}
