import Foundation
import LimelightModel
import LimelightPlatform
import LimelightQuery

/// An index kept in a PostgreSQL database that several hosts share: each
/// host writes the entries of its own roots, keyed by host and path, and
/// finds everyone's.
///
/// The store made by the first watcher that connects (see
/// ``PostgresSchema``); one host's erase leaves the others' items.
public final class PostgresIndex {
  let connection: PostgresConnection
  /// The host this process writes as (its name, unless given).
  public let host: String
  /// Words of texts this connection has sent for typos (``writeBatch``):
  /// not sent again, so the server checks each word once, not once a text.
  private var textWordsSent: Set<String> = []
  /// The most words remembered; past it the memory starts again.
  private static let textWordsRemembered = 500_000

  /// Connects to the store `name` (a URL, `key=value` pairs or
  /// `service=NAME`, as libpq reads them) and brings its tables to this
  /// version's.
  public init(_ name: String, host: String) throws(PostgresError) {
    connection = try PostgresConnection(name)
    self.host = host
    try PostgresSchema.migrate(connection)
  }

  /// Connects to the store `name` to search it, changing nothing: a store
  /// no watcher made yet, or one a newer version upgraded, is refused.
  public init(reading name: String) throws(PostgresError) {
    connection = try PostgresConnection(name)
    host = HostName.system
    try PostgresSchema.check(connection)
  }

  /// An entry as found: where it is, what it is called and what it is.
  public struct Hit: Equatable, Sendable {
    public var host: String
    public var path: RawPath
    public var name: String
    public var isFolder: Bool = false
    public var contentType: String?
    /// Its kind as people read it ("PDF document"), when its host's
    /// importers named one.
    public var kind: String?
    public var size: Int64?
    public var modified: Date?
    /// Higher is better: how well its name holds the words (0 for a text
    /// match alone).
    public var rank: Double = 0
    /// An application item's domain (its `path` then holds its URI); nil
    /// for a file.
    public var domain: String?
    /// A file's `file://HOST/path` (RFC 8089): the host that holds it
    /// names it; an application item's own URI.
    public var uri: String { PostgresIndex.uri(host: host, path: path, domain: domain) }
  }

  /// A file's `file://HOST/path`, an application item's own URI (the
  /// store keeps it as its `path`).
  static func uri(host: String, path: RawPath, domain: String?) -> String {
    domain == nil ? uri(host: host, path: path) : path.string
  }

  /// `file://HOST/path` (RFC 8089).
  public static func uri(host: String, path: RawPath) -> String {
    "file://" + FileURI.percentEncoded(host) + FileURI.uri(for: path).dropFirst("file://".count)
  }

  /// What this host's rows reflect: its local index (by identity) up to
  /// a generation, and the mark of its last whole resend.
  public struct Following: Equatable, Sendable {
    public var indexID: String
    public var generation: Int64
    public init(indexID: String, generation: Int64) {
      (self.indexID, self.generation) = (indexID, generation)
    }
  }

