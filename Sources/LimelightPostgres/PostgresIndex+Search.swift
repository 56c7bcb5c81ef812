import Foundation
import LimelightModel
import LimelightPlatform
import LimelightQuery

/// The store searched: the entries a query finds, ranked as the local index
/// ranks them, typos read as it reads them.
extension PostgresIndex {
  /// The entries `query` finds, best first: names that hold its words
  /// above texts that do, then the newest (`limit` nil: all of them). When
  /// its words find nothing, each is tried again with the words of names
  /// it may be a typo or an abbreviation of (`NearWords`).
  /// `typos` false: the words as typed alone.
  public func search(_ query: QueryNode, limit: Int?, typos: Bool = true) throws(PostgresError)
    -> [Hit]
  {
    var known: [String: [String]] = [:]
    return try search(query, limit: limit, typos: typos, closeWordsKnown: &known)
  }

  /// The same, one of several searches of one reading
  /// (``ReadingSearch``): the words of names each typed word may stand for
  /// are read once for all of them, and kept in `known`. The subsets of a
  /// sentence nothing holds whole read them again for each: two
  /// statements of 40 to 100 ms a word at 355,000 entries, 3.8 s for
  /// "programar tareas para que se ejecuten cada noche".
  public func search(
    _ query: QueryNode, limit: Int?, typos: Bool = true,
    closeWordsKnown known: inout [String: [String]]
  ) throws(PostgresError) -> [Hit] {
    let query = Self.shortWordsWhole(query)
    let pairs = try pairsComplete()
    let strict = try searchOnce(query, limit: limit, typos: false, pairs: pairs)
    guard strict.isEmpty, typos, let read = try self.typos(of: query, pairs: pairs, known: &known)
    else { return strict }
    return try searchOnce(query, limit: limit, typos: true, pairs: pairs, closeWordsRead: read)
  }

  /// Whether `query` finds any entry, its typos read as
  /// ``search(_:limit:typos:closeWordsKnown:)`` reads them (and kept in
  /// `known` with theirs): what a reading asks of each word of a sentence
  /// nothing holds whole before it searches their subsets. A search of one
  /// result took 40 to 80 ms a word at 355,000 entries (its names walked
  /// in their order, then its texts), the look-up of any one entry takes
  /// a few.
  public func holdsAny(_ query: QueryNode, closeWordsKnown known: inout [String: [String]])
    throws(PostgresError) -> Bool
  {
    let query = Self.shortWordsWhole(query)
    let pairs = try pairsComplete()
    func exists(_ read: [String: [String]]?) throws(PostgresError) -> Bool {
      var compiled = PostgresQuery(closeWords: read == nil ? nil : closeWords, usesPairs: pairs)
      compiled.closeWordsRead = read ?? [:]
      let condition = try compiled.condition(query)
      guard let halves = try Self.halves(of: query, compiled, condition) else {
        return try connection.execute(
          "SELECT EXISTS (SELECT 1 FROM item WHERE \(condition))", compiled.parameters
        ).rows.first?.first == "t"
      }
      return try connection.execute(
        """
        SELECT EXISTS (SELECT 1 FROM item WHERE \(halves.names))
          OR EXISTS (SELECT 1 FROM item WHERE \(halves.texts))
        """, halves.parameters
      ).rows.first?.first == "t"
    }
    if try exists(nil) { return true }
    guard let read = try typos(of: query, pairs: pairs, known: &known) else { return false }
    return try exists(read)
  }

  /// The words of names each typed word of `query` may stand for, read
  /// (or taken from `known`, which keeps them); nil when none may be a
  /// typo (none of three letters or more, or none close to a word of a
  /// name): the query would compile as it was typed, and be asked again
  /// alike, half the time of a query that finds nothing.
  private func typos(
    of query: QueryNode, pairs: Bool, known: inout [String: [String]]
  ) throws(PostgresError) -> [String: [String]]? {
    var forgiving = PostgresQuery(closeWords: closeWords, usesPairs: pairs)
    forgiving.closeWordsKnown = known
    _ = try forgiving.condition(query)
    known.merge(forgiving.closeWordsRead) { kept, _ in kept }
    let read = forgiving.closeWordsRead
    return read.values.contains(where: { !$0.isEmpty }) ? read : nil
  }

