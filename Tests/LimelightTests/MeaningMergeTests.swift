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

  /// Full matches first; then the partial matches meaning found too, in
  /// meaning's order; meaning's others; the other partial matches last.
  @Test func twoKindsOfEvidenceComeBeforeOne() {
    let words = [
      result("full"), result("partial-a", lacking: ["x"]), result("partial-b", lacking: ["y"]),
      result("partial-c", lacking: ["x"]),
    ]
    let meaning = ["near", "partial-c", "full", "partial-a"].map { result($0, byMeaning: true) }
    let merged = MeaningSearch.merged(words: words, meaning: meaning)
    #expect(
      merged.map(\.id) == ["full", "partial-c", "partial-a", "near", "partial-b"])
    // What the words found partly keeps what they said it lacks.
    #expect(merged[1].unmatched == ["x"] && !merged[1].byMeaning)
    #expect(merged[3].byMeaning)
    // No words: meaning alone.
    #expect(MeaningSearch.merged(words: [], meaning: meaning).map(\.id) == meaning.map(\.id))
  }
}
