import Foundation

/// How a tier of names is read: walked in the names' order, gathered and
/// sorted, or not at all, chosen from what the planner expects.
extension PostgresIndex {
  /// How a tier of names is read (``walk(_:severalWords:_:keep:best:rank:limit:_:passing:)``).
  enum WayToRead {
    /// In the order of the names, from the index of that order.
    case walk
    /// Every name that holds the word gathered from the names' index, and
    /// sorted.
    case gather
    /// Not at all: the query's names are ranked whole.
    case rankWhole
  }

  /// How to read the names that hold `word` (`severalWords`: all of
  /// several), from how many the planner expects it and `condition` to
  /// find (`passing`, asked once and kept there), and how many entries the
  /// store holds (``wayToRead(names:passing:entries:readLimit:skew:)``).
  func wayToRead(
    _ word: String, severalWords: Bool, _ condition: String, readLimit: Int,
    _ parameters: [String?], passing: inout Double?
  ) throws(PostgresError) -> WayToRead {
    // Asked apart: the two together, of the same words counted apart and
    // multiplied, are far too few (`arch`, 5,800 names of 100,000, and
    // again `arch`, 335).
    let names = try expectedRows("name_vector @@ \(word)", parameters)
    let entries = try expectedEntries()
    let skew = severalWords ? Self.walkSkewOfSeveralWords : Self.walkSkew
    let threshold = Self.walkThreshold(entries: entries, readLimit: readLimit, skew: skew)
    // (Of a quarter of the threshold or fewer names, gathering them costs
    // little whatever passes.)
    guard names > 0.25 * threshold else {
      return Self.wayToRead(
        names: names, passing: names, entries: entries, readLimit: readLimit, skew: skew)
    }
    if passing == nil { passing = try expectedRows(condition, parameters) }
    return Self.wayToRead(
      names: names, passing: passing ?? names, entries: entries, readLimit: readLimit, skew: skew)
  }

  /// How to read `names` that hold a word, of which `passing` pass the
  /// query's condition, among `entries`.
  ///
  /// A walk reads about `readLimit * entries / names` rows, times how
  /// late the names come: those that hold a prefix or two words are
  /// longer than most, so they come late in the names' order (84 of the
  /// 1,876 names that hold `gz chap` came after 38,800 of 100,000 rows).
  /// Gathering reads and sorts every name, a row costing about three of a
  /// walk's. So the names are walked when they are more than the square
  /// root of `skew * readLimit * entries` (``walkThreshold``), else
  /// gathered.
  ///
  /// Either reads `readLimit` names of each kind and keeps those that
  /// pass the condition: a page needs about a quarter of them to. When
  /// fewer than that pass (a filter few of the names pass: `gz
  /// type:image/*`, `holid ext:txt`), the tier falls short and the names
  /// are ranked whole after all; when those are few, they are ranked whole
  /// at once.
  static func wayToRead(
    names: Double, passing: Double, entries: Double, readLimit: Int, skew: Double = walkSkew
  ) -> WayToRead {
    let threshold = walkThreshold(entries: entries, readLimit: readLimit, skew: skew)
    if names > Double(readLimit) && 4 * passing < names && passing < threshold {
      return .rankWhole
    }
    return names >= threshold ? .walk : .gather
  }

  /// How many names make a walk cheaper than gathering them: the square
  /// root of `skew * readLimit * entries`. Over the benchmark's 90
  /// queries at 100,000 entries, a `walkSkew` of 2 was best (the slowest
  /// of them 103 -> 62 ms against walking every word); gathering every
  /// word made a common one slow (`gz` 34 -> 100 ms).
  static func walkThreshold(entries: Double, readLimit: Int, skew: Double = walkSkew) -> Double {
    (skew * Double(readLimit) * max(entries, 1)).squareRoot()
  }

  /// How many times more rows than a spread of names evenly through their
  /// order a walk is taken to read (``walkThreshold(entries:readLimit:skew:)``).
  static let walkSkew = 2.0

