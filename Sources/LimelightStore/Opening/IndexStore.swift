import CTextRank
import Foundation
import GRDB
import LimelightModel
import LimelightPlatform
import Synchronization

#if canImport(Glibc)
  import Glibc
#endif

/// The on-disk index: one SQLite database in WAL mode, written by the watcher and
/// read by any number of processes at once.
public final class IndexStore: Sendable {
  public let location: IndexLocation
  /// A pool (the watcher, commands that write) or a single read-only connection
  /// (queries, which start once per search and must open fast).
  let pool: any DatabaseWriter
  /// How this index packs the texts it stores.
  public let texts: TextPacker
  /// Signalled after each of this process's write transactions commits.
  public let commits = CommitSignal()
  /// The name terms and content types committed transactions wrote.
  let committedTerms = CommittedTerms()
  /// Copies the log back into the index beside the writer, once
  /// ``checkpointAside()`` started it (the watcher).
  let checkpointer = Mutex<LogCheckpointer?>(nil)

  deinit { checkpointer.withLock { $0?.stop() } }

  /// Why the index could not be opened.
  public enum OpenError: Error, CustomStringConvertible {
    case missing(RawPath)
    case unusable(RawPath, String)
    /// Another process is upgrading the index to the current schema.
    case upgrading(RawPath)
    /// The file is not a SQLite database, or a damaged one.
    case damaged(RawPath, String)
    /// A newer version upgraded the index: this one would write items
    /// without what the newer one keeps with each (facets, ranks).
    case newer(RawPath)
    /// A version older than the oldest this one upgrades made the index
    /// (``Schema/oldestUpgraded``): the watcher builds a new one.
    case older(RawPath)

    public var description: String {
      switch self {
      case .missing(let path):
        return
          "no index at \(path.string): start limelightd (or run 'limelightd --once') to build it"
      case .unusable(let path, let reason):
        return "cannot open the index at \(path.string): \(reason)"
      case .damaged(let path, let reason):
        return "the index at \(path.string) is damaged (\(reason)): limelightd builds a new one"
      case .upgrading(let path):
        return "the index at \(path.string) is being upgraded to a new format: try again shortly"
      case .older(let path):
        return
          "the index at \(path.string) was made by a Limelight too old to upgrade from:"
          + " limelightd builds a new one when it starts"
      case .newer(let path):
        return
          "the index at \(path.string) was upgraded by a newer Limelight: run that version,"
          + " or remove the file (and its -wal and -shm) to build a new index with this one"
      }
    }
  }

