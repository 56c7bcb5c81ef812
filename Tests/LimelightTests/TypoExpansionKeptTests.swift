import Foundation
import LimelightPlatform
import LimelightQuery
import Testing

@testable import LimelightStore

/// A word's typos are looked for once for each state of the index: the
/// searches of one query's subsets share them, and a write makes them
/// looked for again.
@Suite struct TypoExpansionKeptTests {
  /// A new index holding one file of `text`, and its search engine.
  func index(holding path: String, text: String) throws -> (IndexStore, SearchEngine) {
    let store = try Fixtures.newStore()
    try store.write { try $0.upsert(Fixtures.record(path, text: text)) }
    return (store, SearchEngine(store: store))
  }

  @Test func aWordNothingHeldIsFoundOnceWritten() throws {
    let (store, engine) = try index(holding: "/h/notes.txt", text: "nothing here")
    let query = QueryNode.text("zorblatt", prefix: false, column: nil)
    #expect(try engine.search(query).isEmpty)
    #expect(try engine.search(query).isEmpty)
    try store.write { try $0.upsert(Fixtures.record("/h/zorblatt.txt", text: "zorblatt")) }
    #expect(try engine.search(query).map(\.displayName) == ["zorblatt.txt"])
    // A typo of it, then: its expansion is made for the index as it is now.
    let typo = QueryNode.text("zorblett", prefix: false, column: nil)
    #expect(try engine.search(typo).map(\.displayName) == ["zorblatt.txt"])
  }

  /// The words' state, not the generation, keys them: a file's text
  /// written again with a new word, and a file removed, are seen by the
  /// next search's typos.
  @Test func aTextWrittenAgainOrRemovedIsSeen() throws {
    let (store, engine) = try index(holding: "/h/a.txt", text: "nothing here")
    let typo = QueryNode.text("vastrelmo", prefix: false, column: nil)
    #expect(try engine.search(typo).isEmpty)
    try store.write { try $0.upsert(Fixtures.record("/h/a.txt", text: "vastrelmx at last")) }
    #expect(try engine.search(typo).map(\.displayName) == ["a.txt"])
    _ = try store.write { try $0.removeTree(RawPath("/h/a.txt")) }
    #expect(try engine.search(typo).isEmpty)
  }

  /// Two indexes at the same generation keep apart.
  @Test func anotherIndexHasItsOwn() throws {
    let (first, second) = (try Fixtures.newStore(), try Fixtures.newStore())
    try first.write { try $0.upsert(Fixtures.record("/h/quorvex.txt", text: "quorvex")) }
    try second.write { try $0.upsert(Fixtures.record("/h/other.txt", text: "other")) }
    let query = QueryNode.text("quorvexx", prefix: false, column: nil)
    #expect(try SearchEngine(store: first).search(query).map(\.displayName) == ["quorvex.txt"])
    #expect(try SearchEngine(store: second).search(query).isEmpty)
  }
}