  /// The same for the names that hold each of several words, which are
  /// longer than most and come later in the order: at 892,000 entries the
  /// 21,332 names that hold `gz` and `chap…` had their first 175 after
  /// 164,882 rows (22 times an even spread). Walked, they took 444-562 ms;
  /// gathered and sorted, 173-287.
  static let walkSkewOfSeveralWords = 8.0

  /// Whether the names that hold any of a query's words (`anyWord`, a
  /// `tsquery` parameter) are better read from the rows its filters alone
  /// find (`filters`, of ``PostgresQuery/filtersAlone(of:after:)``), each
  /// checked for the words in its own row, than from the names' index:
  /// when an index gives those rows, and they are fewer than a
  /// ``filteredRowCost``-th of the names. At 892,000 entries, `h
  /// type:image/*` read the 298,000 names that hold `h` to keep those of
  /// 1,644 images (170 ms); `gz ext:txt`, 370,000 names for 8,553 texts
  /// (140-180 ms, against 12 ms read from those 8,553).
  func readsFiltersFirst(anyWord: String, filters: String, _ parameters: [String?])
    throws(PostgresError) -> Bool
  {
    if let forcedFiltersFirst { return forcedFiltersFirst }
    let filtered = try expectedPlan(filters, parameters)
    // A filter no index answers (a scan of every row: its cost the
    // planner's penalty for one it was told not to take).
    guard filtered.cost < Self.scanOfEveryRow else { return false }
    let names = try expectedRows("name_vector @@ \(anyWord)", parameters)
    return filtered.rows * Self.filteredRowCost < names
  }

  /// How many names' entries in the names' index cost one row read and
  /// checked (``readsFiltersFirst(anyWord:filters:_:)``): about 4 µs a row
  /// read from a filter's index and checked against 0.3-0.4 µs an entry
  /// of a word's bitmap, at 892,000 entries.
  static let filteredRowCost = 10.0

  /// A plan's cost from which it scans every row: the planner adds
  /// 10,000,000,000 to a plan of a kind the session turned off
  /// (`enable_seqscan`), which it takes only when no index will do.
  static let scanOfEveryRow = 1e9

  /// How many rows the planner expects `condition` (on `item`, of
  /// `parameters`) to find: its estimate, made without reading them.
  func expectedRows(_ condition: String, _ parameters: [String?]) throws(PostgresError)
    -> Double
  {
    try expectedPlan(condition, parameters).rows
  }

  /// How many rows the planner expects `condition` (on `item`, of
  /// `parameters`) to find, and at what cost, made without reading them.
  func expectedPlan(_ condition: String, _ parameters: [String?]) throws(PostgresError)
    -> (rows: Double, cost: Double)
  {
    let (sql, asked) = PostgresQuery.standalone(condition, parameters)
    let plan =
      try connection.execute("EXPLAIN (FORMAT JSON) SELECT 1 FROM item WHERE \(sql)", asked)
      .rows.first?.first ?? nil
    // [{"Plan": {"Node Type": …, "Total Cost": C, "Plan Rows": N, …}}]:
    // the first of each is the top node's (Foundation's JSON reader took
    // 50 ms to load).
    func number(_ key: String) -> Double {
      guard let plan, let found = plan.range(of: "\"\(key)\": ") else { return 0 }
      return Double(plan[found.upperBound...].prefix(while: { $0.isNumber || $0 == "." })) ?? 0
    }
    return (number("Plan Rows"), number("Total Cost"))
  }

  /// How many entries the planner expects the store to hold, asked again
  /// after a minute.
  func expectedEntries() throws(PostgresError) -> Double {
    let now = Date()
    if let (entries, asked) = entriesExpected, now.timeIntervalSince(asked) < 60 {
      return entries
    }
    let entries = try expectedRows("true", [])
    entriesExpected = (entries, now)
    return entries
  }
}
