import Foundation
import GRDB
import LimelightPlatform
import Testing

@testable import LimelightModel
@testable import LimelightQuery
@testable import LimelightStore

/// The small index: text stored once, packed; full-text indexes that read
/// it from there; phrases checked in the text; files named first and read later.
@Suite struct TextIndexTests {
  let store: IndexStore

  init() throws { store = try Fixtures.newStore() }

  func record(_ path: String, text: String?, title: String? = nil, pending: Bool = false)
    -> FileRecord
  { Fixtures.record(path, text: text, title: title, pending: pending) }

  func names(_ words: String, prefix: Bool = false, column: TextColumn? = nil) throws -> [String] {
    try SearchEngine(store: store).search(.text(words, prefix: prefix, column: column))
      .map(\.displayName).sorted()
  }

  func expectWholeIndexes(_ step: String) throws { try store.expectWholeIndexes(step) }

  @Test func theFullTextIndexesStayWholeThroughEveryChange() throws {
    try store.write { writer in
      try writer.upsert(record("/d/a/notes.txt", text: nil, pending: true))
      try writer.upsert(record("/d/a/other.txt", text: "plain words here"))
    }
    try expectWholeIndexes("names first")
    try store.write { writer in
      try writer.upsert(record("/d/a/notes.txt", text: "the lighthouse keeper"))
    }
    try expectWholeIndexes("the second pass, names unchanged")
    try store.write { writer in
      try writer.upsert(record("/d/a/notes.txt", text: "the lighthouse keeper", title: "Log"))
    }
    try expectWholeIndexes("a title that changes the keywords")
    try store.write { writer in
      try writer.move(from: RawPath("/d/a"), to: RawPath("/d/b"), hidden: { _ in false })
    }
    try expectWholeIndexes("a move")
    let status = FileStatus(
      kind: .regular, device: 1, inode: 9, size: 10, modified: 5, changed: 5, created: nil,
      mode: 0o100644)
    try store.write { writer in
      try writer.updateMetadata(path: RawPath("/d/b/notes.txt"), status: status, keywords: ["red"])
    }
    try expectWholeIndexes("new tags")
    #expect(try names("keeper") == ["notes.txt"])
    #expect(try names("red") == ["notes.txt"])
    #expect(try names("log") == ["notes.txt"])
    try store.write { writer in
      var item = IndexItem(
        id: "1", domain: "com.example.notes", uri: "notes://1",
        attributes: AttributeSet(displayName: "Groceries"))
      item.attributes.textContent = "apples and pears"
      try writer.upsert(applicationItem: item)
      item.attributes.textContent = "plums"
      try writer.upsert(applicationItem: item)
    }
    try expectWholeIndexes("an application item updated")
    #expect(try names("plums") == ["Groceries"])
    #expect(try names("apples").isEmpty)
    try store.write { writer in _ = try writer.removeTree(RawPath("/d")) }
    try expectWholeIndexes("a removal")
    #expect(try names("keeper").isEmpty)
    try store.write { writer in _ = try writer.removeAllFiles() }
    try expectWholeIndexes("an erase")
  }

  /// `count` notes in `folder`, written in one transaction.
  func writeNotes(_ count: Int, in folder: String, text: String) throws {
    try store.write { writer in
      for i in 0..<count {
        try writer.upsert(record("\(folder)/note \(i).txt", text: "\(text) \(i)"))
      }
    }
  }

  /// The rows of each full-text index's segments: more for each segment written.
  func segmentRows() throws -> [Int] {
    try store.read { db in
      try ["item_text_data", "item_name_data"].map {
        try Int.fetchOne(db, sql: "SELECT count(*) FROM \($0)") ?? 0
      }
    }
  }

  /// A new mode, owner or link count (`chmod -R`, a tree hard-linked
  /// elsewhere) changes no word: the full-text indexes are left as they
  /// are, where indexing each file again read its whole text twice.
  @Test func aModeChangeLeavesTheFullTextIndexesAlone() throws {
    try writeNotes(20, in: "/d", text: "the lighthouse keeper")
    let before = try segmentRows()
    let status = FileStatus(
      kind: .regular, device: 1, inode: 9, size: 10, modified: 0, changed: 7,
      created: nil, mode: 0o100600)
    try store.write { writer in
      for i in 0..<20 {
        try writer.updateMetadata(path: RawPath("/d/note \(i).txt"), status: status, keywords: [])
      }
    }
    #expect(try segmentRows() == before)
    let changed = try store.read { db in
      try Int.fetchAll(db, sql: "SELECT DISTINCT ctimeNs FROM item WHERE displayName LIKE 'note %'")
    }
    #expect(changed == [7])
    #expect(try names("keeper").count == 20)
    try expectWholeIndexes("a mode changed")
    // New tags are indexed.
    try store.write { writer in
      try writer.updateMetadata(path: RawPath("/d/note 3.txt"), status: status, keywords: ["red"])
    }
    #expect(try names("red") == ["note 3.txt"])
    try expectWholeIndexes("new tags")
  }

  /// A folder renamed indexes its items' words again in one segment per
  /// full-text index, not one each: an `INSERT … SELECT` into FTS5 made it
  /// write what it held at every statement.
  @Test func aFolderMovedIsIndexedAgainInOneSegment() throws {
    try writeNotes(60, in: "/d/logs", text: "the harbour master")
    let before = try segmentRows()
    try store.write { writer in
      try writer.move(from: RawPath("/d/logs"), to: RawPath("/d/journal"), hidden: { _ in false })
    }
    let after = try segmentRows()
    #expect(after[0] - before[0] <= 10 && after[1] - before[1] <= 10, "\(before) → \(after)")
    #expect(try names("journal").count == 60)
    #expect(try names("harbour").count == 60)
    #expect(try names("logs").isEmpty)
    try expectWholeIndexes("a folder moved")
  }

