import Foundation
import GRDB
import LimelightModel
import LimelightPlatform
import LimelightQuery

/// One item found by a query.
public struct SearchResult: Sendable {
  public var rowID: Int64
  /// The index's own id (unique in the index).
  public var id: String
  /// The id its application gave an application item (unique in its domain).
  public var localID: String?
  public var domain: String
  public var uri: String
  public var path: RawPath?
  public var displayName: String
  public var contentType: String?
  public var kind: String?
  public var modified: Date?
  public var size: Int64?
  public var isFolder: Bool
  /// Where its thumbnail is, in the cache file managers share; nil when it has none.
  public var thumbnailPath: String?
  /// Lower is better: the rank that ordered the results.
  public var score: Double
  /// The host that holds it, for an entry of a shared store.
  public var host: String? = nil
  /// The words of the query it does not hold, when nothing held them all
  /// (``ReadingSearch``).
  public var unmatched: [String] = []
  /// Found by meaning alone (``SearchEngine/meaningMatches(_:floor:band:filters:limit:)``),
  /// not by its words.
  public var byMeaning = false

  public init(
    rowID: Int64, id: String, localID: String?, domain: String, uri: String, path: RawPath?,
    displayName: String, contentType: String?, kind: String?, modified: Date?, size: Int64?,
    isFolder: Bool, thumbnailPath: String?, score: Double, host: String? = nil
  ) {
    (self.rowID, self.id, self.localID, self.domain, self.uri) = (rowID, id, localID, domain, uri)
    (self.path, self.displayName, self.contentType, self.kind) = (
      path, displayName, contentType, kind
    )
    (self.modified, self.size, self.isFolder) = (modified, size, isFolder)
    (self.thumbnailPath, self.score, self.host) = (thumbnailPath, score, host)
  }
}

/// Runs queries against the index.
public struct SearchEngine: Sendable {
  public let store: IndexStore

  public init(store: IndexStore) { self.store = store }

  /// The best matches first; `limit` nil for all of them. `typos`: a word
  /// that matches nothing is read as a typo (false: the words as typed).
  public func search(_ query: QueryNode, limit: Int? = nil, typos: Bool = true) throws
    -> [SearchResult]
  {
    try searchAsRun(query, limit: limit, typos: typos).results
  }

  /// The best matches first, and the query as it ran (typos replaced by the
  /// words they stand for), which snippets are cut for.
  public func searchAsRun(_ query: QueryNode, limit: Int? = nil, typos: Bool = true) throws -> (
    results: [SearchResult], query: QueryNode
  ) {
    try store.read { db in
      try TextsRead.during { try searchAsRun(query, limit: limit, typos: typos, in: db) }
    }
  }

  private func searchAsRun(_ query: QueryNode, limit: Int?, typos: Bool, in db: Database) throws
    -> (results: [SearchResult], query: QueryNode)
  {
    let expanded = typos ? try TypoExpander(db: db).expand(query) : query
    if expanded == .nothing { return ([], expanded) }
    let typeIDs = try FilterNarrowing.typeIDs(of: Self.filters(of: expanded), in: db)
    let run = SearchRun(
      db: db, limit: limit, rankBandSplit: rankBandSplit, inOrderLimit: inOrderLimit,
      inOrderStretch: inOrderStretch)
    // Enough found: the next tier's crowding is not even asked (a
    // one-letter prefix's count merges the lists of every word it starts).
    for pass in plan(expanded, typeIDs: typeIDs) where !run.isDone { try run.run(pass) }
    return (run.results, expanded)
  }

  /// `LIMELIGHT_TRACE_SQL=1`: each statement of a search, its time and rows, on standard error.
  static let trace = getenv("LIMELIGHT_TRACE_SQL").map { String(cString: $0) == "1" } ?? false

  /// How many items match.
  public func count(_ query: QueryNode) throws -> Int {
    try store.read { db in
      let expanded = try TypoExpander(db: db).expand(query)
      let (sql, arguments) = countStatement(
        expanded, typeIDs: try FilterNarrowing.typeIDs(of: Self.filters(of: expanded), in: db))
      return try TextsRead.during {
        try Int.fetchOne(db, sql: sql, arguments: StatementArguments(arguments)) ?? 0
      }
    }
  }

