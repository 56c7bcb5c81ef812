import Foundation
import GRDB
import LimelightModel
import LimelightPlatform
import Testing

@testable import LimelightQuery
@testable import LimelightStore

/// A new index is made from the current schema; an older one is upgraded
/// to the same schema by literal steps, or, older than the oldest upgraded,
/// refused so that the watcher builds it anew.
@Suite struct SchemaTests {
  /// Every object of an index's schema: its SQL with the spacing, quotes
  /// and line breaks that tell apart a table written whole from one that
  /// `ALTER TABLE` grew, and each table's columns as SQLite reads them.
  func schema(_ store: IndexStore) throws -> [String] {
    try store.read { db in
      var objects: [String] = []
      for row in try Row.fetchAll(
        db,
        sql: """
          SELECT type, name, tbl_name, sql FROM sqlite_schema
          WHERE name NOT LIKE 'sqlite_%' ORDER BY type, name
          """)
      {
        let sql = (row["sql"] as String? ?? "").replacingOccurrences(of: "\"", with: "")
          .split(whereSeparator: \.isWhitespace).joined(separator: " ")
          .replacingOccurrences(of: " ,", with: ",").replacingOccurrences(of: "( ", with: "(")
          .replacingOccurrences(of: " )", with: ")")
        objects.append("\(row["type"] as String) \(row["name"] as String): \(sql)")
        if row["type"] as String == "table" {
          for column in try Row.fetchAll(
            db, sql: "SELECT * FROM pragma_table_xinfo(?)", arguments: [row["name"] as String])
          {
            objects.append("  \(row["name"] as String) column \(column)")
          }
        }
      }
      return objects
    }
  }

  @Test func anIndexUpgradedStepByStepEndsWhereANewOneStarts() throws {
    let fresh = Fixtures.newLocation()
    let old = Fixtures.newLocation()
    defer {
      for location in [fresh, old] {
        try? FileManager.default.removeItem(atPath: location.home.string)
      }
    }
    let new = try IndexStore.open(fresh, create: true)
    // The oldest index upgraded, as its version left it.
    try old.createPrivateDirectories()
    try OldIndexes.make(OldIndexes.v27, at: old.databasePath.string)
    let upgraded = try IndexStore.open(old, create: false)
    #expect(try schema(upgraded) == schema(new))
    // Both list the one migration the migrator knows now.
    for store in [new, upgraded] {
      let listed = try store.read { try String.fetchAll($0, sql: "SELECT * FROM grdb_migrations") }
      #expect(listed == [Schema.identifier])
      let counted = try store.read {
        try Int.fetchOne($0, sql: "SELECT value FROM meta WHERE key = 'meaningChanges'")
      }
      #expect(counted == 0)
    }
    // Each step the migrator knows is one an older index may list.
    #expect(Schema.upgrades.allSatisfy { Schema.shipped.contains($0.name) })
    #expect(Schema.shipped.contains(Schema.oldestUpgraded))
  }

  /// Indexes whose words were folded as unicode61 alone folds them (v22
  /// to v25, however they list their migrations) are built anew: their
  /// Greek and Cyrillic words with accents, and ß, would never be found.
  @Test func anIndexOfTheOldFoldingIsBuiltAnew() throws {
    for identifier in ["v22-word-pairs-and-facets", "schema-v25"] {
      try expectBuiltAnew(
        OldIndexes.v22
          + "DELETE FROM grdb_migrations; INSERT INTO grdb_migrations VALUES ('\(identifier)');")
    }
  }

  /// Indexes whose text index pairs only the commonest words of English
  /// (v26) are built anew: `"int main"` asks for a pair they never made.
  @Test func anIndexWithoutTheProgramsPairsIsBuiltAnew() throws {
    try expectBuiltAnew(
      OldIndexes.v27.replacingOccurrences(of: "'schema-v27'", with: "'schema-v26'"))
  }

  /// The vectors of an index made before documents were embedded from
  /// their heading and prose (v27), or before a passage was cut at its
  /// tokens (v28), are dropped, for the third pass to make again.
  @Test(arguments: ["schema-v27", "schema-v28"])
  func anUpgradedIndexEmbedsItsDocumentsAgain(identifier: String) throws {
    let location = Fixtures.newLocation()
    defer { try? FileManager.default.removeItem(atPath: location.home.string) }
    try location.createPrivateDirectories()
    try OldIndexes.make(
      OldIndexes.v27.replacingOccurrences(of: "'schema-v27'", with: "'\(identifier)'")
        + "INSERT INTO item_meaning (rowid, vector) VALUES (1, x'7f00');",
      at: location.databasePath.string)
    let store = try IndexStore.open(location, create: false)
    #expect(try store.read { try Int.fetchOne($0, sql: "SELECT count(*) FROM item_meaning") } == 0)
  }

