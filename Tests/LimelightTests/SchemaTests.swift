import Foundation
import GRDB
import LimelightModel
import LimelightPlatform
import Testing

@testable import LimelightQuery
@testable import LimelightStore

/// Upgrades keep what an older index holds.
@Suite struct SchemaTests {
  /// An index at a location of its own as an old version left it: its
  /// schema upgraded as far as `migration`, then filled by `fill`.
  func oldIndex(upTo migration: String, _ fill: (Database) throws -> Void) throws
    -> IndexLocation
  {
    let location = Fixtures.newLocation()
    try location.createPrivateDirectories()
    var configuration = Configuration()
    configuration.prepareDatabase { db in try IndexStore.addFunctions(db, texts: TextPacker()) }
    let queue = try DatabaseQueue(path: location.databasePath.string, configuration: configuration)
    try Schema.migrator.migrate(queue, upTo: migration)
    try queue.write(fill)
    return location
  }

  @Test func anIndexFromBeforeTheTextPrefixesKeepsItsItemsAndGainsThem() throws {
    // An index as the previous version left it, with one item.
    let location = try oldIndex(upTo: "v3-names") { db in
      try db.execute(
        sql: """
          INSERT INTO item (id, domain, uri, path, displayName, added, generation, kindClasses,
              modified, contentType, contentTypeTree)
            VALUES ('f1', 'limelight.files', 'file:///data/notes.txt', X'2F646174612F6E6F7465732E747874', 'notes.txt', 0, 1, ' text ', 1780000000, 'text/plain', ' text/plain text/* ');
          INSERT INTO item_text (rowid, name, keywords, path, content)
            VALUES (last_insert_rowid(), 'notes txt', '', 'data notes txt', 'constellations overhead');
          INSERT INTO item_name (rowid, name, keywords, path)
            SELECT rowid, name, keywords, path FROM item_text;
          """)
    }
    defer { try? FileManager.default.removeItem(atPath: location.home.string) }
    let store = try IndexStore.open(location, create: false)
    let found = try SearchEngine(store: store).search(.text("cons", prefix: true, column: nil))
    #expect(found.map(\.displayName) == ["notes.txt"])
    // A file's URI is computed from its path, no longer stored.
    #expect(found.map(\.uri) == ["file:///data/notes.txt"])
    let stored = try store.read { db in try String.fetchOne(db, sql: "SELECT storedURI FROM item") }
    #expect(stored == "")
    let prefixes = try store.read { db in
      try String.fetchOne(db, sql: "SELECT sql FROM sqlite_master WHERE name = 'item_text'")
    }
    #expect(prefixes?.contains("'\(Schema.textPrefixes)'") == true)
    #expect(prefixes?.contains("detail = none") == true)
    // The text is kept once, deflated, and phrases are still found in it.
    let phrase = try SearchEngine(store: store).search(
      .text("constellations overhead", prefix: false, column: nil))
    #expect(phrase.map(\.displayName) == ["notes.txt"])
    let reversed = try SearchEngine(store: store).search(
      .text("overhead constellations", prefix: false, column: nil))
    #expect(reversed.isEmpty)
    // Its kind and month are facets of the name index, which stays whole.
    let filtered = try SearchEngine(store: store).search(
      .and([
        .text("notes", prefix: true, column: nil), .filter(.kind(.text)),
        .filter(.range(.modified, lower: 1_779_000_000, upper: 1_781_000_000)),
      ]))
    #expect(filtered.map(\.displayName) == ["notes.txt"])
    let otherKind = try SearchEngine(store: store).search(
      .and([.text("notes", prefix: true, column: nil), .filter(.kind(.image))]))
    #expect(otherKind.isEmpty)
    // Its type too, narrowed by or checked alone.
    for (pattern, found) in [("text/*", ["notes.txt"]), ("image/*", [])] {
      let typed = try SearchEngine(store: store).search(
        .and([.text("notes", prefix: true, column: nil), .filter(.contentType(pattern))]))
      #expect(typed.map(\.displayName) == found)
      let alone = try SearchEngine(store: store).search(.filter(.contentType(pattern)))
      #expect(alone.map(\.displayName) == found)
    }
    // The tree of its type is kept once, with the type, and read from there.
    let details = try #require(try store.details(of: .path(RawPath("/data/notes.txt"))))
    let tree = details.fields.first { $0.name == "contentTypeTree" }?.value
    #expect(tree == .strings(["text/plain", "text/*"]))
    try store.write { try $0.db.execute(sql: "UPDATE item SET mtimeNs = 1") }
    let waiting = try store.filesWithoutThumbnails(limit: 10) { $0.contains("text/*") }
    #expect(waiting.map(\.contentTypeTree) == [["text/plain", "text/*"]])
    let drawn = try store.write { writer in
      try writer.db.execute(sql: "UPDATE item SET thumbnailPath = '/thumbnails/notes.png'")
      return try writer.thumbnailed(inTreeOf: RawPath("/data"))
    }
    #expect(drawn.map(\.contentTypeTree) == [["text/plain", "text/*"]])
    try store.write { writer in
      try writer.db.execute(
        sql: "INSERT INTO item_name (item_name, rank) VALUES ('integrity-check', 1)")
    }
    #expect(try store.read { try Schema.migrator.hasCompletedMigrations($0) })
  }

