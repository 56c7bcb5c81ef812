import Foundation
import GRDB
import GRDBSQLite
import LimelightPlatform

/// Packing the index after a pass that rewrote much of it: the full-text
/// indexes' segments merged into one, a step at a time, then the file
/// rewritten with every page full, a rewrite that gives way to the watcher's
/// next write and is tried again later.
///
/// Rows that grew after they were written (the second pass adds the text
/// and properties to what the first wrote) split their pages, which stay a
/// quarter empty; the many small segments a crawl's commits leave make
/// every query read many lists a word. Packed, a home read for the first
/// time takes 370 bytes an entry less.
extension IndexStore {
  /// After an upgrade that rewrote tables (`meta.compact`), gives the space
  /// they left back to the file system: the index shrinks instead of
  /// keeping the old tables' pages as free space.
  static func compactAfterUpgrade(_ pool: DatabasePool, texts: TextPacker) throws {
    let wanted = try pool.read { db in
      try Bool.fetchOne(db, sql: "SELECT value FROM meta WHERE key = 'compact'") ?? false
    }
    guard wanted else { return }
    try pool.writeWithoutTransaction { db in try compact(db, texts: texts, atOnce: true) }
  }

  /// Rewrites the index packed: each full-text index in one segment, every
  /// table's pages full. `atOnce`, when nothing waits for it: the full-text
  /// indexes are merged here and the log copied back before it returns;
  /// otherwise they were merged beforehand (``mergeStep(first:)``) and the
  /// log is copied back beside the writer.
  private static func compact(_ db: Database, texts: TextPacker, atOnce: Bool) throws {
    // Texts deflated before the dictionary was trained are packed with it
    // (trained now, when fewer texts than it waits for were read).
    try texts.trainIfReady(db, early: true)
    if texts.hasDictionary {
      try db.execute(
        sql: "UPDATE text_body SET text = limelight_repack(text) WHERE substr(text, 1, 1) = x'78'")
    }
    if atOnce {
      try db.execute(sql: "INSERT INTO item_text (item_text) VALUES ('optimize')")
      try db.execute(sql: "INSERT INTO item_name (item_name) VALUES ('optimize')")
    }
    // Pages that later merges and deletions free can then be given back
    // to the file system without rewriting the file (`releaseFreePages`).
    try db.execute(sql: "PRAGMA auto_vacuum = INCREMENTAL")
    try db.execute(sql: "VACUUM")
    try db.execute(sql: "DELETE FROM meta WHERE key = 'compact'")
    if atOnce { try db.execute(sql: "PRAGMA wal_checkpoint(TRUNCATE)") }
  }

  /// The tidying a watcher wanted and had not done when it stopped
  /// (``noteTidying(merge:pack:)``): the next one does it.
  public func tidyingWanted() throws -> (merge: Bool, pack: Bool) {
    try read { db in
      (
        try Bool.fetchOne(db, sql: "SELECT value FROM meta WHERE key = 'mergeWanted'") ?? false,
        try Bool.fetchOne(db, sql: "SELECT value FROM meta WHERE key = 'packWanted'") ?? false
      )
    }
  }

  /// Keeps what tidying is left to do: merging the full-text indexes (and
  /// giving their pages back), packing the index.
  public func noteTidying(merge: Bool, pack: Bool) throws {
    try pool.write { db in
      for (key, wanted) in [("mergeWanted", merge), ("packWanted", pack)] {
        if wanted {
          try db.execute(
            sql: "INSERT OR REPLACE INTO meta (key, value) VALUES (?, 1)", arguments: [key])
        } else {
          try db.execute(sql: "DELETE FROM meta WHERE key = ?", arguments: [key])
        }
      }
    }
  }

  /// Whether a pass that rewrote `rewritten` items is worth packing the
  /// index after: at least `minimum`, and a quarter of the index (the first
  /// reading of a home, a large restore). Packing costs the index's size
  /// once, for a gain that a few changes would not pay for.
  public func isWorthPacking(afterRewriting rewritten: Int, minimum: Int = compactionMinimum)
    throws -> Bool
  {
    guard rewritten >= minimum else { return false }
    let items = try read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM item") ?? 0 }
    return rewritten * 4 >= items
  }