  /// The item a URI names, as a result (for front ends that hand out URIs as
  /// ids and act on them later); nil when the index no longer holds it.
  public func result(uri: String) throws -> SearchResult? {
    try store.read { db in
      if let path = FileURI.path(from: uri),
        let row = try Row.fetchOne(
          db, sql: "SELECT \(Self.columns), 0.0 AS score FROM item WHERE path = ?",
          arguments: [Data(path.bytes)])
      {
        return Self.result(row)
      }
      return try Row.fetchOne(
        db, sql: "SELECT \(Self.columns), 0.0 AS score FROM item WHERE storedURI = ?",
        arguments: [uri]
      ).map(Self.result)
    }
  }

  /// Items removed after a generation: (id, uri) pairs, for `--live` followers.
  public func removals(after generation: Int64) throws -> [(id: String, uri: String)] {
    try store.read { db in
      try Row.fetchAll(
        db, sql: "SELECT id, uri FROM removal WHERE generation > ? ORDER BY generation",
        arguments: [generation]
      ).map { (id: $0["id"], uri: $0["uri"]) }
    }
  }

  /// The ids of the items written after a generation.
  public func changedIDs(after generation: Int64) throws -> [String] {
    try store.read { db in
      try String.fetchAll(
        db, sql: "SELECT id FROM item WHERE generation > ?", arguments: [generation])
    }
  }

  /// Of these ids, the ones whose items still exist.
  public func existing(ids: [String]) throws -> Set<String> {
    guard !ids.isEmpty else { return [] }
    return try store.read { db in
      var found: Set<String> = []
      try forEachParameterSlice(of: ids) { slice, marks in
        found.formUnion(
          try String.fetchAll(
            db, sql: "SELECT id FROM item WHERE id IN (\(marks))",
            arguments: StatementArguments(slice)))
      }
      return found
    }
  }

  /// A fragment of the item's text around the match, the matched words between
  /// `open` and `close`, or nil when the match is not in the text.
  public func snippet(for result: SearchResult, query: QueryNode, open: String, close: String)
    -> String?
  {
    guard let text = Self.positiveText(query) else { return nil }
    let snippet = try? store.read { db -> String? in
      // The item's own words complete the words typed as prefixes.
      guard
        let content = try String.fetchOne(
          db, sql: "SELECT content FROM item_text_source WHERE rowid = ?",
          arguments: [result.rowID]), !content.isEmpty
      else { return nil }
      let completions = Self.completions(in: content)
      guard let match = SQLCompiler.textMatch(text, completions: completions) else { return nil }
      return try String.fetchOne(
        db,
        sql: """
          SELECT snippet(item_text, 3, ?, ?, '…', 16) FROM item_text
          WHERE item_text MATCH ? AND rowid = ?
          """, arguments: [open, close, match.match, result.rowID])
    }
    guard let snippet, snippet.contains(open) else { return nil }
    return snippet.split(whereSeparator: \.isNewline).joined(separator: " ")
  }

  /// The words of a text that begin with a prefix, the first few found
  /// (a snippet shows 16 words).
  static func completions(in content: String) -> (String) -> [String] {
    // Split only when a prefix asks: a query of whole words needs none.
    var words: [String]?
    return { prefix in
      if words == nil { words = PhraseCheck.words(of: content) }
      var found: [String] = []
      var seen: Set<String> = []
      for word in words ?? [] where word.hasPrefix(prefix) && seen.insert(word).inserted {
        found.append(word)
        if found.count == 16 { break }
      }
      return found
    }
  }

  /// The parts ANDed at the top of a query.
  static func parts(of query: QueryNode) -> [QueryNode] {
    if case .and(let all) = query { return all }
    return [query]
  }

  /// The text that must match, ANDed at the top of the query (what FTS can rank).
  static func positiveText(_ query: QueryNode) -> QueryNode? {
    let text = parts(of: query).filter { SQLCompiler.ftsExpression($0) != nil }
    if text.isEmpty { return nil }
    return text.count == 1 ? text[0] : .and(text)
  }

  /// Whether a text is words ANDed (no alternative, no exclusion): every
  /// text its match finds holds each of its phrases, which the ranking then
  /// only counts.
  static func isConjunction(_ text: QueryNode) -> Bool {
    switch text {
    case .text: true
    case .and(let parts): parts.allSatisfy(isConjunction)
    default: false
    }
  }