  @Test func anUpgradedIndexKeepsEachDistinctTextOnce() throws {
    // Three items as an old version left them, two of them with one text.
    let location = try oldIndex(upTo: "v3-names") { db in
      for (rowID, name, content) in [
        (1, "a.txt", "tides and currents"), (2, "b.txt", "tides and currents"),
        (3, "c.txt", "currents and tides"),
      ] {
        try db.execute(
          sql: """
            INSERT INTO item (rowid, id, domain, uri, path, displayName, added, generation,
                kindClasses, contentType, contentTypeTree)
              VALUES (?, ?, 'limelight.files', '', ?, ?, 0, 1, ' text ', 'text/plain',
                ' text/plain text/* ');
            INSERT INTO item_text (rowid, name, keywords, path, content)
              VALUES (?, ?, '', ?, ?);
            INSERT INTO item_name (rowid, name, keywords, path) VALUES (?, ?, '', ?);
            """,
          arguments: [
            rowID, "f\(rowID)", Data("/data/\(name)".utf8), name, rowID, name, "data " + name,
            content, rowID, name, "data " + name,
          ])
      }
    }
    defer { try? FileManager.default.removeItem(atPath: location.home.string) }
    let store = try IndexStore.open(location, create: false)
    let refs = try store.read { db in
      try Int.fetchAll(db, sql: "SELECT refs FROM text_body ORDER BY refs DESC")
    }
    #expect(refs == [2, 1])
    let engine = SearchEngine(store: store)
    #expect(
      try engine.search(.text("tides and", prefix: false, column: nil)).map(\.displayName).sorted()
        == ["a.txt", "b.txt"])
    #expect(
      try engine.search(.text("currents and", prefix: false, column: nil)).map(\.displayName)
        == ["c.txt"])
    try store.write { writer in
      try writer.db.execute(
        sql: "INSERT INTO item_text (item_text, rank) VALUES ('integrity-check', 1)")
      _ = try writer.removeTree(RawPath("/data/a.txt"))
    }
    #expect(
      try engine.search(.text("tides and", prefix: false, column: nil)).map(\.displayName)
        == ["b.txt"])
  }

  @Test func anUpgradedIndexReadsItsItemsPathsFromTheirRows() throws {
    // Items as v20 left them: each with its path in its words too. One
    // path as text is the item's own; one is decomposed (its words hold it
    // composed); an application item has none.
    let paths = ["/data/notes/tides.txt", "/data/notes/Cre\u{300}me.txt", nil]
    let location = try oldIndex(upTo: "v20-name-columns") { db in
      for (index, path) in paths.enumerated() {
        let name = path.map { RawPath($0).lastComponent.string } ?? "Groceries"
        try db.execute(
          sql: """
            INSERT INTO item (rowid, id, domain, storedURI, path, displayName, added, generation,
                kindClasses)
              VALUES (?, ?, ?, ?, ?, ?, 0, 1, ' text ');
            INSERT INTO item_words (rowid, name, keywords, path) VALUES (?, ?, '', ?);
            """,
          arguments: [
            index + 1, "f\(index)", path == nil ? "com.example" : "limelight.files",
            path == nil ? "notes://1" : "", path.map { Data($0.utf8) }, name, index + 1,
            SearchText.fold(name), path.map(SearchText.fold) ?? "",
          ])
      }
      try db.execute(
        sql: """
          INSERT INTO item_name (item_name) VALUES ('rebuild');
          INSERT INTO item_text (item_text) VALUES ('rebuild');
          """)
    }
    defer { try? FileManager.default.removeItem(atPath: location.home.string) }
    let store = try IndexStore.open(location, create: false)
    let kept = try store.read { db in
      try String.fetchAll(db, sql: "SELECT path FROM item_words_stored ORDER BY rowid")
    }
    #expect(kept == ["", SearchText.fold(paths[1]!), ""])
    func expectWhole(_ step: String) throws {
      try store.write { writer in
        for table in ["item_text", "item_name"] {
          #expect(throws: Never.self, "\(table) \(step)") {
            try writer.db.execute(
              sql: "INSERT INTO \(table) (\(table), rank) VALUES ('integrity-check', 1)")
          }
        }
      }
    }
    try expectWhole("upgraded")
    let engine = SearchEngine(store: store)
    func found(_ word: String) throws -> [String] {
      try engine.search(.text(word, prefix: false, column: .path)).map(\.displayName).sorted()
    }
    #expect(try found("notes") == ["Crème.txt", "tides.txt"].map(SearchText.fold).sorted())
    try store.write { writer in
      try writer.move(
        from: RawPath("/data/notes"), to: RawPath("/data/journal"), hidden: { _ in false })
    }
    try expectWhole("moved")
    #expect(try found("notes").isEmpty)
    #expect(try found("journal").count == 2)
    try store.write { writer in _ = try writer.removeTree(RawPath("/data/journal")) }
    try expectWhole("removed")
    #expect(try found("journal").isEmpty)
  }

  @Test func anIndexFromBeforeWordPairsIsIndexedAgainWithThem() throws {
    let location = Fixtures.newLocation()
    defer { try? FileManager.default.removeItem(atPath: location.home.string) }
    do {
      // Texts packed with the index's dictionary, as a real index's are.
      let store = try IndexStore.open(location, create: true)
      let filler = (0..<400).map { "word\($0 * 7 % 400)" }.joined(separator: " ")
      try store.write { writer in
        try writer.upsert(
          Fixtures.record("/d/first.txt", text: "Is the quick fox here? " + filler))
        try writer.upsert(Fixtures.record("/d/apart.txt", text: "the fox is quick; " + filler))
        for i in 0..<300 {
          try writer.upsert(Fixtures.record("/d/note \(i).txt", text: "\(i) " + filler))
        }
      }
      #expect(try store.compact(afterRewriting: 302, minimum: 1))
      // The text index as an older version left it: here, with no terms at all.
      try store.write { writer in
        try writer.db.execute(
          sql: """
            INSERT INTO item_text (item_text) VALUES ('delete-all');
            DELETE FROM grdb_migrations WHERE identifier = 'v22-word-pairs-and-facets';
            """)
      }
    }
    let store = try IndexStore.open(location, create: false)
    let engine = SearchEngine(store: store)
    #expect(
      try engine.search(.text("the quick", prefix: false, column: nil)).map(\.displayName)
        == ["first.txt"])
    #expect(
      try engine.search(.text("fox is", prefix: false, column: nil)).map(\.displayName)
        == ["apart.txt"])
    try store.write { writer in
      try writer.db.execute(
        sql: "INSERT INTO item_text (item_text, rank) VALUES ('integrity-check', 1)")
    }
  }

  @Test func theWatchersKeysBecomeOneReport() throws {
    let location = Fixtures.newLocation()
    defer { try? FileManager.default.removeItem(atPath: location.home.string) }
    // An index as the version before left it: the last upgrade undone.
    try IndexStore.open(location, create: true).write { writer in
      try writer.db.execute(
        sql: """
          DELETE FROM grdb_migrations WHERE identifier = 'v14-watcher-report';
          DELETE FROM meta WHERE key = 'watcher';
          INSERT OR REPLACE INTO meta (key, value) VALUES
            ('status.built', 1), ('status.crawlSeen', 1234), ('status.state', 'watching'),
            ('status.rebuilt', ?), ('paused', 0)
          """, arguments: [IndexRebuild(reason: "damaged", time: Date()).stored])
    }
    let store = try IndexStore.open(location, create: false)
    let report = try #require(try store.watcherReport())
    #expect(report.built && report.crawlSeen == 1234)
    let keys = try store.read { db in
      try String.fetchAll(
        db, sql: "SELECT key FROM meta WHERE key NOT IN ('generation', 'compact', 'meaningChanges')"
      )
    }
    #expect(Set(keys) == ["watcher", "rebuilt", "paused"])
    #expect(try store.status(watcherPID: nil).rebuilt?.reason == "damaged")
    // A built index says nothing of results that may be missing.
    #expect(store.buildingNote() == nil)
  }

  @Test func anIndexANewerVersionUpgradedIsNotWrittenTo() throws {
    let location = Fixtures.newLocation()
    defer { try? FileManager.default.removeItem(atPath: location.home.string) }
    let store = try IndexStore.open(location, create: true)
    try store.write { writer in
      try writer.db.execute(
        sql: "INSERT INTO grdb_migrations (identifier) VALUES ('v99-from-the-future')")
    }
    // Neither to write nor to search (a query meeting what it does not
    // know of would fail with SQLite's own words).
    for readOnly in [false, true] {
      #expect {
        try IndexStore.open(location, create: false, readOnly: readOnly)
      } throws: { error in
        guard case IndexStore.OpenError.newer = error else { return false }
        return "\(error)".contains("newer Limelight")
      }
    }
  }
}