  /// Opens (and, with `create`, creates) the index of a location, upgrading its schema.
  /// `readOnly` opens one read-only connection when the schema is current, which
  /// costs a fraction of a pool; the store then cannot write.
  /// `longLived` (the watcher's query service) keeps a page cache instead of
  /// mapping the file, so that its memory shows what it holds.
  public static func open(
    _ location: IndexLocation, create: Bool, readOnly: Bool = false, longLived: Bool = false
  ) throws -> IndexStore {
    let path = location.databasePath
    if !create && FileSystem.status(path) == nil { throw OpenError.missing(path) }
    if create { try location.createPrivateDirectories() }
    let texts = TextPacker()
    do {
      var configuration = GRDB.Configuration()
      configuration.busyMode = .timeout(10)
      configuration.prepareDatabase { db in
        if !db.configuration.readonly {
          try db.execute(sql: "PRAGMA synchronous = NORMAL")
          // Takes effect in a new index only (before its first table): the
          // pages merges and deletions free go back to the file system in
          // steps (`releaseFreePages`), without rewriting the file. Asked of
          // an empty file alone: on any other, SQLite takes the write lock to
          // set it, and a process opening the index (`limelight status`) waited
          // for the watcher's transaction, then failed as "locked".
          if try Int.fetchOne(db, sql: "PRAGMA page_count") == 0 {
            try db.execute(sql: "PRAGMA auto_vacuum = INCREMENTAL")
          }
          try db.execute(sql: "PRAGMA journal_size_limit = \(WriteLoad.idle.logLimit)")
        }
        try Self.addFunctions(db, texts: texts)
      }
      if readOnly && !create {
        var reading = configuration
        reading.readonly = true
        // A query reads a few scattered pages once: mapping the file spares a
        // read(2) and a copy for each. The query service's connections keep
        // 4 MiB of pages instead (16 kept the watcher's peak 12 MiB higher
        // while its second pass ran, and no query quicker).
        reading.prepareDatabase { db in
          try db.execute(
            sql: longLived ? "PRAGMA cache_size = -4096" : "PRAGMA mmap_size = 17179869184")
        }
        let queue = try DatabaseQueue(path: path.string, configuration: reading)
        // A new or older index is upgraded (and a new one switched to WAL)
        // below; a newer one this version would misread (its queries
        // failed with SQLite's own words) is refused.
        let (current, newer) = try queue.read { db in
          (
            try Schema.migrator.hasCompletedMigrations(db)
              && String.fetchOne(db, sql: "PRAGMA journal_mode") == "wal",
            try Schema.isNewer(db)
          )
        }
        if newer { throw OpenError.newer(path) }
        if current { return IndexStore(location: location, pool: queue, texts: texts) }
      }
      let umask = Glibc.umask(0o077)
      defer { _ = Glibc.umask(umask) }
      // Several processes may open a new or older index at once (the watcher
      // starting, a query polling for it): one switches it to WAL and migrates
      // while the others wait. Without the lock, two connections upgrading a
      // rollback-journal database can deadlock, and SQLite then answers one of
      // them "database is locked" at once, without waiting.
      let lock = location.dataDirectory.appending("migrate.lock")
      let fd = lock.withCString { Glibc.open($0, O_RDWR | O_CREAT | O_CLOEXEC, 0o600) }
      defer { if fd >= 0 { close(fd) } }
      if fd >= 0 && flock(fd, LOCK_EX | LOCK_NB) != 0 {
        // An upgrade of a large index copies its text and can take minutes: a
        // query says so instead of waiting; the watcher and writers wait.
        if !create && readOnly { throw OpenError.upgrading(path) }
        _ = flock(fd, LOCK_EX)
      }
      let pool = try DatabasePool(path: path.string, configuration: configuration)
      let migrator = Schema.migrator
      if try pool.read(Schema.isNewer) { throw OpenError.newer(path) }
      // The index's dictionaries, known before an upgrade that reads every
      // text again (the text index made anew): unmet, a text packed with
      // one is none, and would be left out of it.
      try pool.read { db in
        if try db.tableExists("text_dictionary") { try texts.refresh(db) }
      }
      if try !pool.read({ try migrator.hasCompletedMigrations($0) }) {
        do {
          try migrator.migrate(pool)
        } catch is Schema.OlderIndex {
          throw OpenError.older(path)
        }
        try compactAfterUpgrade(pool, texts: texts)
      }
      return IndexStore(location: location, pool: pool, texts: texts)
    } catch let error as DatabaseError {
      if error.resultCode == .SQLITE_CORRUPT || error.resultCode == .SQLITE_NOTADB {
        throw OpenError.damaged(path, error.message ?? error.description)
      }
      throw OpenError.unusable(path, error.message ?? error.description)
    }
  }

  /// The functions and the tokenizer the index's schema and queries call.
  static func addFunctions(_ db: Database, texts: TextPacker) throws {
    db.add(function: Self.matchFunction)
    db.add(function: Self.personFunction)
    db.add(function: Self.phrasesFunction)
    db.add(function: StoredText.deflateFunction)
    db.add(function: StoredText.inflateFunction)
    db.add(function: StoredText.repackFunction(texts))
    db.add(function: StoredText.fileURIFunction)
    db.add(function: ItemFacets.function)
    db.add(function: ItemFacets.textFunction)
    db.add(function: ItemDescription.summaryFunction)
    try FieldHitsFunction.register(db)
    for register in [
      limelight_register_text_rank, limelight_register_cjk_pairs, limelight_register_words,
    ] {
      let code = register(db.sqliteConnection)
      if code != SQLITE_OK { throw DatabaseError(resultCode: ResultCode(rawValue: code)) }
    }
  }

  /// `limelight_person(people, name)`: whether one of the people (a JSON
  /// array: authors, recipients) has the name (``PersonNames``).
  static let personFunction = DatabaseFunction("limelight_person", argumentCount: 2, pure: true) {
    values in
    guard let value = String.fromDatabaseValue(values[0]),
      let name = String.fromDatabaseValue(values[1]), let data = value.data(using: .utf8),
      let people = try? JSONSerialization.jsonObject(with: data) as? [String]
    else { return false }
    return PersonNames.matches(name, among: people)
  }