  /// A drawing's own keywords outlive a new mode and new tags; a keyword
  /// the tags no longer hold stays until the file is read again.
  @Test func aFilesOwnKeywordsAreKeptAndTheFileReadAgain() throws {
    var drawing = record("/d/doctor.svg", text: nil)
    drawing.attributes.keywords = ["people", "woman"]
    try store.write { writer in try writer.upsert(drawing) }
    func pending() throws -> Bool {
      try store.read { db in
        try Bool.fetchOne(
          db, sql: "SELECT contentPending FROM item WHERE displayName = ?",
          arguments: ["doctor.svg"]) ?? false
      }
    }
    var status = drawing.status
    status.changed = 9
    status.mode = 0o100600
    try store.write { writer in
      try writer.updateMetadata(path: drawing.path, status: status, keywords: ["red"])
    }
    #expect(try names("woman") == ["doctor.svg"])
    #expect(try names("red") == ["doctor.svg"])
    #expect(try pending())
    // The second pass reads it again: its tags, then its own keywords.
    drawing.attributes.keywords = ["red", "people", "woman"]
    drawing.status = status
    try store.write { writer in try writer.upsert(drawing) }
    #expect(try !pending())
    // Its tags taken away: kept until it is read again, as the index
    // cannot tell them from its own.
    status.changed = 10
    try store.write { writer in
      try writer.updateMetadata(path: drawing.path, status: status, keywords: [])
    }
    #expect(try names("red") == ["doctor.svg"])
    #expect(try pending())
    drawing.attributes.keywords = ["people", "woman"]
    try store.write { writer in try writer.upsert(drawing) }
    #expect(try names("red").isEmpty)
    #expect(try names("woman") == ["doctor.svg"])
    // Its permissions taken away: it keeps what was read of it, and waits
    // for nothing it could not read.
    status.changed = 11
    status.mode = 0o100000
    try store.write { writer in
      try writer.updateMetadata(
        path: drawing.path, status: status, keywords: [], readable: { false })
    }
    #expect(try names("woman") == ["doctor.svg"])
    #expect(try !pending())
    // A folder's keywords are its tags alone.
    let folder = RawPath("/d")
    var folderRecord = record("/d", text: nil)
    folderRecord.status = FileStatus(
      kind: .directory, device: 1, inode: 77, size: 0, modified: 0, changed: 0, created: nil,
      mode: 0o40755)
    folderRecord.attributes.keywords = ["blue"]
    folderRecord.contentPending = false
    try store.write { writer in try writer.upsert(folderRecord) }
    var folderStatus = folderRecord.status
    folderStatus.changed = 3
    try store.write { writer in
      try writer.updateMetadata(path: folder, status: folderStatus, keywords: [])
    }
    #expect(try names("blue").isEmpty)
    try expectWholeIndexes("own keywords")
  }

  /// The bodies of the stored texts and how many items count on each.
  func bodies() throws -> [Int] {
    try store.read { db in
      try Int.fetchAll(db, sql: "SELECT refs FROM text_body ORDER BY refs DESC, id")
    }
  }

  /// Copies of a text share one body, found again by key and compared
  /// whole; each copy's words and phrases stay its own through changes,
  /// moves and removals, and the body goes with the last item holding it.
  @Test func copiesOfATextShareOneBody() throws {
    let text = "the lighthouse keeper rows across the bay at dawn"
    try store.write { writer in
      try writer.upsert(record("/d/a/log.txt", text: text))
      try writer.upsert(record("/d/b/log copy.txt", text: text))
      try writer.upsert(record("/d/c/other.txt", text: "a different text entirely"))
      var item = IndexItem(
        id: "7", domain: "com.example.notes", uri: "notes://7",
        attributes: AttributeSet(displayName: "Harbour note"))
      item.attributes.textContent = "a different text entirely"
      try writer.upsert(applicationItem: item)
    }
    #expect(try bodies() == [2, 2])
    try expectWholeIndexes("copies written")
    #expect(try names("keeper rows") == ["log copy.txt", "log.txt"])
    // The same text read again (a restart that saw a new status time)
    // leaves the body and the indexes as they were.
    try store.write { writer in try writer.upsert(record("/d/a/log.txt", text: text)) }
    #expect(try bodies() == [2, 2])
    try expectWholeIndexes("the same text again")
    // One copy changes: it gets a body of its own, the other keeps the old.
    try store.write { writer in
      try writer.upsert(record("/d/b/log copy.txt", text: text + " and back"))
    }
    #expect(try bodies() == [2, 1, 1])
    #expect(try names("keeper rows") == ["log copy.txt", "log.txt"])
    #expect(try names("dawn and back") == ["log copy.txt"])
    try store.write { writer in
      try writer.move(from: RawPath("/d/a"), to: RawPath("/d/e"), hidden: { _ in false })
    }
    try expectWholeIndexes("a move")
    #expect(try names("lighthouse keeper") == ["log copy.txt", "log.txt"])
    try store.write { writer in _ = try writer.removeTree(RawPath("/d/e")) }
    #expect(try bodies() == [2, 1])
    #expect(try names("lighthouse keeper") == ["log copy.txt"])
    try expectWholeIndexes("a removal")
    // Erasing the files keeps the body an application item shares with one.
    try store.write { writer in _ = try writer.removeAllFiles() }
    #expect(try bodies() == [1])
    #expect(try names("different text") == ["Harbour note"])
    try expectWholeIndexes("an erase")
  }

  /// Two texts with the same key (length and CRC-32) but other words are
  /// told apart: each keeps a body of its own.
  @Test func textsThatOnlyShareAKeyKeepTheirOwnBodies() throws {
    // CRC-32 collides for these two strings of the same length.
    let first = "plumless"
    let second = "buckeroo"
    #expect(TextBodies.key(of: first) == TextBodies.key(of: second))
    try store.write { writer in
      try writer.upsert(record("/d/one.txt", text: first))
      try writer.upsert(record("/d/two.txt", text: second))
    }
    #expect(try bodies() == [1, 1])
    #expect(try names("plumless") == ["one.txt"])
    #expect(try names("buckeroo") == ["two.txt"])
    try expectWholeIndexes("a shared key")
  }

  /// The second pass takes the newest files first, each with its row: it
  /// writes a slice in the order of the rows, since FTS5 starts a segment
  /// of its own whenever a row comes before the last one it was given.
  @Test func theSecondPassTakesTheNewestFilesFirstWithTheirRows() throws {
    try store.write { writer in
      for (name, modified) in [("a", 30.0), ("b", 10), ("c", 40), ("d", 20)] {
        var named = record("/d/\(name).txt", text: nil, pending: true)
        named.attributes.modified = Date(timeIntervalSince1970: modified)
        try writer.upsert(named)
      }
    }
    let newestThree = try store.filesWaitingForContent(limit: 3)
    #expect(newestThree.map(\.path) == ["/d/c.txt", "/d/a.txt", "/d/d.txt"].map { RawPath($0) })
    // Rows in the order the files were named.
    #expect(newestThree[1].rowID < newestThree[0].rowID)
    #expect(newestThree[0].rowID < newestThree[2].rowID)
    #expect(try store.filesWaitingForContent(limit: 1).map(\.path) == [RawPath("/d/c.txt")])
  }

