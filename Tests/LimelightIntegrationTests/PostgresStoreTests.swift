import CTextRank
import Foundation
import LimelightImport
import LimelightModel
import LimelightPlatform
import LimelightQuery
import Synchronization
import Testing

@testable import LimelightPostgres

/// The PostgreSQL store against a real server of the tests' own: files read
/// by the importers as the watcher reads them, written by host, found with
/// the query language.
@Suite(.enabled(if: PostgresServer.binFolder != nil, "PostgreSQL is not installed"))
struct PostgresStoreTests {
  /// Real files in a temporary folder, read as the watcher reads them.
  final class Files {
    let root: String
    init() throws {
      root = NSTemporaryDirectory() + "limelight-pg-" + UUID().uuidString
      try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
    }
    deinit { try? FileManager.default.removeItem(atPath: root) }

    func write(_ relative: String, _ text: String) throws -> SharedItem {
      let path = root + "/" + relative
      try FileManager.default.createDirectory(
        atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
      try Data(text.utf8).write(to: URL(fileURLWithPath: path))
      return try record(relative)
    }

    func record(_ relative: String) throws -> SharedItem {
      let path = RawPath(root + "/" + relative)
      let status = try #require(FileSystem.status(path))
      return SharedItem(
        FileImporter(mime: MIMEDatabase(), maxTextBytes: 1 << 20)
          .record(for: path, status: status, hidden: false))
    }
  }

  func names(_ index: PostgresIndex, _ query: String) throws -> [String] {
    var parser = QueryParser(home: RawPath("/"))
    return try index.search(parser.parse(query), limit: 20).map(\.name)
  }

  /// A store of one host holding five entries, files read as the watcher
  /// reads them (kept while the files live).
  func sampleStore() throws -> (PostgresIndex, Files) {
    let server = try #require(PostgresServer.shared)
    let index = try PostgresIndex(try server.newDatabase(), host: "alpha")
    let files = try Files()
    try index.write([
      try files.write("Quarterly Report 2024.txt", "revenue grew in the third quarter"),
      try files.write("notes/field notes.md", "wombat burrows near the creek"),
      try files.write("Café menu.txt", "croissant and coffee"),
      try files.write("build.sh", "#!/bin/sh\nmake all\n"),
      try files.record("notes"),
    ])
    return (index, files)
  }

  @Test func wordsPrefixesTyposAndFiltersFindWhatWasWritten() throws {
    let (index, files) = try sampleStore()
    #expect(try names(index, "report") == ["Quarterly Report 2024.txt"])
    #expect(try names(index, "quart") == ["Quarterly Report 2024.txt"])
    #expect(try names(index, "wombat") == ["field notes.md"])
    #expect(try names(index, "\"wombat burrows\"") == ["field notes.md"])
    #expect(try names(index, "\"burrows wombat\"").isEmpty)
    #expect(try names(index, "cafe") == ["Café menu.txt"])
    #expect(try names(index, "quartrely") == ["Quarterly Report 2024.txt"])
    #expect(try names(index, "ext:md") == ["field notes.md"])
    #expect(try names(index, "kind:folder") == ["notes"])
    #expect(try Set(names(index, "notes")) == ["notes", "field notes.md"])
    #expect(try names(index, "notes -kind:folder") == ["field notes.md"])
    #expect(try names(index, "coffee OR wombat").count == 2)
    #expect(try names(index, "in:\(files.root)/notes") == ["field notes.md"])
    #expect(try names(index, "size:>1G").isEmpty)
    #expect(try names(index, "nothingmatcheszz").isEmpty)
    // A part with no words (punctuation alone) narrows nothing.
    let report = QueryNode.text("report", prefix: true, column: nil)
    #expect(try index.search(.and([report, .and([])]), limit: 5).map(\.name).count == 1)
    #expect(try index.search(.or([]), limit: 5).isEmpty)
  }

  /// Each word is held by an entry's name or by its text, whichever:
  /// the words of texts are indexed once a distinct text, not once an
  /// entry, so a query of words one holds and words the other holds, a
  /// word left out, and two entries naming one text, are each read from
  /// both. Counts and whether anything is found say the same.
  @Test func aWordOfTheNameAndAWordOfTheTextFindTheEntryTogether() throws {
    let (index, files) = try sampleStore()
    try index.write([try files.write("copy.txt", "croissant and coffee")])
    var parser = QueryParser(home: RawPath("/"))
    var known: [String: [String]] = [:]
    for (query, expected) in [
      ("wombat notes", ["field notes.md"]),
      ("report revenue", ["Quarterly Report 2024.txt"]),
      ("\"third quarter\" report", ["Quarterly Report 2024.txt"]),
      ("coffee -menu", ["copy.txt"]),
      ("wombat -creek", []),
      ("croissant -wombat", ["Café menu.txt", "copy.txt"]),
      ("coffee", ["Café menu.txt", "copy.txt"]),
      ("copy croissant", ["copy.txt"]),
      ("menu croissant", ["Café menu.txt"]),
      ("menu wombat", []),
      ("wombta notes", ["field notes.md"]),
    ] {
      #expect(try Set(names(index, query)) == Set(expected), "\(query)")
      let node = try parser.parse(query)
      #expect(try index.count(node) == expected.count, "\(query)")
      #expect(try index.holdsAny(node, closeWordsKnown: &known) == !expected.isEmpty, "\(query)")
    }
  }

  /// The predicate language on what the store keeps: names and paths by
  /// wildcard, with its modifiers, beside words, types, sizes and dates.
  /// Whether a query finds anything, asked of each word of a sentence
  /// nothing holds whole, is what a search of one result says: words,
  /// prefixes, typos in names and texts, phrases, filters.
  @Test func whetherAQueryFindsAnythingIsWhatItsSearchSays() throws {
    let (index, _) = try sampleStore()
    var parser = QueryParser(home: RawPath("/"))
    var known: [String: [String]] = [:]
    for query in [
      "report", "quart", "quartrely", "wombta", "burows", "\"wombat burrows\"",
      "\"burrows wombat\"", "coffee ext:txt", "coffee ext:md", "kind:folder", "zzzqqq",
      "revenue kind:folder", "caf",
    ] {
      let node = try parser.parse(query)
      #expect(
        try index.holdsAny(node, closeWordsKnown: &known)
          == !index.search(node, limit: 1).isEmpty, "\(query)")
    }
  }

