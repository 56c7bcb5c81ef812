import Foundation
import GRDB
import LimelightModel
import LimelightPlatform
import LimelightQuery

/// The SQL of a search: its steps, tier by tier (``plan(_:typeIDs:)``), the
/// text and filters-alone steps, and counting.
extension SearchEngine {
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

  /// `ordered`: whether the index holds `item_order` (a first crawl's
  /// names pass goes without it, ``Schema/deferredIndexes``).
  func plan(_ query: QueryNode, typeIDs: [String: [Int64]] = [:], ordered: Bool = true) -> [Pass] {
    let now = Date().timeIntervalSince1970
    let (conditions, filterArguments) = Self.filterConditions(query, now: now)
    let filters = Self.filters(of: query)
    let narrowing = FilterNarrowing(filters: narrowsByFilters ? filters : [], typeIDs: typeIDs)
    guard let text = Self.rankedText(query) else {
      return [
        filtersAlone(
          conditions: conditions, arguments: filterArguments, narrowing: narrowing,
          ordered: ordered)
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
    // Words asked of names, keywords or paths alone are all in the name
    // index: the text tiers, which leave its items out, would find none
    // (and read every text holding the words to learn it: 100 ms for a
    // sentence's typed words in paths, which a reading with filters asks).
    let textTiers =
      Self.inNameColumnsAlone(text)
      ? [] : [wholeWords, words].compactMap { $0 }.map { narrowing.text($0, facets: true) }
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
        Crowding(
          index: "item_text", match: match.match,
          limit: match.check == nil ? rankedTextLimit : rankedPhraseLimit,
          leavingOut: whole?.check == nil ? whole?.match : nil),
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
  /// Without `item_order` (`ordered` false) its stretches are read and
  /// sorted, as SQLite finds best.
  func filtersAlone(
    conditions: String, arguments: [any DatabaseValueConvertible], narrowing: FilterNarrowing,
    ordered: Bool = true
  ) -> Pass {
    let inOrder = ordered ? "item INDEXED BY item_order" : "item"
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
            + " FROM \(inOrder)"
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
      select + " item.rowid IN (SELECT rowid FROM \(inOrder) WHERE 1"
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
}
