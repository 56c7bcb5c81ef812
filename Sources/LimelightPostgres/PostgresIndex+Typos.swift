import LimelightModel

/// Typos read in the store as the SQLite index reads them (`NearWords`):
/// the words of names, or of texts, a typed word may stand for.
extension PostgresIndex {
  /// The words of names a typed word may stand for, as the SQLite index
  /// reads a typo (`NearWords`): those it shares a deletion key with, the
  /// fewest edits away; abbreviated by it when none is; those most names
  /// hold first, at most eight.
  func closeWords(_ word: String) throws(PostgresError) -> [String] {
    closeWordsAsked += 1
    let letters = Array(word)
    guard NearWords.termLengths.contains(letters.count) else { return [] }
    let keys = NearWords.keys(of: letters, depth: NearWords.allowedEdits(letters.count))
    let candidates = try connection.execute(
      "SELECT DISTINCT word FROM name_word_key WHERE key = ANY ($1::text[])",
      [PostgresQuery.array(keys.sorted())]
    ).rows.compactMap { $0[0] }
    let names = try NearWords.nameReadings(of: word, among: candidates, counts: nameCounts)
    guard names.isEmpty else { return NearWords.likeliest(names, limit: 8) }
    // No name holds a word close to it: the words of texts, found by the
    // trigrams they share with it, read the same way.
    let similar: [String]
    let lengths = [
      String(letters.count - NearWords.allowedEdits(letters.count)),
      String(letters.count + NearWords.allowedEdits(letters.count)),
    ]
    do {
      // Trigrams are of ASCII letters in a database of the C locale: a
      // word out of ASCII is looked for among the words of its first letter.
      let candidates =
        word.utf8.allSatisfy { $0 < 0x80 }
        ? "word % $1" : "word >= left($1, 1) AND word < left($1, 1) || chr(1114111)"
      similar = try connection.execute(
        """
        SELECT word FROM text_word
        WHERE \(candidates) AND length(word) BETWEEN $2::int AND $3::int LIMIT 500
        """, [word] + lengths
      ).rows.compactMap { $0[0] }
    } catch  where error.state == "42501" {
      // A reader granted what an older version named, without the words
      // of texts: typos are read in names alone.
      return []
    }
    return NearWords.likeliest(
      try NearWords.nameReadings(of: word, among: similar, counts: textCounts), limit: 8)
  }

  /// How many entries' words (of name, keywords or text) hold each word:
  /// those whose names do, and those whose texts do and names do not.
  private func textCounts(_ words: [String]) throws(PostgresError) -> [String: Int] {
    try counts(of: words, in: [Self.inNames, Self.inTextsAlone])
  }

  /// How many names hold each word.
  private func nameCounts(_ words: [String]) throws(PostgresError) -> [String: Int] {
    try counts(of: words, in: [Self.inNames])
  }

  /// Whether an entry's name holds a word `w` (a column of the statement).
  private static let inNames = "name_vector @@ quote_literal(w)::tsquery"

  /// Whether an entry's text holds a word `w` and its name does not.
  private static let inTextsAlone =
    PostgresQuery.textsHolding("quote_literal(w)::tsquery")
    + " AND NOT name_vector @@ quote_literal(w)::tsquery"

  /// How many entries each word is held by, by the conditions `parts`
  /// (SQL of the word `w`: each entry passes one at most); those none
  /// holds left out. Counted up to ``countedUpTo``, and only the
  /// words that reach it counted whole, to be ordered among themselves:
  /// counting every entry that holds a common word (`config`, 6,600 names
  /// of 100,000) read each of their rows, 24 ms a word, only to rank it
  /// above words few hold.
  private func counts(of words: [String], in parts: [String]) throws(PostgresError) -> [String: Int]
  {
    var counts = try counts(of: words, in: parts, upTo: Self.countedUpTo)
    let reached = counts.filter { $0.value >= Self.countedUpTo }.map(\.key)
    if reached.count > 1 {
      counts.merge(try self.counts(of: reached, in: parts, upTo: nil)) { $1 }
    }
    return counts
  }

  /// How far ``counts(of:in:)`` counts each word first.
  static let countedUpTo = 300

  /// How many entries hold each word by `parts`, up to `limit` (nil: all).
  private func counts(of words: [String], in parts: [String], upTo limit: Int?)
    throws(PostgresError) -> [String: Int]
  {
    guard !words.isEmpty else { return [:] }
    var counts: [String: Int] = [:]
    let counted = parts.map { part in
      "(SELECT count(*) FROM (SELECT FROM item WHERE \(part) LIMIT $2::int) AS held)"
    }
    for row in try connection.execute(
      """
      SELECT w, least(\(counted.joined(separator: " + ")), $2::int)
      FROM unnest($1::text[]) AS w
      """, [PostgresQuery.array(words), limit.map(String.init)]
    ).rows {
      if let word = row[0], let count = row[1].flatMap({ Int($0) }), count > 0 {
        counts[word] = count
      }
    }
    return counts
  }
}
