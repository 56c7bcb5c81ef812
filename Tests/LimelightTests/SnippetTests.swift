import Foundation
import LimelightModel
import LimelightPlatform
import Testing

@testable import LimelightQuery
@testable import LimelightStore

/// Snippets cut from an item's text around what the query matched, with
/// words typed as prefixes completed from the item's own words.
@Suite struct SnippetTests {
  let store: IndexStore

  init() throws {
    store = try Fixtures.newStore()
    try store.write { writer in
      try writer.upsert(
        Fixtures.record(
          "/h/notes.txt",
          text: "Minutes of the meeting. The cathedral roof needs repair; "
            + "the Café Crème budget was approved. Catalogues follow."))
      try writer.upsert(Fixtures.record("/h/cabin.txt", text: "nothing to see here"))
      // Many other words beginning with the same letters, elsewhere.
      for i in 0..<200 {
        try writer.upsert(Fixtures.record("/h/other\(i).txt", text: "cable\(i) cap\(i) repo\(i)"))
      }
    }
  }

  func snippet(_ query: String, in path: String = "/h/notes.txt") throws -> String? {
    var parser = QueryParser(home: RawPath("/h"))
    let node = try parser.parse(query)
    let engine = SearchEngine(store: store)
    let (results, ran) = try engine.searchAsRun(node, limit: 500)
    let result = try #require(results.first { $0.path == RawPath(path) })
    return engine.snippet(for: result, query: ran, open: "[", close: "]")
  }

  @Test func shortPrefixesAreCompletedFromTheItemsWords() throws {
    let one = try #require(try snippet("c"))
    #expect(one.contains("[cathedral]"))
    #expect(one.contains("[Café]"))
    #expect(one.contains("[Crème]"))
    #expect(try snippet("cat")?.contains("[cathedral]") == true)
    #expect(try snippet("cat")?.contains("[Catalogues]") == true)
    #expect(try snippet("cat")?.contains("[Café]") == false)
  }

  @Test func wordsPhrasesAndAccents() throws {
    #expect(try snippet("repair")?.contains("[repair]") == true)
    #expect(try snippet("cafe creme")?.contains("[Café] [Crème]") == true)
    #expect(try snippet("\"roof needs\"")?.contains("[roof] [needs]") == true)
    #expect(try snippet("meeting rep")?.contains("[repair]") == true)
  }

  @Test func noSnippetWhenOnlyTheNameMatched() throws {
    #expect(try snippet("cabin", in: "/h/cabin.txt") == nil)
    #expect(try snippet("ca", in: "/h/cabin.txt") == nil)
  }
}