  /// One SQL statement and its arguments.
  typealias Statement = SQLCompiler.Statement

  /// One step of a search: a statement that lists results in order, and
  /// what lists the same when the words are in more names or texts than the
  /// crowding's limit.
  struct Pass {
    var statement: Statement
    /// With no crowding, `instead` is taken whatever the indexes hold.
    var whenCrowded: (crowding: Crowding?, instead: Crowded)?
    /// It lists hidden items only: skipped when the index holds none (the
    /// usual case; a word with a filter no item passes read every text
    /// holding the word once more for them).
    var onlyHidden = false
    /// The crowding of a step whose words find no more than this one's:
    /// when that one is crowded, so is this, uncounted (a two-letter
    /// prefix's texts are gathered from every word it begins: 25 ms at
    /// 300,000 entries to count those of `gz *`, after `gz` was crowded).
    var crowdedWith: Crowding?
  }

  /// How a crowded step lists its results.
  enum Crowded {
    /// These statements, in turn.
    case statements([Statement])
    /// The statement made for the items the filters' terms hold
    /// (``FilterNarrowing/nameTerms``) when those are few, given what they
    /// count; the other statements otherwise. A common word with a filter
    /// few of its items pass (`gz kind:image`) read every text holding it,
    /// twice (the visible, then the hidden): 190 ms at 100,000 entries.
    case fewFiltered(Crowding, narrowed: Statement, otherwise: [Statement])
    /// One statement for each rank band of the name index (``ItemFacets``)
    /// the words' `match` has items in, best first, made from the band's
    /// expression.
    case byRankBand(match: String, (String) -> Statement)
    /// Filters alone (``SearchEngine/filtersAlone(conditions:arguments:narrowing:)``):
    /// the first items in their order checked row by row (`probe`, given
    /// size and offset; a `kind:` checked on the order's index); when too
    /// few pass and the filters have terms, the items holding them sorted
    /// (`holding`), after, when they are many (its crowding), stretches of
    /// the items of the kinds asked for (`ofKinds`, when any) and then of
    /// the items holding the terms (`stretch`) in order; with no terms,
    /// further stretches of the order, then every item that passes, sorted
    /// (`every`). Each reads at most ``SearchEngine/inOrderLimit`` items.
    /// With a least size (`leastSize`) that few items reach, `every` at
    /// once: the index of sizes lists them.
    case filtersAlone(
      probe: (_ size: Int, _ offset: Int) -> Statement,
      ofKinds: ((_ size: Int, _ offset: Int) -> Statement)?,
      stretch: (_ size: Int, _ offset: Int) -> Statement, leastSize: Double?,
      holding: (statement: Statement, crowding: Crowding)?, every: Statement)
  }

  /// More than `limit` rows of a full-text `index` match `match`.
  struct Crowding: Hashable {
    var index: String
    var match: String
    var limit: Int
  }

  /// Above this many names matching a tier's words, the tier lists them
  /// rank band by rank band instead of ranking every match (a sort of a
  /// few microseconds a row, after reading it; the bands stop at the
  /// results asked for).
  var rankedNameLimit = 5_000
  /// Above this many matches in a coarse rank band, a crowded tier reads it
  /// fine band by fine band.
  var rankBandSplit = 2_000

  /// Whether filters narrow the words' matches inside the full-text
  /// indexes (``FilterNarrowing``); off, they are checked on each match alone.
  var narrowsByFilters = true

  /// Whether a phrase's pairs of common words narrow its match in the text
  /// index (``SQLCompiler/commonWordPairs(_:exact:)``); off, its words alone.
  var pairsCommonWords = true

  /// At most this many items holding the filters' terms are read first, and
  /// the texts that match the words looked for among them, when the words
  /// are in many texts (an ephemeral index of their rows: a few milliseconds;
  /// `.txt` names a million entries give 14,000 of, and walking the texts
  /// of two common words for them instead took 100 ms a tier; 57,000
  /// images for `gz type:image/*`, 12 ms, where reading the rows of the
  /// texts holding `gz` took 190).
  var fewFilteredLimit = 100_000

