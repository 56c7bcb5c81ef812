import Foundation
import LimelightPlatform
import Synchronization
import Testing

@testable import LimelightModel
@testable import LimelightQuery

/// A person's words read into the filter language, in every language,
/// from a fixed moment: Friday 27 November 2026, noon UTC, weeks from Monday.
@Suite struct PhraseReadingTests {
  static let clock = QueryClock(
    environment: ["TZ": "UTC", "LANG": "C"], now: "2026-11-27T12:00:00Z")

  func line(_ query: String) throws -> String {
    var parser = QueryParser(
      home: RawPath("/home/me"), currentDirectory: { RawPath("/work") }, now: Self.clock.now,
      calendar: Self.clock.calendar)
    return try parser.read(query).line
  }

  func expectLines(_ cases: [(String, String)], sourceLocation: SourceLocation = #_sourceLocation)
    throws
  {
    for (query, expected) in cases {
      #expect(try line(query) == expected, "\(query)", sourceLocation: sourceLocation)
    }
  }

  /// A sentence (four words or more) is typed a word at a time: its words
  /// but the last are looked for whole, the last as the start of a word;
  /// fewer words each as the start of one, filters as they were.
  @Test func aSentencesWordsButTheLastAreWhole() throws {
    var parser = QueryParser(
      home: RawPath("/home/me"), currentDirectory: { RawPath("/work") }, now: Self.clock.now,
      calendar: Self.clock.calendar)
    let sentence = try parser.read("schedule command every night kind:text")
    #expect(
      sentence.node
        == .and([
          .text("schedule", prefix: false, column: nil),
          .text("command", prefix: false, column: nil),
          .text("every", prefix: false, column: nil), .text("night", prefix: true, column: nil),
          .filter(.kind(.text)),
        ]), "\(sentence.node)")
    let words = try parser.read("schedule command night")
    #expect(
      words.node
        == .and([
          .text("schedule", prefix: true, column: nil), .text("command", prefix: true, column: nil),
          .text("night", prefix: true, column: nil),
        ]), "\(words.node)")
  }

  @Test func kindsByTheWordsPeopleUse() throws {
    try expectLines([
      ("pdfs", "kind:pdf"), ("pdf files", "kind:pdf"), ("photos", "kind:image"),
      ("pictures", "kind:image"), ("images", "kind:image"), ("screenshots", "kind:image"),
      ("videos", "kind:video"), ("movies", "kind:video"), ("songs", "kind:audio"),
      ("music", "kind:audio"), ("audio files", "kind:audio"), ("documents", "kind:document"),
      ("text files", "kind:text"), ("spreadsheets", "kind:spreadsheet"),
      ("presentations", "kind:presentation"), ("slides", "kind:presentation"),
      ("e-mails", "kind:email"), ("mail", "kind:email"), ("archives", "kind:archive"),
      ("source code", "kind:code"), ("folders", "kind:folder"), ("apps", "kind:app"),
      ("photos and videos", "(kind:image OR kind:video)"),
      // German, French, Spanish, Japanese, Chinese.
      ("Fotos", "kind:image"), ("Lieder", "kind:audio"), ("Tabellen", "kind:spreadsheet"),
      ("Dateien Präsentationen", "kind:presentation"), ("E-Mails", "kind:email"),
      ("chansons", "kind:audio"), ("fichiers pdf", "kind:pdf"), ("courriels", "kind:email"),
      ("canciones", "kind:audio"), ("hojas de cálculo", "kind:spreadsheet"),
      ("correos", "kind:email"), ("写真", "kind:image"), ("動画", "kind:video"),
      ("メール", "kind:email"), ("照片", "kind:image"), ("视频", "kind:video"),
      ("文件夹", "kind:folder"),
    ])
  }

  /// A kind word of another language than the query's is a word: the
  /// words that carry no meaning say which language a sentence is in.
  @Test func aKindInAnotherLanguageThanTheSentencesIsAWord() throws {
    try expectLines([
      ("capture what they print", "capture print"),
      (
        "start other programs from a script and capture what they print",
        "start other programs script capture print"
      ),
      ("les captures de la semaine", "kind:image semaine"), ("captures", "kind:image"),
      ("the photos of the holiday", "kind:image holiday"),
      // So is a weekday: "mon" is Monday in English, "my" in French.
      ("lettre de résiliation de mon contrat", "lettre résiliation contrat"),
      ("mon rapport de lundi", "modified:2026-11-23 rapport"),
      ("photos from monday", "kind:image modified:2026-11-23"),
    ])
  }

  /// A description is its words: the kinds, sizes and people its words
  /// name are what it is about, not filters; its dates are still dates.
  @Test func aDescriptionIsItsWords() throws {
    try expectLines([
      (
        "keep records in a small embedded database file without a server",
        "keep records small embedded database without server"
      ),
      ("how much space the files below a folder take up", "much space below folder take up"),
      (
        "end a misbehaving process by sending it a signal", "end misbehaving process sending signal"
      ),
      (
        "wie man nebenläufigen Code mit Koroutinen schreibt",
        "man nebenläufigen Code Koroutinen schreibt"
      ),
      (
        "notes of the budget meeting with the landlord last week",
        "modified:2026-11-16..2026-11-22 notes budget meeting landlord"
      ),
      // A search with filters holds few other words.
      ("small photos of the holiday in Rome", "kind:image size:<100K holiday Rome"),
      ("emails from Anna about the budget", "kind:email from:Anna budget"),
      ("songs by Miles Davis", "kind:audio author:\"Miles Davis\""),
    ])
  }

  /// An article, a kind word and a noun are a compound, a thing's name:
  /// its kind word is no kind.
  @Test func anArticleKindAndNounAreACompound() throws {
    try expectLines([
      ("attach a file system to the directory tree", "attach system directory tree"),
      ("a text editor", "text editor"), ("the music player", "music player"),
      ("the photos of the holiday", "kind:image holiday"),
      ("the photos from yesterday", "kind:image modified:2026-11-26"),
      ("photos Rome", "kind:image Rome"),
    ])
  }

  /// "From" with an article is followed by a thing, not a person, though
  /// German writes it with a capital.
  @Test func fromTheArticleNamesNoPerson() throws {
    try expectLines([
      ("Fotos vom Strand", "kind:image Strand"), ("Fotos von Anna", "kind:image author:Anna"),
      ("le rapport du Conseil", "rapport Conseil"),
    ])
  }

  @Test func datesTheWayPeopleSayThem() throws {
    try expectLines([
      ("pdfs from last week", "kind:pdf modified:2026-11-16..2026-11-22"),
      ("images from today", "kind:image modified:2026-11-27"),
      ("yesterday", "modified:2026-11-26"),
      ("the day before yesterday", "modified:2026-11-25"),
      ("on Friday", "modified:2026-11-27"), ("last friday", "modified:2026-11-20"),
      ("on Tuesday", "modified:2026-11-24"), ("this week", "modified:2026-11-23..2026-11-29"),
      ("this month", "modified:2026-11"), ("last month", "modified:2026-10"),
      ("this year", "modified:2026"), ("last year", "modified:2025"),
      ("in February", "modified:2026-02"), ("last sept", "modified:2026-09"),
      ("in December", "modified:2025-12"), ("March 2024", "modified:2024-03"),
      ("in 2019", "modified:2019"), ("3 days ago", "modified:2026-11-24"),
      ("2 weeks ago", "modified:2026-11-09..2026-11-15"),
      ("past few days", "modified:2026-11-25..2026-11-27"),
      ("in the last 2 weeks", "modified:2026-11-14..2026-11-27"),
      ("since Monday", "modified:>=2026-11-23"), ("before 2020", "modified:<2020"),
      ("after June 2024", "modified:>2024-06"),
      ("between March and May", "modified:2026-03..2026-05"),
      ("from 4 to 22 January", "modified:2026-01-04..2026-01-22"),
      ("on 4 January 2025", "modified:2025-01-04"), ("January 4", "modified:2026-01-04"),
    ])
  }

  @Test func datesInOtherLanguages() throws {
    try expectLines([
      ("Fotos von gestern", "kind:image modified:2026-11-26"),
      ("vorgestern", "modified:2026-11-25"), ("letzte Woche", "modified:2026-11-16..2026-11-22"),
      ("vor 3 Tagen", "modified:2026-11-24"), ("im Februar", "modified:2026-02"),
      ("seit Montag", "modified:>=2026-11-23"),
      ("vom 4. bis 22. Januar", "modified:2026-01-04..2026-01-22"),
      ("photos d'hier", "kind:image modified:2026-11-26"),
      ("la semaine dernière", "modified:2026-11-16..2026-11-22"),
      ("il y a 3 jours", "modified:2026-11-24"), ("en mars 2024", "modified:2024-03"),
      ("du 4 au 22 janvier", "modified:2026-01-04..2026-01-22"),
      ("fotos de ayer", "kind:image modified:2026-11-26"),
      ("la semana pasada", "modified:2026-11-16..2026-11-22"),
      ("hace 3 días", "modified:2026-11-24"), ("antes de 2020", "modified:<2020"),
      ("del 4 al 22 de enero", "modified:2026-01-04..2026-01-22"),
      ("先週の写真", "kind:image modified:2026-11-16..2026-11-22"),
      ("昨日", "modified:2026-11-26"), ("3日前のメール", "kind:email modified:2026-11-24"),
      ("先月から", "modified:>=2026-10"), ("2020年以前", "modified:<2020"),
      ("昨天的照片", "kind:image modified:2026-11-26"), ("上周", "modified:2026-11-16..2026-11-22"),
      ("过去3天的文档", "kind:document modified:2026-11-25..2026-11-27"),
      ("去年", "modified:2025"), ("3月的视频", "kind:video modified:2026-03"),
    ])
  }

  @Test func theVerbChoosesTheDate() throws {
    try expectLines([
      ("documents I worked on last year", "kind:document modified:2025"),
      ("files created yesterday", "created:2026-11-26"),
      ("opened last week", "used:2026-11-16..2026-11-22"),
      ("photos taken in May", "kind:image taken:2026-05"),
      ("Fotos aufgenommen im Mai", "kind:image taken:2026-05"),
      ("documents créés hier", "kind:document created:2026-11-26"),
    ])
  }

  @Test func sizesRelativeToTheKind() throws {
    try expectLines([
      ("big videos", "kind:video size:>=1G sort:size"),
      ("large photos", "kind:image size:>=10M sort:size"),
      ("huge files", "size:>=400M sort:size"), ("small notes", "size:<100K notes"),
      ("tiny text files", "kind:text size:<1K"), ("over 50 MB", "size:>50MB"),
      ("larger than 1 GB", "size:>1GB"), ("under 100k", "size:<100K"),
      ("videos über 2 GB", "kind:video size:>2GB"), ("plus de 10 Mo", "size:>10MB"),
      ("große Videos", "kind:video size:>=1G sort:size"),
    ])
  }

  @Test func people() throws {
    try expectLines([
      ("songs by Miles Davis", "kind:audio author:\"Miles Davis\""),
      ("emails from anna about the budget", "kind:email from:anna budget"),
      ("email from david to bill", "kind:email from:david to:bill"),
      ("E-Mail von Thomas im Mai", "kind:email modified:2026-05 from:Thomas"),
      ("chansons par Brel", "kind:audio author:Brel"),
      ("photos from Anna", "kind:image author:Anna"),
      // Lower case after "from" names nobody but in e-mail: a place, say.
      ("photos from paris", "kind:image paris"),
    ])
  }

  @Test func wordsThatCarryNoMeaningAreLeftOut() throws {
    var parser = QueryParser(
      home: RawPath("/home/me"), now: Self.clock.now, calendar: Self.clock.calendar)
    let read = try parser.read("how to use asyncio")
    #expect(read.line == "asyncio")
    #expect(read.ignored == ["how", "to", "use"])
    // A Chinese particle written against kana is part of a Japanese word
    // (動的ホスト); alone in Chinese it carries no meaning.
    #expect(try parser.read("的ホ").line == "的ホ")
    #expect(try parser.read("我的 报告").ignored.contains("的"))
    // Words left out alone find every name that holds all the words typed.
    #expect(read.literal == nil)
    try expectLines([
      ("wie man Dateien kopiert", "man kopiert"), ("comment utiliser asyncio", "asyncio"),
      ("cómo usar asyncio", "asyncio"), ("asyncioの使い方", "asyncio"),
      ("如何使用asyncio", "asyncio"),
    ])
  }

  @Test func whatReadsAsNothingIsItsWords() throws {
    try expectLines([
      ("lighthouse keeper", "lighthouse keeper"), ("the who", "the who"),
      ("yesterday.txt", "yesterday.txt"), ("日本語", "日本語"), ("大阪の写真", "kind:image 大阪"),
      ("may", "may"), ("2019", "2019"), ("friday", "friday"),
      ("kind:pdf from last week", "modified:2026-11-16..2026-11-22 kind:pdf"),
      ("\"last week\"", "\"last week\""), ("-yesterday", "-yesterday"),
    ])
    // The typed words still find names: "yesterday" reads as a date, and
    // the names holding it come too.
    var parser = QueryParser(
      home: RawPath("/home/me"), now: Self.clock.now, calendar: Self.clock.calendar)
    let read = try parser.read("yesterday")
    #expect(read.literal == .text("yesterday", prefix: true, column: .path))
    #expect(try parser.read("lighthouse").literal == nil)
  }

  @Test func impossibleDatesAreErrorsNamingTheWords() throws {
    for (query, words) in [
      ("February 30", "February 30"), ("from 22 to 4 January", "22 to 4 January"),
      ("31 April 2025", "31 April 2025"),
      ("modified:2026-05..2026-01", "modified:2026-05..2026-01"),
    ] {
      #expect(throws: QueryError.self) { try line(query) }
      do { _ = try line(query) } catch let error as QueryError {
        #expect(error.message.contains(words), "\(query)")
      }
    }
  }

  @Test func theFilterLanguageSaysEveryReading() throws {
    var parser = QueryParser(
      home: RawPath("/home/me"), now: Self.clock.now, calendar: Self.clock.calendar)
    #expect(try parser.parse("kind:email") == .filter(.kind(.email)))
    #expect(
      try parser.parse("from:anna")
        == .and([.text("anna", prefix: true, column: .keywords), .filter(.person(.author, "anna"))])
    )
    #expect(
      try parser.parse("to:bill")
        == .and([
          .text("bill", prefix: true, column: .keywords), .filter(.person(.recipient, "bill")),
        ]))
    let may = try #require(QueryClock.moment("2026-05-01", calendar: Self.clock.calendar))
    let june = try #require(QueryClock.moment("2026-06-01", calendar: Self.clock.calendar))
    #expect(
      try parser.parse("taken:2026-05")
        == .filter(
          .range(.created, lower: may.timeIntervalSince1970, upper: june.timeIntervalSince1970)))
    let combined = try parser.parse("kind:audio authors == \"Miles Davis\"")
    #expect(
      combined
        == .and([
          .filter(.kind(.audio)), .filter(.match(.authors, pattern: "Miles Davis", flags: "")),
        ]))
    #expect(throws: QueryError.self) { try parser.parse("sort:name") }
    #expect(throws: QueryError.self) { try parser.parse("author:...") }
  }

  @Test func everyReadingParses() throws {
    // Each line `--explain` prints is a query find-in takes as it is.
    var parser = QueryParser(
      home: RawPath("/home/me"), now: Self.clock.now, calendar: Self.clock.calendar)
    for query in [
      "pdfs from last week", "big videos", "songs by Miles Davis", "email from david to bill",
      "先週の写真", "between March and May", "over 50 MB",
    ] {
      let read = try parser.read(query)
      #expect(try parser.read(read.line).node == read.node, "\(query)")
    }
  }

  @Test func weeksStartWhereTheLocaleSays() throws {
    let us = QueryClock(environment: ["TZ": "UTC", "LC_TIME": "en_US.UTF-8"], now: "2026-11-27")
    let iso = QueryClock(environment: ["TZ": "UTC", "LC_ALL": "C"], now: "2026-11-27")
    #expect(us.calendar.firstWeekday == 1)
    #expect(iso.calendar.firstWeekday == 2)
    var parser = QueryParser(home: RawPath("/"), now: us.now, calendar: us.calendar)
    #expect(try parser.read("last week").line == "modified:2026-11-15..2026-11-21")
    #expect(QueryClock.moment("2026-02-30") == nil)
    #expect(QueryClock.moment("2026-11-27T25:00") == nil)
    #expect(QueryClock.moment("2026-11-27T10:00+01:00")?.timeIntervalSince1970 == 1_795_770_000)
  }

  @Test func calendarWordsAreICUs() throws {
    // The generated table is what ICU says today (run
    // scripts/generate-calendar-words when it is not).
    for language in LanguageWords.languages {
      let words = try #require(CalendarWords.cldr[language])
      let formatter = DateFormatter()
      formatter.locale = Locale(identifier: language)
      for month in 0..<12 {
        #expect(words.months[month].first == formatter.monthSymbols[month].lowercased())
      }
      #expect(words.weekdays[0].first == formatter.weekdaySymbols[1].lowercased())
    }
  }

  @Test func peopleMatchAsNamesDo() {
    #expect(PersonNames.matches("miles", among: ["Miles Davis"]))
    #expect(PersonNames.matches("Miles Davis", among: ["Davis, Miles"]))
    #expect(PersonNames.matches("mils", among: ["Miles Davis"]))
    #expect(PersonNames.matches("jose", among: ["José Martí <jose@example.org>"]))
    #expect(!PersonNames.matches("anna", among: ["Bob <bob@example.org>"]))
    #expect(!PersonNames.matches("miles", among: []))
  }
}

