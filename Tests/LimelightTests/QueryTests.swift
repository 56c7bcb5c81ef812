import Foundation
import LimelightCLI
import LimelightModel
import LimelightPlatform
import LimelightSearch
import LimelightStore
import Testing

@testable import LimelightModel
@testable import LimelightQuery
@testable import LimelightStore

@Suite struct QueryParserTests {
  func parse(_ text: String) throws -> QueryNode {
    var parser = QueryParser(home: RawPath("/home/me"), currentDirectory: { RawPath("/work") })
    return try parser.parse(text)
  }

  @Test func wordsPhrasesNegationAndAlternatives() throws {
    #expect(try parse("fox") == .text("fox", prefix: true, column: nil))
    #expect(
      try parse("quick fox")
        == .and([
          .text("quick", prefix: true, column: nil), .text("fox", prefix: true, column: nil),
        ]))
    #expect(try parse("\"brown fox\"") == .text("brown fox", prefix: false, column: nil))
    #expect(
      try parse("fox -zoo")
        == .and([
          .text("fox", prefix: true, column: nil), .not(.text("zoo", prefix: true, column: nil)),
        ]))
    #expect(
      try parse("a OR b")
        == .or([.text("a", prefix: true, column: nil), .text("b", prefix: true, column: nil)]))
    #expect(try parse("well-known") == .text("well-known", prefix: true, column: nil))
  }

  /// A possessive or an elided article is no word of its own: it would be
  /// a phrase to check in every text holding both.
  @Test func wordsWithoutTheirClitics() throws {
    for (typed, word) in [
      ("computer's", "computer"), ("Bob’s", "Bob"), ("l'école", "école"), ("qu'il", "il"),
      ("d’une", "une"), ("rock'n'roll", "rock'n'roll"), ("o'clock", "o'clock"), ("'s", "'s"),
      ("e-mail", "mail"), ("E-Mail", "Mail"), ("well-known", "well-known"), ("a-", "a-"),
      ("x-2", "x-2"),
    ] {
      #expect(try parse(typed) == .text(word, prefix: true, column: nil), "\(typed)")
    }
    #expect(
      try parse("\"computer's clock\"") == .text("computer's clock", prefix: false, column: nil))
  }

  @Test func filters() throws {
    #expect(try parse("kind:pictures") == .filter(.kind(.image)))
    #expect(try parse("ext:.JPG,png") == .filter(.extensions(["jpg", "png"])))
    #expect(try parse("in:docs") == .filter(.inFolder(RawPath("/work/docs"))))
    #expect(try parse("in:~/Music") == .filter(.inFolder(RawPath("/home/me/Music"))))
    #expect(try parse("type:image/*") == .filter(.contentType("image/*")))
    #expect(try parse("name:report") == .text("report", prefix: true, column: .name))
    #expect(try parse("http://x") == .text("http://x", prefix: true, column: nil))
  }

  @Test func mistakes() {
    #expect(throws: QueryError.self) { try parse("") }
    #expect(throws: QueryError.self) { try parse("   ") }
    #expect(throws: QueryError.self) { try parse("kind:spaceship") }
    #expect(throws: QueryError.self) { try parse("type:image") }
    #expect(throws: QueryError.self) { try parse("domain:a/b") }
  }

  @Test func punctuationAloneMatchesNothing() throws {
    #expect(try parse("***") == .nothing)
    #expect(try parse("fox ***") == .text("fox", prefix: true, column: nil))
  }

  @Test func ftsExpressionsQuoteEverything() {
    // One word is quoted whole, several each (the name index places no phrase).
    #expect(SQLCompiler.ftsExpression(.text("a\"", prefix: true, column: nil)) == "\"a\"\"\" *")
    #expect(
      SQLCompiler.ftsExpression(.text("a\"b", prefix: true, column: nil)) == "(\"a\" AND \"b\" *)")
    #expect(SQLCompiler.ftsExpression(.text("x", prefix: false, column: .name)) == "name : \"x\"")
    #expect(SQLCompiler.ftsExpression(.filter(.kind(.pdf))) == nil)
  }
}

/// The store and the search engine together, in process.
@Suite struct SearchEngineTests {
  let store: IndexStore

