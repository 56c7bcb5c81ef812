import Foundation
import GRDB
import LimelightQuery

/// One search as it runs: the steps of its plan in turn, each asked once
/// whether its words are crowded, and the results so far.
final class SearchRun {
  let db: Database
  let limit: Int?
  let rankBandSplit: Int
  let inOrderLimit: Int
  let inOrderStretch: Int
  private(set) var results: [SearchResult] = []
  /// Whether the words are in that many names or texts (a count that stops
  /// there, cheap with the prefix indexes), asked once for each match: the
  /// visible and the hidden passes share the answer. The words alone: a
  /// phrase's candidates are enough to tell.
  private var crowded: [SearchEngine.Crowding: Bool] = [:]
  /// The matches known to be none (their count said so): a step whose
  /// crowding's match finds nothing lists nothing, and is not run (a
  /// two-letter prefix's texts are gathered from every word it begins,
  /// for the count and again for the step: 9 ms each at 100,000 entries).
  private var empty: Set<SearchEngine.Crowding> = []
  private var occupied: [(coarse: String, fine: [String])]?

  init(db: Database, limit: Int?, rankBandSplit: Int, inOrderLimit: Int, inOrderStretch: Int) {
    self.db = db
    self.limit = limit
    self.rankBandSplit = rankBandSplit
    self.inOrderLimit = inOrderLimit
    self.inOrderStretch = inOrderStretch
  }

  /// Whether the results asked for are all found.
  var isDone: Bool { limit.map { results.count >= $0 } ?? false }

  /// Whether the index holds any hidden item, asked once: a seek in the
  /// index of hidden items (without it, a scan of every item: 15 ms at
  /// 100,000).
  private var holdsHidden: Bool?

  /// Runs one step of the plan, until the results asked for are found.
  func run(_ pass: SearchEngine.Pass) throws {
    if pass.onlyHidden {
      if holdsHidden == nil {
        holdsHidden =
          try Bool.fetchOne(
            db, sql: "SELECT EXISTS (SELECT 1 FROM item INDEXED BY item_hidden WHERE hidden = 1)")
          ?? true
      }
      if holdsHidden == false { return }
    }
    if let narrower = pass.crowdedWith, crowded[narrower] == true,
      let crowding = pass.whenCrowded?.crowding
    {
      crowded[crowding] = true
    }
    guard let instead = pass.whenCrowded, try instead.crowding.map(isCrowded) ?? true else {
      if let crowding = pass.whenCrowded?.crowding, empty.contains(crowding) { return }
      try run(pass.statement)
      return
    }
    switch instead.instead {
    case .statements(let statements):
      for statement in statements where !isDone { try run(statement) }
    case .fewFiltered(let filtered, let narrowed, let otherwise):
      if try isCrowded(filtered) {
        for statement in otherwise where !isDone { try run(statement) }
      } else {
        try run(narrowed)
      }
    case .byRankBand(let match, let statement):
      // Best bands first; a coarse band with few matches sorted at once,
      // one with many fine band by fine band.
      for band in try occupiedBands() where !isDone {
        let count = try matches(
          "(\(match)) AND \(band.coarse)", atMost: rankBandSplit + 1)
        if count == 0 { continue }
        if count <= rankBandSplit {
          try run(statement(band.coarse))
        } else {
          for fine in band.fine where !isDone { try run(statement(fine)) }
        }
      }
    case .filtersAlone(let probe, let ofKinds, let stretch, let leastSize, let holding, let every):
      try runFiltersAlone(
        probe: probe, ofKinds: ofKinds, stretch: stretch, leastSize: leastSize, holding: holding,
        every: every)
    }
  }

