import LimelightModel

/// What a name's rank for a query is made of (``PostgresIndex/search``),
/// as conditions on a row: which of the first tiers it is in.
struct NameTiers {
  /// For each word, that the name itself holds it (not only its keywords).
  var own: [String] = []
  /// Each word's `tsquery` parameter: the word, or the words it may stand for.
  var terms: [String] = []
  /// That the name holds each word as typed.
  var holding: [String] = []
  /// The words typed, whole, as a `tsquery` parameter.
  var whole: String?
}

/// The first page of a word many names hold, read in the names' order.
extension PostgresIndex {
  /// The first `limit` names `condition` finds, as the whole ranking
  /// orders them, read tier by tier in the order of the names
  /// (``walk(_:severalWords:_:keep:best:rank:limit:_:passing:)``): `.page`; every name it finds
  /// when they are fewer (`.all`: the texts follow); `.unknown` when the
  /// names read cannot say.
  ///
  /// First the names that hold the words as typed and whole (`gz`), of
  /// the two best ranks. When they are all read and fall short (a prefix,
  /// `chap`, that few names hold whole), and `condition` asks the names
  /// alone (`namesAlone`: words and filters, the words found in names),
  /// the other names that hold every word, ranked, those that hold them
  /// as typed in the name itself first: the next rank of every name the
  /// query finds, as a name that lacks a word (its text holds it) ranks
  /// below them. Of one word (`everyName`), read to the end, they are all
  /// the names the query finds, and ranking them again is spared.
  func namesInOrder(
    _ tiers: NameTiers, _ condition: String, namesAlone: Bool, everyName: Bool, rank: String,
    limit: Int, _ parameters: [String?]
  ) throws(PostgresError) -> TierRead {
    guard let whole = tiers.whole, !tiers.holding.isEmpty else { return .unknown }
    let holds = tiers.holding.joined(separator: " AND ")
    let own = tiers.own.joined(separator: " AND ")
    let best = "\(holds) AND name_vector @@ \(whole)"
    // The rows `condition` finds, as the planner counts them: asked once
    // for both walks.
    var passing: Double?
    let first = try walk(
      whole, severalWords: tiers.holding.count > 1, condition, keep: best, best: own, rank: rank,
      limit: limit, parameters, passing: &passing)
    guard case .all(let hits) = first else { return first }
    guard namesAlone, !tiers.terms.isEmpty else { return .unknown }
    let terms =
      tiers.terms.count == 1 ? tiers.terms[0] : "(\(tiers.terms.joined(separator: " && ")))"
    switch try walk(
      terms, severalWords: tiers.terms.count > 1, condition, keep: "NOT (\(best))",
      best: "\(holds) AND \(own)", rank: rank, limit: limit - hits.count, parameters,
      passing: &passing)
    {
    case .page(let more): return .page(hits + more)
    case .all(let more) where everyName: return .all(hits + more)
    case .all, .unknown: return .unknown
    }
  }

  /// What a walk read of a tier: a page, the whole tier (fewer than a
  /// page), or too little to tell.
  enum TierRead {
    case page([Hit])
    case all([Hit])
    case unknown
  }

  /// The names `condition` finds that `keep` keeps, best first, read from
  /// those that hold `word` (a `tsquery` parameter) in the order of their
  /// names (`item_names_order`), changed in the last week and changed
  /// before apart, about three pages of each.
  ///
  /// A word a third of the names hold (`gz`) had every one of them ranked
  /// to show 20 (110 ms at 100,000 entries). Names alike in rank are in
  /// the order of `name_rank`, a recent change apart (``nameRank``), so
  /// when each kind was read to its end, or gave a page of names of the
  /// best rank (`best`), the page is the ranking's first. The names are
  /// walked in that order when many hold the word, else gathered from the
  /// names' index and sorted, or not read when few pass `condition`
  /// (``wayToRead(names:passing:entries:readLimit:skew:)``). Only `word`
  /// narrows what is read, as its count is one the planner knows (the
  /// query's other conditions, of the same words, counted apart,
  /// multiplied to a few rows and turned every plan to the names' index).
  func walk(
    _ word: String, severalWords: Bool, _ condition: String, keep: String, best: String,
    rank: String, limit: Int, _ parameters: [String?], passing: inout Double?
  ) throws(PostgresError) -> TierRead {
    guard limit > 0 else { return .page([]) }
    var parameters = parameters
    let readLimit = 3 * limit + 20
    parameters.append(String(readLimit))
    let read = "LIMIT $\(parameters.count)::int"
    parameters.append(String(limit))
    let page = "LIMIT $\(parameters.count)::int"
    let way: WayToRead
    if let forcedWay {
      way = forcedWay
    } else {
      way = try wayToRead(
        word, severalWords: severalWords, condition, readLimit: readLimit, parameters,
        passing: &passing)
    }
    guard way != .rankWhole else { return .unknown }
    // Walked in the order of the names, or gathered and sorted (the
    // query's condition is checked on the rows read alone: a text's words
    // checked on every row gathered cost 40 ms).
    let arms = [
      ("true", "modified > \(Self.weekAgo)"),
      ("false", "(modified <= \(Self.weekAgo) OR modified IS NULL)"),
    ].map { recent, changed in
      let holding = "item WHERE name_vector @@ \(word) AND \(changed)"
      // Gathered: the subquery kept whole (OFFSET 0) is read from the
      // names' index, not walked for the order outside it.
      let rows = way == .walk ? holding : "(SELECT * FROM \(holding) OFFSET 0) AS item"
      return """
        (SELECT *, \(recent) AS walked_recent FROM \(rows)
          ORDER BY name_rank, \(Self.tieBreak) \(read))
        """
    }
    func counts(_ rows: String) -> String {
      "(SELECT count(*) FILTER (WHERE walked_recent) || ' ' "
        + "|| count(*) FILTER (WHERE NOT walked_recent) FROM \(rows))"
    }
    let order = "\(Self.nameRank), \(Self.tieBreak)"
    // The counts on every row, and on one of empty columns when none is kept.
    let rows = try connection.execute(
      """
      WITH walked AS MATERIALIZED (\(arms.joined(separator: " UNION ALL "))),
        kept AS (SELECT * FROM walked AS item WHERE \(condition) AND \(keep)),
        page AS (SELECT \(Self.hitColumns(rank: rank)),
            row_number() OVER (ORDER BY \(rank) DESC, \(order)) AS place
          FROM kept AS item ORDER BY place \(page))
      SELECT page.*, \(counts("walked")), \(counts("kept AS item WHERE \(best)"))
      FROM (SELECT) AS one LEFT JOIN page ON true ORDER BY page.place
      """, parameters
    ).rows
    func numbers(_ column: Int) -> [Int] {
      (rows.first?[column] ?? "").split(separator: " ").compactMap { Int($0) }
    }
    let (walked, kept) = (numbers(11), numbers(12))
    guard walked.count == 2, kept.count == 2 else { return .unknown }
    let hits = try self.hits(ofRows: rows.filter { $0[0] != nil })
    // Each kind read to its end: every name of the tiers kept, however few.
    let readWhole = walked.allSatisfy({ $0 < readLimit })
    if readWhole && hits.count < limit { return .all(hits) }
    // Else each kind read to its end, or holding a page of the best rank.
    guard hits.count >= limit else { return .unknown }
    for arm in 0..<2 where walked[arm] >= readLimit && kept[arm] < limit { return .unknown }
    pagesInNameOrder += 1
    return .page(hits)
  }
}
