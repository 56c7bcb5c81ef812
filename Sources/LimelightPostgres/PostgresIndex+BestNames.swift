import LimelightModel

/// The first page of a word many names hold, read in the names' order.
extension PostgresIndex {
  /// The first `limit` entries of the best rank that `condition` finds, in
  /// their order, when they fill the page; nil when they may not.
  ///
  /// A word a third of the names hold (`gz`) had every one of them ranked
  /// to show 20 (110 ms at 100,000 entries). Names alike in rank are in
  /// the order of `name_rank`, a recent change apart (``nameRank``): so
  /// the names that hold the word typed whole (`holding`, a `tsquery`
  /// parameter), changed in the last week and changed before, are read
  /// in that order from the index `item_name_rank`, about three pages of
  /// each, and those of the best rank (`condition`) kept. When each
  /// kind either was read to its end or gave a page, the page is the
  /// ranking's first. The planner picks the index to read by how many
  /// names hold the word and changed when: a word few names hold is read
  /// from the names' index and sorted. Only the word typed whole narrows
  /// what is read, as its count is one the planner knows (the query's
  /// other conditions, of the same words, counted apart, multiplied to a
  /// few rows and turned every plan to the names' index).
  func bestNames(
    holding word: String, _ condition: String, rank: String, limit: Int,
    _ parameters: [String?]
  ) throws(PostgresError) -> [Hit]? {
    var parameters = parameters
    let readLimit = 3 * limit + 20
    parameters.append(String(readLimit))
    let read = "LIMIT $\(parameters.count)::int"
    parameters.append(String(limit))
    let page = "LIMIT $\(parameters.count)::int"
    let arms = [
      ("true", "modified > \(Self.weekAgo)"),
      ("false", "(modified <= \(Self.weekAgo) OR modified IS NULL)"),
    ].map { recent, changed in
      """
      (SELECT *, \(recent) AS walked_recent FROM item
        WHERE name_vector @@ \(word) AND \(changed)
        ORDER BY name_rank, \(Self.tieBreak) \(read))
      """
    }
    let counts =
      "count(*) FILTER (WHERE walked_recent) || ' ' || count(*) FILTER (WHERE NOT walked_recent)"
    let rows = try connection.execute(
      """
      WITH walked AS MATERIALIZED (\(arms.joined(separator: " UNION ALL "))),
        best AS (SELECT * FROM walked AS item WHERE \(condition))
      SELECT \(Self.hitColumns(rank: rank)),
        (SELECT \(counts) FROM walked), (SELECT \(counts) FROM best)
      FROM best AS item ORDER BY \(Self.nameRank), \(Self.tieBreak) \(page)
      """, parameters
    ).rows
    guard rows.count >= limit, let first = rows.first else { return nil }
    let walked = (first[10] ?? "").split(separator: " ").compactMap { Int($0) }
    let kept = (first[11] ?? "").split(separator: " ").compactMap { Int($0) }
    guard walked.count == 2, kept.count == 2 else { return nil }
    // Each kind read to its end, or holding a page of its own.
    for arm in 0..<2 where walked[arm] >= readLimit && kept[arm] < limit { return nil }
    pagesInNameOrder += 1
    return rows.map(Self.hit)
  }
}