  /// Filters alone (``SearchEngine/Crowded/filtersAlone``): each way tried
  /// lists the matches in the same order, and one that does not find enough
  /// gives way to the next, which lists them again from the start.
  private func runFiltersAlone(
    probe: (Int, Int) -> SearchEngine.Statement, ofKinds: ((Int, Int) -> SearchEngine.Statement)?,
    stretch: (Int, Int) -> SearchEngine.Statement, leastSize: Double?,
    holding: (statement: SearchEngine.Statement, crowding: SearchEngine.Crowding)?,
    every: SearchEngine.Statement
  ) throws {
    guard let limit, inOrderLimit > 0 else { return try run(holding?.statement ?? every) }
    let before = results.count
    func startOver() { results.removeSubrange(before...) }
    let first = max(1, inOrderStretch * limit)
    // Stretches of the order, each four times the one before, from `offset`
    // until `inOrderLimit` are read.
    func stretches(_ make: (Int, Int) -> SearchEngine.Statement, from offset: Int) throws {
      var offset = offset
      var size = first * (offset == 0 ? 1 : 4)
      while !isDone && offset < inOrderLimit {
        size = min(size, inOrderLimit - offset)
        try run(make(size, offset))
        offset += size
        size *= 4
      }
    }
    try run(probe(first, 0))
    if isDone { return }
    // Few items reach the least size asked for (`kind:code size:>1G`:
    // 340,000 items of code at a million, none that large): the index of
    // sizes lists them, sorted at once.
    if let leastSize, try itemsReach(leastSize, atMost: inOrderLimit) {
      startOver()
      return try run(every)
    }
    guard let holding else {
      try stretches(probe, from: first)
      if !isDone {
        startOver()
        try run(every)
      }
      return
    }
    // Few items hold the terms: sorted at once. Many: the items of the
    // kinds asked for in order (told by the index: `kind:text` behind
    // 131,000 newer archives), then the items holding the terms in order
    // (a list of them all made for each stretch: 90 ms for 436,000 texts),
    // before they are sorted.
    if try isCrowded(holding.crowding) {
      if let ofKinds {
        startOver()
        try stretches(ofKinds, from: 0)
        if isDone { return }
      }
      startOver()
      try stretches(stretch, from: 0)
      if isDone { return }
    }
    startOver()
    try run(holding.statement)
  }

  /// Whether at most `limit` items are of `size` bytes or more, told by the
  /// index of sizes alone.
  private func itemsReach(_ size: Double, atMost limit: Int) throws -> Bool {
    let count = try Int.fetchOne(
      db, sql: "SELECT count(*) FROM (SELECT 1 FROM item WHERE size >= ? LIMIT ?)",
      arguments: [size, limit + 1])
    return (count ?? 0) <= limit
  }

  func isCrowded(_ crowding: SearchEngine.Crowding) throws -> Bool {
    if let known = crowded[crowding] { return known }
    if crowding.limit == .max { return false }
    // Few enough by the prefix index's short prefixes, fewer still by the
    // longer ones: a word typed as a prefix past the prefix index's length
    // has FTS5 merge the rows of every term it begins, once to count them
    // and again to rank them ("test gard": 26 ms each on the corpus).
    if crowding.index == "item_text", let wider = Self.widened(crowding.match) {
      let count = try matches(wider, in: crowding.index, atMost: crowding.limit + 1)
      if count <= crowding.limit {
        crowded[crowding] = false
        // None by the wider match (less what the step leaves out), none by
        // this one: its step is not run. A sentence's subsets, each a
        // statement that merged the terms its last word begins to find
        // nothing besides the whole word's texts: 3 to 7 ms apiece.
        let rest = try crowding.leavingOut.map {
          try matches("(\(wider)) NOT (\($0))", in: crowding.index, atMost: 1)
        }
        if count == 0 || rest == 0 { empty.insert(crowding) }
        return false
      }
    }
    let count = try matches(crowding.match, in: crowding.index, atMost: crowding.limit + 1)
    crowded[crowding] = count > crowding.limit
    if count == 0 { empty.insert(crowding) }
    return count > crowding.limit
  }

