import Foundation
import LimelightModel
import LimelightPlatform
import Testing

@testable import LimelightQuery
@testable import LimelightStore

/// Filters narrowed inside the full-text indexes (extensions, folders, kinds
/// and months) find exactly what the filters checked on each item find, in
/// the same order, through every change that moves an item's facets.
@Suite struct FilterNarrowingTests {
  let store: IndexStore
  /// 2026-01-31 23:30 UTC: a month ends half an hour later.
  static let monthEnd = 1_769_902_200.0

  init() throws { store = try Fixtures.newStore() }

  static let extensions = [".txt", ".tar.gz", ".txt.gz", ".md", ".jpg", ".TXT", ".c", ""]
  static let folders = ["/h/docs/", "/h/docs2/", "/h/src/docs/", "/h/.cache/"]

  func record(_ i: Int) -> FileRecord {
    let path = Self.folders[i % 4] + "report \(i)" + Self.extensions[i % Self.extensions.count]
    // Some texts hold the words typed, others only longer ones they begin.
    let text = i % 3 == 0 ? "quarterly report figures" : i % 3 == 1 ? "quarterlies due" : nil
    var file = Fixtures.record(path, text: text)
    // Both sides of a month's end, a day before 1970, and none at all.
    file.attributes.modified =
      switch i % 5 {
      case 0: Date(timeIntervalSince1970: Self.monthEnd - Double(i) * 60)
      case 1: Date(timeIntervalSince1970: Self.monthEnd + Double(i) * 60)
      case 2: Date(timeIntervalSince1970: Self.monthEnd - 40 * 86_400)
      case 3: Date(timeIntervalSince1970: -86_400)
      default: nil
      }
    file.hidden = path.contains("/.")
    // A few are large: a least size that few reach, or most.
    file.attributes.size = i % 10 == 0 ? 1_000_000 : 10
    return file
  }

  static func word(_ text: String) -> QueryNode { .text(text, prefix: true, column: nil) }

  static let queries: [QueryNode] = {
    let filters: [Filter] = [
      .extensions(["txt"]), .extensions(["gz"]), .extensions(["tar.gz"]),
      .extensions(["jpg", "c"]), .kind(.text), .kind(.image), .kind(.archive), .kind(.app),
      .inFolder(RawPath("/h/docs")), .inFolder(RawPath("/h/src/docs/")), .inFolder(RawPath("/")),
      .range(.modified, lower: monthEnd - 86_400, upper: monthEnd + 1_800),
      .range(.modified, lower: monthEnd + 1_800, upper: monthEnd + 86_400),
      .range(.modified, lower: monthEnd - 50 * 86_400, upper: monthEnd - 30 * 86_400),
      .range(.modified, lower: -2 * 86_400, upper: 0),
      .range(.modified, lower: 0, upper: nil),
      // No terms to narrow by: filters alone read the items in order.
      .range(.size, lower: 0, upper: nil), .contentType("image/*"),
    ]
    var queries: [QueryNode] = []
    for filter in filters {
      queries.append(.and([word("rep"), .filter(filter)]))
      queries.append(.and([word("quarterly"), .filter(filter)]))
      queries.append(.and([word("quarter"), .filter(filter)]))
      queries.append(.filter(filter))
    }
    queries.append(
      .and([word("report"), .filter(.kind(.text)), .filter(.extensions(["txt"]))]))
    // Many of a kind, few of them as large (the index of sizes lists them).
    queries.append(.and([.filter(.kind(.text)), .filter(.range(.size, lower: 20, upper: nil))]))
    queries.append(.and([.filter(.kind(.text)), .filter(.range(.size, lower: 5, upper: nil))]))
    queries.append(.filter(.range(.size, lower: 20, upper: 2_000_000)))
    queries.append(.and([.filter(.kind(.text)), .not(.filter(.contentType("image/*")))]))
    // A type nothing is of: narrowed to no item at all.
    queries.append(.and([word("rep"), .filter(.contentType("audio/*"))]))
    queries.append(.and([word("rep"), .filter(.contentType("text/*"))]))
    queries.append(
      .and([word("rep"), .filter(.kind(.text)), .not(.filter(.extensions(["md"])))]))
    return queries
  }()