  init() throws {
    store = try Fixtures.newStore()
    try store.write { writer in
      for (path, text) in [
        ("/data/alpha/notes.txt", "lighthouse keeper"), ("/data/beta/lighthouse.md", "a story"),
        ("/data/gamma/other.txt", "nothing here"),
      ] {
        try writer.upsert(Fixtures.record(path, text: text))
      }
    }
  }

  func names(_ query: QueryNode) throws -> [String] {
    try SearchEngine(store: store).search(query).map(\.displayName)
  }

  @Test func aServiceConnectionSearchesOnAfterLettingGoOfItsStatements() throws {
    let reader = try IndexStore.open(
      store.location, create: false, readOnly: true, longLived: true)
    let engine = SearchEngine(store: reader)
    let first = try engine.search(.text("lighthouse", prefix: true, column: nil)).map(\.displayName)
    reader.releaseMemory()
    #expect(
      try engine.search(.text("lighthouse", prefix: true, column: nil)).map(\.displayName) == first)
    #expect(!first.isEmpty)
  }

  @Test func nameMatchesComeFirst() throws {
    #expect(
      try names(.text("lighthouse", prefix: true, column: nil)) == ["lighthouse.md", "notes.txt"])
  }

  @Test func wordsInARowInANameAreAPhraseStill() throws {
    // The name index knows which columns hold a word, not where: the
    // candidates holding all the words are checked for them in a row.
    try store.write { writer in
      for path in [
        "/data/docs/README.md", "/data/docs/md readme.txt", "/data/docs/readme-old.md",
        "/data/docs/Holiday plans.txt", "/data/docs/plans for a holiday.txt",
        "/data/trips/holiday/plans.txt", "/data/docs/星球大战.txt", "/data/docs/大星球.txt",
      ] {
        try writer.upsert(Fixtures.record(path, text: "nothing to see"))
      }
    }
    #expect(try names(.text("readme.md", prefix: true, column: nil)) == ["README.md"])
    #expect(try names(.text("readme.m", prefix: true, column: nil)) == ["README.md"])
    // In a name first, then in a path (the folders' names and the file's).
    let inARow = try names(.text("holiday plans", prefix: false, column: nil))
    #expect(inARow == ["Holiday plans.txt", "plans.txt"])
    let inPaths = try names(.text("holiday/plans", prefix: false, column: .path))
    #expect(inPaths.sorted() == ["Holiday plans.txt", "plans.txt"])
    #expect(try names(.text("星球", prefix: false, column: nil)).sorted() == ["大星球.txt", "星球大战.txt"])
    #expect(try names(.text("星球大", prefix: false, column: nil)) == ["星球大战.txt"])
    // Either side of an OR: a phrase, or a word alone.
    #expect(
      try names(
        .or([
          .text("plans for", prefix: false, column: .name),
          .text("readme", prefix: false, column: nil),
        ])
      ).sorted() == ["README.md", "md readme.txt", "plans for a holiday.txt", "readme-old.md"])
    try store.write { writer in
      try writer.db.execute(
        sql: "INSERT INTO item_name (item_name, rank) VALUES ('integrity-check', 1)")
    }
  }

  @Test func aPhrasesCandidatesAreCheckedInRankUntilEnoughPass() throws {
    // The texts holding a phrase's words are ranked first and checked one
    // by one as the list reaches them: whatever the limit, the results are
    // the first of the whole list, and the same set when the texts are
    // crowded (listed newest first).
    try store.write { writer in
      for index in 0..<24 {
        let filler = String(repeating: "more words ", count: index % 5)
        let text =
          switch index % 4 {
          case 0: "run setup py \(filler)to install"
          case 1: "setup \(filler)then py"
          case 2: "setup pyproject \(filler)toml"
          default: "py before setup \(filler)"
          }
        try writer.upsert(Fixtures.record("/data/phrases/note \(index).txt", text: text))
      }
    }
    var crowded = SearchEngine(store: store)
    crowded.rankedTextLimit = 1
    for (query, holding) in [
      (QueryNode.text("setup py", prefix: false, column: nil), 6),
      (QueryNode.text("setup.py", prefix: true, column: nil), 12),
      (
        .and([
          .text("setup py", prefix: false, column: nil),
          .text("install", prefix: true, column: nil),
        ]), 6
      ),
    ] {
      let all = try SearchEngine(store: store).search(query).map(\.displayName)
      #expect(all.count == holding, "\(query)")
      #expect(Set(all).count == all.count)
      for limit in 1...holding + 1 {
        #expect(
          try SearchEngine(store: store).search(query, limit: limit).map(\.displayName)
            == Array(all.prefix(limit)), "\(query) limit \(limit)")
        let newestFirst = try crowded.search(query, limit: limit).map(\.displayName)
        #expect(newestFirst.count == min(limit, holding))
        #expect(Set(newestFirst).isSubset(of: Set(all)))
      }
      #expect(try SearchEngine(store: store).count(query) == holding)
    }
    // Whole words before longer words they begin.
    let prefixed = try names(.text("setup.py", prefix: true, column: nil))
    let whole = Set((0..<24).filter { $0 % 4 == 0 }.map { "note \($0).txt" })
    #expect(Set(prefixed.prefix(6)) == whole)
  }

  @Test func copiesOfATextAreReadOnceForEachOfAQuerysPhrases() throws {
    // Three copies of each of two texts: what one copy holds is remembered
    // for the others, phrase by phrase.
    let texts = ["the tide turns at noon and the moon rises", "noon tide, turning the moon"]
    try store.write { writer in
      for copy in 0..<3 {
        for (index, text) in texts.enumerated() {
          try writer.upsert(Fixtures.record("/data/tides/\(index)-\(copy).txt", text: text))
        }
      }
    }
    func found(_ query: QueryNode) throws -> [String] {
      try SearchEngine(store: store).search(query).map(\.displayName).sorted()
    }
    let first = ["0-0.txt", "0-1.txt", "0-2.txt"]
    let second = ["1-0.txt", "1-1.txt", "1-2.txt"]
    let tideTurns = QueryNode.text("tide turns", prefix: false, column: nil)
    let atNoon = QueryNode.text("at noon", prefix: false, column: nil)
    let noonTide = QueryNode.text("noon tide", prefix: false, column: nil)
    #expect(try found(.and([tideTurns, atNoon])) == first)
    #expect(try found(.and([tideTurns, noonTide])).isEmpty)
    #expect(try found(.or([atNoon, noonTide])) == first + second)
    #expect(try found(.and([noonTide, .text("the moon", prefix: false, column: nil)])) == second)
    #expect(try found(.and([atNoon, .not(noonTide)])) == first)
    #expect(try SearchEngine(store: store).count(.and([tideTurns, atNoon])) == 3)
  }

  /// A sentence typed: its words shorter than the text index's prefixes
  /// are matched whole in texts, not as the beginnings of every word
  /// (which FTS5 gathers from the whole index); the last is still typed.
  @Test func theShortWordsOfASentenceAreWholeWordsInTexts() throws {
    try store.write { writer in
      try writer.upsert(
        Fixtures.record("/data/kill.txt", text: "end a stuck process by sending it a signal"))
      try writer.upsert(Fixtures.record("/data/other.txt", text: "end all bytes of it to the area"))
    }
    let words = ["end", "a", "process", "by", "sending", "it", "a", "si"]
    let possessive = QueryNode.and(
      ["the", "process's", "sig"].map { .text($0, prefix: true, column: nil) })
    let ofProcess = try #require(SQLCompiler.textMatch(possessive)).match
    #expect(!ofProcess.contains("\"s\" *"), "\(ofProcess)")
    let sentence = QueryNode.and(words.map { .text($0, prefix: true, column: nil) })
    let match = try #require(SQLCompiler.textMatch(sentence)).match
    #expect(!match.contains("\"a\" *") && !match.contains("\"by\" *"), "\(match)")
    #expect(match.contains("\"sending\" *") && match.contains("\"si\" *"), "\(match)")
    #expect(try names(sentence) == ["kill.txt"])
    // "b" is no word of the text: a short word is not a prefix before another.
    let prefixOnly = QueryNode.and(
      ["end", "b", "area"].map { .text($0, prefix: true, column: nil) })
    #expect(try names(prefixOnly).isEmpty)
    #expect(
      try names(
        .and([.text("area", prefix: true, column: nil), .text("b", prefix: true, column: nil)]))
        == ["other.txt"])
  }

  @Test func movesKeepIdsAndUpdatePaths() throws {
    let before = try SearchEngine(store: store).search(.text("keeper", prefix: true, column: nil))
    try store.write { writer in
      try writer.move(
        from: RawPath("/data/alpha"), to: RawPath("/data/delta"), hidden: { _ in false })
    }
    let after = try SearchEngine(store: store).search(.text("keeper", prefix: true, column: nil))
    #expect(after.map(\.id) == before.map(\.id))
    #expect(after.first?.path == RawPath("/data/delta/notes.txt"))
    #expect(try names(.text("delta", prefix: true, column: nil)) == ["notes.txt"])
    #expect(try names(.text("alpha", prefix: true, column: nil)).isEmpty)
  }

  @Test func removeTreeTakesEverythingBelow() throws {
    let removed = try store.write { writer in try writer.removeTree(RawPath("/data/beta")) }
    #expect(removed == 1)
    #expect(try names(.text("lighthouse", prefix: true, column: nil)) == ["notes.txt"])
  }

  @Test func filtersAndGenerations() throws {
    let g0 = try store.generation()
    #expect(try names(.filter(.extensions(["md"]))) == ["lighthouse.md"])
    #expect(try names(.filter(.inFolder(RawPath("/data/gamma")))) == ["other.txt"])
    #expect(
      try names(
        .and([.filter(.contentType("text/*")), .not(.text("story", prefix: true, column: nil))])
      ).count == 2)
    try store.write { _ in }
    #expect(try store.generation() == g0 + 1)
  }

  @Test func requestsAreDurable() throws {
    let id = try store.submit(.paths, paths: [RawPath(bytes: [0x2F, 0xFF, 0x0A])])
    let pending = try store.pendingRequests()
    #expect(pending.map(\.id) == [id])
    #expect(pending.first?.paths == [RawPath(bytes: [0x2F, 0xFF, 0x0A])])
    let outcome = RequestOutcome.reindexed(outsideRoots: ["/elsewhere"])
    try store.write { writer in try writer.complete(pending[0], outcome: outcome) }
    #expect(try store.pendingRequests().isEmpty)
    #expect(try store.request(id: id)?.doneGeneration != nil)
    #expect(try store.request(id: id)?.outcome == outcome)
  }
}