  /// Above this many texts matching the words, their matches are listed newest
  /// first instead of by BM25 (`limelight_rank`, which reads only which
  /// columns hold each word: a few microseconds a row).
  var rankedTextLimit = 3_000

  /// Filters alone read at most this many items in their order (stretches
  /// of growing size) before they list every item that passes instead (a
  /// filter few items pass: `size:>1G`, or whose items cluster at the end of
  /// the order). Reading one costs about a microsecond.
  var inOrderLimit = 10_000
  /// The first stretch filters alone read, in items for each result asked for.
  var inOrderStretch = 10
  /// Filters alone whose terms are in at most this many items list those
  /// items sorted when the first items in order are not enough (a
  /// microsecond or so an item: 17,000 images of 300,000 entries in 12 ms,
  /// where walking the order for the few of them a second filter passes
  /// took 48); above it, stretches of them in order come first.
  var sortedFiltersLimit = 50_000

  static let columns = """
    item.rowid, item.id, item.localID, item.domain, item.uri, item.path, item.displayName,
    item.contentType, item.kind, item.modified, item.size, item.isFolder, item.thumbnailPath
    """

  /// Within a tier: the shorter name (names, keywords, paths) or BM25 (text),
  /// then shallow, opened often, changed in the last week; ties broken for good.
  static let order = " score + \(ItemRank.boost("item.")),\(tieBreak)"
  /// The same for name matches, by the column that holds it.
  static let nameOrder = " item.nameRank,\(tieBreak)"
  static let tieBreak = " item.modified DESC, item.displayName, item.rowid"
  static let nameScore = ItemRank.nameScore("item.")

  /// The statements that list the results, best first, run in turn until
  /// enough results are found (each gets a `LIMIT` for what is still missing).
  /// Queries whose words all fit the name index run tier by tier (name,
  /// keywords, path, text; hidden items after the others), so a common word
  /// stops after the names it matches instead of ranking every text that holds
  /// it; the rest run as one statement.
  /// The conditions on `item` of everything but the ranked text (filters,
  /// exclusions, predicates), each starting with " AND ", and unexpired items only.
  static func filterConditions(_ query: QueryNode, now: Double) -> Statement {
    var compiler = SQLCompiler()
    var conditions = ""
    for part in filters(of: query) {
      conditions += " AND " + compiler.condition(part)
    }
    conditions += " AND (item.expirationDate IS NULL OR item.expirationDate > ?)"
    return (conditions, compiler.arguments + [now])
  }

  /// The parts of a query that are not text the full-text indexes look up:
  /// filters, exclusions, predicates.
  static func filters(of query: QueryNode) -> [QueryNode] {
    parts(of: query).filter { SQLCompiler.ftsExpression($0) == nil }
  }

