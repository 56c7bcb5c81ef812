import Foundation
import GRDB
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
}
