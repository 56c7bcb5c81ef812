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
    try connection.transaction { () throws(PostgresError) in
      try lockWrites()
      if !removing.isEmpty {
        try removeRows(
          "path = ANY ($2::bytea[])",
          [host, PostgresQuery.array(removing.map { PostgresQuery.hex($0.bytes) })])
      }
      try write(items, sweep: sweep)
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

  /// Entries, a statement for each batch of at most 500 or of 4 MB of
  /// text, with the words of their names kept for typos (`name_word`).
  private func write(_ items: [SharedItem], sweep: Int64) throws(PostgresError) {
    var start = items.startIndex
    while start < items.endIndex {
      var end = start
      var bytes = 0
      while end < items.endIndex && end - start < 500 && (bytes < 4 << 20 || end == start) {
        bytes += items[end].text?.utf8.count ?? 0
        end += 1
      }
      try writeBatch(items[start..<end], sweep: sweep)
      start = end
    }
  }

  /// Between the values of a list sent as one text (authors, keywords):
  /// the unit separator, which no name holds.
  static let listSeparator = "\u{1F}"

  private func writeBatch(_ items: ArraySlice<SharedItem>, sweep: Int64) throws(PostgresError) {
    var columns: [[String?]] = []
    var nameWords: Set<String> = []
    var newTextWords: Set<String> = []
    let list = { (values: [String]) in
      values.isEmpty ? nil : values.joined(separator: Self.listSeparator)
    }
    let seconds = { (date: Date?) in date.map { String($0.timeIntervalSince1970) } }
    // Each text (its words, as the host folds them) kept once
    // (`item_text`), named by its hash.
    let texts = items.map { $0.text.map { PostgresWords.textWords($0) } }
    // (An entry without a text keeps its description in its row.)
    let hashes = try keepTexts(
      texts, descriptions: items.map { $0.text == nil ? nil : $0.details.contentDescription })
    for (index, item) in items.enumerated() {
      let (text, hash) = (texts[index], hashes[index])
      let name = item.name
      let kinds = KindClass.classes(for: item.contentTypeTree).map(\.rawValue).sorted()
      let ownWords =
        item.nameWords.map { PostgresWords.words($0, folded: true) }
        ?? PostgresWords.words(NameWords.searchableName(name))
      let keywordWords =
        item.keywordWords.map { PostgresWords.words($0, folded: true) }
        ?? PostgresWords.words(item.keywords.joined(separator: " "))
      let words = ownWords + keywordWords
      nameWords.formUnion(words)
      if let text { Self.typoWords(of: text, into: &newTextWords, except: textWordsSent) }
      let pathWords = PostgresWords.words(item.path.string)
      // As the local index counts a row's words for its BM25: its name's,
      // keywords', path's and text's.
      let wordCount =
        words.count + pathWords.count
        + (text.map { $0.utf8.reduce(1) { $0 + ($1 == 0x20 ? 1 : 0) } } ?? 0)
      let row: [String?] = [
        PostgresQuery.hex(item.path.bytes), item.path.string, name, words.joined(separator: " "),
        item.isFolder ? "t" : "f", item.contentTypeTree.joined(separator: " "),
        kinds.joined(separator: " "), item.size.map(String.init),
        item.modifiedNs.map { String(Double($0) / 1_000_000_000) },
        hash, PostgresWords.positionedVector(words, nameCount: ownWords.count),
        item.reach.map { reach in
          "{" + reach.map { "\($0.owner),\($0.group),\($0.mode)" }.joined(separator: ",") + "}"
        },
        item.domain, item.details.title, item.details.kind, list(item.details.authors),
        list(item.keywords), text == nil ? item.details.contentDescription : nil,
        seconds(item.details.created),
        seconds(item.details.lastUsed), pathWords.joined(separator: " "), String(wordCount),
      ]
      if columns.isEmpty { columns = Array(repeating: [], count: row.count) }
      for (column, value) in row.enumerated() { columns[column].append(value) }
    }
    try connection.execute(
      """
      INSERT INTO item (host, path, path_text, name, name_words, folder, content_types,
        kinds, size, modified, text_hash, name_vector, reach, domain, title, kind,
        authors, keywords, description, created, last_used, path_words, word_count, sweep)
      SELECT $1, path, path_text, name, name_words, folder, string_to_array(types, ' '),
        string_to_array(kinds, ' '), size, to_timestamp(modified), text_hash,
        name_vector::tsvector, reach::integer[], domain, title, kind,
        string_to_array(authors, chr(31)), string_to_array(keywords, chr(31)), description,
        to_timestamp(created), to_timestamp(last_used), path_words, word_count, $24::bigint
      FROM unnest($2::bytea[], $3::text[], $4::text[], $5::text[], $6::boolean[],
        $7::text[], $8::text[], $9::bigint[], $10::float8[], $11::bytea[], $12::text[],
        $13::text[], $14::text[], $15::text[], $16::text[], $17::text[], $18::text[],
        $19::text[], $20::float8[], $21::float8[], $22::text[], $23::integer[])
        AS r(path, path_text, name, name_words, folder, types, kinds, size, modified,
          text_hash, name_vector, reach, domain, title, kind, authors, keywords,
          description, created, last_used, path_words, word_count)
      ON CONFLICT (host, path) DO UPDATE SET path_text = excluded.path_text,
        name = excluded.name, name_words = excluded.name_words, folder = excluded.folder,
        content_types = excluded.content_types, kinds = excluded.kinds,
        size = excluded.size, modified = excluded.modified,
        text_hash = excluded.text_hash, name_vector = excluded.name_vector,
        reach = excluded.reach, domain = excluded.domain, title = excluded.title,
        kind = excluded.kind, authors = excluded.authors, keywords = excluded.keywords,
        description = excluded.description, created = excluded.created,
        last_used = excluded.last_used, path_words = excluded.path_words,
        word_count = excluded.word_count, writer = current_user,
        sweep = excluded.sweep, change = nextval('store_change')
      """, [host] + columns.map(PostgresQuery.array) + [String(sweep)])
    try writeMeaning(of: items)
    // The words of the texts, for typos in them: those of letters, of the
    // lengths a typo is read in, each sent once.
    if !newTextWords.isEmpty {
      try connection.execute(
        "INSERT INTO text_word SELECT unnest($1::text[]) ON CONFLICT DO NOTHING",
        [PostgresQuery.array(newTextWords.sorted())])
      if textWordsSent.count > Self.textWordsRemembered { textWordsSent.removeAll() }
      textWordsSent.formUnion(newTextWords)
    }
    // Words no name held before get their keys for typos.
    let added = try connection.execute(
      "INSERT INTO name_word SELECT unnest($1::text[]) ON CONFLICT DO NOTHING RETURNING word",
      [PostgresQuery.array(nameWords.sorted())]
    ).rows.compactMap { $0[0] }
    var keys: [String] = []
    var words: [String] = []
    for word in added {
      let letters = Array(word)
      guard NearWords.termLengths.contains(letters.count), letters.allSatisfy(\.isLetter) else {
        continue
      }
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
  private func keepTexts(_ texts: [String?], descriptions: [String?]) throws(PostgresError)
    -> [String?]
  {
    let pairs = texts.map { $0.map(PostgresWords.pairWords) }
    guard texts.contains(where: { $0 != nil }) else { return texts.map { _ in nil } }
    let rows = try connection.execute(
      """
      WITH sent AS (
          SELECT i, c, p, d, CASE WHEN c IS NOT NULL THEN limelight_text_hash(c, p, d) END AS h
          FROM unnest($1::text[], $2::text[], $3::text[]) WITH ORDINALITY AS r(c, p, d, i)),
        kept AS (INSERT INTO item_text (hash, content, pair_words, description)
          SELECT DISTINCT ON (h) h, c, p, d FROM sent WHERE h IS NOT NULL
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

  /// The words of a text's words (folded, a space between) that typos are
  /// read in: of letters, of ``NearWords/termLengths``; those in `sent`
  /// left out. Read in bytes: most are ASCII, and a text has thousands.
  static func typoWords(of words: String, into found: inout Set<String>, except sent: Set<String>) {
    for slice in words.utf8.split(separator: UInt8(ascii: " ")) {
      let ascii = slice.allSatisfy { $0 >= UInt8(ascii: "a") && $0 <= UInt8(ascii: "z") }
      if ascii && !NearWords.termLengths.contains(slice.count) { continue }
      let word = String(decoding: slice, as: UTF8.self)
      if !ascii && !(NearWords.termLengths.contains(word.count) && word.allSatisfy(\.isLetter)) {
        continue
      }
      if !sent.contains(word) { found.insert(word) }
    }
  }

  /// Removes this host's rows (`$1`) that `condition` picks, each kept in
  /// `removal` for followers, with who may see that it went.
  private func removeRows(_ condition: String, _ parameters: [String?]) throws(PostgresError) {
    try connection.execute(
      """
      WITH gone AS (DELETE FROM item WHERE host = $1 AND \(condition)
        RETURNING host, path, reach, domain, writer)
      INSERT INTO removal (host, path, reach, domain, writer)
      SELECT host, path, reach, domain, writer FROM gone
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
