import Foundation

/// The store's B-trees packed after a host sent every entry, as the local
/// index packs itself after its first crawl.
///
/// Rows written a batch at a time, several hosts at once, split the
/// B-trees' pages where they land, each about 70 % full where a tree built
/// whole fills 90 %: three hosts of 100,000 entries, sent to a new store,
/// kept their B-trees in about 320 bytes an entry (the key 158), 242 once
/// built again (the key 114), in 4 s.
extension PostgresIndex {
  /// Entries a whole resend sends at least for the store to be packed
  /// after it (``packs(after:)``).
  public static let packedAfter = 10_000

  /// Whether the store's B-trees are packed (``pack()``) after this host
  /// sent `sent` entries, all it holds: when they are at least
  /// ``packedAfter`` and a quarter of the store's entries, as the planner
  /// counts them (``expectedEntries()``): a host joining a large store
  /// leaves it as it is.
  public func packs(after sent: Int) throws(PostgresError) -> Bool {
    guard sent >= Self.packedAfter else { return false }
    return try Double(sent) * 4 >= expectedEntries()
  }

  /// Builds the B-trees of the entries and of the texts again, one at a
  /// time, while every host writes and searches (`REINDEX CONCURRENTLY`:
  /// the old index serves until the new one replaces it). One host packs
  /// at a time, the others waiting their turn: two builds of one index at
  /// once deadlocked, and the one the server stopped left its copy behind,
  /// invalid, which every write still kept up. Such a copy (of a pack cut
  /// short) is dropped first, and at once when a build fails. Returns
  /// false, having packed nothing, when `givingUp` says so while this host
  /// waits its turn (the watcher stopping).
  @discardableResult
  public func pack(givingUp: () -> Bool = { false }) throws(PostgresError) -> Bool {
    // A pack takes what the trees' sizes take.
    connection.answerSeconds = nil
    defer { connection.answerSeconds = PostgresConnection.answerSeconds }
    // Asked for again and again, not waited for in one statement: a
    // build waits for every transaction under way, this one too.
    while try connection.execute("SELECT pg_try_advisory_lock(\(Self.packLockKey))").rows.first?
      .first != "t"
    {
      if givingUp() { return false }
      usleep(200_000)
    }
    defer { _ = try? connection.execute("SELECT pg_advisory_unlock(\(Self.packLockKey))") }
    try dropCopiesLeft()
    for tree in try packedTablesIndexes(where: "i.indisvalid AND a.amname = 'btree'") {
      do {
        try connection.execute("REINDEX INDEX CONCURRENTLY \(tree)")
      } catch {
        try? dropCopiesLeft()
        throw error
      }
    }
    return true
  }

  /// The names (quoted) of the indexes of the tables ``pack()`` builds
  /// again that `condition` picks (SQL of `i`, their `pg_index` row, and
  /// `a`, their access method), in the order of their names.
  private func packedTablesIndexes(where condition: String) throws(PostgresError) -> [String] {
    try connection.execute(
      """
      SELECT quote_ident(c.relname) FROM pg_index AS i JOIN pg_class AS c ON c.oid = i.indexrelid
        JOIN pg_am AS a ON a.oid = c.relam
      WHERE i.indrelid IN ('item'::regclass, 'item_text'::regclass) AND \(condition)
      ORDER BY c.relname
      """
    ).rows.compactMap { $0[0] }
  }

  /// The advisory lock a host packs under: "LIMEPACK" in ASCII.
  static let packLockKey: Int64 = 0x4C49_4D45_5041_434B

  /// Drops the invalid copies that builds cut short left of the packed
  /// tables' indexes.
  private func dropCopiesLeft() throws(PostgresError) {
    for copy in try packedTablesIndexes(
      where: "NOT i.indisvalid AND c.relname ~ '_cc(new|old)[0-9]*$'")
    {
      try connection.execute("DROP INDEX CONCURRENTLY IF EXISTS \(copy)")
    }
  }
}