  func plan(_ query: QueryNode, typeIDs: [String: [Int64]] = [:]) -> [Pass] {
    let now = Date().timeIntervalSince1970
    let (conditions, filterArguments) = Self.filterConditions(query, now: now)
    let filters = Self.filters(of: query)
    let narrowing = FilterNarrowing(filters: narrowsByFilters ? filters : [], typeIDs: typeIDs)
    guard let text = Self.positiveText(query), SQLCompiler.ftsExpression(text) != nil else {
      return [
        filtersAlone(conditions: conditions, arguments: filterArguments, narrowing: narrowing)
      ]
    }
    // BM25 over the words each item holds (the text index records no
    // counts; FTS5's bm25() would read and split every matching text again),
    // more for those its name, keywords or path hold. The pairs of common
    // words and the narrowing's terms come last in the match, and are not
    // ranked.
    let fieldHits = StoredText.ofWords(
      "limelight_field_hits(w.name, w.keywords, w.path, ?)", row: "item_text.rowid")
    // `unranked`: the phrases after the words' own (the pairs', the
    // narrowing's, and a whole-word match left out through the index),
    // which it leaves out.
    let bm25 = { (unranked: Int) in
      "limelight_rank(item_text, \(unranked), \(fieldHits),"
        + " \(Self.isConjunction(text) ? 1 : 0))"
    }
    guard let words = SQLCompiler.textMatch(text, pairs: pairsCommonWords) else { return [] }
    guard SQLCompiler.fitsNames(text) else {
      return [
        textStep(
          narrowing.text(words), bm25: bm25,
          rest: (conditions, filterArguments),
          order: " item.hidden,\(Self.order)", crowdedOrder: " item.hidden, item_text.rowid DESC",
          narrowing: narrowing)
      ]
    }
    // The tiers, each a superset of the one before, whose items it leaves
    // out: names holding the words whole (when some word is a prefix), names
    // starting with them, then names or keywords, then names, keywords or paths.
    // A common word often fills the results from its first, cheapest tier.
    let exact =
      SQLCompiler.hasPrefix(text)
      ? SQLCompiler.nameMatch(text, within: "name", exact: true) : nil
    guard let anywhere = SQLCompiler.nameMatch(text) else { return [] }
    let tiers =
      ([exact].compactMap { $0 } + [
        SQLCompiler.nameMatch(text, within: "name") ?? anywhere,
        SQLCompiler.nameMatch(text, within: "{name keywords}") ?? anywhere, anywhere,
      ]).map(narrowing.names)
    let inNames = narrowing.names(anywhere).holdsItem()
    // The text tiers leave out every item the names hold the words of, and
    // with them every item without a text that matches: the facets only
    // items with a text hold in the text index narrow what is left.
    let wholeWords =
      SQLCompiler.hasPrefix(text)
      ? SQLCompiler.textMatch(text, exact: true, pairs: pairsCommonWords) : nil
    let textTiers = [wholeWords, words].compactMap { $0 }.map { narrowing.text($0, facets: true) }
    var passes: [Pass] = []
    for hidden in [0, 1] {
      for (tier, match) in tiers.enumerated() {
        var (inTier, arguments) = match.condition()
        var rest = ""
        if tier > 0 {
          let (inBefore, beforeArguments) = tiers[tier - 1].holdsItem()
          rest += " AND NOT \(inBefore)"
          arguments += beforeArguments
        }
        rest += " AND item.hidden = \(hidden)\(conditions) ORDER BY\(Self.nameOrder)"
        arguments += filterArguments
        let select = "SELECT \(Self.columns), \(Self.nameScore) AS score"
        let statement =
          select + " FROM item_name JOIN item ON item.rowid = item_name.rowid"
          + " WHERE \(inTier)" + rest
        passes.append(
          Pass(
            statement: (statement, arguments),
            // A word in very many names: the matches of the best ranked
            // names first, each band's sorted, until there are enough.
            whenCrowded: (
              Crowding(index: "item_name", match: match.match, limit: rankedNameLimit),
              .byRankBand(match: match.match) { band in
                (statement, ["(\(match.match)) AND \(band)"] + arguments.dropFirst())
              }
            ), onlyHidden: hidden == 1,
            crowdedWith: tier > 0 ? passes.last?.whenCrowded?.crowding : nil))
      }
      // Texts holding the words whole before those that hold only longer
      // words starting with them: the ranking counts which words an item
      // holds, not how often, and a whole word says more.
      for (tier, match) in textTiers.enumerated() {
        var step = textStep(
          match, leavingOut: tier > 0 ? textTiers.first : nil, bm25: bm25,
          rest: (
            " AND NOT \(inNames.sql) AND item.hidden = \(hidden)\(conditions)",
            inNames.arguments + filterArguments
          ), order: Self.order, crowdedOrder: " item_text.rowid DESC", narrowing: narrowing)
        step.onlyHidden = hidden == 1
        if tier > 0 { step.crowdedWith = passes.last?.whenCrowded?.crowding }
        passes.append(step)
      }
    }
    return passes
  }