/// The search every front end runs: names first, then the reading, then
/// what holds most of the words.
@Suite struct ReadingSearchTests {
  struct Item: Equatable {
    var name: String
    var words: Set<String>
    var size: Int64 = 0
  }

  static let items = [
    Item(name: "yesterday.txt", words: ["yesterday"]),
    Item(name: "asyncio guide", words: ["asyncio", "guide"], size: 10),
    Item(name: "asyncio tasks", words: ["asyncio", "tasks", "use"], size: 30),
    Item(name: "budget", words: ["budget"], size: 20),
  ]

  /// A store over `items`: a text node matches an item holding the word,
  /// a name node its name; ANDs, ORs and filters as usual (a filter matches all).
  static func matches(_ node: QueryNode, _ item: Item) -> Bool {
    switch node {
    case .text(let text, _, .name?), .text(let text, _, .path?): return item.name.contains(text)
    case .text(let text, _, _): return item.words.contains(text)
    case .and(let parts): return parts.allSatisfy { matches($0, item) }
    case .or(let parts): return parts.contains { matches($0, item) }
    case .not(let inner): return !matches(inner, item)
    case .filter: return true
    case .nothing: return false
    }
  }

  let search = ReadingSearch<Item>(
    search: { node, limit, _ in
      let found = ReadingSearchTests.items.filter { ReadingSearchTests.matches(node, $0) }
      return limit.map { Array(found.prefix($0)) } ?? found
    }, key: \.name, size: \.size)