  /// Whether every entry sent before the store kept pairs of common words
  /// (store migration v7) was sent again with them: no host is still to
  /// send its entries again. A host joining sends its pairs with its
  /// entries, and only slows phrases until it is done.
  func pairsComplete() throws(PostgresError) -> Bool {
    try connection.execute("SELECT NOT EXISTS (SELECT 1 FROM host WHERE index_id IS NULL)")
      .rows.first?.first == "t"
  }

  /// A sentence's short words matched whole, as the local index matches
  /// them in texts (``QueryNode/shortWordsWhole(shorterThan:lastWord:)``):
  /// a prefix of one or two letters read a posting list of nearly every
  /// entry from the words' index.
  static func shortWordsWhole(_ query: QueryNode) -> QueryNode {
    query.shortWordsWhole(shorterThan: 3) { PostgresWords.words($0).last }
  }

  /// How many entries `query` finds (typos as ``search(_:limit:)`` takes them).
  public func count(_ query: QueryNode) throws(PostgresError) -> Int {
    let query = Self.shortWordsWhole(query)
    let pairs = try pairsComplete()
    for typos in [false, true] {
      var compiled = PostgresQuery(closeWords: typos ? closeWords : nil, usesPairs: pairs)
      let condition = try compiled.condition(query)
      let (sql, parameters) =
        try Self.halves(of: query, compiled, condition).map { halves in
          (
            """
            SELECT (SELECT count(*) FROM item WHERE \(halves.names))
              + (SELECT count(*) FROM item WHERE \(halves.texts))
            """, halves.parameters
          )
        } ?? ("SELECT count(*) FROM item WHERE \(condition)", compiled.parameters)
      let total =
        try connection.execute(sql, parameters).rows.first?.first.flatMap { $0 }
        .flatMap { Int($0) } ?? 0
      if total > 0 || compiled.rankTerms.isEmpty { return total }
    }
    return 0
  }

  /// `condition` (`compiled`'s, of `query`) as the two whose disjunction
  /// it is, each read from the indexes that answer it: of the entries
  /// whose names hold one of the query's terms, and of those whose names
  /// hold none, their words looked up in their texts alone (the two
  /// one condition, a word's texts would be read for every entry: the
  /// store keeps no index of an entry's words with its text's). Their
  /// parameters are one list. Nil for a query without terms.
  static func halves(of query: QueryNode, _ compiled: PostgresQuery, _ condition: String)
    throws(PostgresError) -> (names: String, texts: String, parameters: [String?])?
  {
    guard !compiled.rankTerms.isEmpty else { return nil }
    var parameters = compiled.parameters
    parameters.append(compiled.anyTerm)
    let inAnyName = "name_vector @@ $\(parameters.count)::tsquery"
    let texts = try compiled.forNamesHoldingNone(query, after: parameters)
    return (
      "\(condition) AND \(inAnyName)", "\(texts.condition) AND NOT \(inAnyName)",
      texts.parameters
    )
  }

  /// `parameters` and a `LIMIT` clause of `count` bound after them (nil:
  /// no clause).
  static func limited(_ count: Int?, after parameters: [String?]) -> (
    clause: String, parameters: [String?]
  ) {
    guard let count else { return ("", parameters) }
    return ("LIMIT $\(parameters.count + 1)::int", parameters + [String(count)])
  }