  /// Packs the index at once when a pass rewrote enough of it
  /// (``isWorthPacking(afterRewriting:minimum:)``): a one-off run, which
  /// nothing waits for. Returns whether it did. Readers go on meanwhile;
  /// writes wait.
  public func compact(afterRewriting rewritten: Int, minimum: Int = compactionMinimum) throws
    -> Bool
  {
    guard try isWorthPacking(afterRewriting: rewritten, minimum: minimum) else { return false }
    try pool.writeWithoutTransaction { db in try Self.compact(db, texts: texts, atOnce: true) }
    return true
  }

  /// Rewrites the index packed, its full-text indexes merged beforehand
  /// (``mergeStep(first:)``), for a watcher that has the user's changes to
  /// write meanwhile: SQLite asks `givingWay` every few thousand of its
  /// steps whether something waits, and when it does, the rewrite stops,
  /// undone (the index as it was), and `false` is returned. The rewrite's
  /// last part, copying the packed file into the log (4 s for 600 MB),
  /// cannot be stopped; the log is copied back into the index beside the
  /// writer, when ``checkpointAside()`` started that. Readers go on
  /// meanwhile.
  public func pack(
    givingWay: @escaping @Sendable () -> Bool, askingEvery steps: Int32 = stepsBetweenAsking
  ) throws -> Bool {
    checkpointer.withLock { $0 }?.expectLargeCommit()
    return try pool.writeWithoutTransaction { db in
      let asking = GivingWay(givingWay)
      let context = Unmanaged.passRetained(asking)
      sqlite3_progress_handler(
        db.sqliteConnection, steps,
        { context in
          guard let context else { return 0 }
          return Unmanaged<GivingWay>.fromOpaque(context).takeUnretainedValue().ask() ? 1 : 0
        }, context.toOpaque())
      defer {
        sqlite3_progress_handler(db.sqliteConnection, 0, nil, nil)
        context.release()
      }
      do {
        try Self.compact(db, texts: texts, atOnce: false)
        return true
      } catch let error as DatabaseError where error.resultCode == .SQLITE_INTERRUPT {
        return false
      }
    }
  }

  /// SQLite's steps between two questions to `givingWay`: a fraction of a
  /// millisecond.
  public static let stepsBetweenAsking: Int32 = 20_000

  /// The fewest items rewritten that make a pass worth packing the index after.
  public static let compactionMinimum = 10_000

  /// Pages each merge step writes: a few tens of milliseconds of work.
  public static let mergeStepPages = 250

  /// One step of merging each full-text index's segments into one; whether
  /// either has more to merge. The first step (`first`) puts every segment
  /// on one level and starts merging them; the next ones carry that merge
  /// on, even as the watcher's writes add segments (FTS5's `merge` command,
  /// its pages negative then positive, as FTS5's documentation advises:
  /// together the same as `optimize`, which is one transaction of seconds).
  /// A step that is not first merges only where a level holds four
  /// segments or more (FTS5's `usermerge`), and does nothing otherwise:
  /// between a pass's slices it keeps their count low.
  public func mergeStep(first: Bool) throws -> Bool {
    try pool.write { db in
      var more = false
      for table in ["item_name", "item_text"] {
        let before = db.totalChangesCount
        try db.execute(
          sql: "INSERT INTO \(table) (\(table), rank) VALUES ('merge', ?)",
          arguments: [first ? -Self.mergeStepPages : Self.mergeStepPages])
        // FTS5 counts two changes or more when the step merged anything.
        if db.totalChangesCount - before >= 2 { more = true }
      }
      return more
    }
  }

  /// Gives up to `pages` of the file's free pages back to the file system
  /// (the index shrinks; SQLite's incremental vacuum, on since the index was
  /// made or first packed); whether free pages are left.
  public func releaseFreePages(atMost pages: Int = releaseStepPages) throws -> Bool {
    try pool.writeWithoutTransaction { db in
      try db.execute(sql: "PRAGMA incremental_vacuum(\(pages))")
      return try Int.fetchOne(db, sql: "PRAGMA freelist_count") ?? 0 > 0
        && Int.fetchOne(db, sql: "PRAGMA auto_vacuum") == 2
    }
  }

  /// Free pages each step gives back: tens of milliseconds of work.
  public static let releaseStepPages = 500
}

/// The question a packing asks as it goes, in a box SQLite's progress
/// handler can hold.
private final class GivingWay: Sendable {
  let ask: @Sendable () -> Bool
  init(_ ask: @escaping @Sendable () -> Bool) { self.ask = ask }
}