  func read(_ query: String) throws -> ReadQuery {
    var parser = QueryParser(home: RawPath("/"), now: PhraseReadingTests.clock.now)
    return try parser.read(query)
  }

  @Test func everyWordHeldIsTheAnswer() throws {
    let found = try search.run(read("asyncio guide"), limit: nil)
    #expect(found.map(\.result.name) == ["asyncio guide"])
    #expect(found.allSatisfy { $0.unmatched.isEmpty })
  }

  @Test func theTypedNameComesFirst() throws {
    let found = try search.run(read("yesterday"), limit: nil)
    #expect(found.first?.result.name == "yesterday.txt")
  }

  @Test func mostOfTheWordsWhenNotAll() throws {
    let found = try search.run(read("asyncio tasks zorblat"), limit: nil)
    #expect(found.map(\.result.name) == ["asyncio tasks", "asyncio guide"])
    #expect(found[0].unmatched == ["zorblat"])
    #expect(found[1].unmatched == ["zorblat", "tasks"])
    // None of the words: nothing.
    #expect(try search.run(read("zorblat quux"), limit: nil).isEmpty)
  }

  /// A sentence's words but the last were typed whole: most of them are
  /// looked for as whole words, the last still as a prefix.
  @Test func mostOfASentencesWordsAreWholeWords() throws {
    let asked = Mutex<[QueryNode]>([])
    let recording = ReadingSearch<Item>(
      search: { node, limit, typos in
        asked.withLock { $0.append(node) }
        return try search.search(node, limit, typos)
      }, key: \.name, size: \.size)
    let found = try recording.run(read("asyncio tasks zorblat guide"), limit: nil)
    #expect(Set(found.map(\.result.name)) == ["asyncio guide", "asyncio tasks"])
    func texts(_ node: QueryNode) -> [(String, Bool)] {
      switch node {
      case .text(let text, let prefix, _): [(text, prefix)]
      case .and(let parts): parts.flatMap(texts)
      default: []
      }
    }
    let parts = asked.withLock { $0 }.filter { if case .and = $0 { true } else { false } }
      .dropFirst().flatMap(texts)
    #expect(!parts.isEmpty)
    #expect(parts.allSatisfy { text, prefix in prefix == (text == "guide") }, "\(parts)")
    // Fewer words: prefixes all.
    asked.withLock { $0.removeAll() }
    _ = try recording.run(read("asyncio zorblat guide"), limit: nil)
    let fewer = asked.withLock { $0 }.flatMap(texts)
    #expect(fewer.allSatisfy { $0.1 })
  }

  @Test func theLargestFirst() throws {
    let found = try search.run(read("asyncio sort:size"), limit: 1)
    #expect(found.map(\.result.name) == ["asyncio tasks"])
  }

  @Test func subsetsInOrder() {
    #expect(
      ReadingSearch<Item>.subsets(of: [1, 2, 3], size: 2) == [[1, 2], [1, 3], [2, 3]])
  }
}