  /// `limelight_match(value, pattern, flags)`: the predicate language's string
  /// comparison; a JSON array value (keywords, authors) matches when an element does.
  static let matchFunction = DatabaseFunction("limelight_match", argumentCount: 3, pure: true) {
    values in
    guard let value = String.fromDatabaseValue(values[0]),
      let pattern = String.fromDatabaseValue(values[1]),
      let flags = String.fromDatabaseValue(values[2])
    else { return false }
    let matcher = IndexStore.matchers.withLock { cache in
      if let known = cache[pattern + "\u{0}" + flags] { return known }
      let made = WildcardMatcher(pattern: pattern, modifiers: flags)
      if cache.count > 64 { cache.removeAll() }
      cache[pattern + "\u{0}" + flags] = made
      return made
    }
    if value.hasPrefix("["), let data = value.data(using: .utf8),
      let array = try? JSONSerialization.jsonObject(with: data) as? [String]
    {
      return array.contains(where: matcher.matches)
    }
    return matcher.matches(value)
  }

  /// `limelight_phrases(name, keywords, path, text, check, body)`: whether
  /// an item's texts hold the phrases of an encoded ``PhraseCheck``; `text`
  /// is the content as stored (packed), unpacked only when the other
  /// columns do not decide, and what it holds is remembered for the search
  /// by its `body` (``TextsRead``), which copies of the text share.
  static let phrasesFunction = DatabaseFunction(
    "limelight_phrases", argumentCount: 6, pure: true
  ) { values in
    guard let check = phraseCheck(values[4]) else { return false }
    let search = TextsRead.current
    let found = Int64.fromDatabaseValue(values[5]).flatMap { search?.found(inBody: $0) }
    return check.matches(
      columns: 4,
      text: { index in
        guard index == 3 else { return String.fromDatabaseValue(values[index]) }
        return Data.fromDatabaseValue(values[3]).flatMap(TextPacker.unpack)
      },
      utf8: { index in
        guard index == 3, let data = Data.fromDatabaseValue(values[3]) else { return nil }
        // Into the memory of the search's text before, when a search runs.
        return search.map { $0.unpackUTF8(data) } ?? TextPacker.unpackUTF8(data)
      }, found: found)
  }

  /// An encoded ``PhraseCheck``, parsed once for all the rows of a query.
  private static func phraseCheck(_ value: DatabaseValue) -> PhraseCheck? {
    parsed(value, in: phraseChecks) { PhraseCheck(encoded: $0) }
  }

  static let phraseChecks = Mutex<[String: PhraseCheck?]>([:])

  /// What `make` makes of an encoded text bound into a query, kept in
  /// `cache` for the query's other rows (and the next query of its shape).
  private static func parsed<T>(
    _ value: DatabaseValue, in cache: borrowing Mutex<[String: T?]>, _ make: (String) -> T?
  ) -> T? {
    guard let encoded = String.fromDatabaseValue(value) else { return nil }
    return cache.withLock { known in
      if let made = known[encoded] { return made }
      let made = make(encoded)
      if known.count > 64 { known.removeAll() }
      known[encoded] = made
      return made
    }
  }

  /// The matchers of the patterns being compared (one query compares one
  /// pattern with many values).
  static let matchers = Mutex<[String: WildcardMatcher]>([:])

  /// Lets go of the prepared statements and page cache of the connections,
  /// and of the contexts texts were packed with.
  public func releaseMemory() {
    if let queue = pool as? DatabaseQueue { queue.releaseMemory() }
    if let pool = pool as? DatabasePool { pool.releaseMemory() }
    texts.releaseMemory()
  }

  init(location: IndexLocation, pool: any DatabaseWriter, texts: TextPacker) {
    self.location = location
    self.pool = pool
    self.texts = texts
  }

  /// Runs `body` in one write transaction that advances the index generation.
  @discardableResult
  public func write<T>(_ body: (IndexWriter) throws -> T) throws -> T {
    try damageReported {
      try writeTransaction(body)
    }
  }

