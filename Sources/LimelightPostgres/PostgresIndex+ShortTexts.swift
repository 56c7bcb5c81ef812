/// The entries found by their texts alone, the shortest first, read from
/// the short texts before the rest.
extension PostgresIndex {
  /// The longest texts (in words) of each slice the store keeps an index
  /// of its words for (store migration `v22-text-words-once`; an entry's
  /// words counted with its name's and path's, which a text's are at most),
  /// shortest slice first.
  ///
  /// Texts are ranked by their length, so a page of the texts that hold a
  /// common word (`include`: 51,000 of 100,000 entries) is made of short
  /// ones; ranking every one to show 20 took 100-160 ms. The index of the
  /// texts of at most 64 words is 2 MB where the whole words' index is
  /// 225 MB, and answers such a word in 8-15 ms; the one of at most 256
  /// words (18 MB) a word the first slice holds too few of, and the one
  /// between them a phrase of common words no text of 64 words holds.
  static let shortTextSlices = [64, 128, 256]

  /// The condition on `item` that puts a row in the slice of texts of at
  /// most `words` words (its text's own words are read from the slice's
  /// index, ``PostgresQuery/sliced(_:to:)``).
  static func inShortTexts(_ words: Int) -> String { "word_count <= \(words)" }

  /// `condition` (compiled for the entries whose names hold none of the
  /// query's terms) asked of the slice of texts of at most `words` words
  /// (nil: of every text): of the texts' own slice and of the entries'.
  static func inSlice(_ condition: String, _ words: Int?) -> String {
    guard let words else { return condition }
    return "\(PostgresQuery.sliced(condition, to: words)) AND \(inShortTexts(words))"
  }

  /// The first `limit` rows `statement` chooses, asked of each slice of
  /// short texts in turn. `statement` gives the rows (`FROM`) and the
  /// clauses (`WHERE`, `ORDER BY`, `LIMIT`) of the texts that hold the
  /// words, ranked with every row of a shorter text first, asking only
  /// the texts of at most `slice` words (nil: any; ``inSlice(_:_:)``).
  /// Rows of a slice rank above every row outside it, so a slice that
  /// fills the page is the page. When none does, or `slices` is false,
  /// `statement` is asked whole. The statements need not read every one
  /// of `parameters`.
  func textsShortFirst(
    rank: String, limit: Int?, _ parameters: [String?], slices: Bool = true,
    _ statement: (_ slice: Int?) -> (from: String, clauses: String)
  ) throws(PostgresError) -> [Hit] {
    func ask(_ slice: Int?) throws(PostgresError) -> [Hit] {
      let (from, clauses) = statement(slice)
      let (sql, used) = PostgresQuery.standalone(
        "SELECT \(Self.hitColumns(rank: rank)) FROM \(from) \(clauses)", parameters)
      return try hits(ofRows: connection.execute(sql, used).rows)
    }
    if let limit, slices {
      for words in Self.shortTextSlices {
        let page = try ask(words)
        if page.count >= limit {
          pagesOfShortTexts += 1
          return page
        }
      }
    }
    return try ask(nil)
  }
}