  /// Every query finds with narrowing, ranked or crowded, what it finds
  /// without: the same items in the same order.
  func expectNarrowingFindsTheSame(_ step: String) throws {
    var checked = SearchEngine(store: store)
    checked.narrowsByFilters = false
    checked.rankedNameLimit = .max
    checked.inOrderLimit = 0
    var crowded = SearchEngine(store: store)
    crowded.rankedNameLimit = 3
    crowded.rankBandSplit = 2
    // Filters alone read in order (a probe of one item a result, then
    // stretches four times longer, or 30 of the items holding the terms):
    // some find enough, others list every match.
    crowded.inOrderLimit = 30
    crowded.inOrderStretch = 1
    crowded.sortedFiltersLimit = 3
    // Texts crowded (listed newest first), the filters' items read first
    // or not: the same list.
    var crowdedTexts = SearchEngine(store: store)
    crowdedTexts.rankedTextLimit = 1
    crowdedTexts.fewFilteredLimit = 0
    var fewFiltered = crowdedTexts
    fewFiltered.fewFilteredLimit = 1_000
    var found = 0
    for query in Self.queries {
      for limit in [nil, 4] {
        let expected = try checked.search(query, limit: limit).map(\.id)
        found += expected.count
        let narrowedResults = try SearchEngine(store: store).search(query, limit: limit)
        let narrowed = narrowedResults.map(\.id)
        #expect(narrowed == expected, "\(step): \(query) limit \(String(describing: limit))")
        // The narrowing's terms are not ranked: the same scores.
        #expect(
          narrowedResults.map(\.score) == (try checked.search(query, limit: limit).map(\.score)),
          "\(step): scores of \(query)")
        #expect(try crowded.search(query, limit: limit).map(\.id) == expected, "\(step): \(query)")
        let newestFirst = try crowdedTexts.search(query, limit: limit).map(\.id)
        #expect(
          try fewFiltered.search(query, limit: limit).map(\.id) == newestFirst, "\(step): \(query)")
        #expect(Set(newestFirst).count == newestFirst.count)
        if limit == nil { #expect(Set(newestFirst) == Set(expected), "\(step): \(query)") }
      }
      #expect(try SearchEngine(store: store).count(query) == checked.count(query))
    }
    #expect(found > 100)
  }

  @Test func narrowedFiltersFindWhatCheckedOnesFind() throws {
    try store.write { writer in
      for i in 0..<80 { try writer.upsert(record(i)) }
      var note = IndexItem(
        id: "n1", domain: "com.example.notes", uri: "notes://n1",
        attributes: AttributeSet(displayName: "report of the year"))
      note.attributes.modified = Date(timeIntervalSince1970: Self.monthEnd)
      try writer.upsert(applicationItem: note)
    }
    try expectNarrowingFindsTheSame("written")
    // New times move files to other months; a file renamed to another
    // extension; a folder moved; a file read again as another kind.
    try store.write { writer in
      for i in stride(from: 0, to: 80, by: 7) {
        let file = record(i)
        var status = file.status
        status.modified = Int64((Self.monthEnd + 3_600) * 1e9)
        try writer.updateMetadata(path: file.path, status: status, keywords: ["moved"])
      }
      try writer.move(
        from: RawPath("/h/docs/report 0.txt"), to: RawPath("/h/docs/report 0.jpg"),
        hidden: { _ in false })
      try writer.move(from: RawPath("/h/src"), to: RawPath("/h/docs/src"), hidden: { _ in false })
      var image = record(9)
      image.attributes.contentType = "image/png"
      image.attributes.contentTypeTree = ["image/png", "image"]
      try writer.upsert(image)
    }
    try expectNarrowingFindsTheSame("changed")
    // Ranks move: a file opened, the recent ones no longer recent. Only the
    // name index holds the rank's facet; the text index is checked whole.
    let opened = try SearchEngine(store: store).search(Self.word("quarterly"), limit: 3)
    for result in opened { try store.recordUse(id: result.id) }
    try store.write { writer in
      try writer.expireRecency(now: Date(timeIntervalSince1970: Self.monthEnd + 400 * 86_400))
    }
    try expectNarrowingFindsTheSame("used")
    try store.write { writer in
      for table in ["item_name", "item_text"] {
        try writer.db.execute(
          sql: "INSERT INTO \(table) (\(table), rank) VALUES ('integrity-check', 1)")
      }
    }
  }

  /// `type:` finds the types its pattern matches in the list of them, and
  /// then their items: every item whose tree matches, an application's
  /// item without a type of its own too, through a change of type.
  @Test func contentTypesAreFoundThroughTheirList() throws {
    func file(_ path: String, _ tree: [String]) -> FileRecord {
      var file = Fixtures.record(path, text: nil)
      file.attributes.contentType = tree[0]
      file.attributes.contentTypeTree = tree
      return file
    }
    try store.write { writer in
      try writer.upsert(file("/h/a.png", ["image/png", "image/*"]))
      try writer.upsert(file("/h/b.svg", ["image/svg+xml", "application/xml", "text/*"]))
      try writer.upsert(file("/h/c.txt", ["text/plain", "text/*"]))
      var note = IndexItem(
        id: "n1", domain: "com.example.sketches", uri: "sketch://n1",
        attributes: AttributeSet(displayName: "sketch"))
      note.attributes.contentTypeTree = ["image/x-sketch", "image/*"]
      try writer.upsert(applicationItem: note)
    }
    func names(_ pattern: String, negated: Bool = false) throws -> Set<String> {
      let filter = QueryNode.filter(.contentType(pattern))
      return Set(
        try SearchEngine(store: store).search(negated ? .not(filter) : filter, limit: nil)
          .map(\.displayName))
    }
    #expect(try names("image/*") == ["a.png", "b.svg", "sketch"])
    #expect(try names("text/*") == ["b.svg", "c.txt"])
    #expect(try names("image/x-sketch") == ["sketch"])
    #expect(try names("image/*", negated: true) == ["c.txt"])
    #expect(try names("audio/*").isEmpty)
    try store.write { writer in
      try writer.upsert(file("/h/b.svg", ["text/plain", "text/*"]))
    }
    #expect(try names("image/*") == ["a.png", "sketch"])
    #expect(try names("text/plain") == ["b.svg", "c.txt"])
  }

  @Test func monthsAreCountedInUTCAndBoundedInNumber() {
    #expect(ItemFacets.month(of: 0) == 0)
    #expect(ItemFacets.month(of: Self.monthEnd) == 56 * 12 + 0)
    #expect(ItemFacets.month(of: Self.monthEnd + 1_800) == 56 * 12 + 1)
    #expect(ItemFacets.month(of: -1) == -1)
    // 2000-02-29 and 2100-03-01 (not a leap year).
    #expect(ItemFacets.civilDate(daysSince1970: 11_016) == (2000, 2))
    #expect(ItemFacets.civilDate(daysSince1970: 47_541) == (2100, 3))
    #expect(ItemFacets.monthTerms(from: 0, to: Self.monthEnd)?.count == nil)
    #expect(ItemFacets.monthTerms(from: Self.monthEnd, to: Self.monthEnd + 86_400)?.count == 2)
    #expect(ItemFacets.monthTerms(from: -86_400, to: 86_400) == nil)
    #expect(ItemFacets.kindTerm("text") != ItemFacets.kindTerm("code"))
    // Rank bands never go down as the rank grows, and the terms sort as the bands.
    let ranks = stride(from: -60.0, through: 60.0, by: 0.013).map { $0 } + [-.infinity, .infinity]
    let sorted = ranks.sorted()
    let bands = sorted.map { ItemFacets.band(of: $0) }
    #expect(zip(bands, bands.dropFirst()).allSatisfy { $0 <= $1 })
    let terms = sorted.map { ItemFacets.rankTerm($0) }
    #expect(
      zip(terms, terms.dropFirst()).allSatisfy {
        Array($0.utf8).lexicographicallyPrecedes(Array($1.utf8)) || $0 == $1
      })
    #expect(
      ItemFacets.rankBands.count == 100 && ItemFacets.rankBands.allSatisfy { $0.fine.count == 25 })
    #expect(ItemFacets.kindTerm("unknown") == nil)
  }
}