  private func writeTransaction<T>(_ body: (IndexWriter) throws -> T) throws -> T {
    defer { commits.signal() }
    var seen: SeenTerms?
    let result = try pool.write { db in
      // Cached, as every statement a transaction always runs.
      let generation =
        try Int64.fetchOne(
          db.cachedStatement(sql: "SELECT value FROM meta WHERE key = 'generation'")) ?? 0
      try db.cachedStatement(sql: "UPDATE meta SET value = ? WHERE key = 'generation'")
        .execute(arguments: [generation + 1])
      let writer = IndexWriter(
        db: db, generation: generation + 1, texts: texts, committed: committedTerms)
      let result = try body(writer)
      try texts.trainIfReady(db)
      seen = writer.seenTerms
      return result
    }
    // Committed: later transactions need not look its terms up again.
    if let seen { committedTerms.add(seen) }
    return result
  }

  /// Runs `body` on a consistent snapshot of the index.
  func read<T>(_ body: (Database) throws -> T) throws -> T {
    try damageReported {
      try pool.read { db in
        // The watcher may have trained the dictionary of the index's texts since.
        try texts.refresh(db)
        return try body(db)
      }
    }
  }

  /// Runs `body`; SQLite finding the file damaged is reported to the
  /// watcher (``IndexDamage``) and thrown as ``OpenError/damaged(_:_:)``,
  /// which says what happens next.
  func damageReported<T>(_ body: () throws -> T) throws -> T {
    do {
      return try body()
    } catch  where IndexDamage.isDamage(error) {
      let reason = IndexDamage.reason(error)
      IndexDamage.report(location, reason: reason)
      throw OpenError.damaged(location.databasePath, reason)
    }
  }

  /// Whether indexing is paused (`limelight pause`), as the index remembers.
  public func isPaused() throws -> Bool {
    try read { db in
      try Bool.fetchOne(db, sql: "SELECT value FROM meta WHERE key = 'paused'") ?? false
    }
  }

  /// What the index holds of a domain's items, by their application's id:
  /// when each changed, and its custom attributes (JSON).
  public func itemStates(inDomain domain: String) throws -> [(
    localID: String, modified: Double, customAttributes: String?
  )] {
    try read { db in
      try Row.fetchAll(
        db, sql: "SELECT localID, modified, customAttributes FROM item WHERE domain = ?",
        arguments: [domain]
      ).map { ($0["localID"], $0["modified"] ?? 0, $0["customAttributes"]) }
    }
  }

  /// Up to `limit` files without a thumbnail that `wanted` accepts (given
  /// their content type tree, most specific first), with their modification
  /// times in nanoseconds. Read with a cursor: the index may hold millions.
  public func filesWithoutThumbnails(limit: Int, wanted: ([String]) -> Bool) throws
    -> [FileVersion]
  {
    try read { db in
      var found: [FileVersion] = []
      let rows = try Row.fetchCursor(
        db,
        sql: """
          SELECT path, \(IndexWriter.typeTree) AS contentTypeTree, mtimeNs FROM item
          WHERE domain = ? AND isFolder = 0 AND thumbnailPath IS NULL AND path IS NOT NULL
            AND mtimeNs IS NOT NULL
          """, arguments: [fileDomain])
      while found.count < limit, let row = try rows.next() {
        let file = IndexWriter.fileVersion(row)
        if wanted(file.contentTypeTree) { found.append(file) }
      }
      return found
    }
  }

  /// Up to `limit` files whose thumbnail `matches` (given the file's URI and
  /// the thumbnail's path), with the item's rowid: a read, one pass over the
  /// files with a thumbnail.
  public func files(
    limit: Int = .max, showingThumbnailWhere matches: (String, String) -> Bool
  ) throws -> [(rowID: Int64, thumbnail: String, file: FileVersion)] {
    try read { db in
      var found: [(rowID: Int64, thumbnail: String, file: FileVersion)] = []
      let rows = try Row.fetchCursor(
        db,
        sql: """
          SELECT rowid, uri, thumbnailPath, path, \(IndexWriter.typeTree) AS contentTypeTree, mtimeNs FROM item
          WHERE domain = ? AND isFolder = 0 AND thumbnailPath IS NOT NULL AND path IS NOT NULL
          """, arguments: [fileDomain])
      while found.count < limit, let row = try rows.next() {
        let thumbnail: String = row[ItemTable.thumbnailPath]
        guard matches(row[ItemTable.uri], thumbnail) else { continue }
        found.append((row[ItemTable.rowID], thumbnail, IndexWriter.fileVersion(row)))
      }
      return found
    }
  }

