import Foundation
import GRDB
import LimelightPlatform
import Testing

@testable import LimelightStore

/// A file written is no longer one that could not be read, whether its
/// failure was recorded in the same transaction (after the writer found
/// the failures empty) or in one before.
@Suite struct FailureRowTests {
  @Test func aFileWrittenClearsItsFailure() throws {
    let store = try Fixtures.newStore()
    func failures() throws -> [String] {
      try store.write { writer in
        try Data.fetchAll(writer.db, sql: "SELECT path FROM failure ORDER BY path")
          .map { String(decoding: $0, as: UTF8.self) }
      }
    }
    try store.write { writer in
      try writer.upsert(Fixtures.record("/h/a.txt", text: nil))
      try writer.recordFailure(RawPath("/h/b.txt"), message: "unreadable")
      try writer.recordFailure(RawPath("/h/c.txt"), message: "unreadable")
      try writer.upsert(Fixtures.record("/h/b.txt", text: nil))
    }
    #expect(try failures() == ["/h/c.txt"])
    try store.write { writer in try writer.upsert(Fixtures.record("/h/c.txt", text: nil)) }
    #expect(try failures() == [])
  }
}