  /// `pairs`: whether phrases may ask for pairs (``pairsComplete()``);
  /// `closeWordsRead`: the words already read for its typos.
  private func searchOnce(
    _ query: QueryNode, limit: Int?, typos: Bool, pairs: Bool,
    closeWordsRead: [String: [String]] = [:]
  ) throws(PostgresError) -> [Hit] {
    var compiled = PostgresQuery(closeWords: typos ? closeWords : nil, usesPairs: pairs)
    compiled.closeWordsRead = closeWordsRead
    let condition = try compiled.condition(query)
    // A phrase's texts checked in rank order, until enough hold it.
    var apart: (candidates: String, texts: String)?
    if limit != nil, let split = try compiled.apart(query) {
      compiled = split.query
      apart = (split.candidates, split.texts)
    }
    var parameters = compiled.parameters
    // Names that hold the words above keywords that do, above texts that
    // do, then the shorter name, then the newest.
    var rank = "0"
    // Texts (that no name holds a word of) first by their length.
    var textOrder = ""
    // The parameter of any of the words in a name: the entries whose
    // names hold none of them (found by their texts alone) rank 0, below
    // every name, as the local index takes its text tiers after its name
    // tiers.
    var inAnyName: String?
    // The parts of the rank, for the names read in their order.
    var tiers = NameTiers()
    if !compiled.rankTerms.isEmpty {
      // Each word (with the words it may stand for) counts once: 0.1 when
      // the name holds it, 0.04 when only its keywords do (counting each
      // word of the name it begins put a long name whose readings begin
      // with it four times above the short name it is the start of), as
      // the local index's tiers take names before keywords; names alike
      // in that are then ranked as it ranks them (``ItemRank``).
      // The name's own words are those of weight A: a query restricted to
      // them, not a vector filtered for each row (a third of a broad
      // query's time).
      var held: [String] = []
      for term in compiled.rankTerms {
        parameters.append(PostgresWords.inNameAlone(term))
        let own = "$\(parameters.count)::tsquery"
        tiers.own.append("name_vector @@ \(own)")
        parameters.append(term)
        tiers.terms.append("$\(parameters.count)::tsquery")
        held.append(
          "CASE WHEN name_vector @@ \(own) THEN 0.1 "
            + "WHEN name_vector @@ $\(parameters.count)::tsquery THEN 0.04 ELSE 0 END")
      }
      var weight = held.joined(separator: " + ")
      // Tiers above the weight, as the local index ranks a name: one
      // that holds every typed word as it was typed (a Japanese or
      // Chinese run inside a longer one too), then one that holds them
      // as whole words, not only as the start of longer ones.
      let typed = compiled.typedWords
      if !typed.isEmpty {
        // Each word checked in the row's own expression: a subquery over
        // the words' array was a plan run for every row.
        var holding: [String] = []
        for word in typed {
          parameters.append(word)
          holding.append("strpos(lower(unaccent(name)), $\(parameters.count)::text) > 0")
        }
        let holds = "(\(holding.joined(separator: " AND ")))::int"
        parameters.append(typed.map(PostgresWords.quoted).joined(separator: " & "))
        let whole = "(name_vector @@ $\(parameters.count)::tsquery)::int * 0.5"
        weight = "\(holds) + \(whole) + \(weight)"
        tiers.holding = holding
        tiers.whole = "$\(parameters.count)::tsquery"
      }
      parameters.append(compiled.anyTerm)
      inAnyName = "$\(parameters.count)::tsquery"
      textOrder =
        "CASE WHEN name_vector @@ $\(parameters.count)::tsquery THEN 0 ELSE \(Self.textLength) END, "
      rank = "CASE WHEN name_vector @@ $\(parameters.count)::tsquery THEN \(weight) ELSE 0 END"
    }
    // Then texts as the local index's BM25 ranks those that hold every
    // word: the shorter first (in words, with the path's folders); and
    // names, as its name score and boost rank them (the store counts no
    // uses: an item opened often ranks higher in its host's index alone).
    // Filters alone have no words to rank by: shallow and changed this
    // week first, then the newest, as the local index lists them.
    let ranked =
      compiled.rankTerms.isEmpty
      ? "\(Self.boost), \(Self.tieBreak)"
      : "\(textOrder)\(Self.nameRank), \(Self.tieBreak)"
    /// `LIMIT` at `count`, or nothing without a limit.
    func limited(_ count: Int?) -> (clause: String, parameters: [String?]) {
      Self.limited(count, after: parameters)
    }
    guard let apart else {
      guard let inAnyName else {
        let (clause, parameters) = limited(limit)
        if limit != nil, Self.isChangesAlone(query) {
          return try hits(
            rank: rank, from: Self.byRecency(condition, clause),
            "ORDER BY rank DESC, \(ranked) \(clause)", parameters)
        }
        return try hits(
          rank: rank, "WHERE \(condition) ORDER BY rank DESC, \(ranked) \(clause)",
          parameters)
      }
      // The entries whose names hold a word, ranked; then, when they do
      // not fill the page, those found by their texts alone, by length
      // (the whole ranking in two parts): the texts' matches (29,419 of
      // 100,000 entries for `version`) are never weighed as names, and
      // not read at all when the names fill the page (240 -> 25 ms).
      let page = limited(limit)
      let clause = page.clause
      var named = page.parameters
      let wordAlone = try compiled.inNames(query)
      let inNames = wordAlone ?? condition
      // Several words: the names that hold every one, read in their order.
      var everyWord = wordAlone
      if everyWord == nil { everyWord = try compiled.inNamesHoldingEveryWord(query) }
      var read: [Hit]?
      if let limit, everyWord != nil || compiled.typedWords.count == 1 {
        switch try namesInOrder(
          tiers, everyWord ?? inNames, namesAlone: everyWord != nil, everyName: wordAlone != nil,
          rank: rank, limit: limit, parameters)
        {
        case .page(let page): return page
        case .all(let names): read = names
        case .unknown: break
        }
      }
      let names: [Hit]
      // Whether the query's filters find few rows: its texts are then
      // few too, and asked whole (each slice of short texts read the
      // words' index again, for the texts of `gz ext:txt` 60 of 170 ms).
      var fewFiltered = false
      if let read {
        names = read
      } else {
        // Read from the rows the filters find, when they are few (the
        // subquery kept whole, OFFSET 0, so that the words are checked on
        // its rows and not asked of the names' index).
        var from = "item"
        if everyWord != nil,
          let filters = try PostgresQuery.filtersAlone(of: query, after: named),
          try readsFiltersFirst(anyWord: inAnyName, filters: filters.condition, filters.parameters)
        {
          from = "(SELECT * FROM item WHERE \(filters.condition) OFFSET 0) AS item"
          named = filters.parameters
          namesReadFromFilters += 1
          fewFiltered = true
        }
        names = try hits(
          rank: rank, from: from,
          """
          WHERE \(inNames) AND name_vector @@ \(inAnyName)
          ORDER BY rank DESC, \(Self.nameRank), \(Self.tieBreak) \(clause)
          """, named)
      }
      if let limit, names.count >= limit { return names }
      // Those whose names hold none of the words, found by their texts
      // alone (the rank, 0 for all of them).
      let rest = limit.map { $0 - names.count }
      let texts = try compiled.forNamesHoldingNone(query, after: parameters)
      let (textsClause, textsParameters) = Self.limited(rest, after: texts.parameters)
      let order = "ORDER BY \(Self.textLength), \(Self.nameRank), \(Self.tieBreak) \(textsClause)"
      return try names
        + textsShortFirst(rank: rank, limit: rest, textsParameters, slices: !fewFiltered) {
          slice in
          let condition = Self.inSlice(texts.condition, slice)
          return ("item", "WHERE \(condition) AND NOT name_vector @@ \(inAnyName) \(order)")
        }
    }
    // The candidates ranked (their texts not read), then their texts
    // checked in that order until the limit: a phrase of common words has
    // thousands of candidates, and each text checked is one unpacked. The
    // ranked subquery is kept whole (OFFSET 0), and a filter and a limit
    // over it keep its order.
    func checked(_ candidates: String, _ clause: String) -> (from: String, clauses: String) {
      (
        """
        (SELECT *, \(rank) AS rank_score FROM item WHERE \(candidates)
          ORDER BY rank_score DESC, \(ranked) OFFSET 0) AS item
        """, "WHERE \(apart.texts) \(clause)"
      )
    }
    guard let inAnyName else {
      let (from, clauses) = checked(apart.candidates, limited(limit).clause)
      return try hits(rank: "rank_score", from: from, clauses, limited(limit).parameters)
    }
    // The names that hold a word first (they rank above every text), then
    // the texts, the shortest first, read from the short texts first
    // (6,878 candidates of `"free software foundation"` ranked: 67 ms).
    let (from, clauses) = checked(
      "\(apart.candidates) AND name_vector @@ \(inAnyName)", limited(limit).clause)
    let names = try hits(rank: "rank_score", from: from, clauses, limited(limit).parameters)
    if let limit, names.count >= limit { return names }
    let rest = limit.map { $0 - names.count }
    let texts = try compiled.forNamesHoldingNone(query, after: parameters, candidates: true)
    let (textsClause, textsParameters) = Self.limited(rest, after: texts.parameters)
    return try names
      + textsShortFirst(rank: "rank_score", limit: rest, textsParameters) { slice in
        checked(
          "\(Self.inSlice(texts.condition, slice)) AND NOT name_vector @@ \(inAnyName)",
          textsClause)
      }
  }

