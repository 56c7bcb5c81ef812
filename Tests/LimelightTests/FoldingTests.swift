import Foundation
import GRDB
import LimelightModel
import Testing

@testable import LimelightStore

/// One definition of a word and of its folding: the SQLite tokenizers
/// (the name index's `limelight_words`, the text index's `limelight_pairs`)
/// store each word as the Swift side reads it (``SearchText/terms(of:)``),
/// which the queries, the store's words and the phrase check use.
@Suite struct FoldingTests {
  /// The scripts the relevance benchmark holds: Latin with its accents,
  /// Greek (monotonic and polytonic), Cyrillic, kana, Han, and full-width
  /// forms.
  static let scripts: [ClosedRange<UInt32>] = [
    0x30...0x7A, 0xC0...0x24F, 0x1E00...0x1EFF, 0x370...0x3FF, 0x1F00...0x1FFF, 0x400...0x4FF,
    0x3040...0x30FF, 0x4E00...0x4FFF, 0xFF10...0xFF5A,
  ]

  /// Each character between two letters, as a text the index is given.
  static var samples: [(Unicode.Scalar, String)] {
    scripts.flatMap { $0 }.compactMap(Unicode.Scalar.init).filter {
      $0.properties.generalCategory != .unassigned
    }.map { ($0, SearchText.fold("a" + String($0) + "a")) }
  }

  /// The words a tokenizer stores for each sample, in order.
  func tokenized(_ tokenizer: String) throws -> [[String]] {
    let queue = try DatabaseQueue()
    try queue.write { db in
      try IndexStore.addFunctions(db, texts: TextPacker())
      try db.execute(
        sql: """
          CREATE VIRTUAL TABLE t USING fts5(x, tokenize = '\(tokenizer) remove_diacritics 2');
          CREATE VIRTUAL TABLE v USING fts5vocab(t, 'instance');
          """)
      for (index, sample) in Self.samples.enumerated() {
        try db.execute(
          sql: "INSERT INTO t (rowid, x) VALUES (?, ?)", arguments: [index + 1, sample.1])
      }
    }
    var words = Array(repeating: [String](), count: Self.samples.count)
    try queue.read { db in
      // The text index's pairs (of common words: two characters of the
      // private use plane 15; of Chinese or Japanese characters) stand
      // beside a word, at its place: the word is the other term there.
      for row in try Row.fetchAll(
        db,
        sql: """
          SELECT doc, group_concat(term, char(10)) AS terms FROM v GROUP BY doc, offset
          ORDER BY doc, offset
          """)
      {
        let terms = (row["terms"] as String).split(separator: "\n").map(String.init)
        let word = terms.filter { !$0.unicodeScalars.contains { $0.value >= 0xF0000 } }
          .min { $0.unicodeScalars.count < $1.unicodeScalars.count }
        if let word { words[(row["doc"] as Int) - 1].append(word) }
      }
    }
    return words
  }

  @Test(arguments: ["limelight_words", "limelight_pairs"])
  func theTokenizersStoreWordsAsTheSwiftSideReadsThem(tokenizer: String) throws {
    var differences: [String] = []
    for (sample, stored) in zip(Self.samples, try tokenized(tokenizer)) {
      let expected = SearchText.terms(of: sample.1)
      if stored != expected {
        let code = String(sample.0.value, radix: 16, uppercase: true)
        differences.append("U+\(code) \(sample.0): stored \(stored), read \(expected)")
      }
    }
    #expect(differences.isEmpty, "\(differences.count):\n\(differences.joined(separator: "\n"))")
  }

  /// The phrase check reads a stored text's words, and a query's words
  /// are quoted for FTS5 as tokens, as ``SearchText/terms(of:)`` reads them.
  @Test func thePhraseCheckAndTheQueriesReadWordsAsTheSwiftSide() {
    var differences: [String] = []
    for (scalar, sample) in Self.samples {
      let expected = SearchText.terms(of: sample)
      let checked = PhraseCheck.words(of: sample)
      let quoted = SearchText.terms(of: SQLCompiler.tokens(of: sample).joined(separator: " "))
      if checked != expected || quoted != expected {
        let code = String(scalar.value, radix: 16, uppercase: true)
        differences.append(
          "U+\(code) \(scalar): phrase check \(checked), query \(quoted), read \(expected)")
      }
    }
    #expect(differences.isEmpty, "\(differences.count):\n\(differences.joined(separator: "\n"))")
  }

  @Test func greekAndCyrillicAccentsAndSharpSAreFoldedAlike() {
    #expect(SearchText.terms(of: SearchText.fold("Αθήνα Σημειώσεις")) == ["αθηνα", "σημειωσεισ"])
    #expect(SearchText.terms(of: "Straße ЁЖИК Йогурт") == ["strasse", "ежик", "иогурт"])
  }
}