  @Test func aFileNamedFirstIsFoundByNameAndByItsTextOnceRead() throws {
    try store.write { writer in
      try writer.upsert(record("/d/harbour plans.txt", text: nil, pending: true))
    }
    #expect(
      try store.filesWaitingForContent(limit: 10).map(\.path) == [RawPath("/d/harbour plans.txt")])
    #expect(try store.filesWaitingForContentCount() == 1)
    #expect(try names("harb", prefix: true) == ["harbour plans.txt"])
    #expect(try names("quay").isEmpty)
    try store.write { writer in
      try writer.upsert(record("/d/harbour plans.txt", text: "the quay wall"))
    }
    #expect(try store.filesWaitingForContent(limit: 10).isEmpty)
    #expect(try names("quay") == ["harbour plans.txt"])
    // The text is kept once, deflated, and reads back whole.
    let stored = try store.read { db in
      try Data.fetchOne(
        db,
        sql: """
          SELECT b.text FROM item_words AS w JOIN text_body AS b ON b.id = w.textID
          WHERE w.name LIKE 'harbour%'
          """)
    }
    #expect(stored.flatMap(TextPacker.unpack) == "the quay wall")
  }

  @Test func phrasesAreCheckedInTheText() throws {
    try store.write { writer in
      try writer.upsert(record("/d/one.txt", text: "brown fox jumps"))
      try writer.upsert(record("/d/two.txt", text: "fox brown jumps"))
      try writer.upsert(record("/d/three.txt", text: "Linux硬盘分区工具 说明"))
      try writer.upsert(record("/d/four.txt", text: "硬 and 盘 apart"))
    }
    #expect(try names("brown fox") == ["one.txt"])
    #expect(try names("brown fo", prefix: true) == ["one.txt"])
    #expect(try names("fox brown") == ["two.txt"])
    #expect(try names("brown fox", column: .content) == ["one.txt"])
    #expect(try names("brown fox", column: .name).isEmpty)
    #expect(try names("硬盘") == ["three.txt"])
    // FTS5 folds ß itself (Foundation's case folding makes it "ss").
    try store.write { writer in
      try writer.upsert(record("/d/five.txt", text: "eine standardgemäßer Aufruf"))
    }
    #expect(try names("standardgemaßer") == ["five.txt"])
    #expect(try names("standardgemäßer aufruf") == ["five.txt"])
    #expect(try names("分区工具") == ["three.txt"])
    let either = QueryNode.or([
      .text("fox jumps", prefix: false, column: nil), .text("盘 apart", prefix: false, column: nil),
    ])
    #expect(
      try SearchEngine(store: store).search(either).map(\.displayName).sorted() == [
        "four.txt", "one.txt",
      ])
    #expect(
      try SearchEngine(store: store).count(.text("brown fox", prefix: false, column: nil)) == 1)
  }

  @Test func charactersSideBySideAreLookedUpByTheirPairs() throws {
    try store.write { writer in
      try writer.upsert(record("/d/run.txt", text: "Linux硬盘分区工具"))
      try writer.upsert(record("/d/apart.txt", text: "硬、盘 and 盘分 apart: 硬盘 then 分"))
      try writer.upsert(record("/d/reversed.txt", text: "盘硬"))
      try writer.upsert(record("/d/分区 notes.txt", text: nil))
    }
    // Each pair is a term of the text index; characters apart make none.
    let pairs = try store.read { db in
      try String.fetchAll(
        db, sql: "SELECT term FROM item_vocab WHERE length(term) = 2 ORDER BY term")
    }
    #expect(Set(pairs).isSuperset(of: ["硬盘", "盘分", "分区", "区工", "工具", "盘硬"]))
    #expect(!pairs.contains("具l") && !pairs.contains("x硬"))
    #expect(SearchText.cjkPairs(ofFolded: SearchText.fold("Linux硬盘 分・区")) == ["硬盘"])
    // Two characters are decided by the index; a longer run is read.
    let two = try #require(SQLCompiler.textMatch(.text("硬盘", prefix: true, column: nil)))
    #expect(two.match == #"("硬" AND "盘" AND "硬盘")"#)
    #expect(two.check == nil)
    #expect(SQLCompiler.textMatch(.text("硬盘分", prefix: false, column: nil))?.check != nil)
    #expect(try names("硬盘", prefix: true) == ["apart.txt", "run.txt"])
    #expect(try names("硬盘分") == ["run.txt"])
    #expect(try names("linux硬盘") == ["run.txt"])
    #expect(try names("盘硬") == ["reversed.txt"])
    #expect(try names("分区") == ["run.txt", "分区 notes.txt"])
    try expectWholeIndexes("pairs written")
    try store.write { writer in
      try writer.upsert(record("/d/run.txt", text: "工具 only"))
      try writer.move(
        from: RawPath("/d/分区 notes.txt"), to: RawPath("/d/区分 notes.txt"), hidden: { _ in false })
    }
    try expectWholeIndexes("pairs replaced")
    #expect(try names("分区").isEmpty)
    #expect(try names("区分") == ["区分 notes.txt"])
  }

  /// Texts holding a phrase with a common word, with their copies: found
  /// by the search, and the items whose texts hold the pair's term.
  func phraseFindings(_ phrase: String, prefix: Bool = false) throws -> (
    withPairs: [String], wordsAlone: [String]
  ) {
    var engine = SearchEngine(store: store)
    let query = QueryNode.text(phrase, prefix: prefix, column: nil)
    let withPairs = try engine.search(query).map(\.displayName).sorted()
    engine.pairsCommonWords = false
    return (withPairs, try engine.search(query).map(\.displayName).sorted())
  }

  /// Whether a text step is crowded is asked first of the prefix index's
  /// longest prefixes (four letters), which match every item the typed
  /// ones do and more; a prefix of four letters or fewer is one already.
  @Test func aLongPrefixIsCountedFirstByItsShortOne() {
    #expect(SearchRun.widened(#"("tests" * AND "garde" *)"#) == #"("test" * AND "gard" *)"#)
    #expect(SearchRun.widened(#"("test" * AND "gard" *)"#) == nil)
    #expect(
      SearchRun.widened(#"{name keywords} : "Readme" * AND "x" *"#)
        == #"{name keywords} : "Read" * AND "x" *"#)
    #expect(SearchRun.widened(#""readme" AND "tes" *"#) == nil)
    #expect(SearchRun.widened(#""test" * NOT "gard" *"#) == nil)
    #expect(SearchRun.widened(#""straße" * AND "say ""hi""" *"#) == nil)
    #expect(SearchRun.widened(#""unclosed *"#) == nil)
  }

  /// A common word and the word after it are a term of the text
  /// index, and a phrase is looked up by its pairs: never a text fewer than
  /// by its words alone, whatever stands between the words (the phrase
  /// check reads some characters as spaces that the index keeps as words
  /// of their own), and, where the pairs decide, only the texts holding it.
  @Test func phrasesOfCommonWordsAreLookedUpByTheirPairs() throws {
    var separators = (0x1...0x2FF).compactMap(Unicode.Scalar.init).map { String($0) }
    separators += [0x2000...0x206F, 0x3000...0x303F, 0xFE00...0xFE0F].flatMap { range in
      range.compactMap(Unicode.Scalar.init).map { String($0) }
    }
    separators += [
      " \u{E000} ", "\u{F0E7}", " \u{F0000} ", "\u{10FFFD}", " \u{1F600} ", "\u{FEFF}", " \u{301} ",
      " \u{301}", "\u{200B}", " 硬 ", "\u{FF0C}", " ß ", "ﬁ", " – ", "\r\n", "\t\t", " é ", " x ",
    ]
    try store.write { writer in
      for (index, separator) in separators.enumerated() {
        let text = "Alpha The\(separator)Quick omega, then the and quick apart"
        try writer.upsert(record("/p/\(index).txt", text: text))
      }
      try writer.upsert(record("/p/a.txt", text: "Is it a quick one? THE QUICK fox"))
      try writer.upsert(record("/p/b.txt", text: "a quick fix, then the fix is quick"))
      try writer.upsert(record("/p/c.c", text: "static int\tmain(void) { return the_answer; }"))
      try writer.upsert(record("/p/d.c", text: "int x; main(x); return 0; /* the end */"))
    }
    let phrases = [
      "the quick", "quick the", "a quick", "the quick fox", "it a quick", "the qu", "int main",
      "static int main", "return the", "return the answer", "main int",
    ]
    for phrase in phrases {
      let found = try phraseFindings(phrase, prefix: phrase == "the qu")
      #expect(found.withPairs == found.wordsAlone, "\(phrase)")
    }
    let found = try phraseFindings("the quick").withPairs
    #expect(found.contains("a.txt") && !found.contains("b.txt"))
    // A space, a line's end, a dash between the words: the phrase; a letter: none.
    for separator in [" ", "\n", "\u{2014}", "\u{F0E7}", " \u{301} "] {
      let index = try #require(separators.firstIndex(of: separator))
      #expect(found.contains("\(index).txt"), "\(separator.debugDescription)")
    }
    #expect(!found.contains("\(try #require(separators.firstIndex(of: "x"))).txt"))
    // The pair's term is in the texts holding the phrase, and in some others
    // (a letter of another script between the words passes for a space).
    let match = try #require(SQLCompiler.textMatch(.text("The Quick", prefix: false, column: nil)))
    #expect(match.match == #"(("The" AND "Quick")) AND "\#u{1}the quick""#)
    #expect(match.unrankedPhrases == 1)
    let holding = try store.read { db in
      try String.fetchAll(
        db,
        sql: """
          SELECT item.displayName FROM item_text JOIN item ON item.rowid = item_text.rowid
          WHERE item_text MATCH ?
          """, arguments: ["\"\u{1}the quick\""])
    }
    #expect(Set(holding).isSuperset(of: found))
    let letter = "\(try #require(separators.firstIndex(of: "x"))).txt"
    #expect(!holding.contains(letter) && !holding.contains("b.txt"))
    try expectWholeIndexes("pairs of common words")
    // Words beyond ASCII, and a word typed as a prefix, make no pair; nor
    // does a common word with the word before it.
    func pairs(_ text: String, prefix: Bool = false, exact: Bool = false) -> [String] {
      SQLCompiler.commonWordPairs(.text(text, prefix: prefix, column: nil), exact: exact)
    }
    #expect(pairs("thé quick").isEmpty && pairs("the quick", prefix: true).isEmpty)
    #expect(pairs("the quick", prefix: true, exact: true) == ["the quick"])
    #expect(pairs("quick brown").isEmpty && pairs("structs stat").isEmpty)
    // The words programs begin phrases with pair too, up to six letters.
    #expect(pairs("return the") == ["return the"] && pairs("struct stat") == ["struct stat"])
    #expect(pairs("int main(void)") == ["int main"])
    #expect(try phraseFindings("int main").withPairs == ["c.c"])
    #expect(pairs("is distributed in the hope") == ["is distributed", "in the", "the hope"])
  }

  /// Random texts of words in several scripts, folded ones and their folds:
  /// a phrase with its pairs finds what its words alone find.
  @Test func phrasesFindTheSameTextsWithTheirPairsAsWithout() throws {
    let pieces = [
      "the", "The", "THE", "of", "a", "is", "quick", "Quick", "quickly", "fox", "Fox's", "résumé",
      "naïve", "e\u{301}lan", "2026", "x86_64", "—", ", ", ".", "  ", "\n", "Straße", "strasse",
      "一", "个", "Linux文", "ﬁle", "file", "İstanbul", "Москва", "(", "don't", "ab-cd", "\u{301}",
      "thé", "the\u{301}", "“", "int", "return the", "QUİCK", "\u{F0E7}", "and", "the—",
      "of\u{E000}",
    ]
    var generator = SystemRandomNumberGenerator()
    func pick() -> String { pieces[Int(generator.next() as UInt64 % UInt64(pieces.count))] }
    var texts: [String] = []
    try store.write { writer in
      for index in 0..<300 {
        let text = (0..<(2 + Int(generator.next() as UInt64 % 10))).map { _ in pick() }
          .joined(separator: generator.next() as UInt64 % 4 == 0 ? "" : " ")
        texts.append(text)
        try writer.upsert(record("/r/\(index).txt", text: text))
      }
    }
    var found = 0
    for _ in 0..<150 {
      let words = PhraseCheck.words(of: texts[Int(generator.next() as UInt64 % 300)])
      guard words.count >= 2 else { continue }
      let start = Int(generator.next() as UInt64 % UInt64(words.count - 1))
      let phrase = words[start...].prefix(2 + Int(generator.next() as UInt64 % 2)).joined(
        separator: " ")
      let prefix = generator.next() as UInt64 % 4 == 0
      let result = try phraseFindings(phrase, prefix: prefix)
      #expect(result.withPairs == result.wordsAlone, "\(phrase.debugDescription) prefix \(prefix)")
      found += result.withPairs.count
    }
    #expect(found > 0)
  }

  @Test func textMatchesRankByBM25OverTheWordsTheyHoldAndTheirFields() throws {
    let filler = Array(repeating: "words about other things", count: 200).joined(separator: " ")
    try store.write { writer in
      try writer.upsert(record("/d/long.txt", text: "falcon " + filler))
      try writer.upsert(record("/d/short.txt", text: "a falcon flew"))
      try writer.upsert(record("/d/titled.txt", text: filler + " falcon", title: "Falcon notes"))
      // A word in most texts says little (BM25's IDF): these make it rare.
      for i in 0..<20 { try writer.upsert(record("/d/other \(i).txt", text: "sparrow \(i)")) }
    }
    // The text whose title holds the word too first (a field that says what
    // the item is), then the short text before the long one (BM25's length
    // normalisation). (A word the query keeps to the text leaves the name
    // tiers out: one ranked statement.)
    let found = try SearchEngine(store: store).search(
      .and([
        .text("falcon", prefix: false, column: nil),
        .text("falcon", prefix: false, column: .content),
      ]))
    #expect(found.map(\.displayName) == ["titled.txt", "short.txt", "long.txt"])
    #expect(found.allSatisfy { $0.score < 0 })
    // A word kept to a field the index does not tell apart is checked there.
    let inTitle = try SearchEngine(store: store).search(
      .and([
        .text("falcon", prefix: false, column: .keywords),
        .text("flew", prefix: false, column: .content),
      ]))
    #expect(inTitle.isEmpty)
    let titled = try SearchEngine(store: store).search(
      .and([
        .text("falc", prefix: true, column: .keywords),
        .text("falcon", prefix: false, column: .content),
      ]))
    #expect(titled.map(\.displayName) == ["titled.txt"])
  }

  /// Of two texts holding both words, the one whose name holds one of them
  /// first, whatever their lengths.
  @Test func aWordInTheNameLiftsATextMatch() throws {
    let filler = Array(repeating: "words about other things", count: 200).joined(separator: " ")
    try store.write { writer in
      try writer.upsert(record("/d/heron.txt", text: "migration " + filler))
      try writer.upsert(record("/d/birds.txt", text: "heron migration"))
      for i in 0..<20 { try writer.upsert(record("/d/other \(i).txt", text: "sparrow \(i)")) }
    }
    let found = try SearchEngine(store: store).search(
      .and([
        .text("heron", prefix: true, column: nil), .text("migration", prefix: true, column: nil),
      ]))
    #expect(found.map(\.displayName) == ["heron.txt", "birds.txt"])
  }

  /// Words ANDed: the ranking counts a common word's texts only so far,
  /// and estimates the rest; a rare word in the name still lifts a text
  /// above a common one, and a word excluded or offered as an alternative
  /// is still told apart row by row.
  @Test func aCommonWordIsCountedOnlySoFar() throws {
    try store.write { writer in
      for i in 0..<2_500 { try writer.upsert(record("/d/c\(i).txt", text: "common \(i)")) }
      try writer.upsert(record("/d/common.txt", text: "common rarity"))
      try writer.upsert(record("/d/rarity.txt", text: "common rarity"))
      try writer.upsert(record("/d/other.txt", text: "rarity alone"))
    }
    let engine = SearchEngine(store: store)
    let common = QueryNode.text("common", prefix: false, column: nil)
    let rarity = QueryNode.text("rarity", prefix: false, column: nil)
    #expect(SearchEngine.isConjunction(.and([common, rarity])))
    #expect(!SearchEngine.isConjunction(.or([common, rarity])))
    #expect(!SearchEngine.isConjunction(.and([rarity, .not(common)])))
    #expect(
      try engine.search(.and([common, rarity])).map(\.displayName) == ["rarity.txt", "common.txt"])
    #expect(try engine.search(.and([rarity, .not(common)])).map(\.displayName) == ["other.txt"])
    let either = try engine.search(.or([rarity, .text("alone", prefix: false, column: nil)]))
    #expect(Set(either.map(\.displayName)) == ["rarity.txt", "common.txt", "other.txt"])
  }

  /// Hidden items come after the others, in every tier; they are looked
  /// for apart only while the index holds some.
  @Test func hiddenItemsComeLastAndAreLookedForOnlyWhenThere() throws {
    var hidden = record("/h/.cache/osprey.txt", text: "fish eagle")
    hidden.hidden = true
    try store.write { writer in
      try writer.upsert(hidden)
      try writer.upsert(record("/h/notes.txt", text: "an osprey over the lake"))
      try writer.upsert(record("/h/osprey.md", text: nil))
    }
    let engine = SearchEngine(store: store)
    let osprey = QueryNode.text("osprey", prefix: true, column: nil)
    #expect(
      try engine.search(osprey).map(\.displayName) == ["osprey.md", "notes.txt", "osprey.txt"])
    #expect(try engine.search(osprey, limit: 2).map(\.displayName) == ["osprey.md", "notes.txt"])
    try store.write { writer in try writer.removeTree(RawPath("/h/.cache")) }
    #expect(try engine.search(osprey).map(\.displayName) == ["osprey.md", "notes.txt"])
  }

  /// Texts are deflated until enough have been read to train a dictionary
  /// on; packing the index trains it when fewer were read and packs them
  /// with it; texts written after are packed with it too, and every text
  /// reads back whole, through the indexes too, in this process and others.
  @Test func textsArePackedWithADictionaryTrainedOnTheFirstOnes() throws {
    var generator = SystemRandomNumberGenerator()
    let vocabulary = (0..<600).map { "w\(String($0 * 7919 % 100_003, radix: 36))" }
    func text() -> String {
      (0..<1_000).map { _ in vocabulary[Int(generator.next() as UInt64 % 600)] }
        .joined(separator: " ")
    }
    func stored(_ name: String) throws -> [UInt8] {
      try store.read { db in
        try Data.fetchOne(
          db,
          sql: """
            SELECT b.text FROM item_words AS w JOIN item USING (rowid)
              JOIN text_body AS b ON b.id = w.textID WHERE displayName = ?
            """,
          arguments: [name]
        ).map(Array.init) ?? []
      }
    }
    func dictionaries() throws -> Int? {
      try store.read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM text_dictionary") }
    }
    let zstd: [UInt8] = [0x28, 0xB5, 0x2F, 0xFD]
    try store.write { writer in
      try writer.upsert(record("/d/first.txt", text: "the quay wall " + text()))
      for i in 0..<300 { try writer.upsert(record("/d/note \(i).txt", text: text())) }
    }
    #expect(try dictionaries() == 0)
    #expect(try stored("first.txt").first == 0x78)
    #expect(try store.compact(afterRewriting: 301, minimum: 1))
    #expect(try dictionaries() == 1)
    #expect(try stored("first.txt").starts(with: zstd))
    #expect(try names("the quay wall") == ["first.txt"])
    try store.write { writer in
      try writer.upsert(record("/d/last.txt", text: text() + " zebra crossing quietly"))
    }
    #expect(try stored("last.txt").starts(with: zstd))
    #expect(try names("zebra crossing quietly") == ["last.txt"])
    // Packed on a context made again after the kept ones were let go.
    store.releaseMemory()
    try store.write { writer in
      try writer.upsert(record("/d/after.txt", text: text() + " heron lands softly"))
    }
    #expect(try stored("after.txt").starts(with: zstd))
    #expect(try names("heron lands softly") == ["after.txt"])
    try expectWholeIndexes("packing")
    // A process that has not met the dictionary loads it from the index.
    try store.read { db in try TextPacker.forgetDictionaries(of: db) }
    let reader = try IndexStore.open(store.location, create: false, readOnly: true)
    let found = try SearchEngine(store: reader).search(
      .text("zebra crossing", prefix: false, column: nil))
    #expect(found.map(\.displayName) == ["last.txt"])
    // An index of the version before, whose text index kept prefixes of
    // three letters alone, upgraded by a process that has not met its
    // dictionary: its text index is made again from every text, whole.
    try store.write { writer in
      try writer.db.execute(
        sql: """
          DROP TABLE item_text;
          CREATE VIRTUAL TABLE item_text USING fts5(
            name, keywords, path, content, facets,
            content = 'item_text_source', content_rowid = 'rowid',
            tokenize = 'limelight_pairs remove_diacritics 2', detail = none, prefix = '3');
          INSERT INTO item_text (item_text) VALUES ('rebuild');
          DROP INDEX item_words_text;
          UPDATE grdb_migrations SET identifier = 'schema-v30';
          """)
    }
    try store.read { db in try TextPacker.forgetDictionaries(of: db) }
    let upgraded = try IndexStore.open(store.location, create: false)
    let made = try upgraded.read { db in
      try String.fetchOne(db, sql: "SELECT sql FROM sqlite_schema WHERE name = 'item_text'")
    }
    #expect(made?.contains("prefix = '3 4'") == true)
    for (words, prefix, expected) in [
      ("zebra crossing", false, "last.txt"), ("heron land", true, "after.txt"),
      ("the quay wall", false, "first.txt"),
    ] {
      let query = QueryNode.text(words, prefix: prefix, column: nil)
      #expect(try SearchEngine(store: upgraded).search(query).map(\.displayName) == [expected])
    }
  }

  /// A word in very many names walks the index of their rank instead of
  /// ranking them all: the same results in the same order, tier by tier,
  /// with recency, use counts, depth, folders, hidden items and filters.
  @Test func crowdedNameMatchesComeInTheSameOrderAsRankedOnes() throws {
    let now = Date().timeIntervalSince1970
    try store.write { writer in
      for i in 0..<120 {
        let folder = i % 3 == 0 ? "/h/.hidden/" : "/h/" + String(repeating: "d/", count: i % 4)
        var file = record(
          folder + "falcon \(String(repeating: "x", count: i % 7)) \(i).txt", text: nil)
        if i % 5 == 0 { file.attributes.modified = Date(timeIntervalSince1970: now - 3_600) }
        file.hidden = folder.contains("/.")
        try writer.upsert(file)
        try writer.upsert(record("/h/falconry \(i).md", text: nil))
        try writer.upsert(record("/h/other \(i).txt", text: nil, title: "falcon"))
      }
    }
    // Opened items rank higher, and move to a better rank band.
    let opened = try store.read { db in
      try String.fetchAll(db, sql: "SELECT id FROM item WHERE displayName LIKE '%7.txt'")
    }
    #expect(opened.count == 24)
    for id in opened {
      for _ in 0..<3 { try store.recordUse(id: id) }
    }
    let recent = try store.read { db in
      try Int.fetchOne(db, sql: "SELECT count(*) FROM item WHERE recent = 1")
    }
    #expect(recent == 24)
    var ranked = SearchEngine(store: store)
    ranked.rankedNameLimit = .max
    var crowded = SearchEngine(store: store)
    crowded.rankedNameLimit = 10
    // Coarse bands read fine band by fine band.
    var walked = crowded
    walked.rankBandSplit = 2
    for query: QueryNode in [
      .text("falcon", prefix: true, column: nil),
      .text("falcon", prefix: false, column: nil),
      .and([.text("fal", prefix: true, column: nil), .filter(.extensions(["txt"]))]),
    ] {
      for limit in [nil, 7, 50, 130] {
        let expected = try ranked.search(query, limit: limit).map(\.id)
        #expect(!expected.isEmpty)
        #expect(try crowded.search(query, limit: limit).map(\.id) == expected)
        #expect(try walked.search(query, limit: limit).map(\.id) == expected)
      }
    }
    // A week later nothing is recent any more, once the flags are brought
    // up to date, and the items are in the bands of their new ranks.
    let cleared = try store.write { writer in
      try writer.expireRecency(now: Date(timeIntervalSince1970: now + 8 * 86_400))
    }
    #expect(cleared == 24)
    for query: QueryNode in [.text("falcon", prefix: true, column: nil)] {
      for limit in [nil, 7, 50] {
        let expected = try ranked.search(query, limit: limit).map(\.id)
        #expect(try crowded.search(query, limit: limit).map(\.id) == expected)
        #expect(try walked.search(query, limit: limit).map(\.id) == expected)
      }
    }
    try expectWholeIndexes("ranks that moved")
  }

  @Test func deletionKeysOfTermsInAnyScript() {
    let ascii = NearWords.deletions(of: Array("cat"), depth: 1)
    #expect(ascii == ["cat", "at", "ct", "ca"])
    let accented = NearWords.deletions(of: Array("müll"), depth: 1)
    #expect(accented == ["müll", "üll", "mll", "mül"])
    #expect(NearWords.deletions(of: Array("москва"), depth: 2).contains("мква"))
  }

  @Test func phraseChecksTravelAsTextAndMatchWordsInOrder() {
    let check = PhraseCheck.and([
      .phrase(["brown", "fox"], prefix: false, column: 3),
      .or([.phrase(["jum"], prefix: true, column: nil), .phrase(["x"], prefix: false, column: 0)]),
    ])
    #expect(PhraseCheck(encoded: check.encoded) == check)
    #expect(check.needsText)
    #expect(!PhraseCheck.phrase(["one"], prefix: true, column: nil).needsText)
    #expect(check.matches(["", "", "", "The Brown fox jumps"]))
    #expect(!check.matches(["", "", "", "The fox brown jumps"]))
    #expect(!check.matches(["brown fox jumps", "", "", ""]))
    #expect(PhraseCheck(encoded: "garbage") == nil)
  }

  /// A phrase with a Chinese or Japanese character is looked for around
  /// that character only: it finds what a look at every word finds.
  @Test func aPhraseIsLookedForAroundItsCharacter() throws {
    let texts = [
      "建立 一  个 Linux 交换区", "建立 一  个 xlinux", "一  个 linuxes 与 一  个 Linux",
      "Réseau  一  个 linux", String(repeating: "filler words ", count: 500) + "一  个 linux",
      "一  个", "linux 一  个", "一  个 ,,,,, Linux", "一  个、Linux", "一  个 LINUX2", "一  个 linuxé",
      "一  个Linux", "一 個 linux", "一  个  个 linux", "一  个 lin", "一个 linux", "x一  个 linux",
      "一  个 文件 linux", "一  个 Línux", "一  个 linux文",
    ]
    let phrases: [([String], Bool)] = [
      (["一", "个", "linux"], false), (["一", "个", "lin"], true), (["reseau", "一", "个"], false),
      (["个", "linux"], false), (["建立", "一"], false), (["linux", "交", "换"], false),
      (["一", "个", "个"], false), (["个", "lin"], true), (["一", "个", "linux2"], false),
    ]
    for text in texts {
      for (words, prefix) in phrases {
        let everyWord = PhraseCheck.contains(PhraseCheck.words(of: text), words, prefix: prefix)
        let anchor = try #require(PhraseCheck.anchor(of: words))
        #expect(
          PhraseCheck.contains(text, words, prefix: prefix, around: anchor) == everyWord,
          "\(words) in \(text)")
      }
    }
    #expect(PhraseCheck.anchor(of: ["plain", "words"]) == nil)
    #expect(
      PhraseCheck.phrase(["一", "个", "linux"], prefix: false, column: 3)
        .matches(["", "", "", "建立 一  个 Linux 交换区"]))
    #expect(
      !PhraseCheck.phrase(["一", "个", "linux"], prefix: false, column: 3)
        .matches(["", "", "", "建立 一  个 xlinux"]))
  }

  /// A phrase read word by word from the bytes finds what a look at every
  /// word made a string finds: texts of many scripts, cases, accents,
  /// marks and punctuation, phrases of their own words and of others,
  /// whole or as a prefix.
  @Test func aPhraseReadFromTheBytesFindsWhatEveryWordFinds() {
    let pieces = [
      "the", "The", "THE", "quick", "Quick", "quickly", "brown", "fox", "Fox's", "résumé",
      "Resume", "naïve", "e\u{301}lan", "élan", "2026", "x86_64", "—", ", ", ".", "  ", "\n",
      "Straße", "strasse", "一", "个", "linux", "Linux文", "ﬁle", "file", "ǅemal", "İstanbul", "k̈",
      "Москва", "москва", "(", ")", "don't", "ab-cd", "\u{301}", "thé", "the\u{301}", "“", "”",
      "quick—brown", "the—", "fox.", "quickfox", "0the", "main(", "int", "return the", "quíck",
      "QUİCK", "ǫuick", "thß", "ﬁx", "ınt", "слово", "Ёлкаq", "quiсk",
    ]
    var generator = SystemRandomNumberGenerator()
    func pick() -> String { pieces[Int(generator.next() as UInt64 % UInt64(pieces.count))] }
    var decided = 0
    for _ in 0..<6_000 {
      let text = (0..<Int(generator.next() as UInt64 % 14)).map { _ in pick() }
        .joined(separator: generator.next() as UInt64 % 3 == 0 ? "" : " ")
      let words = PhraseCheck.words(of: text)
      var phrase: [String]
      if !words.isEmpty && generator.next() as UInt64 % 2 == 0 {
        let start = Int(generator.next() as UInt64 % UInt64(words.count))
        let length = 1 + Int(generator.next() as UInt64 % UInt64(min(3, words.count - start)))
        phrase = Array(words[start..<(start + length)])
      } else {
        phrase = PhraseCheck.words(of: (0..<3).map { _ in pick() }.joined(separator: " "))
      }
      if phrase.isEmpty { continue }
      let prefix = generator.next() as UInt64 % 3 == 0
      if prefix, let last = phrase.last, last.count > 1 {
        phrase[phrase.count - 1] = String(last.dropLast())
      }
      let expected = PhraseCheck.contains(words, phrase, prefix: prefix)
      let streamed = Array(text.utf8).withUnsafeBufferPointer {
        PhraseCheck.streamContains($0, phrase, prefix: prefix)
      }
      #expect(streamed == expected, "\(phrase) prefix \(prefix) in \(text.debugDescription)")
      let anchored = Array(text.utf8).withUnsafeBufferPointer {
        PhraseCheck.anchoredContains($0, phrase, prefix: prefix)
      }
      #expect(
        anchored == nil || anchored == expected,
        "anchored: \(phrase) prefix \(prefix) in \(text.debugDescription)")
      if anchored != nil { decided += 1 }
    }
    // The bytes alone decide most phrases of ASCII words.
    #expect(decided > 1_000)
    // Words of another script, however many of the anchor's length, cannot
    // fold to it: the bytes still decide.
    let russian = Array((String(repeating: "Слово ", count: 300) + "the Quick").utf8)
    for (phrase, holds) in [(["the", "quick"], true), (["quick", "the"], false)] {
      let anchored = russian.withUnsafeBufferPointer {
        PhraseCheck.anchoredContains($0, phrase, prefix: false)
      }
      #expect(anchored == holds, "\(phrase)")
    }
  }

  /// A phrase in a long text is found wherever it stands, across the
  /// stretches the text is lowered in, and the places before it do not hide it.
  @Test func aPhraseIsFoundWhereverItStandsInALongText() {
    let stretch = PhraseCheck.LoweredSearch.stretchBytes
    for offset in [
      0, 1, stretch - 9, stretch - 5, stretch - 4, stretch - 1, stretch, 2 * stretch + 3,
    ] {
      // "quick" alone, again and again, before the phrase.
      let filler = String(repeating: "quick lorem ", count: offset / 12 + 1)
      let text = Array((filler.prefix(offset) + " The QUICK fox " + filler).utf8)
      for (phrase, holds) in [
        (["the", "quick"], true), (["quick", "fox"], true), (["fox", "the"], false),
      ] {
        let anchored = text.withUnsafeBufferPointer {
          PhraseCheck.anchoredContains($0, phrase, prefix: false)
        }
        #expect(anchored == holds, "\(phrase) at \(offset)")
      }
      let places = text.withUnsafeBufferPointer { bytes in
        var search = PhraseCheck.LoweredSearch(for: Array("quick".utf8), in: bytes)
        var found: [Int] = []
        while let place = search.next() { found.append(place) }
        return found
      }
      let expected = text.indices.filter { start in
        start + 5 <= text.count
          && String(decoding: text[start..<(start + 5)], as: UTF8.self).lowercased() == "quick"
      }
      #expect(places == expected, "places at \(offset)")
    }
  }

  /// The ranking's field hits (which of name, keywords and path holds each
  /// word) say what splitting each field into words says, whether its
  /// bytes decide or it is split; asked of the index's SQL function too,
  /// which reads the fields where SQLite holds them.
  @Test func theRankingFindsAFieldsWordsAsSplittingItWould() throws {
    func hitsInSQL(_ fields: [String?], _ encoded: String) throws -> String? {
      try store.read { db in
        try String.fetchOne(
          db, sql: "SELECT limelight_field_hits(?, ?, ?, ?)",
          arguments: [fields[0], fields[1], fields[2], encoded])
      }
    }
    let fields = [
      "Crème brûlée à l'école", "/home/jo/Müller/Straße und Maß.txt", "thé au lait",
      "The Brown FOX", "ǅemal ﬁne", "東京タワー.png", "e\u{301}cole q\u{303}",
      "/usr/share/doc/Zlib1G-dev/README.gz", "café-the-quick", "quickly, the quick fox", "",
      "Ελλάδα the quick", "thé quick",
    ].map(SearchText.fold)
    let phrases: [[String]] = [
      ["the"], ["the", "quick"], ["ecole"], ["muller"], ["strasse"], ["creme", "brulee"],
      ["fine"], ["東京"], ["zlib1g"], ["readme"], ["cafe"], ["q"], ["quick"], ["ελλαδα"],
    ]
    for prefix in [false, true] {
      let check = PhraseCheck.and(phrases.map { .phrase($0, prefix: prefix, column: nil) })
      for (index, name) in fields.enumerated() {
        let row = [name, fields[(index + 3) % fields.count], fields[(index + 7) % fields.count]]
        let expected = phrases.map { phrase in
          row.firstIndex {
            PhraseCheck.contains(PhraseCheck.words(of: $0), phrase, prefix: prefix)
          }.map { String(3 - $0) } ?? "0"
        }.joined()
        #expect(check.fieldHits(row) == expected, "\(row) prefix \(prefix)")
        #expect(try hitsInSQL(row, check.encoded) == expected, "\(row) prefix \(prefix), in SQL")
      }
      // No fields hold nothing; words that do not parse tell nothing.
      #expect(try hitsInSQL([nil, nil, nil], check.encoded) == String(repeating: "0", count: 14))
    }
    #expect(try hitsInSQL(["the", nil, nil], "not a check") == nil)
  }

  @Test func aTextIsSplitIntoWordsAsFoldingItWholeWouldSplitIt() {
    // The words a phrase is checked against, made a word at a time, are those
    // that folding the whole text and splitting it make.
    let texts =
      [
        "東京タワーの上から", "東京、タワー", "東京 x タワー", "東京ータワー", "ダンプを作成", "東東京",
        "以識別", "全くもって", "abc東京def", "一个Linux系统", "PostgreSQL多用", "The Brown FOX, jumps!",
        "Crème brûlée à l'école", "Straße und Maß", "Москва и Ёлка", "Ελλάδα", "한국어 텍스트",
        "e\u{301}cole q\u{303}", "ǅemal ﬁne", "x² ½ ①", "", "  ", "東",
        "/usr/share/doc/Zlib1G-dev/README.gz", "a_b-c.d~e@F:G\u{7F}h\u{0}i\tJ", "X", "9",
      ]
      .map(SearchText.fold)
      // Texts of ASCII alone are split byte by byte: random ones, every byte.
      + (0..<500).map { _ in
        String(
          decoding: (0..<Int.random(in: 0...24)).map { _ in UInt8.random(in: 0...0x7F) },
          as: UTF8.self)
      }
    for text in texts {
      let whole = SearchText.caseAndAccentFolded(text).split { !$0.isLetter && !$0.isNumber }
      #expect(PhraseCheck.words(of: text) == whole.map(String.init), "\(text)")
      // Remembered for a search, the same the first time and the next.
      PhraseCheck.FoldedWords.during {
        #expect(PhraseCheck.foldedWords(of: text) == whole.map(String.init), "\(text)")
        #expect(PhraseCheck.foldedWords(of: text) == whole.map(String.init), "\(text)")
      }
      #expect(PhraseCheck.foldedWords(of: text) == whole.map(String.init), "\(text)")
    }
    // Nothing stays remembered past a search.
    #expect(PhraseCheck.FoldedWords.current == nil)
    let phrase = { (query: String) in
      PhraseCheck.phrase(
        SearchText.fold(query).split(separator: " ").map {
          SearchText.caseAndAccentFolded(String($0))
        }, prefix: false, column: nil)
    }
    // Runs of Chinese and Japanese characters are looked for around their
    // first character, in the bytes: that says what the words say.
    for query in ["東京", "京タ", "タワ", "タン", "ダン", "東京タワー", "全くも", "以識", "東東京", "京東"] {
      let words = SearchText.fold(query).split(separator: " ").map(String.init)
      #expect(PhraseCheck.anchor(of: words) != nil)
      for text in texts {
        #expect(
          phrase(query).matches([text])
            == PhraseCheck.contains(PhraseCheck.words(of: text), words, prefix: false),
          "\(query) in \(text)")
      }
    }
    #expect(phrase("東京タワー").matches([texts[0]]))
    #expect(phrase("一个linux").matches([texts[9]]))
    #expect(!phrase("京東").matches([texts[5]]))
    #expect(phrase("creme brulee").matches([texts[12]]))
    // Its shortcuts through ASCII and the CJK blocks agree with Unicode's
    // tables: a word begins with a letter or digit, not a mark (which
    // belongs to the word before it).
    let isMark: (Unicode.Scalar) -> Bool = {
      [.nonspacingMark, .spacingMark, .enclosingMark].contains($0.properties.generalCategory)
    }
    let disagreeing = (0...0xFFFF).compactMap(Unicode.Scalar.init).filter {
      PhraseCheck.isWordScalar($0)
        != (($0.properties.isAlphabetic || $0.properties.numericType != nil) && !isMark($0))
    }
    #expect(disagreeing.isEmpty, "\(disagreeing.prefix(5).map(\.value))")
    let marks: [Unicode.GeneralCategory] = [.nonspacingMark, .spacingMark, .enclosingMark]
    #expect(
      (0...0xFFFF).compactMap(Unicode.Scalar.init).allSatisfy {
        PhraseCheck.isMark($0) == marks.contains($0.properties.generalCategory)
      })
    // No character but those it names folds to a letter or digit of ASCII.
    let foldingToASCII = (0x80...0x10FFFF).compactMap(Unicode.Scalar.init).filter { scalar in
      guard !PhraseCheck.mayFoldToASCII(scalar),
        PhraseCheck.isWordScalar(scalar) || PhraseCheck.isMark(scalar)
      else { return false }
      return SearchText.caseAndAccentFolded(String(scalar)).unicodeScalars.contains {
        $0.isASCII && PhraseCheck.isWordScalar($0)
      }
    }
    #expect(foldingToASCII.isEmpty, "\(foldingToASCII.prefix(5).map(\.value))")
  }
}