  /// The entry a URI names: a file's `file://HOST/path`, an application
  /// item's own URI; nil when the store holds none the reader may see.
  public func hit(uri: String) throws(PostgresError) -> Hit? {
    if let (host, path) = FileURI.hostAndPath(from: uri) {
      return try hits(
        "WHERE host = $1 AND path = $2::bytea AND domain IS NULL",
        [host, PostgresQuery.hex(path.bytes)]
      ).first
    }
    return try hits(
      "WHERE path = $1::bytea AND domain IS NOT NULL ORDER BY host LIMIT 1",
      [PostgresQuery.hex(Array(uri.utf8))]
    ).first
  }

  /// The entries of the item rows `clauses` (WHERE, ORDER BY, LIMIT)
  /// choose, ranked by the SQL expression `rank`.
  func hits(
    rank: String = "0", from: String = "item", _ clauses: String, _ parameters: [String?]
  ) throws(PostgresError) -> [Hit] {
    try hits(
      ofRows: connection.execute(
        "SELECT \(Self.hitColumns(rank: rank)) FROM \(from) \(clauses)", parameters
      ).rows)
  }

  /// The entries of rows of ``hitColumns(rank:)``, each type read from the
  /// chain of types its row names: the chains not read before, at once
  /// (a function of the chain's in the columns was called for every row
  /// a page was ranked among).
  func hits(ofRows rows: [[String?]]) throws(PostgresError) -> [Hit] {
    let named = Set(rows.compactMap { $0[4].flatMap { Int($0) } })
    let unread = named.subtracting(chainTypes.keys)
    if !unread.isEmpty {
      for row in try connection.execute(
        "SELECT id, (limelight_chain_types(id))[1] FROM unnest($1::integer[]) AS id",
        [PostgresQuery.array(unread.sorted().map(String.init))]
      ).rows {
        if let id = row[0].flatMap({ Int($0) }) { chainTypes[id] = row[1] }
      }
    }
    return rows.map { row in
      var row = row
      row[4] = row[4].flatMap { Int($0) }.flatMap { chainTypes[$0] ?? nil }
      return Self.hit(row)
    }
  }

  /// The columns of a row that ``hit(_:)`` reads, ranked by `rank`.
  static func hitColumns(rank: String) -> String {
    """
    host, encode(path, 'hex'), name, folder, type_chain, size,
      extract(epoch FROM modified), \(rank) AS rank, domain, kind
    """
  }

  /// The entry of a row of ``hitColumns(rank:)``.
  static func hit(_ row: [String?]) -> Hit {
    Hit(
      host: row[0] ?? "", path: RawPath(bytes: Self.bytes(fromHex: row[1] ?? "")),
      name: row[2] ?? "", isFolder: row[3] == "t",
      contentType: row[4], kind: row[9],
      size: row[5].flatMap { Int64($0) },
      modified: row[6].flatMap { Double($0) }.map { Date(timeIntervalSince1970: $0) },
      rank: row[7].flatMap { Double($0) } ?? 0, domain: row[8])
  }
}
