import Foundation
import GRDB
import LimelightPlatform
import Testing

@testable import LimelightModel
@testable import LimelightQuery
@testable import LimelightStore

/// A description that repeats the title or the beginning of the text is made
/// from there, not stored; every description reads as it was given.
@Suite struct DescriptionTests {
  /// A file's record whose description is `description`.
  func record(_ path: String, text: String?, title: String? = nil, description: String?)
    -> FileRecord
  {
    var record = Fixtures.record(path, text: text, title: title)
    record.attributes.contentDescription = description
    return record
  }

  /// The stored description and its source, and the description as read,
  /// of the item at `path`.
  func described(_ path: String, in store: IndexStore) throws -> (
    stored: String?, source: Int64?, read: String?
  ) {
    let row = try #require(
      try store.read { db in
        try Row.fetchOne(
          db, sql: "SELECT contentDescription, descriptionSource FROM item WHERE path = ?",
          arguments: [Data(path.utf8)])
      })
    let details = try #require(try store.details(of: .path(RawPath(path))))
    let read = details.fields.first { $0.name == "contentDescription" }?.value
    guard case .string(let text)? = read else {
      return (row["contentDescription"], row["descriptionSource"], nil)
    }
    return (row["contentDescription"], row["descriptionSource"], text)
  }

  /// Whether the predicate `contentDescription == "pattern"` finds the item at `path`.
  func predicateFinds(_ pattern: String, _ path: String, in store: IndexStore) throws -> Bool {
    let found = try SearchEngine(store: store).search(
      .filter(.match(.contentDescription, pattern: pattern, flags: "")))
    return found.contains { $0.path == RawPath(path) }
  }

  @Test func descriptionsFromTheTitleOrTextAreMadeAgainAndOthersStored() throws {
    let store = try Fixtures.newStore()
    let code = "// tide.c\n//   Tables of the tides.\nint main(void) { return 0; }\n"
    let long = String(repeating: "harbour lights and tide tables ", count: 30)
    let manual = "tide - print the tides of a harbour"
    let cases:
      [(path: String, text: String?, title: String?, description: String?, source: Int64?)] = [
        // The beginning of the text, as the text importer draws it.
        ("/d/tide.c", code, nil, AttributeSet.summary(of: code), 2),
        // Cut at 300 characters.
        ("/d/long.txt", long, nil, AttributeSet.summary(of: long), 2),
        // A manual page: its title.
        ("/d/tide.1.gz", "TIDE(1) NAME tide - print the tides", manual, manual, 1),
        // A title longer than a description is cut the same way.
        ("/d/long.html", "body", long, AttributeSet.summary(of: long), 1),
        // A page's own summary, which is neither.
        (
          "/d/page.html", "Welcome aboard. The tides today.", "Harbour", "How the harbour did.", nil
        ),
        // Text the index folds (Chinese and Japanese characters spaced out)
        // reads otherwise once folded: stored.
        ("/d/潮汐.txt", "潮汐表 tide tables", nil, "潮汐表 tide tables", nil),
        ("/d/empty.txt", "", nil, nil, nil),
      ]
    try store.write { writer in
      for item in cases {
        var record = record(
          item.path, text: item.text, title: item.title, description: item.description)
        if item.path.hasSuffix(".c") { IndexWriter.prepare(&record, texts: store.texts) }
        try writer.upsert(record)
      }
    }
    for item in cases {
      let found = try described(item.path, in: store)
      #expect(found.read == item.description, "\(item.path)")
      #expect(found.source == item.source, "\(item.path)")
      #expect(found.stored == (item.source == nil ? item.description : nil), "\(item.path)")
      if let description = item.description {
        let pattern = String(description.prefix(12)) + "*"
        #expect(try predicateFinds(pattern, item.path, in: store), "\(item.path)")
        // Whole: the summary of a long text may end in a word cut short.
        #expect(try predicateFinds(description, item.path, in: store), "\(item.path)")
      }
    }
    #expect(try predicateFinds("Tables of the tides*", "/d/tide.c", in: store) == false)
    #expect(try predicateFinds("// tide.c*", "/d/tide.c", in: store))
    // The words of a pattern narrow the texts compared to those holding
    // them: a word behind a `*` may end a longer one, one before it begin one.
    #expect(try predicateFinds("*ights and tide tab*", "/d/long.txt", in: store))
    #expect(try predicateFinds("harbour lights and fog*", "/d/long.txt", in: store) == false)
    #expect(try predicateFinds("*the tid*", "/d/tide.c", in: store))
    #expect(
      ItemDescription.textWords(ofPattern: "#!/usr/bin/env python*", flags: "c")
        == #""usr" AND "bin" AND "env" AND "python" *"#)
    #expect(
      ItemDescription.textWords(ofPattern: "*ights and café au lait", flags: "")
        == #""and" AND "au" AND "lait" *"#)
    #expect(ItemDescription.textWords(ofPattern: "*ab*c", flags: "") == nil)
    #expect(ItemDescription.textWords(ofPattern: "python*", flags: "w") == nil)

    // A new text and a description drawn from it: the new one is read.
    try store.write { writer in
      let text = "// tide.c\n// Now the currents too.\n"
      try writer.upsert(
        record("/d/tide.c", text: text, description: AttributeSet.summary(of: text)))
      // A copy shares the body; the original's description follows it still.
      try writer.upsert(
        record("/d/copy.c", text: text, description: AttributeSet.summary(of: text)))
      try writer.removeTree(RawPath("/d/copy.c"))
    }
    let rewritten = try described("/d/tide.c", in: store)
    #expect(rewritten.read == "// tide.c // Now the currents too.")
    #expect(rewritten.source == 2)
  }

  @Test func theSummaryOfASCIIReadsAsTheSummaryOfItsCharacters() {
    // Random texts of runs of letters and every kind of white space (CR LF
    // one character), short and past what a summary looks at.
    var random = SystemRandomNumberGenerator()
    let pieces = [
      "a", "Bc", "word ", " ", "  ", "\t", "\n", "\r", "\r\n", "\u{0B}", "\u{0C}", "\u{1C}", "x.",
      "\u{7F}",
    ]
    for _ in 0..<3_000 {
      let length = Int.random(in: 0...(Bool.random(using: &random) ? 40 : 3_000), using: &random)
      let text = (0..<length).map { _ in pieces.randomElement(using: &random)! }.joined()
      let expected = AttributeSet.characterSummary(of: text)
      #expect(AttributeSet.summary(of: text) == expected, "\(text.debugDescription)")
      let utf8 = Array(text.utf8)
      #expect(AttributeSet.summary(ofUTF8: utf8) == expected)
    }
    // Beyond ASCII, the characters decide.
    #expect(AttributeSet.summary(of: " caf\u{E9}\u{301}  au  lait ") == "caf\u{E9}\u{301} au lait")
  }

  @Test func aDescriptionIsDrawnFromAPackedText() throws {
    let store = try Fixtures.newStore()
    var random = SystemRandomNumberGenerator()
    let words = ["tide", "harbour", "current", "moon", "ebb", "flood", "chart", "buoy", "潮"]
    func text(_ count: Int) -> String {
      (0..<count).map { _ in words.randomElement(using: &random)! }.joined(separator: " ")
    }
    // Texts enough to train the index's dictionary on: texts are packed with zstd.
    try store.write { writer in
      for _ in 0..<120 { _ = store.texts.pack(text(600)) }
      try store.texts.trainIfReady(writer.db, early: true)
    }
    #expect(store.texts.hasDictionary)
    let long = Array(text(5_000).utf8)
    let packed = store.texts.pack(String(decoding: long, as: UTF8.self))
    #expect(packed.starts(with: [0x28, 0xB5, 0x2F, 0xFD]))
    // A description drawn in SQL from the packed text, beyond ASCII.
    let summary = try store.read { db in
      try String.fetchOne(db, sql: "SELECT limelight_summary(?)", arguments: [packed])
    }
    #expect(summary == AttributeSet.summary(of: String(decoding: long, as: UTF8.self)))
  }
}