@Suite struct RangeFilterTests {
  let utc: Calendar = {
    var calendar = Calendar(identifier: .gregorian)
    calendar.timeZone = TimeZone(identifier: "UTC")!
    return calendar
  }()
  // 2026-11-22 12:00 UTC
  let now = Date(timeIntervalSince1970: 1_795_348_800)

  @Test func sizes() {
    #expect(RangeParser.size(">10MB")! == (10_485_761, nil))
    #expect(RangeParser.size("<1k")! == (nil, 1024))
    #expect(RangeParser.size("<=1k")! == (nil, 1025))
    #expect(RangeParser.size("5M")! == (5_242_880, nil))
    #expect(RangeParser.size("1k..2k")! == (1024, 2049))
    #expect(RangeParser.size("lots") == nil)
    #expect(RangeParser.size(">-5") == nil)
    #expect(RangeParser.size("2k..1k") == nil)
  }

  @Test func dates() {
    let midnight = 1_795_305_600.0  // 2026-11-22 00:00 UTC
    #expect(RangeParser.date("today", now: now, calendar: utc)! == (midnight, midnight + 86_400))
    #expect(
      RangeParser.date("yesterday", now: now, calendar: utc)! == (midnight - 86_400, midnight))
    #expect(
      RangeParser.date("2026-11-22", now: now, calendar: utc)! == (midnight, midnight + 86_400))
    #expect(RangeParser.date(">2026-11-21", now: now, calendar: utc)!.0 == midnight)
    #expect(RangeParser.date("<2026-11-22", now: now, calendar: utc)! == (nil, midnight))
    let november = RangeParser.date("2026-11", now: now, calendar: utc)!
    #expect(november.1! - november.0! == 30 * 86_400)
    let range = RangeParser.date("2026-11-01..2026-11-21", now: now, calendar: utc)!
    #expect(range.1 == midnight)
    #expect(RangeParser.date("2026-13-01", now: now, calendar: utc) == nil)
    #expect(RangeParser.date("soon", now: now, calendar: utc) == nil)
    #expect(RangeParser.date("..", now: now, calendar: utc) == nil)
  }

  @Test func malformedRangeFiltersAreQueryErrors() {
    var parser = QueryParser(home: RawPath("/home/me"))
    #expect(throws: QueryError.self) { try parser.parse("size:big") }
    #expect(throws: QueryError.self) { try parser.parse("modified:someday") }
    #expect(throws: QueryError.self) { try parser.parse("created:") }
  }
}