  /// An index the last version made (which lists its identifier as
  /// applied) gets the steps added since: each new step comes with a new
  /// identifier, and the one before it names the step it stood for.
  @Test func anIndexOfTheLastVersionGetsTheStepsAddedSince() throws {
    let previous = try #require(Schema.upgrades.dropLast().last?.name)
    let identifier = try #require(
      Schema.earlierIdentifiers.first { $0.value == previous }?.key,
      "no identifier stands for \(previous): a new step needs a new Schema.identifier")
    let location = Fixtures.newLocation()
    defer { try? FileManager.default.removeItem(atPath: location.home.string) }
    let store = try IndexStore.open(location, create: true)
    try store.write { writer in
      try writer.db.execute(
        sql: """
          DROP INDEX item_words_text;
          UPDATE grdb_migrations SET identifier = ?;
          """, arguments: [identifier])
    }
    let upgraded = try IndexStore.open(location, create: false)
    #expect(
      try upgraded.read { db in
        try String.fetchAll(db, sql: "SELECT identifier FROM grdb_migrations")
      } == [Schema.identifier])
    #expect(
      try upgraded.read { db in
        try Bool.fetchOne(
          db, sql: "SELECT EXISTS (SELECT 1 FROM sqlite_schema WHERE name = 'item_words_text')")
      } == true)
  }

  /// An index made by `sql` is refused as older: the watcher builds it anew.
  func expectBuiltAnew(_ sql: String) throws {
    let location = Fixtures.newLocation()
    defer { try? FileManager.default.removeItem(atPath: location.home.string) }
    try location.createPrivateDirectories()
    try OldIndexes.make(sql, at: location.databasePath.string)
    #expect {
      try IndexStore.open(location, create: false)
    } throws: { error in
      guard case IndexStore.OpenError.older = error else { return false }
      return true
    }
  }

  /// The item table's columns, named once for the writers and readers
  /// (``ItemTable``), are the schema's, every one and in its order.
  @Test func theItemColumnsNamedOnceAreTheSchemas() throws {
    let location = Fixtures.newLocation()
    defer { try? FileManager.default.removeItem(atPath: location.home.string) }
    let store = try IndexStore.open(location, create: true)
    let names = try store.read {
      try String.fetchAll($0, sql: "SELECT name FROM pragma_table_xinfo('item')")
    }
    #expect(names == ItemTable.all.map(\.name))
  }

  @Test func anIndexTooOldToUpgradeIsRefusedAndLeftAsItIs() throws {
    let location = Fixtures.newLocation()
    defer { try? FileManager.default.removeItem(atPath: location.home.string) }
    try location.createPrivateDirectories()
    try OldIndexes.make(OldIndexes.v1, at: location.databasePath.string)
    for (create, readOnly) in [(false, true), (false, false), (true, false)] {
      #expect {
        try IndexStore.open(location, create: create, readOnly: readOnly)
      } throws: { error in
        guard case IndexStore.OpenError.older = error else { return false }
        return "\(error)".contains("limelightd builds a new one")
      }
    }
    // Nothing of the upgrade it did not make is left in it.
    var configuration = Configuration()
    configuration.readonly = true
    let listed = try DatabaseQueue(path: location.databasePath.string, configuration: configuration)
      .read { try String.fetchAll($0, sql: "SELECT * FROM grdb_migrations") }
    #expect(listed == ["v1"])
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
    #expect(deferred.count == 4 && deferred.isSubset(of: Set(migrated.keys)))

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
    // Filters alone list items in their order without its index (a name
    // with no type's extension is taken for text), read in stretches of
    // the order as many items make them do.
    var inOrder = SearchEngine(store: store)
    inOrder.inOrderLimit = 30
    inOrder.inOrderStretch = 1
    inOrder.sortedFiltersLimit = 1
    let texts = try inOrder.search(.filter(.kind(.text)), limit: 10).map(\.displayName)
    #expect(Set(texts) == ["small.txt", "Отчёт"], "\(texts)")
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
    #expect(try store.makeDeferredIndexes() == 4)
    #expect(try indexes() == migrated)
    #expect(try inOrder.search(.filter(.kind(.text)), limit: 10).map(\.displayName) == texts)
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