  /// A text match with each prefix longer than the text index's prefix
  /// indexes cut to the longest's length: it matches every item the match
  /// does, and more. nil when no such prefix is longer, or when the match
  /// leaves anything out (a wider NOT would match fewer).
  static func widened(_ match: String) -> String? {
    guard !match.contains(" NOT ") else { return nil }
    var widened = ""
    var changed = false
    var rest = match[...]
    // A quoted word followed by " *": its quotes doubled inside, as
    // SQLCompiler writes them.
    while let open = rest.firstIndex(of: "\"") {
      widened += rest[..<open]
      var close = rest.index(after: open)
      while close < rest.endIndex {
        if rest[close] == "\"" {
          let next = rest.index(after: close)
          if next < rest.endIndex && rest[next] == "\"" {
            close = rest.index(after: next)
            continue
          }
          break
        }
        close = rest.index(after: close)
      }
      guard close < rest.endIndex else { return nil }
      let word = rest[rest.index(after: open)..<close]
      let after = rest[rest.index(after: close)...]
      // Words of ASCII letters and digits only: their first letters are
      // the first letters of their folding.
      let plain = word.utf8.allSatisfy {
        (0x30...0x39).contains($0) || (0x41...0x5A).contains($0) || (0x61...0x7A).contains($0)
      }
      if after.hasPrefix(" *"), plain, let longest = textPrefixLengths.last, word.count > longest {
        widened += "\"" + word.prefix(longest) + "\""
        changed = true
      } else {
        widened += rest[open...close]
      }
      rest = after
    }
    widened += rest
    return changed ? widened : nil
  }

  /// The lengths of the prefixes the text index keeps an index of
  /// (`prefix = '3 4'`), shortest first. A prefix of such a length is one
  /// list of rows; a longer one has FTS5 merge the rows of every term it
  /// begins, for each statement that asks (`html lett`: 428 terms, 9 ms
  /// each time on the corpus, against 1 ms with the four letters indexed).
  static let textPrefixLengths = [3, 4]

  /// The coarse rank bands that hold any item, asked once (100 lookups of
  /// one term: 2 ms at a million entries; the same with the words ANDed
  /// took 11).
  func occupiedBands() throws -> [(coarse: String, fine: [String])] {
    if let occupied { return occupied }
    let bands = try ItemFacets.rankBands.filter { try matches($0.coarse, atMost: 1) > 0 }
    occupied = bands
    return bands
  }

  /// How many rows of a full-text index match, counted as far as `limit`.
  func matches(_ match: String, in index: String = "item_name", atMost limit: Int) throws -> Int {
    let started = SearchEngine.trace ? Date() : nil
    let sql = "SELECT count(*) FROM (SELECT rowid FROM \(index) WHERE \(index) MATCH ? LIMIT ?)"
    let count = try Int.fetchOne(db.cachedStatement(sql: sql), arguments: [match, limit]) ?? 0
    if let started { trace(started, "count \(count)", "\(index) \(match)") }
    return count
  }

  /// Runs a statement for what is still missing, and keeps its results.
  func run(_ statement: SearchEngine.Statement) throws {
    let (sql, passArguments) = statement
    let remaining = limit.map { $0 - results.count }
    var arguments = passArguments
    let started = SearchEngine.trace ? Date() : nil
    // Prepared once per connection: the watcher's query service keeps its
    // connections, and a search's statements take about as long to compile
    // as a selective one takes to run. Values are bound, never spliced in,
    // so that the cache holds one statement per shape of query.
    if let remaining { arguments.append(remaining) }
    let rows = try Row.fetchAll(
      db.cachedStatement(sql: sql + (remaining == nil ? "" : " LIMIT ?")),
      arguments: StatementArguments(arguments))
    results += rows.map(SearchEngine.result)
    if let started { trace(started, "\(rows.count) rows", "\(sql) \(arguments)") }
  }

  private func trace(_ started: Date, _ outcome: String, _ what: String) {
    SearchEngine.traceLine(since: started, outcome, what)
  }
}
