import Foundation
import GRDB
import LimelightModel
import LimelightPlatform
import Synchronization

/// What a transaction keeps beside the items: thumbnails, recency and
/// facets, failures, removals for followers, `meta` and requests carried out.
extension IndexWriter {
  /// How many files wait for their thumbnails, for `limelight status`.
  public func noteThumbnailsWaiting(_ count: Int) throws {
    try setMeta(IndexStatus.thumbnailsKey, count)
  }

  /// Sets the thumbnail of the file at `path`, if it is still the version
  /// (modification time in nanoseconds) the thumbnail was made of.
  public func setThumbnail(path: RawPath, modifiedNs: Int64, thumbnail: RawPath) throws {
    // Prepared once: a crawl's thumbnails set thousands.
    try db.cachedStatement(
      sql: """
        UPDATE item SET thumbnailPath = ?, generation = ?
        WHERE path = ? AND mtimeNs = ? AND thumbnailPath IS NOT ?
        """
    ).execute(
      arguments: [thumbnail.string, generation, Data(path.bytes), modifiedNs, thumbnail.string])
  }

  /// Forgets a thumbnail (deleted from the cache) on the item that showed
  /// it, unless the item has another by now. Returns whether it did.
  public func dropThumbnail(_ thumbnail: String, ofItem rowID: Int64) throws -> Bool {
    try db.cachedStatement(
      sql:
        "UPDATE item SET thumbnailPath = NULL, generation = ? WHERE rowid = ? AND thumbnailPath = ?"
    ).execute(arguments: [generation, rowID, thumbnail])
    return db.changesCount > 0
  }

  /// Clears the "changed in the last week" flag of at most `limit` items
  /// whose week is over (the writers set it), and moves them to their new
  /// rank band. Returns how many changed. It reads every item (0.3 s at a
  /// million, once an hour) rather than keep an index of the recent ones,
  /// which every write of a freshly copied tree would grow.
  @discardableResult
  public func expireRecency(now: Date = Date(), atMost limit: Int = .max) throws -> Int {
    let expired = try Int64.fetchAll(
      db,
      sql: "SELECT rowid FROM item WHERE recent = 1 AND NOT coalesce(modified > ?, 0) LIMIT ?",
      arguments: [now.timeIntervalSince1970 - Double(ItemRank.recentSeconds), limit])
    for rowID in expired {
      try db.cachedStatement(sql: "UPDATE item SET recent = 0 WHERE rowid = ?").execute(
        arguments: [rowID])
      try refreshFacets(rowID)
    }
    return expired.count
  }

  /// The facets (``ItemFacets``) of an item as its row stands.
  func facets(ofRow rowID: Int64) throws -> String {
    let row = try db.cachedStatement(
      sql: "SELECT kindClasses, typeID, modified, nameRank FROM item WHERE rowid = ?"
    ).firstRow([rowID])
    return ItemFacets.text(
      kindClassesColumn: row.flatMap { String.fromDatabaseValue($0[0]) },
      typeID: row.flatMap { Int64.fromDatabaseValue($0[1]) },
      modified: row.flatMap { Double.fromDatabaseValue($0[2]) },
      nameRank: row.flatMap { Double.fromDatabaseValue($0[3]) })
  }

  /// Writes an item's facets again after a change to its row that moves
  /// them (its use count, its recency), indexing its names again if they moved.
  func refreshFacets(_ rowID: Int64) throws {
    let facets = try facets(ofRow: rowID)
    guard
      let row = try Row.fetchOne(
        db.cachedStatement(sql: "SELECT facets, textID FROM item_words_stored WHERE rowid = ?"),
        arguments: [rowID]),
      let stored = row["facets"] as String?, stored != facets
    else { return }
    // The text index holds the kinds, type and month of an item with a text.
    let hasText = row["textID"] as Int64? != nil
    let textToo =
      ItemFacets.textFacets(stored, hasText: hasText)
      != ItemFacets.textFacets(facets, hasText: hasText)
    try replaceNameTexts(rowID, textToo: textToo) {
      try db.cachedStatement(sql: "UPDATE item_words_stored SET facets = ? WHERE rowid = ?")
        .execute(arguments: [facets, rowID])
    }
  }

  /// Records that a path could not be read.
  public func recordFailure(_ path: RawPath, message: String) throws {
    try db.cachedStatement(
      sql: "INSERT OR REPLACE INTO failure (path, message, time) VALUES (?, ?, ?)"
    ).execute(arguments: [Data(path.bytes), message, Date().timeIntervalSince1970])
    seenTerms.failuresMayExist = true
  }

  /// Forgets that a path could not be read; asks nothing of an empty
  /// `failure` after its first look in this transaction.
  public func clearFailure(_ path: RawPath) throws {
    if seenTerms.failuresMayExist == nil {
      seenTerms.failuresMayExist =
        try Bool.fetchOne(
          db, sql: "SELECT EXISTS (SELECT 1 FROM failure)") ?? true
    }
    guard seenTerms.failuresMayExist == true else { return }
    try db.cachedStatement(sql: "DELETE FROM failure WHERE path = ?").run([Data(path.bytes)])
  }

  /// Forgets removals older than `keep` generations, and remembers from
  /// which generation on they are all kept (``IndexStore/sharedChanges(after:limit:)``).
  public func pruneRemovals(keep: Int64 = 10_000) throws {
    try db.execute(sql: "DELETE FROM removal WHERE generation < ?", arguments: [generation - keep])
    // Never earlier than an erase left it.
    let kept =
      try Int64.fetchOne(db, sql: "SELECT value FROM meta WHERE key = 'removalsKeptFrom'") ?? 0
    if generation - keep > kept { try setMeta("removalsKeptFrom", generation - keep) }
  }

  /// Sets a value in the meta table.
  /// Records whether indexing is paused (`limelight pause`), kept across restarts.
  public func setPaused(_ paused: Bool) throws { try setMeta("paused", paused) }

  func setMeta(_ key: String, _ value: (any DatabaseValueConvertible)?) throws {
    try db.cachedStatement(sql: "INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)")
      .execute(arguments: [key, value])
  }

  /// Marks a request as carried out by this transaction.
  public func complete(_ request: IndexRequest, outcome: RequestOutcome) throws {
    try db.execute(
      sql: "UPDATE request SET doneGeneration = ?, outcome = ? WHERE id = ?",
      arguments: [generation, outcome.stored, request.id])
  }
}

extension IndexStore {
  /// The thumbnail and modification time (nanoseconds) stored for a file.
  public func thumbnailState(path: RawPath) throws -> (thumbnail: String?, modifiedNs: Int64)? {
    try read { db in
      try Row.fetchOne(
        db, sql: "SELECT thumbnailPath, mtimeNs FROM item WHERE path = ?",
        arguments: [Data(path.bytes)]
      ).map { ($0["thumbnailPath"], $0["mtimeNs"] ?? 0) }
    }
  }

  /// Records that the user opened an item: it ranks higher from now on.
  public func recordUse(id: String) throws {
    try write { writer in
      try writer.db.execute(
        sql: """
          UPDATE item SET useCount = useCount + 1, lastUsed = ?, generation = ? WHERE id = ?
          """, arguments: [Date().timeIntervalSince1970, writer.generation, id])
      if let rowID = try Int64.fetchOne(
        writer.db, sql: "SELECT rowid FROM item WHERE id = ?", arguments: [id])
      {
        try writer.refreshFacets(rowID)
      }
    }
  }
}
