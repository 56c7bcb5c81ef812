import Foundation
import GRDB
import LimelightQuery
import Testing

@testable import LimelightStore

/// A description's words weigh beside its meaning: of documents about the
/// same thing, the one holding the words comes first; a word every near
/// document holds says nothing; and words never bring a document the
/// meaning left far behind.
@Suite struct WordEvidenceTests {
  @Test func wordsAreLookedForByTheirStems() {
    #expect(
      WordEvidence.stems(of: ["coroutines", "Aufgaben", "tasks", "loop", "event", "Loop"])
        == ["coroutin", "aufgab", "task", "loop", "event"])
    // Too short, several words in one, or a phrase of ideographs: none.
    #expect(WordEvidence.stems(of: ["a", "by", "run", "e-mail", "日付と時刻", "v1.2"]).isEmpty)
    // An ending is kept when dropping it leaves too short a stem.
    #expect(WordEvidence.stems(of: ["uses", "lines", "Réseaux"]) == ["uses", "line", "reseaux"])
    // A stem is looked for as the words it stands for, whole: "download"
    // is no form of "down".
    let forms = WordEvidence.forms(of: "coroutin")
    #expect(forms.contains("coroutine") && forms.contains("coroutines"))
    #expect(!WordEvidence.forms(of: "down").contains("download"))
  }

  @Test func aRareWordWeighsMoreThanOneEveryNearDocumentHolds() throws {
    let shares = WordEvidence.shares(
      held: [
        "both": ["common", "rare"], "common": ["common"], "common too": ["common"],
        "common again": ["common"], "rare": ["rare"],
      ], stems: ["common", "rare"], documents: 6)
    #expect(shares["both"] == 1)
    #expect(try #require(shares["rare"]) > 0.5)
    #expect(try #require(shares["common"]) < 0.5)
    #expect(shares["none"] == nil)
    #expect(WordEvidence.shares(held: [String: Set<String>](), stems: [], documents: 3).isEmpty)
  }

  /// Copies of a document share a vector: which of them are kept is the
  /// same whatever order they come in (the shared store's came in a
  /// dictionary's, and a query chose other documents from one search to
  /// the next).
  @Test func alikeCandidatesAreKeptInTheOrderOfTheirKeys() {
    let selection = MeaningSelection(floor: 0.5, margin: 0, band: 0.04)
    let similarities: [(key: String, similarity: Float)] =
      (0..<6).map { (key: "copy \($0)", similarity: 0.9) } + [(key: "nearest", similarity: 0.95)]
    for _ in 0..<8 {
      let kept = selection.candidates(similarities.shuffled(), average: 0, most: 3)
      #expect(kept.map(\.key) == ["nearest", "copy 0", "copy 1"])
    }
  }

  @Test func theWordsReorderNearDocumentsAndBringNoneFromFar() {
    let selection = MeaningSelection(floor: 0.5, margin: 0, band: 0.04)
    let similarities: [(key: String, similarity: Float)] = [
      ("nearest", 0.90), ("near, with the words", 0.88), ("far, with the words", 0.81),
      ("below the floor", 0.40),
    ]
    let candidates = selection.candidates(similarities, average: 0, most: 10)
    // Within reach (0.08 below the nearest): the far one is not read.
    #expect(candidates.map(\.key) == ["nearest", "near, with the words"])
    let shares = ["near, with the words": 1.0, "far, with the words": 1.0]
    #expect(
      selection.chosen(candidates, shares: shares).map(\.key)
        == ["near, with the words", "nearest"])
    // Even given it, the far one stays beyond the band of the best.
    let all = similarities.map { (key: $0.key, similarity: $0.similarity) }
    #expect(!selection.chosen(all, shares: shares).contains { $0.key == "far, with the words" })
    // A query about nothing the documents are: none, whatever they hold.
    let high = MeaningSelection(floor: 0.95, margin: 0, band: 0.04)
    #expect(high.candidates(similarities, average: 0, most: 10).isEmpty)
  }

  /// A document in the query's own language that holds none of its words
  /// is shown only when it is very near: one in another language cannot
  /// hold them, and a query whose words were not all looked for holds
  /// none to them.
  @Test func aDocumentInTheQuerysLanguageHoldingNoneOfItsWordsMustBeVeryNear() {
    let selection = MeaningSelection(floor: 0.5, margin: 0, band: 0.2)
    let floor = Float(MeaningSelection.wordlessFloor)
    let candidates: [(key: String, similarity: Float)] = [
      ("licence", floor - 0.01), ("the page, with a word", floor - 0.05),
      ("German page", floor - 0.02), ("very near", floor + 0.01),
    ]
    let shares = ["the page, with a word": 0.5]
    let languages: [String: Int32] = [
      "licence": 0, "the page, with a word": 0, "German page": 1, "very near": 0,
    ]
    let own = MeaningSelection.inQueryLanguage(
      candidates.map(\.key), languages: languages, query: 0, everyStemLooked: true)
    #expect(own == ["licence", "the page, with a word", "very near"])
    #expect(
      Set(selection.chosen(candidates, shares: shares, inQueryLanguage: own).map(\.key))
        == ["the page, with a word", "German page", "very near"])
    // Without every stem looked for, or the query's language: none held.
    #expect(
      MeaningSelection.inQueryLanguage(
        candidates.map(\.key), languages: languages, query: 0, everyStemLooked: false
      ).isEmpty)
    #expect(
      MeaningSelection.inQueryLanguage(
        candidates.map(\.key), languages: languages, query: nil, everyStemLooked: true
      ).isEmpty)
    #expect(selection.chosen(candidates, shares: shares).count == 4)
  }

  /// A query's language is told as a document's: the language whose mean
  /// is nearest by cosine, whatever the means' lengths.
  @Test func aQuerysLanguageIsTheNearestMean() {
    let centring = MeaningCentring(
      centre: [0, 0, 0], languages: [[0.9, 0.1, 0], [0, 0.2, 0.2], [0.1, 0, 0]])
    func asked(_ values: [Int8]) -> MeaningCentring.Asked {
      centring.asked(values.map { UInt8(bitPattern: $0) })
    }
    #expect(centring.language(of: asked([127, 0, 0])) == 2)
    #expect(centring.language(of: asked([0, 90, 90])) == 1)
    #expect(centring.language(of: asked([100, 12, 0])) == 0)
    #expect(
      MeaningCentring(centre: [0, 0, 0], languages: []).language(of: asked([1, 0, 0])) == nil)
  }

  /// A note of a line is near any query: of two documents as near, the one
  /// less near ordinary text comes first.
  @Test func anOrdinaryDocumentGivesWayToAParticularOne() {
    let selection = MeaningSelection(floor: 0.5, margin: 0, band: 0.04)
    let candidates: [(key: String, similarity: Float)] = [("a note", 0.86), ("the page", 0.85)]
    #expect(selection.chosen(candidates, shares: [:]).map(\.key) == ["a note", "the page"])
    let ordinariness = ["a note": 0.84, "the page": 0.80]
    #expect(
      selection.chosen(candidates, shares: [:], ordinariness: ordinariness).map(\.key)
        == ["the page", "a note"])
    // A stored vector's ordinariness: its cosine-weighted product with the
    // mean of the ordinary passages.
    let along: [Int8] = (0..<4).map { $0 == 0 ? 127 : 0 }
    #expect(MeaningSelection.ordinariness(of: along, means: [[0.5, 0.25, 0, 0]]) == 0.5)
    // Of several languages' ordinary text, the nearest.
    #expect(
      MeaningSelection.ordinariness(of: along, means: [[0.5, 0, 0, 0], [0.75, 0, 0, 0]]) == 0.75)
    #expect(MeaningSelection.ordinariness(of: along, means: [[0.5]]) == 0)
  }

  /// Through the index: two documents nearly as near, the second holding a
  /// form of the query's word in its text.
  @Test func theIndexWeighsTheWordsItsTextsHold() throws {
    let store = try Fixtures.newStore()
    try store.write { writer in
      try writer.upsert(Fixtures.record("/h/loops.txt", text: "Running many jobs in a loop."))
      try writer.upsert(
        Fixtures.record("/h/asyncio.txt", text: "Tasks are coroutines run by an event loop."))
    }
    let work = Dictionary(
      uniqueKeysWithValues: try store.meaningWork(limit: 10, opening: 100).map { ($0.heading, $0) })
    // The query along the first dimension; the second document a little
    // off it (0.98).
    let query: [UInt8] = (0..<384).map { $0 == 0 ? 127 : 0 }
    try store.keepMeaning([
      (try #require(work["loops.txt"]), query),
      (try #require(work["asyncio.txt"]), (0..<384).map { $0 == 0 ? 127 : $0 == 1 ? 25 : 0 }),
    ])
    let engine = SearchEngine(store: store)
    let selection = MeaningSelection(floor: 0.5, margin: 0, band: 0.04)
    func nearest(_ words: [String], ordinary: [[Float]] = [], readAhead: StemRows? = nil) throws
      -> [String]
    {
      try engine.meaningMatches(
        query, words: words, ordinary: ordinary, selection: selection, filters: .and([]),
        limit: 5, readAhead: readAhead
      ).map(\.displayName)
    }
    #expect(try nearest([]) == ["loops.txt", "asyncio.txt"])
    #expect(try nearest(["coroutine", "tasks"]) == ["asyncio.txt", "loops.txt"])
    // The stems' rows read ahead count as those read then; read ahead for
    // other words, they are not taken.
    let ahead = try engine.stemRows(of: ["coroutine", "tasks"])
    #expect(try nearest(["coroutine", "tasks"], readAhead: ahead) == ["asyncio.txt", "loops.txt"])
    #expect(try nearest(["loop"], readAhead: ahead) == ["loops.txt", "asyncio.txt"])
    #expect(
      try nearest([], readAhead: try engine.stemRows(of: ["running"])) == [
        "loops.txt", "asyncio.txt",
      ])
    // A word both hold tells them apart no more.
    #expect(try nearest(["loop"]) == ["loops.txt", "asyncio.txt"])
    // Ordinary text lies along the first: the second is the more particular.
    let ordinary: [[Float]] = [[0.9, -0.2] + [Float](repeating: 0, count: 382)]
    #expect(try nearest([], ordinary: ordinary) == ["asyncio.txt", "loops.txt"])
  }
}
