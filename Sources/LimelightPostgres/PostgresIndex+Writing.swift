import Foundation
import LimelightModel
import LimelightPlatform
import LimelightQuery

/// A host's entries written to the store, and removed.
extension PostgresIndex {
  /// Writes (adds or replaces) this host's entries and removes those at
  /// `removing` (each alone), in one transaction, marking the rows written
  /// with `sweep`; with `following`, records what the host's rows reflect.
  public func write(
    _ items: [SharedItem], removing: [RawPath] = [], sweep: Int64 = 0,
    following: Following? = nil
  ) throws(PostgresError) {
    try write(EntriesReady(items), removing: removing, sweep: sweep, following: following)
  }

  /// Writes entries made ready to send (``EntriesReady``), as
  /// ``write(_:removing:sweep:following:)`` writes them.
  public func write(
    _ entries: EntriesReady, removing: [RawPath] = [], sweep: Int64 = 0,
    following: Following? = nil
  ) throws(PostgresError) {
    try connection.transaction { () throws(PostgresError) in
      try lockWrites()
      if !removing.isEmpty {
        try removeRows(
          "path = ANY ($2::bytea[])",
          [host, PostgresQuery.array(removing.map { PostgresQuery.hex($0.bytes) })])
      }
      for batch in entries.batches { try send(batch, sweep: sweep) }
      try touchHost(following: following, sweep: nil)
    }
  }

  /// How many entries this host has in the store.
  public func entryCount() throws(PostgresError) -> Int {
    Int(
      try connection.execute("SELECT count(*) FROM item WHERE host = $1", [host]).rows.first?
        .first.flatMap { $0 } ?? "") ?? 0
  }

  /// Removes this host's rows not marked with `sweep` (the entries a whole
  /// resend did not send), and records what its rows reflect now.
  public func finishResend(sweep: Int64, following: Following) throws(PostgresError) {
    try connection.transaction { () throws(PostgresError) in
      try lockWrites()
      try removeRows("sweep <> $2::bigint", [host, String(sweep)])
      try touchHost(following: following, sweep: sweep)
    }
  }

  /// The role an entry keeps as its writer (SQL): an application's item
  /// is found by the role that wrote it alone, a file by who may list its
  /// folder (``PostgresSchema/readable``), so a file keeps none (store
  /// migration `v24-type-chains`).
  static let writer = "CASE WHEN domain IS NULL THEN NULL ELSE current_user END"

  /// Between the values of a list sent as one text (authors, keywords):
  /// the unit separator, which no name holds.
  static let listSeparator = "\u{1F}"

  /// A batch's entries, in a statement for them all, with their texts
  /// kept once (``keepTexts(_:pairs:descriptions:)``) and the words of
  /// their names kept for typos (`name_word_key`).
  private func send(_ batch: SentBatch, sweep: Int64) throws(PostgresError) {
    let hashes = try keepTexts(batch.texts, pairs: batch.pairs, descriptions: batch.descriptions)
    // The texts' hashes are the rows' 9th column (`text_hash`, `$10`).
    var columns = batch.columns
    columns.insert(hashes, at: 8)
    // Each chain of types (the 5th and 6th columns: types, kinds) kept
    // once, the entries naming theirs.
    try connection.execute(
      """
      INSERT INTO type_chain (types, kinds)
      SELECT DISTINCT string_to_array(t, ' '), string_to_array(k, ' ')
      FROM unnest($1::text[], $2::text[]) AS r(t, k)
      ON CONFLICT DO NOTHING
      """, [PostgresQuery.array(columns[4]), PostgresQuery.array(columns[5])])
    try connection.execute(
      """
      INSERT INTO item (host, path, path_text, name, folder, type_chain,
        size, modified, text_hash, name_vector, reach, domain, title, kind,
        authors, keywords, description, created, last_used, path_words, word_count, sweep,
        writer)
      SELECT $1, path, \(PostgresQuery.pathTextKept(text: "path_text", path: "path")), name,
        folder, limelight_type_chain(string_to_array(types, ' '), string_to_array(kinds, ' ')),
        size, to_timestamp(modified), text_hash,
        name_vector::tsvector, reach::integer[], domain, title, kind,
        string_to_array(authors, chr(31)), string_to_array(keywords, chr(31)), description,
        to_timestamp(created), to_timestamp(last_used),
        \(PostgresQuery.pathWordsKept(words: "path_words", path: "path")), word_count,
        $23::bigint, \(Self.writer)
      FROM unnest($2::bytea[], $3::text[], $4::text[], $5::boolean[],
        $6::text[], $7::text[], $8::bigint[], $9::float8[], $10::bytea[], $11::text[],
        $12::text[], $13::text[], $14::text[], $15::text[], $16::text[], $17::text[],
        $18::text[], $19::float8[], $20::float8[], $21::text[], $22::integer[])
        AS r(path, path_text, name, folder, types, kinds, size, modified,
          text_hash, name_vector, reach, domain, title, kind, authors, keywords,
          description, created, last_used, path_words, word_count)
      ON CONFLICT (host, path) DO UPDATE SET path_text = excluded.path_text,
        name = excluded.name, folder = excluded.folder,
        type_chain = excluded.type_chain,
        size = excluded.size, modified = excluded.modified,
        text_hash = excluded.text_hash, name_vector = excluded.name_vector,
        reach = excluded.reach, domain = excluded.domain, title = excluded.title,
        kind = excluded.kind, authors = excluded.authors, keywords = excluded.keywords,
        description = excluded.description, created = excluded.created,
        last_used = excluded.last_used, path_words = excluded.path_words,
        word_count = excluded.word_count, writer = excluded.writer,
        sweep = excluded.sweep, change = nextval('store_change')
      """, [host] + columns.map(PostgresQuery.array) + [String(sweep)])
    try writeMeaning(of: batch.items)
    // The words of the texts, for typos in them: those of letters, of the
    // lengths a typo is read in, each sent once.
    let textWords = batch.textWords.subtracting(textWordsSent)
    if !textWords.isEmpty {
      try connection.execute(
        "INSERT INTO text_word SELECT unnest($1::text[]) ON CONFLICT DO NOTHING",
        [PostgresQuery.array(textWords.sorted())])
      if textWordsSent.count > Self.textWordsRemembered { textWordsSent.removeAll() }
      textWordsSent.formUnion(textWords)
    }
    // Words no name held before get their keys for typos: those of
    // letters, of the lengths a typo is read in, not yet kept under their
    // first letters (a word's own key, which every word has).
    var firstLetters: [String] = []
    var typed: [String] = []
    for word in batch.nameWords.sorted() {
      let letters = Array(word)
      guard NearWords.termLengths.contains(letters.count), letters.allSatisfy(\.isLetter) else {
        continue
      }
      firstLetters.append(String(letters.prefix(NearWords.keyLength)))
      typed.append(word)
    }
    guard !typed.isEmpty else { return }
    let added = try connection.execute(
      """
      SELECT w FROM unnest($1::text[], $2::text[]) AS n(k, w)
      WHERE NOT EXISTS (SELECT FROM name_word_key WHERE key = n.k AND word = n.w)
      """, [PostgresQuery.array(firstLetters), PostgresQuery.array(typed)]
    ).rows.compactMap { $0[0] }
    var keys: [String] = []
    var words: [String] = []
    for word in added {
      let letters = Array(word)
      for key in NearWords.keys(of: letters, depth: NearWords.termDepth(letters.count)) {
        keys.append(key)
        words.append(word)
      }
    }
    guard !keys.isEmpty else { return }
    try connection.execute(
      """
      INSERT INTO name_word_key SELECT * FROM unnest($1::text[], $2::text[])
      ON CONFLICT DO NOTHING
      """, [PostgresQuery.array(keys), PostgresQuery.array(words)])
  }