  /// A step over the text index: the items `match` finds, but not those
  /// `leavingOut` finds, that pass `rest` (conditions on `item`, each
  /// starting with " AND "), ranked by `bm25` then `order`, or listed in
  /// `crowdedOrder` when the words are in many texts. A phrase's candidates
  /// are checked as the ranked list reaches them, until enough pass, not
  /// all before they are ranked: `"the quick"` has 2,500 texts to read at
  /// 300,000 entries, and the first 20 in rank all held it.
  func textStep(
    _ match: SQLCompiler.TextMatch, leavingOut whole: SQLCompiler.TextMatch? = nil,
    bm25 rank: (_ unranked: Int) -> String,
    rest: Statement, order: String, crowdedOrder: String, narrowing: FilterNarrowing
  ) -> Pass {
    var from = "FROM item_text JOIN item ON item.rowid = item_text.rowid WHERE item_text MATCH ?"
    var arguments: [any DatabaseValueConvertible] = [match.match]
    // The texts that hold the whole words are left out by the index alone
    // when it decides (FTS5's NOT, which walks both lists together: a list
    // of every text holding a common word, made to leave them out, cost
    // 10 ms at 300,000 entries); otherwise each candidate among them is
    // checked.
    var unranked = match.unrankedPhrases
    if let whole, whole.check == nil {
      arguments[0] = "(\(match.match)) NOT (\(whole.match))"
      // Its phrases come last: the words', then the pairs' and the
      // narrowing's again.
      unranked += whole.phraseCount + whole.unrankedPhrases
    }
    let bm25 = rank(unranked)
    from += rest.sql
    arguments += rest.arguments
    func checks(on row: String) -> Statement {
      var sql = ""
      var values: [any DatabaseValueConvertible] = []
      if let (check, checkArguments) = match.check(on: row) {
        sql += " AND \(check)"
        values += checkArguments
      }
      if let whole, let (check, checkArguments) = whole.check(on: row) {
        sql +=
          " AND NOT (\(row) IN (SELECT rowid FROM item_text WHERE item_text MATCH ?) AND \(check))"
        values += [whole.match] + checkArguments
      }
      return (sql, values)
    }
    let ranked = checks(on: "candidate")
    // `LIMIT -1` keeps the ranked list a subquery whose order SQLite keeps
    // and into which it pushes no condition: the checks run on its rows in
    // turn, and stop at the outer `LIMIT`.
    let statement: Statement =
      ranked.sql.isEmpty
      ? (
        "SELECT \(Self.columns), \(bm25) AS score \(from) ORDER BY\(order)",
        [match.words] + arguments
      )
      : (
        "SELECT * FROM (SELECT \(Self.columns), \(bm25) AS score, item.rowid AS candidate"
          + " \(from) ORDER BY\(order) LIMIT -1) WHERE 1\(ranked.sql)",
        [match.words] + arguments + ranked.arguments
      )
    let listed = checks(on: "item.rowid")
    return Pass(
      statement: statement,
      whenCrowded: (
        Crowding(index: "item_text", match: match.match, limit: rankedTextLimit),
        crowdedText(
          (
            "SELECT \(Self.columns), 0.0 AS score \(from)\(listed.sql)",
            arguments + listed.arguments
          ), order: " ORDER BY\(crowdedOrder)", narrowing: narrowing)
      ))
  }

  /// Filters alone (no match to score): the first items in their order
  /// (``ItemRank/filterOrder``) when enough of them pass; otherwise the items
  /// the filters' terms hold, sorted, or with no terms further stretches of
  /// the order and then every item that passes, sorted (``Crowded/filtersAlone``).
  func filtersAlone(
    conditions: String, arguments: [any DatabaseValueConvertible], narrowing: FilterNarrowing
  ) -> Pass {
    let select = "SELECT \(Self.columns), 0.0 AS score FROM item WHERE"
    // `+`: the rows found sorted, never read in the order's index row by
    // row (a filter few items pass would read every row, at random).
    let order = " ORDER BY +\(ItemRank.filterOrder("item."))"
    let inTerms = "SELECT rowid FROM item_name WHERE item_name MATCH ?"
    let terms = narrowing.nameTerms
    // The kinds asked for, checked on the order's index: only the rows of
    // items of those kinds are read.
    func kindCheck(_ table: String) -> String {
      narrowing.kinds.map { _ in " AND instr(\(table)kindClasses, ?) > 0" }.joined()
    }
    let kindArguments = narrowing.kinds.map { " \($0) " }
    // A stretch of the order's index, of the items holding `terms` when
    // given (told by the index alone, from the list of those items).
    func stretch(holding terms: String?) -> (Int, Int) -> Statement {
      { size, offset in
        (
          select + " item.rowid IN (SELECT walked.rowid FROM (SELECT rowid, kindClasses"
            + " FROM item INDEXED BY item_order"
            + (terms == nil ? "" : " WHERE rowid IN (\(inTerms))")
            + " ORDER BY \(ItemRank.filterOrder("")) LIMIT ? OFFSET ?) AS walked"
            + " WHERE 1\(kindCheck("walked.")))\(conditions)" + order,
          (terms.map { [$0] } ?? []) + [size, offset] + kindArguments + arguments
        )
      }
    }
    // A stretch of the items of the kinds asked for, in order: the index
    // alone skips the others (however many stand first), and the rows read
    // are never more than the stretch.
    let kindsSQL =
      select + " item.rowid IN (SELECT rowid FROM item INDEXED BY item_order WHERE 1"
      + kindCheck("") + " ORDER BY \(ItemRank.filterOrder("")) LIMIT ? OFFSET ?)\(conditions)"
      + order
    let ofKinds: ((Int, Int) -> Statement)? =
      narrowing.kinds.isEmpty
      ? nil
      : { size, offset in
        let stretchArguments: [any DatabaseValueConvertible] = [size, offset]
        return (kindsSQL, kindArguments + stretchArguments + arguments)
      }
    let every: Statement = (select + " 1\(conditions)" + order, arguments)
    let holding = terms.map { terms in
      (
        statement: (
          select + " item.rowid IN (\(inTerms))\(conditions)" + order, [terms] + arguments
        ) as Statement,
        crowding: Crowding(index: "item_name", match: terms, limit: sortedFiltersLimit)
      )
    }
    return Pass(
      statement: holding?.statement ?? every,
      whenCrowded: (
        nil,
        .filtersAlone(
          probe: stretch(holding: nil), ofKinds: ofKinds, stretch: stretch(holding: terms),
          leastSize: narrowing.leastSize,
          holding: holding, every: every)
      ))
  }