/// A first crawl goes without the indexes each new row would write to at
/// random, and makes them as the migrations made them.
@Suite struct DeferredIndexTests {
  @Test func aFirstCrawlGoesWithoutSomeIndexesAndMakesThemAsTheMigrationsDid() throws {
    let store = try Fixtures.newStore()
    func indexes() throws -> [String: String] {
      try store.read { db in
        var found: [String: String] = [:]
        for row in try Row.fetchAll(
          db, sql: "SELECT name, sql FROM sqlite_master WHERE type = 'index' AND sql IS NOT NULL")
        {
          found[row["name"]] = row["sql"]
        }
        return found
      }
    }
    func sized(over bytes: Double) throws -> [String] {
      try SearchEngine(store: store).search(
        .filter(.range(.size, lower: bytes, upper: nil)), limit: nil
      ).map(\.displayName)
    }
    let migrated = try indexes()
    let deferred = Set(Schema.deferredIndexes.map(\.name))
    #expect(deferred.count == 3 && deferred.isSubset(of: Set(migrated.keys)))

    #expect(try store.deferIndexesForFirstCrawl())
    #expect(Set(try indexes().keys) == Set(migrated.keys).subtracting(deferred))
    // The crawl's first batch: found by name and by size without them.
    try store.write { writer in
      var big = Fixtures.record("/h/big.iso", text: nil, pending: true)
      big.status.size = 5_000_000
      big.attributes.size = 5_000_000
      try writer.upsert(big)
      try writer.upsert(Fixtures.record("/h/small.txt", text: nil, pending: true))
      try writer.upsert(Fixtures.record("/h/Отчёт", text: nil, pending: false))
    }
    #expect(try sized(over: 1_000_000) == ["big.iso"])
    #expect(try store.status(watcherPID: nil).contentWaiting == 2)
    // The words kept for typos wait for the crawl's end too.
    func typoTerms() throws -> [String] {
      try store.read { db in
        try String.fetchAll(db, sql: "SELECT DISTINCT term FROM term_deletion ORDER BY term")
      }
    }
    #expect(try typoTerms().isEmpty)
    // A start that finds files keeps the index as it is.
    #expect(try !store.deferIndexesForFirstCrawl())
    #expect(try store.makeDeferredIndexes() == 3)
    #expect(try indexes() == migrated)
    // The typo index follows, apart: names are found before it is made.
    #expect(try typoTerms().isEmpty)
    #expect(try store.addDeferredNameTerms())
    let terms = try typoTerms()
    // Отчёт: its folded and romanised terms.
    #expect(
      terms.count == 6 && Set(["big", "iso", "small", "txt"]).isSubset(of: terms), "\(terms)")
    // Its keys are those a term written one at a time gets.
    let keys = try store.read { db in
      try Row.fetchAll(db, sql: "SELECT key, term FROM term_deletion").map {
        "\($0["term"] as String) \($0["key"] as String)"
      }
    }
    let expected = terms.flatMap { term in
      NearWords.keys(of: Array(term), depth: NearWords.termDepth(term.count)).map {
        "\(term) \($0)"
      }
    }
    #expect(keys.sorted() == expected.sorted())
    #expect(try !store.addDeferredNameTerms())
    #expect(try store.makeDeferredIndexes() == 0)
    #expect(try sized(over: 1_000_000) == ["big.iso"])
    #expect(
      try Set(store.filesWaitingForContent(limit: 10).map(\.path.string)) == [
        "/h/big.iso", "/h/small.txt",
      ])
  }

  @Test func itemIdsAreMadeInOrderAndNeverTwice() {
    let ids = (0..<10_000).map { _ in IndexWriter.newFileID() }
    #expect(Set(ids).count == ids.count)
    #expect(ids == ids.sorted())
    #expect(
      ids.allSatisfy {
        $0.count == 17 && $0.first == "f" && $0.dropFirst().allSatisfy(\.isHexDigit)
      })
  }
}