  /// What this host's rows reflect (nil before a whole resend recorded
  /// it), and the mark its rows carry.
  public func following() throws(PostgresError) -> (following: Following?, sweep: Int64) {
    let row = try connection.execute(
      "SELECT index_id, generation, sweep FROM host WHERE name = $1", [host]
    ).rows.first
    let sweep = row.flatMap { $0[2] }.flatMap { Int64($0) } ?? 0
    guard let row, let id = row[0], let generation = row[1].flatMap({ Int64($0) }) else {
      return (nil, sweep)
    }
    return (Following(indexID: id, generation: generation), sweep)
  }

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
    for item in items {
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
      let text = item.text.map { PostgresWords.textWords($0) }
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
        text, PostgresWords.positionedVector(words, nameCount: ownWords.count),
        item.reach.map { reach in
          "{" + reach.map { "\($0.owner),\($0.group),\($0.mode)" }.joined(separator: ",") + "}"
        },
        item.domain, item.details.title, item.details.kind, list(item.details.authors),
        list(item.keywords), item.details.contentDescription, seconds(item.details.created),
        seconds(item.details.lastUsed), pathWords.joined(separator: " "), String(wordCount),
      ]
      if columns.isEmpty { columns = Array(repeating: [], count: row.count) }
      for (column, value) in row.enumerated() { columns[column].append(value) }
    }
    try connection.execute(
      """
      INSERT INTO item (host, path, path_text, name, name_words, folder, content_types,
        kinds, size, modified, text_content, name_vector, reach, domain, title, kind,
        authors, keywords, description, created, last_used, path_words, word_count, sweep)
      SELECT $1, path, path_text, name, name_words, folder, string_to_array(types, ' '),
        string_to_array(kinds, ' '), size, to_timestamp(modified), text_content,
        name_vector::tsvector, reach::integer[], domain, title, kind,
        string_to_array(authors, chr(31)), string_to_array(keywords, chr(31)), description,
        to_timestamp(created), to_timestamp(last_used), path_words, word_count, $24::bigint
      FROM unnest($2::bytea[], $3::text[], $4::text[], $5::text[], $6::boolean[],
        $7::text[], $8::text[], $9::bigint[], $10::float8[], $11::text[], $12::text[],
        $13::text[], $14::text[], $15::text[], $16::text[], $17::text[], $18::text[],
        $19::text[], $20::float8[], $21::float8[], $22::text[], $23::integer[])
        AS r(path, path_text, name, name_words, folder, types, kinds, size, modified,
          text_content, name_vector, reach, domain, title, kind, authors, keywords,
          description, created, last_used, path_words, word_count)
      ON CONFLICT (host, path) DO UPDATE SET path_text = excluded.path_text,
        name = excluded.name, name_words = excluded.name_words, folder = excluded.folder,
        content_types = excluded.content_types, kinds = excluded.kinds,
        size = excluded.size, modified = excluded.modified,
        text_content = excluded.text_content, name_vector = excluded.name_vector,
        reach = excluded.reach, domain = excluded.domain, title = excluded.title,
        kind = excluded.kind, authors = excluded.authors, keywords = excluded.keywords,
        description = excluded.description, created = excluded.created,
        last_used = excluded.last_used, path_words = excluded.path_words,
        word_count = excluded.word_count,
        writer = current_user,
        sweep = excluded.sweep, change = nextval('store_change')
      """, [host] + columns.map(PostgresQuery.array) + [String(sweep)])
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

  /// The hosts that have written, by name.
  public func hosts() throws(PostgresError) -> [SharedStoreHost] {
    try connection.execute(
      """
      SELECT h.name, (SELECT count(*) FROM item i WHERE i.host = h.name),
        extract(epoch FROM h.last_contact)
      FROM host h ORDER BY h.name
      """
    ).rows.map {
      SharedStoreHost(
        name: $0[0] ?? "", entries: Int($0[1] ?? "") ?? 0,
        lastContact: $0[2].flatMap { Double($0) }.map { Date(timeIntervalSince1970: $0) })
    }
  }

  /// The entries `query` finds, best first: names that hold its words
  /// above texts that do, then the newest (`limit` nil: all of them). When
  /// its words find nothing, each is tried again with the words of names
  /// it may be a typo or an abbreviation of (`NearWords`).
  /// `typos` false: the words as typed alone.
  public func search(_ query: QueryNode, limit: Int?, typos: Bool = true) throws(PostgresError)
    -> [Hit]
  {
    let strict = try searchOnce(query, limit: limit, typos: false)
    guard strict.isEmpty, typos else { return strict }
    return try searchOnce(query, limit: limit, typos: true)
  }

  /// How many entries `query` finds (typos as ``search(_:limit:)`` takes them).
  public func count(_ query: QueryNode) throws(PostgresError) -> Int {
    for typos in [false, true] {
      var compiled = PostgresQuery(closeWords: typos ? closeWords : nil)
      let condition = try compiled.condition(query)
      let total =
        try connection.execute(
          "SELECT count(*) FROM item WHERE \(condition)", compiled.parameters
        ).rows.first?.first.flatMap { $0 }.flatMap { Int($0) } ?? 0
      if total > 0 || compiled.rankTerms.isEmpty { return total }
    }
    return 0
  }

  /// The store's last change (any host's write or removal): a follower
  /// asks for what came after it.
  public func lastChange() throws(PostgresError) -> Int64 {
    // Writers number their rows under the lock: once it is had, every
    // number up to the last is committed, and no later read misses one.
    try connection.transaction { () throws(PostgresError) in
      try connection.execute("SELECT pg_advisory_xact_lock_shared(\(Self.writeLock))")
      return try connection.execute(
        "SELECT CASE WHEN is_called THEN last_value ELSE 0 END FROM store_change"
      ).rows.first?.first.flatMap { $0 }.flatMap { Int64($0) } ?? 0
    }
  }

  /// The lock each write transaction holds, shared by followers while they
  /// read the last change: "LIMELIGW" in ASCII.
  static let writeLock: Int64 = 0x4C49_4D45_4C49_4757

  /// Takes the writers' lock for the rest of the transaction, and tells
  /// followers (``waitForChange(timeout:)``) when it commits: PostgreSQL
  /// delivers a notification at its transaction's commit, and never one of
  /// a transaction rolled back.
  private func lockWrites() throws(PostgresError) {
    try connection.execute(
      "SELECT pg_advisory_xact_lock(\(Self.writeLock)), pg_notify('\(Self.changeChannel)', '')")
  }

  /// The channel a write's commit is told on.
  static let changeChannel = "limelight_change"

  /// Listens for the store's writes (any host's), which
  /// ``waitForChange(timeout:)`` then waits for.
  public func listenForChanges() throws(PostgresError) {
    try connection.listen(Self.changeChannel)
  }

  /// Waits at most `timeout` seconds for a write to the store to commit;
  /// true when one did. A writer of an older version tells nothing: the
  /// timeout bounds how late its writes are seen.
  public func waitForChange(timeout: Double) throws(PostgresError) -> Bool {
    try connection.waitForNotification(timeout: timeout)
  }

  /// The entries written after change `change` that `query` finds, and
  /// the URIs of those written or removed after it, matching or not.
  public func changes(
    after change: Int64, matching query: QueryNode
  ) throws(PostgresError) -> (matching: [Hit], touched: [String]) {
    let matching = try search(
      .and([query, .filter(.changedAfter(generation: change))]), limit: nil)
    let touched = try connection.execute(
      """
      SELECT host, encode(path, 'hex'), domain FROM item WHERE change > $1::bigint
      UNION ALL SELECT host, encode(path, 'hex'), domain FROM removal WHERE change > $1::bigint
      """, [String(change)]
    ).rows.map {
      Self.uri(
        host: $0[0] ?? "", path: RawPath(bytes: Self.bytes(fromHex: $0[1] ?? "")), domain: $0[2])
    }
    return (matching, touched)
  }

  private func searchOnce(_ query: QueryNode, limit: Int?, typos: Bool) throws(PostgresError)
    -> [Hit]
  {
    var compiled = PostgresQuery(closeWords: typos ? closeWords : nil)
    let condition = try compiled.condition(query)
    var parameters = compiled.parameters
    // Names that hold the words above keywords that do, above texts that
    // do, then the shorter name, then the newest.
    var rank = "0"
    // Texts (that no name holds a word of) first by their length.
    var textOrder = ""
    if !compiled.rankTerms.isEmpty {
      // Each word (with the words it may stand for) counts once: 0.1 when
      // the name holds it, 0.04 when only its keywords do (counting each
      // word of the name it begins put a long name whose readings begin
      // with it four times above the short name it is the start of), as
      // the local index's tiers take names before keywords; names alike
      // in that are then ranked as it ranks them (``ItemRank``).
      var held: [String] = []
      for term in compiled.rankTerms {
        parameters.append(term)
        let query = "$\(parameters.count)::tsquery"
        held.append(
          "(CASE WHEN own @@ \(query) THEN 0.1 WHEN name_vector @@ \(query) THEN 0.04 ELSE 0 END)")
      }
      // Entries whose names hold none of the words (found by their texts)
      // skip the weighing: a text's word is in thousands of them. The
      // name's own words (weight A) are filtered once a row.
      parameters.append(compiled.rankTerms.map { "(\($0))" }.joined(separator: " | "))
      textOrder =
        "CASE WHEN name_vector @@ $\(parameters.count)::tsquery THEN 0 ELSE \(Self.textLength) END, "
      rank = """
        CASE WHEN name_vector @@ $\(parameters.count)::tsquery
          THEN (SELECT (\(held.joined(separator: " + ")))
            FROM (SELECT ts_filter(name_vector, '{a}') AS own) AS o)
          ELSE 0 END
        """
      // Tiers above the weight, as the local index ranks a name: one
      // that holds every typed word as it was typed (a Japanese or
      // Chinese run inside a longer one too), then one that holds them
      // as whole words, not only as the start of longer ones.
      let typed = compiled.typedWords
      if !typed.isEmpty {
        parameters.append(PostgresQuery.array(typed))
        let holds = """
          (SELECT bool_and(strpos(lower(unaccent(name)), w) > 0)
            FROM unnest($\(parameters.count)::text[]) AS w)::int
          """
        parameters.append(typed.map(PostgresWords.quoted).joined(separator: " & "))
        let whole = "(name_vector @@ $\(parameters.count)::tsquery)::int * 0.5"
        rank = "\(holds) + \(whole) + \(rank)"
      }
    }
    // Then texts as the local index's BM25 ranks those that hold every
    // word: the shorter first (in words, with the path's folders); and
    // names, as its name score and boost rank them (the store counts no
    // uses: an item opened often ranks higher in its host's index alone).
    let ranked = "\(textOrder)\(Self.nameRank), modified DESC NULLS LAST, name, "
    var limitClause = ""
    if let limit {
      parameters.append(String(limit))
      limitClause = "LIMIT $\(parameters.count)::int"
    }
    return try hits(
      rank: rank,
      """
      WHERE \(condition)
      ORDER BY rank DESC, \(ranked)host, path \(limitClause)
      """, parameters)
  }

  /// An entry's rank among names that hold the words alike, as the local
  /// index ranks its items (``ItemRank``): its name's length, a folder
  /// after a file, shallow first, changed in the last week first.
  static let nameRank =
    ItemRank.nameScore(name: "name", isFolder: "folder::int", position: "strpos") + " + "
    + ItemRank.boost(
      depth: "(length(path_text) - length(replace(path_text, '/', '')))", uses: "0",
      recent:
        "coalesce(modified > now() - interval '\(ItemRank.recentSeconds) seconds', false)::int")

  /// The words of a text and its path, counted by the host that sent
  /// them: what the local index's BM25 weighs a text by (counting them in
  /// a query read every matching text whole: 614 ms for a common word).
  static let textLength = "word_count"

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
  private func hits(rank: String = "0", _ clauses: String, _ parameters: [String?])
    throws(PostgresError) -> [Hit]
  {
    try connection.execute(
      """
      SELECT host, encode(path, 'hex'), name, folder, content_types[1], size,
        extract(epoch FROM modified), \(rank) AS rank, domain, kind
      FROM item \(clauses)
      """, parameters
    ).rows.map { row in
      Hit(
        host: row[0] ?? "", path: RawPath(bytes: Self.bytes(fromHex: row[1] ?? "")),
        name: row[2] ?? "", isFolder: row[3] == "t",
        contentType: row[4], kind: row[9],
        size: row[5].flatMap { Int64($0) },
        modified: row[6].flatMap { Double($0) }.map { Date(timeIntervalSince1970: $0) },
        rank: row[7].flatMap { Double($0) } ?? 0, domain: row[8])
    }
  }

  /// The words of names a typed word may stand for, as the SQLite index
  /// reads a typo (`NearWords`): those it shares a deletion key with, the
  /// fewest edits away; abbreviated by it when none is; those most names
  /// hold first, at most eight.
  private func closeWords(_ word: String) throws(PostgresError) -> [String] {
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

  /// How many entries' words (of name, keywords or text) hold each word.
  private func textCounts(_ words: [String]) throws(PostgresError) -> [String: Int] {
    try counts(of: words, in: PostgresQuery.allWords)
  }

  /// How many names hold each word.
  private func nameCounts(_ words: [String]) throws(PostgresError) -> [String: Int] {
    try counts(of: words, in: "name_vector")
  }

  /// How many entries' `vector` (a `tsvector`, as SQL) holds each word;
  /// those none holds left out.
  private func counts(of words: [String], in vector: String) throws(PostgresError) -> [String: Int]
  {
    guard !words.isEmpty else { return [:] }
    var counts: [String: Int] = [:]
    for row in try connection.execute(
      """
      SELECT w, (SELECT count(*) FROM item WHERE \(vector) @@ quote_literal(w)::tsquery)
      FROM unnest($1::text[]) AS w
      """, [PostgresQuery.array(words)]
    ).rows {
      if let word = row[0], let count = row[1].flatMap({ Int($0) }), count > 0 {
        counts[word] = count
      }
    }
    return counts
  }

  static func bytes(fromHex hex: String) -> [UInt8] {
    var bytes: [UInt8] = []
    var index = hex.startIndex
    while let next = hex.index(index, offsetBy: 2, limitedBy: hex.endIndex), index != next {
      bytes.append(UInt8(hex[index..<next], radix: 16) ?? 0)
      index = next
    }
    return bytes
  }
}

extension PostgresIndex.Hit {
  /// The entry a host wrote at `path` (an application item's URI, with
  /// its `domain`), as a search would find it.
  public init(host: String, path: RawPath, name: String, domain: String?) {
    self.init(host: host, path: path, name: name, isFolder: false, domain: domain)
  }
}