  /// A crowded text step: its matches newest first (`select`, whose
  /// conditions end it, then `order`), or, when the filters' own terms are
  /// in few items, only those among them.
  func crowdedText(_ select: Statement, order: String, narrowing: FilterNarrowing) -> Crowded {
    let plain = (select.sql + order, select.arguments)
    guard let terms = narrowing.nameTerms else { return .statements([plain]) }
    let narrowed = (
      // On the text index's row, checked before the item's row is read;
      // `+` keeps SQLite from looking each of those items up in the text
      // index instead (a prefix's match, parsed again for each: 46 s).
      select.sql
        + " AND +item_text.rowid IN (SELECT rowid FROM item_name WHERE item_name MATCH ?)" + order,
      select.arguments + [terms]
    )
    return .fewFiltered(
      Crowding(index: "item_name", match: terms, limit: fewFilteredLimit), narrowed: narrowed,
      otherwise: [plain])
  }

  /// The statement that counts the matches.
  func countStatement(_ query: QueryNode, typeIDs: [String: [Int64]] = [:]) -> Statement {
    let (conditions, filterArguments) = Self.filterConditions(
      query, now: Date().timeIntervalSince1970)
    let narrowing = FilterNarrowing(
      filters: narrowsByFilters ? Self.filters(of: query) : [], typeIDs: typeIDs)
    guard let text = Self.positiveText(query) else {
      return ("SELECT count(*) FROM item WHERE 1" + conditions, filterArguments)
    }
    // Not by the facets in the text index: only items with a text hold them.
    guard
      let (inText, textArguments) = SQLCompiler.textMatch(text).map({ narrowing.text($0) })?
        .condition()
    else {
      return ("SELECT 0", [])
    }
    return (
      "SELECT count(*) FROM item_text JOIN item ON item.rowid = item_text.rowid"
        + " WHERE \(inText)" + conditions, textArguments + filterArguments
    )
  }

  static func result(_ row: Row) -> SearchResult {
    let pathData: Data? = row[ItemTable.path]
    return SearchResult(
      rowID: row[ItemTable.rowID], id: row[ItemTable.id], localID: row[ItemTable.localID],
      domain: row[ItemTable.domain],
      uri: row[ItemTable.uri],
      path: pathData.map { RawPath(bytes: Array($0)) }, displayName: row[ItemTable.displayName],
      contentType: row[ItemTable.contentType], kind: row[ItemTable.kind],
      modified: (row[ItemTable.modified] as Double?).map { Date(timeIntervalSince1970: $0) },
      size: row[ItemTable.size], isFolder: row[ItemTable.isFolder],
      thumbnailPath: row[ItemTable.thumbnailPath],
      score: row["score"])
  }
}
