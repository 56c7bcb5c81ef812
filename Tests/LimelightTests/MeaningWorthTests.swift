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

  /// Plain text (as libmagic types them) named in capitals, to read or
  /// not: a certificate, a graph, rules of a compiler.
  static let plainText = [
    "/h/LICENSE.python", "/h/COPYRIGHT.PATENT", "/h/GLOBALTRUST_2020.crt",
    "/h/NAVER_Global_Root.crt", "/h/SSL.com_Root_CA.crt", "/h/DOT-fe8cb898.dot",
    "/h/AMD64splitload.rules",
  ]
  static let plainTextWorth: Set = ["LICENSE.python", "COPYRIGHT.PATENT"]

  func filled() throws -> IndexStore {
    let store = try Fixtures.newStore()
    try store.write { writer in
      for path in Self.files { try writer.upsert(Fixtures.record(path, text: Self.prose)) }
      for path in Self.plainText {
        var record = Fixtures.record(path, text: Self.prose)
        record.attributes.contentType = "text/plain"
        try writer.upsert(record)
      }
    }
    return store
  }

  @Test func documentsAreWorthAMeaningAndWhatProgramsWriteIsNot() throws {
    let store = try filled()
    let work = try store.meaningWork(limit: 20, opening: 100)
    #expect(Set(work.map(\.heading)) == Self.worth.union(Self.plainTextWorth))
  }

  @Test func vectorsOfItemsNoLongerWorthOneAreDropped() throws {
    let store = try filled()
    try store.write { writer in
      try writer.db.execute(
        sql: "INSERT INTO item_meaning (rowid, vector) SELECT rowid, x'7f00' FROM item")
    }
    #expect(
      try store.pruneMeaning()
        == Self.files.count + Self.plainText.count - Self.worth.count - Self.plainTextWorth.count)
    let kept = try store.read { db in
      try String.fetchAll(
        db,
        sql:
          "SELECT item.displayName FROM item_meaning JOIN item ON item.rowid = item_meaning.rowid")
    }
    #expect(Set(kept) == Self.worth.union(Self.plainTextWorth))
    #expect(try store.pruneMeaning() == 0)
  }

  /// A copy of a document (the same text under the same heading) takes the
  /// vector its first copy was given; a copy renamed, or another text under
  /// the same name, is embedded on its own; a copy whose text changed no
  /// longer lends its vector.
  @Test func aCopyOfADocumentTakesTheVectorOfTheOneEmbedded() throws {
    let store = try Fixtures.newStore()
    let other = "Minutes of the meeting: the budget for next year was approved."
    try store.write { writer in
      for path in ["/h/a/report.md", "/h/b/report.md", "/h/b/report-copy.md"] {
        try writer.upsert(Fixtures.record(path, text: Self.prose))
      }
      try writer.upsert(Fixtures.record("/h/c/report.md", text: other))
    }
    let work = try store.meaningWork(limit: 10, opening: 100)
    #expect(work.count == 4)
    #expect(work.allSatisfy { $0.copied == nil })
    let first = try #require(work.first { $0.heading == "report.md" && $0.opening == Self.prose })
    let vector = (0..<384).map { UInt8($0 % 100) }
    try store.keepMeaning([(first, vector)])
    let left = try store.meaningWork(limit: 10, opening: 100)
    let copied = Dictionary(
      uniqueKeysWithValues: left.map {
        ($0.heading + " " + String($0.opening.prefix(7)), $0.copied)
      })
    #expect(
      copied == [
        "report.md The com": vector, "report-copy.md The com": nil, "report.md Minutes": nil,
      ])
    // The first copy changed: the others are embedded on their own.
    try store.write { writer in
      try writer.upsert(Fixtures.record("/h/a/report.md", text: other + " And more."))
    }
    #expect(try store.meaningWork(limit: 10, opening: 100).allSatisfy { $0.copied == nil })
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

/// The local index's meaning search with each document's language taken out.
@Suite struct MeaningCentredSearchTests {
  /// A unit vector of the model's 384 dimensions from a few weighted axes.
  func vector(_ parts: [(Int, Float)]) -> [Float] {
    MeaningCentringTests.vector(parts, dimensions: 384)
  }

  func stored(_ vector: [Float]) -> [UInt8] { MeaningCentringTests.stored(vector) }

  /// Axis 0 is what all texts share, 1 English, 2 Spanish, 3 and 4 what a
  /// text is about. A Spanish query about 3 finds, by plain cosines, the
  /// Spanish document about 4 first; with their languages out (the index's
  /// vectors placed together), the English one about 3, and not the
  /// Spanish one, below the centred floor. The vectors are placed together
  /// at the first search; a vector written again is placed again alone
  /// (eleven others about something else beside it).
  @Test func documentsAreComparedWithTheirLanguageTakenOut() throws {
    let store = try MeaningWorthTests().filled()
    let others = (1...11).map { "/h/other \($0).txt" }
    try store.write { writer in
      for path in others { try writer.upsert(Fixtures.record(path, text: MeaningWorthTests.prose)) }
    }
    let engine = SearchEngine(store: store)
    let english = vector([(0, 3), (1, 1)])
    let spanish = vector([(0, 3), (2, 1)])
    let centring = MeaningCentring(
      centre: zip(english, spanish).map { ($0 + $1) / 2 }, languages: [english, spanish])
    let work = try store.meaningWork(limit: 30, opening: 100)
    let byName = Dictionary(uniqueKeysWithValues: work.map { ($0.heading, $0) })
    try store.keepMeaning([
      (try #require(byName["notes.txt"]), stored(vector([(0, 3), (1, 1), (3, 0.8)]))),
      (try #require(byName["README"]), stored(vector([(0, 3), (2, 1), (4, 0.8)]))),
      (try #require(byName["report.md"]), stored(vector([(0, 3), (1, 1), (4, 0.8)]))),
    ])
    try store.keepMeaning(
      try others.enumerated().map { number, path in
        let name = String(path.split(separator: "/").last ?? "")
        return (try #require(byName[name]), stored(vector([(0, 3), (1, 1), (5 + number, 1)])))
      })
    let query = stored(vector([(0, 3), (2, 1.2), (3, 0.6)]))
    func nearest(centred: Bool) throws -> [String] {
      let selection = MeaningSelection(
        floor: 0.5, margin: 0, band: 0.5,
        centred: centred ? MeaningSelection.Centred(floor: 0.2, scale: 3, slack: 0.02) : nil)
      return try engine.meaningMatches(
        query, words: [], selection: selection, centring: centred ? centring : nil,
        filters: .and([]), limit: 5
      ).map(\.displayName)
    }
    #expect(try nearest(centred: false).first == "README")
    #expect(try nearest(centred: true) == ["notes.txt"])
    // README written again about 3: placed again, and found.
    try store.keepMeaning([
      (try #require(byName["README"]), stored(vector([(0, 3), (2, 1), (3, 0.8)])))
    ])
    #expect(Set(try nearest(centred: true)) == ["notes.txt", "README"])
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