@Suite struct TypoTests {
  @Test func editDistance() {
    func d(_ a: String, _ b: String) -> Int { NearWords.distance(Array(a), Array(b), limit: 3) }
    #expect(d("quick", "quick") == 0)
    #expect(d("qiuck", "quick") == 1)  // transposition
    #expect(d("quck", "quick") == 1)  // insertion
    #expect(d("quicks", "quick") == 1)  // deletion
    #expect(d("quack", "quick") == 1)  // substitution
    #expect(d("lighthuoes", "lighthouse") == 2)
    #expect(d("iwosspace", "iswspace") == 2)  // a letter added between swapped ones
    #expect(d("abc", "xyzw") == 4)
  }

  @Test func candidatesCoverEveryKindOfEdit() {
    let candidates = Set(TypoExpander.oneEditCandidates(Array("qiuck")))
    for expected in ["quick", "iuck", "qiucks", "qiack", "qiuk"] {
      #expect(candidates.contains(expected))
    }
    #expect(!candidates.contains("qiuck"))
  }

  @Test func deletionKeysMeetForEveryKindOfEdit() {
    func keys(_ word: String, _ depth: Int) -> Set<String> {
      NearWords.keys(of: Array(word), depth: depth)
    }
    #expect(keys("abc", 1) == ["abc", "bc", "ac", "ab"])
    #expect(keys("abcd", 2).count == 1 + 4 + 6)
    // Only the first seven letters make keys.
    #expect(keys("configuration", 0) == ["configu"])
    // A typo and the term it means share a key: substitution, transposition,
    // insertion, deletion, and two edits at depth two; in long words, before,
    // across and after the seventh letter.
    for (typo, term, depth) in [
      ("quack", "quick", 1), ("qiuck", "quick", 1), ("quicck", "quick", 1), ("quik", "quick", 1),
      ("yelowstnoe", "yellowstone", 2), ("xconfiguration", "configuration", 1),
      ("onfiguration", "configuration", 1), ("confiugration", "configuration", 1),
      ("configruation", "configuration", 1), ("configuratoin", "configuration", 1),
      ("cnofiguratin", "configuration", 2), ("confgiruation", "configuration", 2),
      ("configuation", "configuration", 1), ("configgure", "configure", 1),
    ] {
      #expect(!keys(typo, depth).isDisjoint(with: keys(term, depth)), "\(typo)")
    }
  }