  /// The current index generation.
  public func generation() throws -> Int64 {
    try read { db in
      try Int64.fetchOne(db, sql: "SELECT value FROM meta WHERE key = 'generation'") ?? 0
    }
  }

  /// What the watcher is writing, which sets up its connection.
  public enum WriteLoad: Sendable {
    /// A crawl: names, many small rows. It writes faster with a large page
    /// cache (32 MB: its indexes' pages stay in memory; 8 MB lowered the
    /// watcher's peak by 25 MB at 100,000 entries, but whether it slowed a
    /// million was lost in this machine's noise).
    case crawl
    /// The second pass: texts, fewer rows, written while the next slice is
    /// read (8 MB of cache: its peak is the pass's).
    case content
    /// The trickle of changes after both: SQLite's defaults, about 2 MB.
    case idle

    var cacheKiB: Int {
      switch self {
      case .crawl: 32768
      case .content: 8192
      case .idle: 2000
      }
    }
    /// Pages between checkpoints: a long log while the passes write (each
    /// checkpoint waits for the disk), SQLite's 1,000 pages after.
    var checkpointPages: Int { self == .idle ? 1000 : 16384 }
    /// The size (bytes) the write-ahead log shrinks to whenever it starts
    /// over: its checkpoint interval. Without a limit it kept its largest
    /// size, which readers holding old snapshots while thumbnails were
    /// written raised to 67 MB at 100,000 entries (a fifth of the index).
    var logLimit: Int { checkpointPages * 4096 }
  }

  /// Sets up the connection that writes for what comes next; when idle, the
  /// log the passes grew goes back to the disk (unless a reader holds it).
  public func prepareForWrites(_ load: WriteLoad) {
    let aside = checkpointer.withLock { $0 }
    _ = try? pool.writeWithoutTransaction { db in
      try db.execute(sql: "PRAGMA cache_size = -\(load.cacheKiB)")
      if let aside, load != .crawl, let connection = db.sqliteConnection {
        aside.threshold.store(Int32(load.checkpointPages), ordering: .relaxed)
        aside.watch(connection)
      } else {
        // A crawl's names pass keeps both cores busy, and nothing in it
        // waits for one write: SQLite copies the log in its commits (the
        // pragma puts its own hook back in the place of the copy aside).
        try db.execute(sql: "PRAGMA wal_autocheckpoint = \(load.checkpointPages)")
      }
      try db.execute(sql: "PRAGMA journal_size_limit = \(load.logLimit)")
      if load == .idle && aside == nil { try db.execute(sql: "PRAGMA wal_checkpoint(TRUNCATE)") }
    }
    if load == .idle { aside?.wake() }
  }

  /// Copies the write-ahead log back into the index on a thread and a
  /// connection of its own from now on, instead of in the commit that
  /// fills it (``LogCheckpointer``), except while a crawl names entries
  /// (``prepareForWrites(_:)``): for the watcher, whose every write may
  /// hold a change the user waits to find.
  public func checkpointAside() {
    guard let pool = pool as? DatabasePool else { return }
    let checkpointer = checkpointer.withLock { kept in
      if let kept { return kept }
      kept = LogCheckpointer(path: location.databasePath.string)
      return kept!
    }
    pool.writeWithoutTransaction { db in
      if let connection = db.sqliteConnection { checkpointer.watch(connection) }
    }
  }

  /// Copies the write-ahead log back into the index soon: beside the
  /// writer when ``checkpointAside()`` started that, at once otherwise.
  public func checkpointSoon() {
    if let aside = checkpointer.withLock({ $0 }) { aside.wake() } else { checkpoint() }
  }

  /// Copies what remains of the write-ahead log into the database file,
  /// and empties it (writes wait meanwhile).
  public func checkpoint() {
    _ = try? pool.writeWithoutTransaction { db in
      try db.execute(sql: "PRAGMA wal_checkpoint(TRUNCATE)")
    }
  }
}