  /// Keeps the `texts` the store lacks, each with its pairs of common
  /// words and its entry's description, and gives the hash each is kept
  /// under (in `bytea`'s hex form, nil for no text), as the store computes
  /// it: one statement, whether the store held a text or not (asking first
  /// which it holds is a statement more).
  private func keepTexts(_ texts: [String?], pairs: [String?], descriptions: [String?])
    throws(PostgresError) -> [String?]
  {
    guard texts.contains(where: { $0 != nil }) else { return texts.map { _ in nil } }
    let rows = try connection.execute(
      """
      WITH sent AS (
          SELECT i, c, p, d, CASE WHEN c IS NOT NULL THEN limelight_text_hash(c, p, d) END AS h
          FROM unnest($1::text[], $2::text[], $3::text[]) WITH ORDINALITY AS r(c, p, d, i)),
        kept AS (INSERT INTO item_text (hash, content, description)
          SELECT DISTINCT ON (h) h, c, d FROM sent WHERE h IS NOT NULL
          ON CONFLICT DO NOTHING)
      SELECT '\\x' || encode(h, 'hex') FROM sent ORDER BY i
      """,
      [PostgresQuery.array(texts), PostgresQuery.array(pairs), PostgresQuery.array(descriptions)]
    ).rows
    guard rows.count == texts.count else {
      throw PostgresError(message: "the store gave \(rows.count) hashes for \(texts.count) texts")
    }
    return rows.map { $0.first ?? nil }
  }

  /// Removes this host's rows (`$1`) that `condition` picks, each kept in
  /// `removal` for followers, with who may see that it went.
  private func removeRows(_ condition: String, _ parameters: [String?]) throws(PostgresError) {
    try connection.execute(
      """
      WITH gone AS (DELETE FROM item WHERE host = $1 AND \(condition)
        RETURNING host, path, reach, domain, writer)
      INSERT INTO removal (host, path, reach, domain, writer)
      SELECT host, path, reach, domain, coalesce(writer, current_user) FROM gone
      """, parameters)
  }

  /// The host's last contact now (and what its rows reflect, and their
  /// mark, when given).
  private func touchHost(following: Following?, sweep: Int64?) throws(PostgresError) {
    try connection.execute(
      """
      INSERT INTO host (name, last_contact, index_id, generation, sweep)
      VALUES ($1, now(), $2, $3::bigint, coalesce($4::bigint, 0))
      ON CONFLICT (name) DO UPDATE SET last_contact = now(),
        index_id = coalesce(excluded.index_id, host.index_id),
        generation = coalesce(excluded.generation, host.generation),
        sweep = coalesce($4::bigint, host.sweep)
      """,
      [host, following?.indexID, following.map { String($0.generation) }, sweep.map(String.init)])
  }

  /// Removes this host's entries at `paths` and everything beneath them.
  public func remove(_ paths: [RawPath]) throws(PostgresError) {
    try connection.transaction { () throws(PostgresError) in
      try lockWrites()
      for path in paths {
        let (low, high) = path.subtreeBounds
        try removeRows(
          "(path = $2::bytea OR path > $3::bytea AND path < $4::bytea)",
          [host, PostgresQuery.hex(path.bytes), PostgresQuery.hex(low), PostgresQuery.hex(high)])
      }
      try touchHost(following: nil, sweep: nil)
    }
  }

  /// Removes every entry this host wrote, and no other host's.
  public func eraseHost() throws(PostgresError) {
    try connection.transaction { () throws(PostgresError) in
      try lockWrites()
      try removeRows("true", [host])
      try connection.execute("DELETE FROM host WHERE name = $1", [host])
    }
  }
}