  @Test func abbreviations() {
    func abbreviates(_ word: String, _ term: String) -> Bool {
      NearWords.abbreviates(Array(word), Array(term))
    }
    #expect(abbreviates("rdme", "readme"))
    #expect(abbreviates("dcmnt", "document") == false)  // three letters left out
    #expect(abbreviates("rdm", "readme") == false)
    #expect(abbreviates("edme", "readme") == false)  // the first letter must match
    #expect(abbreviates("rmde", "readme") == false)  // the letters must keep their order
  }

  @Test func singleWords() {
    #expect(TypoExpander.singleWord("Café") == "cafe")
    #expect(TypoExpander.singleWord("read.me") == nil)
  }

  @Test func initials() {
    #expect(NameWords.initials("Natural Bridges State Park.jpg") == "nbsp")
    #expect(NameWords.initials("fooBarBaz.swift") == "fbb")
    #expect(NameWords.initials("README.md") == nil)
  }
}

@Suite struct PredicateTests {
  @Test func wildcardsAndModifiers() {
    #expect(WildcardMatcher(pattern: "park*", modifiers: "").matches("parking lot"))
    #expect(!WildcardMatcher(pattern: "park*", modifiers: "").matches("Parking"))
    #expect(WildcardMatcher(pattern: "park*", modifiers: "c").matches("Parking"))
    #expect(WildcardMatcher(pattern: "*cafe*", modifiers: "cd").matches("Le Café Noir"))
    #expect(!WildcardMatcher(pattern: "*cafe*", modifiers: "c").matches("Le Café Noir"))
    #expect(
      WildcardMatcher(pattern: "state", modifiers: "cw").matches("Natural Bridges State Park"))
    #expect(
      !WildcardMatcher(pattern: "state", modifiers: "c").matches("Natural Bridges State Park"))
    #expect(WildcardMatcher(pattern: "a*b*c", modifiers: "").matches("aXXbYYc"))
    #expect(!WildcardMatcher(pattern: "a*b*c", modifiers: "").matches("aXXcYYb"))
  }

  func parse(_ text: String) throws -> QueryNode {
    var utc = Calendar(identifier: .gregorian)
    utc.timeZone = TimeZone(identifier: "UTC")!
    var parser = PredicateParser(now: Date(timeIntervalSince1970: 1_795_348_800), calendar: utc)
    return try parser.parse(text)
  }

  @Test func anUnknownAttributeListsEveryOne() throws {
    var message = ""
    do { _ = try parse("colour == \"red\"") } catch { message = "\(error)" }
    #expect(message.hasPrefix("unknown attribute 'colour': use displayName, title"))
    for (names, _) in PredicateParser.attributeTable {
      #expect(message.contains(names[0]), "\(names[0])")
    }
  }

  @Test func grammar() throws {
    #expect(
      PredicateParser.looksLikePredicate("keywords == \"park*\"cdw && contentType == \"image/*\""))
    #expect(PredicateParser.looksLikePredicate("kMDItemFSSize > 1000"))
    #expect(!PredicateParser.looksLikePredicate("size of the moon"))
    #expect(!PredicateParser.looksLikePredicate("quick brown fox"))
    #expect(
      try parse("keywords == \"park*\"cdw && contentType == \"image/*\"")
        == .and([
          .filter(.match(.keywords, pattern: "park*", flags: "cdw")),
          .filter(.contentType("image/*")),
        ]))
    #expect(try parse("size > 1000") == .filter(.range(.size, lower: 1001, upper: nil)))
    #expect(try parse("InRange(size, 10, 20)") == .filter(.range(.size, lower: 10, upper: 21)))
    #expect(
      try parse("!(title != \"x\")")
        == .not(.not(.filter(.match(.title, pattern: "x", flags: "")))))
    let midnight = 1_795_305_600.0
    #expect(
      try parse("kMDItemContentModificationDate == $time.today")
        == .filter(.range(.modified, lower: midnight, upper: midnight + 86_400)))
    #expect(
      try parse("modified >= $time.today(-7)")
        == .filter(.range(.modified, lower: midnight - 7 * 86_400, upper: nil)))
    #expect(
      try parse("modified < $time.now(-3600)")
        == .filter(.range(.modified, lower: nil, upper: 1_795_348_800 - 3600)))
    #expect(
      try parse("created >= $time.iso(2026-01-01)")
        == .filter(.range(.created, lower: 1_767_225_600, upper: nil)))
  }

  @Test(arguments: [
    "nosuch == \"x\"", "size > \"big\"", "displayName == \"open", "(size > 3", "size >",
    "displayName < \"a\"", "size == $time.soon", "$oops == 1", "InRange(title, 1, 2)",
    "a == b == c",
  ])
  func mistakesAreQueryErrors(query: String) {
    #expect(throws: QueryError.self) { try parse(query) }
  }
}

@Suite struct FindInArgumentTests {
  @Test func commonInvocationsSkipTheParser() throws {
    let plain = try #require(FindInOptions.quick(["holiday", "-draft", "ext:md"]))
    #expect(plain.words == ["holiday", "-draft", "ext:md"])
    let options = try #require(
      FindInOptions.quick(["--json", "--limit", "5", "--in=/tmp", "-0", "a", "--", "--json"]))
    #expect(options.json && options.null && options.limit == 5 && options.folder == "/tmp")
    #expect(options.words == ["a", "--json"])
    let open = try #require(FindInOptions.quick(["--open", "3", "park"]))
    #expect(open.open && open.pick == 3 && open.words == ["park"])
  }

  @Test func anythingElseGoesToTheParser() {
    for arguments in [
      ["--help"], ["-h"], ["--bogus"], ["--limit"], ["--limit", "many"], ["--in"],
      ["--generate-completion-script", "bash"], ["-h0"],
    ] {
      #expect(FindInOptions.quick(arguments) == nil, "\(arguments)")
    }
  }
}
