import Foundation
import Testing

@testable import LimelightSearch
@testable import LimelightStore

/// How the words' results and meaning's are put together.
@Suite struct MeaningMergeTests {
  func result(_ id: String, lacking: [String] = [], byMeaning: Bool = false) -> SearchResult {
    var result = SearchResult(
      rowID: 0, id: id, localID: nil, domain: "limelight.files", uri: "file:///" + id, path: nil,
      displayName: id, contentType: nil, kind: nil, modified: nil, size: nil, isFolder: false,
      thumbnailPath: nil, score: 0)
    result.unmatched = lacking
    result.byMeaning = byMeaning
    return result
  }

  /// Full matches first; then what meaning found, in its order (which
  /// weighs the words each holds), the partial matches among them kept as
  /// the words'; the other partial matches last.
  @Test func meaningsOrderFollowsTheFullMatches() {
    let words = [
      result("full"), result("partial-a", lacking: ["x"]), result("partial-b", lacking: ["y"]),
      result("partial-c", lacking: ["x"]),
    ]
    let meaning = ["near", "partial-c", "full", "partial-a"].map { result($0, byMeaning: true) }
    let merged = MeaningSearch.merged(words: words, meaning: meaning)
    #expect(
      merged.map(\.id) == ["full", "near", "partial-c", "partial-a", "partial-b"])
    // What the words found partly keeps what they said it lacks.
    #expect(merged[2].unmatched == ["x"] && !merged[2].byMeaning)
    #expect(merged[1].byMeaning)
    // No words: meaning alone.
    #expect(MeaningSearch.merged(words: [], meaning: meaning).map(\.id) == meaning.map(\.id))
  }

  /// A sentence's words are in any long text: its full matches in texts
  /// alone come after what meaning finds; a name that holds its words
  /// still comes first.
  @Test func aSentenceMatchedInTextsAloneFollowsMeaning() {
    let typed = ["sort", "list", "key", "function"]
    let words = [
      result("sort list by key function.txt"), result("Python library reference"),
      result("kernel changelog"),
    ]
    let meaning = ["sorting howto", "kernel changelog"].map { result($0, byMeaning: true) }
    let merged = MeaningSearch.merged(words: words, meaning: meaning, typed: typed)
    #expect(
      merged.map(\.id) == [
        "sort list by key function.txt", "sorting howto", "kernel changelog",
        "Python library reference",
      ])
    // Three words are no sentence: every full match first.
    let short = MeaningSearch.merged(
      words: words, meaning: meaning, typed: Array(typed.prefix(3)))
    #expect(short.prefix(3).map(\.id) == words.map(\.id))
  }

  /// A phrase of a script written without spaces is no word: it is held to
  /// a description's margins, not a word's.
  @Test func aPhraseWithoutSpacesIsNoWord() {
    #expect(MeaningSearch.isOneWord("Steuererklärung"))
    #expect(MeaningSearch.isOneWord("猫の写真"))
    #expect(!MeaningSearch.isOneWord("日付と時刻を扱う"))
    #expect(!MeaningSearch.isOneWord("tax return"))
  }
}