  @Test func thePredicateLanguageComparesNamesAndPaths() throws {
    let (index, _) = try sampleStore()
    let all = ["Café menu.txt", "Quarterly Report 2024.txt", "build.sh", "field notes.md", "notes"]
    for (query, expected) in [
      (#"displayName == "Quarterly*""#, ["Quarterly Report 2024.txt"]),
      (#"displayName == "quarterly*""#, []),
      (#"kMDItemDisplayName == "quarterly*"c"#, ["Quarterly Report 2024.txt"]),
      (#"displayName == "cafe*""#, []),
      (#"displayName == "cafe*"cd"#, ["Café menu.txt"]),
      (#"displayName == "menu""#, []),
      (#"displayName == "menu"w"#, ["Café menu.txt"]),
      (#"displayName == "rep*"cw"#, ["Quarterly Report 2024.txt"]),
      (#"displayName == "*.txt" && textContent == "coffee""#, ["Café menu.txt"]),
      (#"kMDItemPath == "*/notes/*""#, ["field notes.md"]),
      (#"displayName != "*.txt""#, ["build.sh", "field notes.md", "notes"]),
      (#"displayName == "*notes*" || contentType == "text/plain""#, all),
      (#"domainIdentifier == "limelight.*""#, all),
      (#"domainIdentifier == "com.example.*""#, []),
      (#"displayName == "*.txt" && kMDItemFSSize > 30"#, ["Quarterly Report 2024.txt"]),
      // The same words by column, a phrase each.
      (#"name:"field notes""#, ["field notes.md"]),
      (#"textContent == "the third quarter""#, ["Quarterly Report 2024.txt"]),
      (#"type:text/plain ext:md"#, ["field notes.md"]),
      // Types and kinds read from the chains kept once (`v24-type-chains`).
      (#"type:text/* ext:md"#, ["field notes.md"]),
      (#"type:image/*"#, []),
      (#"kind:text ext:md"#, ["field notes.md"]),
      (#"kind:image"#, []),
      (#"type:inode/directory"#, ["notes"]),
    ] {
      #expect(try names(index, query).sorted() == expected, "\(query)")
    }
  }

  /// A row keeps a path's text only where the path's bytes are not UTF-8
  /// (store migration `v21-slimmer-rows`): either reads back as it was
  /// sent, by `in:` on every host, by the predicate language, in its URI
  /// and in the depth it is ranked by; a store written before the
  /// migration answers the same once upgraded.
  @Test func aPathsTextIsKeptOnlyWhereItsBytesAreNotUTF8() throws {
    func item(_ bytes: [UInt8]) -> SharedItem {
      SharedItem(
        path: RawPath(bytes: bytes), isFolder: false, size: 1, modifiedNs: nil,
        contentTypeTree: ["text/plain"], keywords: [], text: "numbat")
    }
    let accented = item(Array("/docs/résumé numbat.txt".utf8))
    let latin1 = item(Array("/docs/caf".utf8) + [0xE9] + Array(" numbat.txt".utf8))
    let outside = item(Array("/other/deeper/numbat.txt".utf8))
    func uri(_ host: String, _ item: SharedItem) -> String {
      "file://\(host)\(FileURI.uri(for: item.path).dropFirst(7))"
    }
    func check(_ url: String) throws {
      let alpha = try PostgresIndex(url, host: "alpha")
      var parser = QueryParser(home: RawPath("/"))
      func uris(_ query: String) throws -> [String] {
        try alpha.search(parser.parse(query), limit: 20).map(\.uri).sorted()
      }
      let bothHosts = { (item: SharedItem) in [uri("alpha", item), uri("beta", item)] }
      #expect(try uris("numbat in:/docs") == (bothHosts(accented) + bothHosts(latin1)).sorted())
      #expect(
        try uris("numbat in:/docs host:beta")
          == [uri("beta", accented), uri("beta", latin1)].sorted())
      #expect(try uris(#"kMDItemPath == "/docs/résumé*""#) == bothHosts(accented))
      #expect(try uris(#"kMDItemPath == "/docs/caf\#u{FFFD} numbat.txt""#) == bothHosts(latin1))
      #expect(try uris(#"kMDItemPath == "/other/*""#) == bothHosts(outside))
      let owner = try PostgresConnection(url)
      #expect(
        try owner.execute("SELECT depth FROM item ORDER BY depth").rows.map { $0[0] ?? "" }
          == ["2", "2", "2", "2", "3", "3"])
    }
    let server = try #require(PostgresServer.shared)
    let url = try server.newDatabase()
    for host in ["alpha", "beta"] {
      try PostgresIndex(url, host: host).write([accented, latin1, outside])
    }
    #expect(
      try PostgresConnection(url).execute(
        "SELECT count(*) FILTER (WHERE path_text IS NULL), count(path_text) FROM item"
      ).rows.first == ["4", "2"])
    try check(url)
    // Written before: each row kept its path's text, and the writer's name.
    let (older, owner) = try store(before: "v21-slimmer-rows")
    let named = [
      (accented, "résumé numbat.txt", "resume numbat txt"),
      (latin1, "caf\u{FFFD} numbat.txt", "caf numbat txt"),
      (outside, "numbat.txt", "numbat txt"),
    ]
    try owner.execute(
      "INSERT INTO host (name, last_contact) VALUES ('alpha', now()), ('beta', now())")
    for host in ["alpha", "beta"] {
      for (item, name, words) in named {
        let vector = words.split(separator: " ").enumerated()
          .map { "\($0.element):\($0.offset + 1)A" }.joined(separator: " ")
        try owner.execute(
          """
          INSERT INTO item (host, path, path_text, name, name_words, folder, name_vector)
          VALUES ($1, $2::bytea, $3, $4, $5, false, $6::tsvector)
          """, [host, PostgresQuery.hex(item.path.bytes), item.path.string, name, words, vector])
      }
    }
    #expect(try owner.execute("SELECT count(path_text) FROM item").rows.first == ["6"])
    try PostgresSchema.migrate(owner)
    #expect(try owner.execute("SELECT count(path_text) FROM item").rows.first == ["2"])
    try check(older)
  }

  /// Row-level security: a reading role stands for a Unix user on a host,
  /// and finds only entries whose folders that user could list, by name,
  /// by text and by typo alike; a role that stands for nobody finds nothing.
  @Test func aReaderFindsOnlyWhatTheirUserCouldList() throws {
    let server = try #require(PostgresServer.shared)
    let url = try server.newDatabase()
    let index = try PostgresIndex(url, host: "files")
    let (alice, bob, team): (UInt32, UInt32, UInt32) = (1001, 1002, 2000)
    func item(_ path: String, _ text: String, _ reach: [Ownership]) -> SharedItem {
      var item = SharedItem(
        path: RawPath(path), isFolder: false, size: 10, modifiedNs: 0,
        contentTypeTree: ["text/plain"], keywords: [], text: text, reach: reach)
      // Every file with a meaning vector, for meaning search's own table.
      item.meaning = (0..<384).map { UInt8(truncatingIfNeeded: $0 * 7) }
      return item
    }
    let home = Ownership(owner: alice, group: alice, mode: 0o700)
    let bobsHome = Ownership(owner: bob, group: bob, mode: 0o700)
    let teamFolder = Ownership(owner: 0, group: team, mode: 0o750)
    try index.write([
      item(
        "/home/alice/notes/wombat diary.txt", "numbat sighting",
        [
          Ownership(owner: alice, group: alice, mode: 0o755), home,
        ]),
      item(
        "/home/bob/plans/wombat plans.txt", "numbat census",
        [
          Ownership(owner: bob, group: bob, mode: 0o755), bobsHome,
        ]),
      item("/srv/team/wombat notes.txt", "quoll", [teamFolder]),
      item(
        "/srv/team/open/wombat secret.txt", "quoll",
        [
          Ownership(owner: 0, group: 0, mode: 0o755), teamFolder,
        ]),
      item("/srv/public/wombat public.txt", "quoll", [Ownership(owner: 0, group: 0, mode: 0o755)]),
      // A folder others may list but not read: its entries are not theirs.
      item("/srv/dropbox/wombat drop.txt", "quoll", [Ownership(owner: 0, group: 0, mode: 0o733)]),
      // An application's item: the role that wrote it finds it, no reader.
      SharedItem(
        path: RawPath("notes://wombat/1"), isFolder: false, size: nil, modifiedNs: nil,
        contentTypeTree: ["text/plain"], keywords: [], text: "numbat memo",
        domain: "org.example.notes", displayName: "Wombat memo"),
    ])
    let owner = try PostgresConnection(url)
    let suffix = UUID().uuidString.prefix(8).lowercased()
    func reader(_ name: String, uid: UInt32?, gids: [UInt32]) throws -> PostgresIndex {
      let role = "\(name)_\(suffix)"
      try owner.execute("CREATE ROLE \(role) LOGIN")
      try owner.execute(
        "GRANT SELECT ON item, host, name_word_key, text_word, removal, "
          + "item_meaning, item_meaning_vector, limelight_migration TO \(role)")
      try owner.execute("GRANT SELECT ON SEQUENCE store_change TO \(role)")
      if let uid {
        try owner.execute(
          "INSERT INTO limelight_reader VALUES ($1, 'files', $2::integer, $3::integer[])",
          [role, String(uid), "{" + gids.map(String.init).joined(separator: ",") + "}"])
      }
      return try PostgresIndex(
        reading: url.replacingOccurrences(of: "limelight@", with: role + "@"))
    }
    let readers = (
      alice: try reader("alice", uid: alice, gids: [alice, team]),
      bob: try reader("bob", uid: bob, gids: [bob]),
      nobody: try reader("nobody", uid: nil, gids: [])
    )
    #expect(
      Set(try names(readers.alice, "wombat")) == [
        "wombat diary.txt", "wombat notes.txt", "wombat secret.txt", "wombat public.txt",
      ])
    #expect(Set(try names(readers.bob, "wombat")) == ["wombat plans.txt", "wombat public.txt"])
    // By text, and by a typo of the name: never another's private file.
    #expect(try names(readers.alice, "numbat") == ["wombat diary.txt"])
    #expect(try names(readers.bob, "numbat") == ["wombat plans.txt"])
    #expect(!(try names(readers.alice, "wombta")).contains("wombat plans.txt"))
    #expect(try names(readers.bob, "wombta").contains("wombat plans.txt"))
    // The words of names kept for typos: a reader sees those of names it
    // may see, not another's private ones.
    let bobsOwn = try PostgresConnection(
      url.replacingOccurrences(of: "limelight@", with: "bob_\(suffix)@"))
    let words = Set(
      try bobsOwn.execute("SELECT word FROM name_word_key").rows.compactMap { $0[0] })
    #expect(words.contains("plans") && words.contains("public"))
    #expect(!words.contains("diary") && !words.contains("secret"))
    #expect(try names(readers.bob, "sighting").isEmpty)
    // Nor the words of another's private text, read as a typo.
    #expect(try names(readers.alice, "sihgting") == ["wombat diary.txt"])
    #expect(try names(readers.bob, "sihgting").isEmpty)
    let texts = Set(try bobsOwn.execute("SELECT word FROM text_word").rows.compactMap { $0[0] })
    #expect(texts.contains("census") && !texts.contains("sighting"))
    // A phrase checked, and a snippet cut, in the texts kept once, which
    // a reader reads through its entries alone (no grant of the table).
    #expect(try names(readers.bob, "\"numbat census\"") == ["wombat plans.txt"])
    #expect(try names(readers.bob, "\"numbat sighting\"").isEmpty)
    var parser = QueryParser(home: RawPath("/"))
    let census = try parser.parse("census")
    #expect(
      try readers.bob.snippets(
        for: readers.bob.search(census, limit: 5), query: census, open: "[", close: "]"
      ).values.sorted() == ["numbat [census]"])
    #expect(throws: PostgresError.self) { try bobsOwn.execute("SELECT content FROM item_text") }
    #expect(try names(readers.nobody, "wombat").isEmpty)
    #expect(try names(readers.alice, "memo").isEmpty)
    // Nor by meaning: a reader compares the vectors of what it may see.
    let query = (0..<384).map { UInt8(truncatingIfNeeded: $0 * 7) }
    let nearest = { (reader: PostgresIndex) in
      Set(try reader.meaningCandidates(of: query, count: 10).map { $0.path.lastComponent.string })
    }
    #expect(
      try nearest(readers.alice) == [
        "wombat diary.txt", "wombat notes.txt", "wombat secret.txt", "wombat public.txt",
      ])
    #expect(try nearest(readers.bob) == ["wombat plans.txt", "wombat public.txt"])
    #expect(try nearest(readers.nobody).isEmpty)
    #expect(try nearest(index).count == 6)
    // The store's owner (the watchers, who wrote the application's item)
    // reads everything.
    #expect(try names(index, "wombat").count == 7)
    #expect(
      try index.search(QueryNode.text("memo", prefix: true, column: nil), limit: 5).map(\.uri)
        == ["notes://wombat/1"])
  }

  /// A page that the entries whose names hold the words fill is read from
  /// them alone, the texts' matches never ranked; it is the page the whole
  /// ranking gives, and a page they do not fill, or that a name holding
  /// the word inside another could enter, is ranked whole.
  @Test func aPageOfNamesIsTheWholeRankingsFirstPage() throws {
    let server = try #require(PostgresServer.shared)
    let index = try PostgresIndex(try server.newDatabase(), host: "alpha")
    let files = try Files()
    var items: [SharedItem] = []
    for number in 0..<24 {
      items.append(try files.write("names/numbat \(number).txt", "a note"))
      items.append(try files.write("texts/note \(number).txt", "a numbat was seen"))
    }
    items.append(try files.write("names/subnumbat.txt", "a note"))
    items.append(try files.write("names/numbats.txt", "a note"))
    try index.write(items)
    var parser = QueryParser(home: RawPath("/"))
    for query in ["numbat", "numb", "nubmat", "numbat note", "numbat ext:txt", "n", "numb ext:txt"]
    {
      let node = try parser.parse(query)
      let whole = try index.search(node, limit: nil).map(\.uri)
      for limit in [5, 20, 25, 26, 30] {
        let page = try index.search(node, limit: limit).map(\.uri)
        #expect(page == Array(whole.prefix(limit)), "\(query), \(limit)")
      }
    }
    // The page of 20 is names alone; of 30, texts too.
    let node = try parser.parse("numbat")
    #expect(try index.search(node, limit: 20).allSatisfy { $0.name.hasPrefix("numbat") })
    #expect(try index.search(node, limit: 30).contains { $0.name.hasPrefix("note") })
  }

  /// A word many names hold: the page read from the names of the best
  /// rank in their order (changed this week and before apart, each read
  /// only so far) is the whole ranking's first, whether those names fill
  /// it, fall short of it, or hold it only with the query's filter.
  @Test func aPageReadInTheNamesOrderIsTheWholeRankingsFirstPage() throws {
    let server = try #require(PostgresServer.shared)
    let index = try PostgresIndex(try server.newDatabase(), host: "alpha")
    let now = Date().timeIntervalSince1970
    func item(_ path: String, daysAgo: Double, keywords: [String] = []) -> SharedItem {
      var item = SharedItem(
        path: RawPath(path), isFolder: false, size: 1,
        modifiedNs: Int64((now - daysAgo * 86_400) * 1_000_000_000),
        contentTypeTree: ["text/plain"], keywords: keywords, text: nil)
      item.nameWords = nil
      return item
    }
    var items: [SharedItem] = []
    // Short names changed this week, read first of those changed this week.
    for number in 0..<60 { items.append(item("/n/numbat \(number).txt", daysAgo: 0.1)) }
    // Longer and deeper, read after them, yet above the PDFs of a month ago.
    for number in 100..<105 {
      items.append(item("/n/deep/deep/deep/numbat \(number).pdf", daysAgo: 0.1))
    }
    for number in 200..<205 { items.append(item("/n/numbat \(number).pdf", daysAgo: 30)) }
    for number in 0..<40 { items.append(item("/n/deep/numbat x \(number).txt", daysAgo: 30)) }
    items.append(item("/n/numbats.txt", daysAgo: 0.1))
    items.append(item("/n/subnumbat.txt", daysAgo: 30))
    items.append(item("/n/tagged.txt", daysAgo: 0.1, keywords: ["numbat"]))
    // Two words: names that hold both, whole or begun, deep or not; a
    // name that holds one, its text the other, ranked below them.
    for number in 0..<30 {
      items.append(item("/n/numbat wombat \(number).txt", daysAgo: number % 2 == 0 ? 0.1 : 30))
    }
    for number in 0..<10 { items.append(item("/n/d/d/wombats numbats \(number).pdf", daysAgo: 3)) }
    var crossed = item("/n/numbat crossed.txt", daysAgo: 0.1)
    crossed.text = "a wombat in the text"
    items.append(crossed)
    try index.write(items)
    var parser = QueryParser(home: RawPath("/"))
    // The names walked in their order, gathered and sorted, or not read
    // as a tier (the query's names ranked whole).
    for way in [PostgresIndex.WayToRead.walk, .gather, .rankWhole] {
      index.forcedWay = way
      for query in [
        "numbat", "numbat ext:pdf", "numbat ext:txt", "nubmat", "numbat 7", "numb", "numb ext:pdf",
        "numbat wombat", "numb womb", "numbat womb ext:pdf", "wombat numbat 7", "nubmat wombat",
        "numbat crossed wombat",
      ] {
        let node = try parser.parse(query)
        let whole = try index.search(node, limit: nil).map(\.uri)
        for limit in Array(1...12) + [20, 21, 40, 60, 100] {
          let page = try index.search(node, limit: limit).map(\.uri)
          #expect(page == Array(whole.prefix(limit)), "\(query), \(limit), \(way)")
        }
      }
      // The pages were read in the names' order: of those that hold the
      // word whole, and of those that hold it begun, none holding it whole.
      for query in ["numbat", "numb", "numbat wombat", "numb womb"] {
        let answered = index.pagesInNameOrder
        _ = try index.search(try parser.parse(query), limit: 5)
        #expect(
          index.pagesInNameOrder == answered + (way == .rankWhole ? 0 : 1), "\(query), \(way)")
      }
    }
  }

  /// Names read from the rows a query's filters find, each checked for
  /// the words, are the names the words' index gives: the same ranking,
  /// whole or a page of it, of every kind of filter, one word or several,
  /// begun, or typed wrong.
  @Test func namesReadFromTheirFiltersRowsRankAsTheNamesIndexGivesThem() throws {
    let server = try #require(PostgresServer.shared)
    let index = try PostgresIndex(try server.newDatabase(), host: "alpha")
    let now = Date().timeIntervalSince1970
    var items: [SharedItem] = []
    for number in 0..<90 {
      let (folder, type) = [
        ("/n", "text/plain"), ("/n/pictures", "image/png"), ("/n/deep/deep", "application/pdf"),
      ][number % 3]
      let ext = ["txt", "png", "pdf"][number % 3]
      let name = number % 4 == 0 ? "numbat wombat \(number)" : "numbat \(number)"
      var item = SharedItem(
        path: RawPath("\(folder)/\(name).\(ext)"), isFolder: false, size: Int64(number * 1_000),
        modifiedNs: Int64((now - Double(number) * 86_400) * 1_000_000_000),
        contentTypeTree: [type], keywords: number % 7 == 0 ? ["numbat"] : [], text: nil)
      item.nameWords = nil
      items.append(item)
    }
    // A file whose text alone holds the word: found, below every name.
    var texted = SharedItem(
      path: RawPath("/n/pictures/other.png"), isFolder: false, size: 5, modifiedNs: 0,
      contentTypeTree: ["image/png"], keywords: [], text: "a numbat drawn")
    texted.nameWords = nil
    items.append(texted)
    try index.write(items)
    var parser = QueryParser(home: RawPath("/"))
    index.forcedWay = .rankWhole
    for query in [
      "numbat ext:pdf", "numb kind:image", "nubmat ext:png", "numbat womb ext:txt",
      "numbat size:>40K", "numbat in:/n/deep", "numbat kind:image size:<30K",
      "numbat modified:month",
    ] {
      let node = try parser.parse(query)
      index.forcedFiltersFirst = false
      let whole = try index.search(node, limit: nil).map(\.uri)
      #expect(!whole.isEmpty, "\(query)")
      index.forcedFiltersFirst = true
      let before = index.namesReadFromFilters
      #expect(try index.search(node, limit: nil).map(\.uri) == whole, "\(query)")
      #expect(index.namesReadFromFilters > before, "\(query)")
      // (A page past the names holds texts, then asked whole.)
      for limit in [1, 5, 20, 40] {
        let page = try index.search(node, limit: limit).map(\.uri)
        #expect(page == Array(whole.prefix(limit)), "\(query), \(limit)")
      }
      if query == "numb kind:image" { #expect(whole.last?.hasSuffix("/other.png") == true) }
    }
    // Without a filter there are no filters' rows to read.
    index.forcedFiltersFirst = true
    let before = index.namesReadFromFilters
    _ = try index.search(try parser.parse("numbat"), limit: 5)
    #expect(index.namesReadFromFilters == before)
  }

  /// The names of a word are walked in their order when many hold it,
  /// gathered when few do, and not read as a tier when a filter leaves
  /// few of many.
  @Test func aWordsNamesAreReadTheCheaperWay() {
    func way(_ names: Double, _ passing: Double) -> PostgresIndex.WayToRead {
      PostgresIndex.wayToRead(names: names, passing: passing, entries: 100_000, readLimit: 80)
    }
    // The threshold at 100,000 entries: the square root of 2 * 80 * 100,000.
    #expect(PostgresIndex.walkThreshold(entries: 100_000, readLimit: 80) == 4_000)
    #expect(way(32_000, 32_000) == .walk)
    #expect(way(4_000, 4_000) == .walk)
    #expect(way(3_999, 3_999) == .gather)
    // Fewer than a quarter pass, and those are few: ranked whole.
    #expect(way(32_000, 300) == .rankWhole)
    #expect(way(5_700, 1_100) == .rankWhole)
    #expect(way(2_000, 100) == .rankWhole)
    // A quarter pass; or many do; or no more names than a walk reads.
    #expect(way(5_700, 1_500) == .walk)
    #expect(way(2_000, 600) == .gather)
    #expect(way(100_000, 5_000) == .walk)
    #expect(way(50, 1) == .gather)
    // Names that hold each of several words come later in the order: a
    // walk is taken to read more, and more of them are gathered.
    let several = { (names: Double) in
      PostgresIndex.wayToRead(
        names: names, passing: names, entries: 100_000, readLimit: 80,
        skew: PostgresIndex.walkSkewOfSeveralWords)
    }
    #expect(several(7_999) == .gather)
    #expect(several(8_000) == .walk)
  }

  /// A write's entries are made ready in batches of at most 500 entries or
  /// 4 MB of text (one entry, however long its text, at least), each with
  /// the words of its texts for typos.
  @Test func aWriteIsMadeReadyInBatches() {
    func item(_ index: Int, _ text: String?) -> SharedItem {
      SharedItem(
        path: RawPath("/h/note-\(index).txt"), isFolder: false, size: 1, modifiedNs: 0,
        contentTypeTree: ["public.plain-text"], keywords: [], text: text)
    }
    let long = String(repeating: "zorblat ", count: 600_000)
    let items =
      (0..<1_100).map { item($0, $0 == 0 ? "alpha quokka" : $0 == 700 ? "quokka wombat" : nil) }
      + [item(1_100, long), item(1_101, long), item(1_102, "platypus alpha")]
    let batches = EntriesReady(items).batches
    // The first long text ends a batch; the second is one alone.
    #expect(batches.map(\.items.count) == [500, 500, 101, 1, 1])
    #expect(
      batches.map(\.textWords) == [
        ["alpha", "quokka"], ["quokka", "wombat"], ["zorblat"], ["zorblat"], ["platypus", "alpha"],
      ])
    // Every column but the texts' hashes, a value for each entry.
    for batch in batches {
      #expect(batch.columns.count == 20)
      #expect(batch.columns.allSatisfy { $0.count == batch.items.count })
      #expect(batch.texts.count == batch.items.count)
    }
    #expect(batches[0].columns[2][0] == "note-0.txt")
  }

  /// A part of a statement asked on its own (the planner's estimate of a
  /// walk's word) names its parameters from 1, each once, in the order it
  /// first names them: `$12` is not `$1`, and a `$` of no parameter stays.
  @Test func aPartOfAStatementNamesItsOwnParameters() {
    let parameters: [String?] = (1...12).map { "p\($0)" }
    let (sql, asked) = PostgresQuery.standalone(
      "a @@ $12 AND b = $3 OR c = $12 AND d = $1 AND e = '$' AND f = $13", parameters)
    #expect(sql == "a @@ $1 AND b = $2 OR c = $1 AND d = $3 AND e = '$' AND f = $13")
    #expect(asked == ["p12", "p3", "p1"])
  }

  /// The texts that hold a word, the shorter first, are read from the
  /// slices of short texts when one fills the page: the page is the one
  /// the whole ranking gives, with texts of every length and age, names
  /// that hold the word above them, and filters.
  @Test func aPageOfShortTextsIsTheWholeRankingsFirstPage() throws {
    let server = try #require(PostgresServer.shared)
    let index = try PostgresIndex(try server.newDatabase(), host: "alpha")
    let now = Date().timeIntervalSince1970
    let filler = ["amber", "birch", "cedar", "delta", "ember", "fjord", "grove"]
    func item(_ path: String, words: Int, daysAgo: Double) -> SharedItem {
      let text = (0..<words).map { filler[$0 % filler.count] }.joined(separator: " ")
      var item = SharedItem(
        path: RawPath(path), isFolder: false, size: 1,
        modifiedNs: Int64((now - daysAgo * 86_400) * 1_000_000_000),
        contentTypeTree: ["text/plain"], keywords: [], text: text + " wallaby")
      item.nameWords = nil
      return item
    }
    var items: [SharedItem] = []
    // Twenty texts in the first slice, forty in the second, thirty longer;
    // a week old and a month old; in a name twice.
    for number in 0..<90 {
      let words = number < 20 ? 4 + number * 2 : number < 60 ? 70 + number * 3 : 260 + number * 5
      let ext = number % 3 == 0 ? "md" : "txt"
      let daysAgo: Double = number % 2 == 0 ? 1 : 30
      items.append(item("/t/note \(number).\(ext)", words: words, daysAgo: daysAgo))
    }
    items.append(item("/t/wallaby.txt", words: 3, daysAgo: 30))
    items.append(item("/t/deep/wallaby facts.txt", words: 900, daysAgo: 1))
    items.append(item("/t/birch cedar notes.txt", words: 500, daysAgo: 30))
    try index.write(items)
    var parser = QueryParser(home: RawPath("/"))
    // Words, and phrases whose texts are read to check them.
    for query in [
      "wallaby", "walla", "wallaby ext:md", "wallaby ext:txt", "wallaby birch", "\"birch cedar\"",
      "\"grove wallaby\"", "\"cedar delta\" ext:md", "\"amber birch\" wallaby",
    ] {
      let node = try parser.parse(query)
      let whole = try index.search(node, limit: nil).map(\.uri)
      #expect(whole.count > 10, "\(query)")
      for limit in Array(1...12) + [19, 20, 21, 22, 23, 40, 61, 62, 63, 64, 80, 100] {
        let page = try index.search(node, limit: limit).map(\.uri)
        #expect(page == Array(whole.prefix(limit)), "\(query), \(limit)")
      }
    }
    // The first slice gave the page of 10, the second the page of 40.
    for (query, limit) in [("wallaby", 10), ("wallaby", 40), ("\"birch cedar\"", 10)] {
      let answered = index.pagesOfShortTexts
      _ = try index.search(try parser.parse(query), limit: limit)
      #expect(index.pagesOfShortTexts == answered + 1, "\(query), \(limit)")
    }
  }

  /// What changed in a span of time, asked alone, is listed from the
  /// entries changed this week and from those changed before, each read in
  /// the order of the index: the page is the one the whole ordering gives
  /// (shallow first, a change this week counting as ten folders less, then
  /// the newest).
  @Test func whatChangedInASpanIsTheWholeOrdersFirstPage() throws {
    let server = try #require(PostgresServer.shared)
    let index = try PostgresIndex(try server.newDatabase(), host: "alpha")
    let now = Date().timeIntervalSince1970
    func item(_ path: String, hoursAgo: Double) -> SharedItem {
      SharedItem(
        path: RawPath(path), isFolder: false, size: 1,
        modifiedNs: Int64((now - hoursAgo * 3600) * 1_000_000_000),
        contentTypeTree: ["text/plain"], keywords: [], text: nil,
        nameWords: path.split(separator: "/").last!.split { !$0.isLetter }
          .joined(separator: " "))
    }
    try index.write([
      item("/a/old shallow.txt", hoursAgo: 30 * 24),
      item("/a/b/c/d/e/f/g/h/i/j/k/l/recent deep.txt", hoursAgo: 1),
      item("/a/recent shallow.txt", hoursAgo: 2),
      item("/a/b/c/older middle.txt", hoursAgo: 20 * 24),
      item("/a/b/long ago.txt", hoursAgo: 90 * 24),
    ])
    let span = QueryNode.filter(.range(.modified, lower: now - 60 * 86_400, upper: now + 60))
    let whole = try index.search(span, limit: nil).map(\.name)
    #expect(
      whole == [
        "recent shallow.txt", "old shallow.txt", "recent deep.txt", "older middle.txt",
      ])
    for limit in [1, 2, 3, 4, 10] {
      #expect(try index.search(span, limit: limit).map(\.name) == Array(whole.prefix(limit)))
    }
    let today = QueryNode.filter(.range(.modified, lower: now - 86_400, upper: nil))
    #expect(
      try index.search(today, limit: 10).map(\.name) == ["recent shallow.txt", "recent deep.txt"])
    // Other filters alone are listed in the same order, read the same
    // way; an entry of no time of change is listed among the older ones.
    var large: [SharedItem] = []
    for number in 0..<12 {
      var item = item(
        "/l" + String(repeating: "/d", count: number % 4) + "/large \(number).bin",
        hoursAgo: number % 3 == 0 ? 5 : 24 * Double(10 + number))
      item.size = 2_000_000
      large.append(item)
    }
    large.append(
      SharedItem(
        path: RawPath("/l/timeless.bin"), isFolder: false, size: 3_000_000, modifiedNs: nil,
        contentTypeTree: ["text/plain"], keywords: [], text: nil, nameWords: "timeless bin"))
    try index.write(large)
    var parser = QueryParser(home: RawPath("/"))
    for query in ["size:>1M", "size:>1M kind:text", "kind:text"] {
      let node = try parser.parse(query)
      let whole = try index.search(node, limit: nil).map(\.name)
      #expect(whole.contains("timeless.bin"), "\(query)")
      for limit in 1...whole.count + 1 {
        #expect(
          try index.search(node, limit: limit).map(\.name) == Array(whole.prefix(limit)),
          "\(query), \(limit)")
      }
    }
  }

  /// The words typed as words of the path (each word of a query read into
  /// filters) find the entries whose path holds them, the last begun, a
  /// run of words in its order; odd characters in folders' names are
  /// words like any other.
  @Test func theWordsOfAPathAreFoundInOrder() throws {
    let server = try #require(PostgresServer.shared)
    let index = try PostgresIndex(try server.newDatabase(), host: "alpha")
    let paths = [
      "/u/Photos/alpha trip/beach.jpg", "/u/Photos/alphabet.png", "/u/photography/notes.txt",
      "/u/Documents/it's mine/a\\b photo.txt", "/u/misc/trip alpha.txt", "/u/misc/other.txt",
    ]
    try index.write(
      paths.map {
        SharedItem(
          path: RawPath($0), isFolder: false, size: 1, modifiedNs: 0,
          contentTypeTree: ["text/plain"], keywords: [], text: "a text")
      })
    func inPath(_ words: String...) -> QueryNode {
      .and(words.map { .text($0, prefix: true, column: .path) })
    }
    let whole = QueryNode.text("photos", prefix: false, column: .path)
    for (query, expected) in [
      (inPath("photo"), ["a\\b photo.txt", "alphabet.png", "beach.jpg", "notes.txt"]),
      (inPath("photo", "alph"), ["alphabet.png", "beach.jpg"]),
      (inPath("alpha trip"), ["beach.jpg"]),
      (inPath("trip alph"), ["trip alpha.txt"]),
      (inPath("mine", "photo"), ["a\\b photo.txt"]),
      (inPath("it's"), ["a\\b photo.txt"]),
      (inPath("misc", "oth"), ["other.txt"]),
      (whole, ["alphabet.png", "beach.jpg"]),
      (inPath("zebra"), []),
    ] {
      for limit in [nil, 1, 2, 20] {
        let found = try index.search(query, limit: limit).map(\.name)
        if let limit, limit < expected.count {
          #expect(found.count == limit && Set(found).isSubset(of: expected), "\(query), \(limit)")
        } else {
          #expect(found.sorted() == expected, "\(query), \(String(describing: limit))")
        }
      }
    }
  }

  /// A path's words are kept only where the store would not read the same
  /// of its bytes (store migration `v25-path-words-from-paths`), written
  /// so and upgraded so; where they are read, they are the host's, and a
  /// word typed finds them.
  @Test func aPathsWordsAreKeptOnlyWhereTheBytesDoNotGiveThem() throws {
    let long = String(repeating: "q", count: PostgresWords.longestWord + 1)
    let read = [
      "/u/Mixed_Case-Name.TXT", "/u/tab\tquokka\u{1}.txt", "/u/a\\b//c--d.txt", "/u/x~y 42.md",
      "/u/Zz@9(1).txt",
    ]
    let kept = ["/u/été/photo.txt", "/u/\(long) tail.txt", "/u/日本/photo.txt"]
    let items = (read + kept).map {
      SharedItem(
        path: RawPath($0), isFolder: false, size: 1, modifiedNs: 0,
        contentTypeTree: ["text/plain"], keywords: [], text: nil)
    }
    let hostsWords = Dictionary(
      uniqueKeysWithValues: (read + kept).map {
        (PostgresQuery.hex(RawPath($0).bytes), PostgresWords.words($0).joined(separator: " "))
      })
    func check(_ url: String) throws {
      let owner = try PostgresConnection(url)
      let rows = try owner.execute(
        """
        SELECT '\\x' || encode(path, 'hex'), path_words IS NULL, \(PostgresQuery.pathWordsText)
        FROM item
        """
      ).rows
      #expect(rows.count == read.count + kept.count)
      for row in rows {
        let path = row[0] ?? ""
        #expect(row[2] == hostsWords[path], "\(path)")
        let isRead = read.contains { PostgresQuery.hex(RawPath($0).bytes) == path }
        #expect((row[1] == "t") == isRead, "\(path)")
      }
      let index = try PostgresIndex(url, host: "alpha")
      for (word, expected) in [
        ("mixed", ["Mixed_Case-Name.TXT"]), ("quokka", ["tab\tquokka\u{1}.txt"]),
        ("42", ["x~y 42.md"]),
        ("ete", ["photo.txt"]), ("tail", ["\(long) tail.txt"]), ("zz", ["Zz@9(1).txt"]),
      ] {
        let found = try index.search(.text(word, prefix: false, column: .path), limit: nil)
        #expect(found.map(\.name) == expected, "\(word)")
      }
    }
    let server = try #require(PostgresServer.shared)
    let url = try server.newDatabase()
    try PostgresIndex(url, host: "alpha").write(items)
    try check(url)
    // Written before: every row kept its path's words.
    let (older, owner) = try store(before: "v25-path-words-from-paths")
    try owner.execute("INSERT INTO host (name, last_contact) VALUES ('alpha', now())")
    for item in items {
      try owner.execute(
        """
        INSERT INTO item (host, path, name, folder, type_chain, path_words)
        VALUES ('alpha', $1::bytea, $2, false, 0, $3)
        """,
        [
          PostgresQuery.hex(item.path.bytes), item.name,
          hostsWords[PostgresQuery.hex(item.path.bytes)],
        ])
    }
    try PostgresSchema.migrate(owner)
    try check(older)
  }

  /// After a host sent everything, the store's B-trees are built again
  /// while it is in use, what a pack cut short left dropped first; what
  /// was found is found the same.
  @Test func aStoreIsPackedAfterAHostSentEverything() throws {
    let server = try #require(PostgresServer.shared)
    let url = try server.newDatabase()
    let index = try PostgresIndex(url, host: "alpha")
    try index.write(
      (0..<300).map {
        SharedItem(
          path: RawPath("/u/notes \($0).txt"), isFolder: false, size: Int64($0), modifiedNs: 0,
          contentTypeTree: ["text/plain"], keywords: [], text: "wombat \($0)")
      })
    #expect(try !index.packs(after: PostgresIndex.packedAfter - 1))
    #expect(try index.packs(after: PostgresIndex.packedAfter))
    let owner = try PostgresConnection(url)
    // A pack cut short leaves an invalid copy behind (here, one that
    // failed to be unique).
    #expect(throws: PostgresError.self) {
      try owner.execute("CREATE UNIQUE INDEX CONCURRENTLY item_size_ccnew ON item (folder)")
    }
    let indexes = """
      SELECT c.relname, i.indisvalid FROM pg_index AS i JOIN pg_class AS c ON c.oid = i.indexrelid
      WHERE i.indrelid IN ('item'::regclass, 'item_text'::regclass) ORDER BY c.relname
      """
    let before = try owner.execute(indexes).rows
    #expect(before.contains(["item_size_ccnew", "f"]))
    var parser = QueryParser(home: RawPath("/"))
    let query = try parser.parse("wombat notes size:<10")
    let found = try index.search(query, limit: nil).map(\.uri).sorted()
    #expect(found.count == 10)
    try index.pack()
    let after = before.filter { $0[0] != "item_size_ccnew" }
    #expect(try owner.execute(indexes).rows == after)
    #expect(try index.search(query, limit: nil).map(\.uri).sorted() == found)
    // Hosts that sent everything at once pack in turn: two builds of one
    // index at once deadlocked, and left the stopped one's copy behind.
    let failures = Mutex<[String]>([])
    DispatchQueue.concurrentPerform(iterations: 3) { host in
      do {
        try PostgresIndex(url, host: "host\(host)").pack()
      } catch {
        failures.withLock { $0.append("\(error)") }
      }
    }
    #expect(failures.withLock { $0 } == [])
    #expect(try owner.execute(indexes).rows == after)
    // A watcher stopping while another host packs packs nothing.
    try owner.execute("SELECT pg_advisory_lock(\(PostgresIndex.packLockKey))")
    var asked = 0
    #expect(
      try !index.pack(givingUp: {
        asked += 1
        return asked > 2
      }))
    #expect(asked == 3)
    try owner.execute("SELECT pg_advisory_unlock(\(PostgresIndex.packLockKey))")
    #expect(try index.pack())
  }

  /// `ext:` is what a name ends with after a dot, in any case, however
  /// many dots the extension or the name holds.
  @Test func extensionsAreTheNamesEnds() throws {
    let server = try #require(PostgresServer.shared)
    let index = try PostgresIndex(try server.newDatabase(), host: "alpha")
    let names = ["a.tar.gz", "b.gz", "c.TXT", "noext", ".bashrc", "d.txt.bak", "e.", "f.tar"]
    try index.write(
      names.map {
        SharedItem(
          path: RawPath("/x/" + $0), isFolder: false, size: 1, modifiedNs: 0,
          contentTypeTree: ["text/plain"], keywords: [], text: nil)
      })
    var parser = QueryParser(home: RawPath("/"))
    for (query, expected) in [
      ("ext:gz", ["a.tar.gz", "b.gz"]), ("ext:tar.gz", ["a.tar.gz"]),
      ("ext:GZ", ["a.tar.gz", "b.gz"]),
      ("ext:txt", ["c.TXT"]), ("ext:bashrc", [".bashrc"]), ("ext:bak", ["d.txt.bak"]),
      ("ext:tar", ["f.tar"]), ("ext:txt.bak", ["d.txt.bak"]), ("ext:ar.gz", []),
      ("ext:gz,txt", ["a.tar.gz", "b.gz", "c.TXT"]),
    ] {
      let found = try index.search(parser.parse(query), limit: nil).map(\.name)
      #expect(Set(found) == Set(expected), "\(query)")
    }
  }

  /// A typo is read as the word most names hold of those as close to it,
  /// however many hold each (they are counted only so far at first).
  @Test func aTypoIsReadAsTheWordMostNamesHold() throws {
    let server = try #require(PostgresServer.shared)
    let index = try PostgresIndex(try server.newDatabase(), host: "alpha")
    var items: [SharedItem] = []
    for (word, count) in [("wombat", 320), ("wombit", 350), ("wombut", 5)] {
      for number in 0..<count {
        items.append(
          SharedItem(
            path: RawPath("/n/\(word) \(number).txt"), isFolder: false, size: 1,
            modifiedNs: 0, contentTypeTree: ["text/plain"], keywords: [], text: nil))
      }
    }
    try index.write(items)
    #expect(try names(index, "wombet").allSatisfy { $0.hasPrefix("wombit ") })
  }

  /// A typo in a word of a text, which no name holds, finds the text, as
  /// it does in the local index; a word no text nor name is close to
  /// finds nothing.
  @Test func typosInTheWordsOfTextsAreForgiven() throws {
    let server = try #require(PostgresServer.shared)
    let url = try server.newDatabase()
    var index = try PostgresIndex(url, host: "alpha")
    let files = try Files()
    try index.write([
      try files.write("notes/list.txt", "remember the zorblatpgalpha and the quokka"),
      try files.write("notes/other.txt", "nothing of the kind"),
      try files.write("notes/german.txt", "wann kommt die Müllabfuhr"),
      try files.write("notes/greek.txt", "καλημέρα σας"),
    ])
    #expect(try names(index, "zorblatpgalpha") == ["list.txt"])
    #expect(try names(index, "zorblatpgalhpa") == ["list.txt"])
    #expect(try names(index, "zorblatgpalpha") == ["list.txt"])
    #expect(try names(index, "quokak") == ["list.txt"])
    #expect(try names(index, "xqwzvvbnmtrp").isEmpty)
    // Words out of ASCII too, accents folded as the words of names are.
    #expect(try names(index, "müllabfurh") == ["german.txt"])
    #expect(try names(index, "mullabfurh") == ["german.txt"])
    #expect(try names(index, "καλημρέα") == ["greek.txt"])
    // A store written before the words of texts were kept gets them from
    // its entries when it is upgraded.
    let (older, owner) = try store(before: "v5-text-words")
    try owner.execute(
      """
      INSERT INTO item (host, path, path_text, name, name_words, folder, text_content,
        name_vector)
      VALUES ('alpha', '\\x2f6c6973742e747874', '/list.txt', 'list.txt', 'list txt', false,
          'remember the zorblatpgalpha and the quokka', 'list:1A txt:2A'),
        ('alpha', '\\x2f677265656b2e747874', '/greek.txt', 'greek.txt', 'greek txt', false,
          'καλημερα σας', 'greek:1A txt:2A')
      """)
    index = try PostgresIndex(older, host: "alpha")
    #expect(try names(index, "zorblatpgalhpa") == ["list.txt"])
    #expect(try names(index, "καλημρέα") == ["greek.txt"])
  }

  /// The searches of one reading (a sentence nothing holds whole, searched
  /// again by subsets of its words) read the close words of each typed
  /// word once, and find what each would find alone.
  @Test func aReadingsSearchesReadEachWordsTyposOnce() throws {
    let server = try #require(PostgresServer.shared)
    let index = try PostgresIndex(try server.newDatabase(), host: "alpha")
    let files = try Files()
    try index.write([
      try files.write("notes/list.txt", "remember the zorblatpgalpha and the quokka")
    ])
    let words = ["zorblatpgalhpa", "quokak", "xqwzvvbnmtrp"]
    let subsets = [words, [words[0], words[1]], [words[0], words[2]], [words[1]], [words[0]]]
    func search(_ kept: [String], _ known: inout [String: [String]]) throws -> [String] {
      let node = QueryNode.and(kept.map { .text($0, prefix: false, column: nil) })
      return try index.search(node, limit: 10, closeWordsKnown: &known).map(\.name)
    }
    var known: [String: [String]] = [:]
    let before = index.closeWordsAsked
    for kept in subsets {
      var alone: [String: [String]] = [:]
      let expected = try search(kept, &alone)
      #expect(expected == (kept.contains(words[2]) ? [] : ["list.txt"]), "\(kept)")
      let asked = index.closeWordsAsked
      #expect(try search(kept, &known) == expected, "\(kept)")
      if kept == words { #expect(index.closeWordsAsked - asked == 3) }
    }
    // Each subset alone read its words again: 3 + 2 + 2 + 1 + 1, and the
    // searches that shared what they read, 3.
    #expect(index.closeWordsAsked - before == 9 + 3)
  }

  /// A new database holding a store made by the migrations before
  /// `migration`, and its owner's connection.
  func store(before migration: String) throws -> (url: String, owner: PostgresConnection) {
    let server = try #require(PostgresServer.shared)
    let url = try server.newDatabase()
    let owner = try PostgresConnection(url)
    try PostgresSchema.migrate(owner, before: migration)
    return (url, owner)
  }

  @Test func hostsShareOneDatabaseAndEraseOnlyTheirOwn() throws {
    let server = try #require(PostgresServer.shared)
    let url = try server.newDatabase()
    let alpha = try PostgresIndex(url, host: "alpha")
    let beta = try PostgresIndex(url, host: "beta")
    let files = try Files()
    let record = try files.write("plans/budget.txt", "numbat termites")
    try alpha.write([record])
    try beta.write([record, try files.write("plans/other.txt", "bilby")])
    var parser = QueryParser(home: RawPath("/"))
    let hits = try alpha.search(parser.parse("numbat"), limit: 10)
    #expect(
      Set(hits.map(\.uri)) == [
        "file://alpha\(FileURI.uri(for: record.path).dropFirst(7))",
        "file://beta\(FileURI.uri(for: record.path).dropFirst(7))",
      ])
    #expect(try alpha.hosts().map(\.name) == ["alpha", "beta"])
    #expect(try alpha.hosts().map(\.entries) == [1, 2])
    try alpha.remove([RawPath(files.root + "/plans")])
    #expect(try beta.hosts().map(\.entries) == [0, 2])
    try beta.eraseHost()
    #expect(try alpha.hosts().map(\.name) == ["alpha"])
    #expect(try names(alpha, "bilby").isEmpty)
  }

  /// A text several entries hold (on one host or several) is kept once,
  /// found through each of them, and goes with the last entry that holds it.
  @Test func aTextIsKeptOnceAndGoesWithTheLastEntryHoldingIt() throws {
    let server = try #require(PostgresServer.shared)
    let url = try server.newDatabase()
    let alpha = try PostgresIndex(url, host: "alpha")
    let beta = try PostgresIndex(url, host: "beta")
    let owner = try PostgresConnection(url)
    // Each text kept, with the description kept with it (a text's
    // opening, as the importers make it: white space folded, case kept).
    func texts() throws -> [String] {
      try owner.execute(
        "SELECT content || ' | ' || coalesce(description, '-') FROM item_text ORDER BY 1"
      ).rows.map { $0[0] ?? "" }
    }
    func uris(_ query: String) throws -> [String] {
      var parser = QueryParser(home: RawPath("/"))
      return try alpha.search(parser.parse(query), limit: 20).map(\.uri).sorted()
    }
    let files = try Files()
    let (a, b, c) = (
      try files.write("a.txt", "Numbat termites"), try files.write("b.txt", "numbat termites"),
      try files.write("c.txt", "numbat  termites"),
    )
    try alpha.write([a, b])
    try beta.write([c, try files.write("d.txt", "bilby burrow")])
    #expect(
      try texts() == [
        "bilby burrow | bilby burrow", "numbat termites | Numbat termites",
        "numbat termites | numbat termites",
      ])
    let uri = { (host: String, item: SharedItem) in
      "file://\(host)\(FileURI.uri(for: item.path).dropFirst(7))"
    }
    let termites = [uri("alpha", a), uri("alpha", b), uri("beta", c)].sorted()
    #expect(try uris("termites") == termites)
    #expect(try uris("\"numbat termites\"") == termites)
    #expect(try uris("termitse") == termites)
    var parser = QueryParser(home: RawPath("/"))
    let hits = try alpha.search(parser.parse("termites"), limit: 20)
    #expect(
      try alpha.snippets(for: hits, query: parser.parse("termites"), open: "[", close: "]").count
        == 3)
    // A text changed: the old one goes, as no other entry holds it.
    try alpha.write([try files.write("a.txt", "quoll den")])
    #expect(
      try texts() == [
        "bilby burrow | bilby burrow", "numbat termites | numbat termites",
        "quoll den | quoll den",
      ])
    let shown = try #require(try alpha.details(host: "alpha", path: a.path))
    #expect(shown.first { $0.name == "contentDescription" }?.value == .string("quoll den"))
    #expect(try uris("termites") == [uri("alpha", b), uri("beta", c)].sorted())
    #expect(try uris("quoll") == [uri("alpha", a)])
    // One of two entries that hold a text removed: it stays; the other
    // changed: it goes. Then each host erased.
    try alpha.remove([b.path])
    #expect(
      try texts() == [
        "bilby burrow | bilby burrow", "numbat termites | numbat termites",
        "quoll den | quoll den",
      ])
    try beta.write([try files.write("c.txt", "echidna")])
    #expect(
      try texts() == [
        "bilby burrow | bilby burrow", "echidna | echidna", "quoll den | quoll den",
      ])
    #expect(try uris("termites").isEmpty)
    try beta.eraseHost()
    #expect(try texts() == ["quoll den | quoll den"])
    try alpha.eraseHost()
    #expect(try texts().isEmpty)
  }

  /// A store whose entries kept their texts in their rows keeps each text
  /// once when it is upgraded, and finds what it found.
  @Test func aStoreOfTextsInRowsKeepsThemOnceWhenUpgraded() throws {
    let (url, owner) = try store(before: "v17-texts-once")
    try owner.execute(
      """
      INSERT INTO item (host, path, path_text, name, name_words, folder, text_content,
        name_vector, pair_words, word_count)
      VALUES ('alpha', '\\x2f612e747874', '/a.txt', 'a.txt', 'a txt', false, 'the quick fox',
          'a:1A txt:2A', 'the+quick', 5),
        ('beta', '\\x2f612e747874', '/a.txt', 'a.txt', 'a txt', false, 'the quick fox',
          'a:1A txt:2A', 'the+quick', 5),
        ('alpha', '\\x2f622e747874', '/b.txt', 'b.txt', 'b txt', false, 'a slow wombat',
          'b:1A txt:2A', '', 5),
        ('alpha', '\\x2f63', '/c', 'c', 'c', true, NULL, 'c:1A', '', 1)
      """)
    let index = try PostgresIndex(url, host: "alpha")
    #expect(
      try owner.execute(
        "SELECT content, limelight_pair_words(content) FROM item_text ORDER BY content"
      ).rows == [["a slow wombat", "a+slow"], ["the quick fox", "the+quick"]])
    #expect(try names(index, "fox") == ["a.txt", "a.txt"])
    #expect(try names(index, "\"the quick\"") == ["a.txt", "a.txt"])
    #expect(try names(index, "wombat") == ["b.txt"])
    #expect(try names(index, "c") == ["c"])
    // The hash the store computed when upgrading is the one it computes
    // for a text written since: the text is still kept once.
    try index.write([
      SharedItem(
        path: RawPath("/d.txt"), isFolder: false, size: nil, modifiedNs: nil,
        contentTypeTree: ["text/plain"], keywords: [], text: "the quick fox")
    ])
    #expect(try owner.execute("SELECT count(*) FROM item_text").rows == [["2"]])
    #expect(try names(index, "fox").sorted() == ["a.txt", "a.txt", "d.txt"])
  }

  /// A follower is told of every host's write when it commits (LISTEN
  /// and NOTIFY), of a removal too, and of nothing rolled back or never
  /// written: `find-in --live` wakes on these instead of a timer.
  @Test func followersAreToldOfEachWriteWhenItCommits() throws {
    let server = try #require(PostgresServer.shared)
    let url = try server.newDatabase()
    let follower = try PostgresIndex(url, host: "reader")
    let writer = try PostgresIndex(url, host: "writer")
    try follower.listenForChanges()
    #expect(try !follower.waitForChange(timeout: 0.3))
    let files = try Files()
    try writer.write([try files.write("notes/quokka.txt", "quokka")])
    #expect(try follower.waitForChange(timeout: 30))
    // Told once: the next wait has nothing.
    #expect(try !follower.waitForChange(timeout: 0.3))
    try writer.remove([RawPath(files.root + "/notes")])
    #expect(try follower.waitForChange(timeout: 30))
    // A statement the follower runs meanwhile keeps what came for later.
    try writer.write([try files.write("notes/numbat.txt", "numbat")])
    var parser = QueryParser(home: RawPath("/"))
    for _ in 0..<100 where try follower.search(parser.parse("numbat"), limit: 1).isEmpty {
      usleep(20_000)
    }
    #expect(try follower.waitForChange(timeout: 0))
  }

  @Test func severalWatchersMigrateOneDatabaseAtOnce() async throws {
    let server = try #require(PostgresServer.shared)
    let url = try server.newDatabase()
    try await withThrowingTaskGroup(of: Void.self) { group in
      for host in ["a", "b", "c", "d"] {
        group.addTask { _ = try PostgresIndex(url, host: host) }
      }
      try await group.waitForAll()
    }
    let index = try PostgresIndex(url, host: "a")
    #expect(try index.hosts().isEmpty)
  }

  /// A search while a watcher upgrades the store (which takes minutes at
  /// a large one) says so, not that the store holds no index.
  @Test func aStoreBeingUpgradedIsSaidSo() throws {
    let server = try #require(PostgresServer.shared)
    let url = try server.newDatabase()
    let watcher = try PostgresConnection(url)
    try watcher.execute("BEGIN")
    try watcher.execute("SELECT pg_advisory_xact_lock(\(PostgresSchema.lockKey))")
    let upgrading = #expect(throws: PostgresError.self) { try PostgresIndex(reading: url) }
    #expect(upgrading?.description.contains("is being upgraded by a watcher") == true)
    try watcher.execute("COMMIT")
    let none = #expect(throws: PostgresError.self) { try PostgresIndex(reading: url) }
    #expect(none?.description.contains("holds no Limelight index of this version") == true)
  }

  @Test func aStoreANewerVersionUpgradedIsRefused() throws {
    let server = try #require(PostgresServer.shared)
    let url = try server.newDatabase()
    _ = try PostgresIndex(url, host: "a")
    let connection = try PostgresConnection(url)
    try connection.execute("INSERT INTO limelight_migration (name) VALUES ('v999-future')")
    let error = #expect(throws: PostgresError.self) { try PostgresIndex(url, host: "a") }
    #expect(error?.description.contains("newer version of Limelight") == true)
  }

  @Test func anUnreachableServerIsSaidPlainly() throws {
    let error = #expect(throws: PostgresError.self) {
      try PostgresIndex("postgresql://nobody@/none?host=/nonexistent-folder", host: "a")
    }
    #expect(error?.unreachable == true)
    #expect(error?.description.hasPrefix("the PostgreSQL store cannot be reached:") == true)
  }

  /// What the importers read besides names and texts: the predicate
  /// language compares it (a list when one value matches), `created:` and
  /// `used:` narrow by it, `limelight show` reads it, and a search prints
  /// the kind.
  @Test func theDetailsTheImportersReadAreComparedAndShown() throws {
    let server = try #require(PostgresServer.shared)
    let index = try PostgresIndex(try server.newDatabase(), host: "alpha")
    let day = 86_400.0
    let made = Date(timeIntervalSince1970: 1_699_963_200)  // 2023-11-14, noon UTC
    func item(_ path: String, _ details: SharedItemDetails, keywords: [String] = []) -> SharedItem {
      var item = SharedItem(
        path: RawPath(path), isFolder: false, size: 10, modifiedNs: nil,
        contentTypeTree: ["application/pdf"], keywords: keywords, text: "words of a text")
      item.details = details
      return item
    }
    try index.write([
      item(
        "/docs/budget.pdf",
        SharedItemDetails(
          title: "Annual Budget", kind: "PDF document", authors: ["Ann Smith", "Bo Li"],
          contentDescription: "The plan for next year", created: made,
          lastUsed: made.addingTimeInterval(30 * day)),
        keywords: ["finance", "plan"]),
      item("/docs/other file.pdf", SharedItemDetails(created: made.addingTimeInterval(-400 * day))),
    ])
    let budget = ["budget.pdf"]
    let query = { (text: String) in try names(index, text) }
    for (text, expected) in [
      (#"title == "annual*"c"#, budget), (#"kMDItemTitle == "Annual Budget""#, budget),
      (#"kind == "PDF*""#, budget), (#"authors == "*Smith""#, budget),
      (#"authors == "li"wc"#, budget), (#"keywords == "finance""#, budget),
      (#"keywords == "fin""#, []), (#"contentDescription == "the plan*"c"#, budget),
      (#"title != "annual*"c"#, ["other file.pdf"]),
      (#"contentURL == "file://alpha/docs/other%20file.pdf""#, ["other file.pdf"]),
      ("created:2023-11-14", budget), ("created:<2023-01-01", ["other file.pdf"]),
      ("used:2023-12-14", budget), ("used:<2000-01-01", []),
    ] {
      #expect(try query(text).sorted() == expected, "\(text)")
    }
    #expect(try index.search(.filter(.kind(.pdf)), limit: 5).compactMap(\.kind) == ["PDF document"])
    let shown = try #require(try index.details(host: "alpha", path: RawPath("/docs/budget.pdf")))
    let values = Dictionary(shown.map { ($0.name, $0.value) }, uniquingKeysWith: { a, _ in a })
    #expect(values["title"] == .string("Annual Budget"))
    #expect(values["contentDescription"] == .string("The plan for next year"))
    #expect(values["authors"] == .strings(["Ann Smith", "Bo Li"]))
    #expect(values["keywords"] == .strings(["finance", "plan"]))
    #expect(values["contentCreationDate"] == .date(made))
    #expect(values["lastUsedDate"] == .date(made.addingTimeInterval(30 * day)))
  }

  /// A word a name holds ranks above one its keywords hold, and a word
  /// counts once: a short name it begins a reading of ranks above a long
  /// one with several readings it begins (the words as the local index
  /// sends them, initials and readings with the name's).
  @Test func aNameRanksAboveKeywordsAndEachWordCountsOnce() throws {
    let server = try #require(PostgresServer.shared)
    let index = try PostgresIndex(try server.newDatabase(), host: "alpha")
    func item(_ name: String, _ words: String, keywords: String = "") -> SharedItem {
      SharedItem(
        path: RawPath("/n/" + name), isFolder: false, size: 1, modifiedNs: nil,
        contentTypeTree: ["text/plain"], keywords: [], text: nil, nameWords: words,
        keywordWords: keywords)
    }
    try index.write([
      item("expr.1", "expr 1", keywords: "ausdruck auswerten"),
      item("Afficher une suite de nombres.txt", "afficher une suite de nombres txt ausdnt"),
      item("中文文档说明.txt", "中 文 文 档 说 明 txt zhong wen dang wendangshuoming"),
      item(
        "groff 文档排版系统的 troff 处理器.txt",
        "groff 文 档 排 版 troff txt wen dang wendangpaibanxitongde wendangpaibanxitongdi"
          + " wendangpaibanjitongde wendangpaibanjitongdi"),
    ])
    #expect(try names(index, "ausd") == ["Afficher une suite de nombres.txt", "expr.1"])
    #expect(try names(index, "wendang").first == "中文文档说明.txt")
    // A phrase its keywords hold, weighed by the name's words alone.
    #expect(try names(index, "\"ausdruck auswerten\"") == ["expr.1"])
  }

  /// A common word and the word after it in a text are a word of the
  /// words' index too (`the+quick`, made by the host), which a phrase of
  /// common words asks for: its candidates are the entries holding its
  /// pairs, and the phrase is found as before.
  @Test func phrasesOfCommonWordsAreLookedUpByTheirPairs() throws {
    let server = try #require(PostgresServer.shared)
    let store = try server.newDatabase()
    let index = try PostgresIndex(store, host: "alpha")
    func item(_ path: String, _ text: String) -> SharedItem {
      SharedItem(
        path: RawPath(path), isFolder: false, size: 1, modifiedNs: nil,
        contentTypeTree: ["text/plain"], keywords: [], text: text)
    }
    try index.write([
      item("/a.txt", "The quick fox, the quick one"), item("/b.txt", "the slow and quick"),
      item("/c.c", "int main(void) { return 0; }"), item("/d.txt", "Thé quick"),
    ])
    // The server makes them from each text's words, as its host does.
    let pairs = try PostgresConnection(store).execute(
      """
      SELECT convert_from(path, 'UTF8') AS p, limelight_pair_words(content)
      FROM item JOIN item_text ON hash = text_hash ORDER BY p
      """
    ).rows.map { "\($0[0] ?? ""): \($0[1] ?? "")" }
    #expect(
      pairs == [
        "/a.txt: the+quick", "/b.txt: and+quick the+slow",
        "/c.c: int+main return+0", "/d.txt: the+quick",
      ])
    // Pairs are asked for once every host has sent its entries with them.
    let connection = try PostgresConnection(store)
    try connection.execute("UPDATE host SET index_id = 'sent'")
    var parser = QueryParser(home: RawPath("/"))
    let quick = try parser.parse("\"the quick\"")
    #expect(
      try index.search(quick, limit: 10).map(\.uri).sorted() == [
        "file://alpha/a.txt", "file://alpha/d.txt",
      ])
    #expect(
      try index.search(parser.parse("\"int main\""), limit: 10).map(\.uri) == ["file://alpha/c.c"])
    // A pair that ends in a common word is not made (`void+return`): the
    // phrase is checked in the texts holding both words.
    let voidReturn = try parser.parse("\"void return\"")
    #expect(try index.search(voidReturn, limit: 10).map(\.uri) == ["file://alpha/c.c"])
    // Each entry's type, read from the chain of types it names.
    #expect(try index.search(quick, limit: 10).map(\.contentType) == ["text/plain", "text/plain"])
    // While a host has still to send its entries again, a phrase's texts
    // are read without its pairs, and find the same.
    try connection.execute("UPDATE host SET index_id = NULL")
    #expect(
      try index.search(quick, limit: 10).map(\.uri).sorted() == [
        "file://alpha/a.txt", "file://alpha/d.txt",
      ])
    #expect(try index.count(quick) == 2)
  }

  /// The words whose pairs the server makes, and a phrase asks for, are
  /// the local text index's.
  @Test func theStoresCommonWordsAreTheLocalIndexs() {
    func isCommonLocally(_ word: String) -> Bool {
      var word = word
      return word.withUTF8 { bytes in
        bytes.withMemoryRebound(to: CChar.self) {
          limelight_is_common_word($0.baseAddress, Int32($0.count)) != 0
        }
      }
    }
    #expect(PostgresWords.commonWords.allSatisfy(isCommonLocally))
    // Every word of four letters or fewer the local index pairs.
    let letters = "abcdefghijklmnopqrstuvwxyz".map(String.init)
    var words = letters
    var last = letters
    for _ in 2...4 {
      last = last.flatMap { word in letters.map { word + $0 } }
      words += last
    }
    let locally = words.filter(isCommonLocally)
    #expect(Set(locally).isSubset(of: PostgresWords.commonWords))
    #expect(locally.count == PostgresWords.commonWords.count { $0.count <= 4 })
  }

  /// A snippet of the store's text: the words around the first match,
  /// matches marked, "…" where the text goes on.
  @Test func snippetsAreCutFromTheStoredWords() throws {
    let server = try #require(PostgresServer.shared)
    let index = try PostgresIndex(try server.newDatabase(), host: "alpha")
    let long = (1...80).map { "word\($0)" }.joined(separator: " ")
    func item(_ path: String, _ text: String) -> SharedItem {
      SharedItem(
        path: RawPath(path), isFolder: false, size: 1, modifiedNs: nil,
        contentTypeTree: ["text/plain"], keywords: [], text: text)
    }
    try index.write([
      item("/a.txt", long + " Wombats, burrowing at night. " + long),
      item("/b.txt", "A wombat's burrow"),
      item("/c.txt", "nothing here"),
    ])
    var parser = QueryParser(home: RawPath("/"))
    let query = try parser.parse("wombat* -nothing")
    let hits = try index.search(query, limit: 5)
    let snippets = try index.snippets(for: hits, query: query, open: "[", close: "]")
    #expect(
      snippets["file://alpha/a.txt"]
        == "…word77 word78 word79 word80 [wombats] burrowing at night word1 word2 word3 word4"
        + " word5 word6 word7 word8…")
    #expect(snippets["file://alpha/b.txt"] == "a [wombat] s burrow")
    #expect(snippets.count == 2)
  }
}
