import Foundation
import GRDB
import LimelightQuery
import Testing

@testable import LimelightStore

/// Which items the third pass embeds: documents people read, not what
/// programs write (test output, lock files) nor translation catalogs; and a
/// vector made under an older policy is dropped once it is of no use.
@Suite struct MeaningWorthTests {
  static let prose = "The committee met on Tuesday and agreed to paint the fence green."
  static let files = [
    "/h/notes.txt", "/h/README", "/h/NEWS.Debian", "/h/build.stderr", "/h/Cargo.lock",
    "/h/messages.po", "/h/main.c", "/h/report.md",
  ]
  static let worth: Set = ["notes.txt", "README", "NEWS.Debian", "report.md"]

  func filled() throws -> IndexStore {
    let store = try Fixtures.newStore()
    try store.write { writer in
      for path in Self.files { try writer.upsert(Fixtures.record(path, text: Self.prose)) }
    }
    return store
  }

  @Test func documentsAreWorthAMeaningAndWhatProgramsWriteIsNot() throws {
    let store = try filled()
    let work = try store.meaningWork(limit: 20, opening: 100)
    #expect(Set(work.map(\.heading)) == Self.worth)
  }

  @Test func vectorsOfItemsNoLongerWorthOneAreDropped() throws {
    let store = try filled()
    try store.write { writer in
      try writer.db.execute(
        sql: "INSERT INTO item_meaning (rowid, vector) SELECT rowid, x'7f00' FROM item")
    }
    #expect(try store.pruneMeaning() == Self.files.count - Self.worth.count)
    let kept = try store.read { db in
      try String.fetchAll(
        db,
        sql:
          "SELECT item.displayName FROM item_meaning JOIN item ON item.rowid = item_meaning.rowid")
    }
    #expect(Set(kept) == Self.worth)
    #expect(try store.pruneMeaning() == 0)
  }

  /// A meaning search holds the vectors in memory and reads those written
  /// since it last looked (the third pass writes while people search);
  /// a vector removed or written again makes it read them all.
  @Test func searchesSeeVectorsAsTheyAreWrittenAndRemoved() throws {
    let store = try filled()
    let engine = SearchEngine(store: store)
    // Unit-like vectors along one dimension each: a query along the first
    // finds the item that has it.
    func vector(_ dimension: Int) -> [UInt8] {
      (0..<384).map { $0 == dimension ? 127 : 0 }
    }
    let work = try store.meaningWork(limit: 20, opening: 100)
    let byName = Dictionary(uniqueKeysWithValues: work.map { ($0.heading, $0) })
    let select = MeaningSelection(floor: 0.9, margin: 0, band: 0.05)
    func nearest(_ dimension: Int) throws -> [String] {
      try engine.meaningMatches(
        vector(dimension), words: [], selection: select, filters: .and([]), limit: 5
      ).map(\.displayName)
    }
    try store.keepMeaning([(try #require(byName["notes.txt"]), vector(0))])
    #expect(try nearest(0) == ["notes.txt"])
    #expect(try nearest(1).isEmpty)
    // Written after the first search: read as it is.
    try store.keepMeaning([(try #require(byName["README"]), vector(1))])
    #expect(try nearest(1) == ["README"])
    #expect(try nearest(0) == ["notes.txt"])
    // Removed (its item's text changed): no longer found.
    try store.write { writer in
      try writer.db.execute(
        sql: "DELETE FROM item_meaning WHERE rowid = ?", arguments: [byName["notes.txt"]!.rowID])
    }
    try store.keepMeaning([(try #require(byName["report.md"]), vector(2))])
    #expect(try nearest(0).isEmpty)
    #expect(try nearest(2) == ["report.md"])
    #expect(try nearest(1) == ["README"])
  }
}

/// Words asked of paths alone (a reading's typed words, when it has
/// filters) are looked up in the name index alone: the text tiers would
/// read every text holding the words to find none.
@Suite struct PathWordsPlanTests {
  @Test func wordsInPathsAloneAskNoText() throws {
    let store = try Fixtures.newStore()
    try store.write { writer in
      try writer.upsert(Fixtures.record("/h/attach/system tree.txt", text: "unrelated words"))
      try writer.upsert(Fixtures.record("/h/notes.txt", text: "attach the system tree"))
    }
    let engine = SearchEngine(store: store)
    let inPaths = QueryNode.and(
      ["attach", "system", "tree"].map { .text($0, prefix: true, column: .path) })
    #expect(!engine.plan(inPaths).contains { $0.statement.sql.contains("item_text") })
    #expect(try engine.search(inPaths).map(\.displayName) == ["system tree.txt"])
    // Anywhere: the texts too.
    let anywhere = QueryNode.and(
      ["attach", "system", "tree"].map { .text($0, prefix: true, column: nil) })
    #expect(engine.plan(anywhere).contains { $0.statement.sql.contains("item_text") })
    #expect(
      Set(try engine.search(anywhere).map(\.displayName)) == ["system tree.txt", "notes.txt"])
  }
}
