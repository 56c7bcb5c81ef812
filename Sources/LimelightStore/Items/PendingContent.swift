import Foundation
import GRDB
import LimelightModel
import LimelightPlatform

/// A file whose content waits, and its row in the index.
public struct PendingFile: Sendable, Hashable {
  /// The item's row: FTS5 writes what it gathers for an index as a segment
  /// of its own whenever the next row it is given comes before the last
  /// (written newest first, every file of the second pass made one, and
  /// merging them again and again was two thirds of the pass's writing).
  public var rowID: Int64
  public var path: RawPath
  /// The file's status change time as its row held it when listed: the
  /// watcher writing the file meanwhile changes it.
  public var changed: Int64?
  public init(rowID: Int64, path: RawPath, changed: Int64? = nil) {
    self.rowID = rowID
    self.path = path
    self.changed = changed
  }
}

/// The second pass's queue: files the first pass indexed by name alone,
/// whose content waits (`item.contentPending`).
extension IndexStore {
  /// The `limit` newest files whose content waits, newest first, each with
  /// its row: the second pass reads them in this order and writes what it
  /// read in the order of the rows (``PendingFile/rowID``).
  public func filesWaitingForContent(limit: Int) throws -> [PendingFile] {
    try read { db in
      try Row.fetchAll(
        db.cachedStatement(
          sql: """
            SELECT rowid, path, ctimeNs FROM item INDEXED BY item_content_pending
            WHERE contentPending = 1 ORDER BY modified DESC LIMIT ?
            """), arguments: [limit]
      ).map {
        PendingFile(rowID: $0[0], path: RawPath(bytes: Array($0[1] as Data)), changed: $0[2])
      }
    }
  }

  /// The paths of `files` a second pass read may still be written for: their
  /// rows still wait for their content, as they were listed (same path,
  /// same status change time). A file the watcher wrote, moved, removed or
  /// tagged meanwhile is newer in the index than in what the pass read:
  /// written, it would put back an old text, a deleted file or old tags.
  public func stillWaitingForContent(_ files: [PendingFile]) throws -> Set<RawPath> {
    if files.isEmpty { return [] }
    let listed = Dictionary(files.map { ($0.rowID, $0) }) { first, _ in first }
    return try read { db in
      var waiting: Set<RawPath> = []
      try forEachParameterSlice(of: Array(listed.keys)) { slice, marks in
        let rows = try Row.fetchAll(
          db,
          sql: """
            SELECT rowid, path, ctimeNs FROM item
            WHERE contentPending = 1 AND rowid IN (\(marks))
            """,
          arguments: StatementArguments(slice))
        for row in rows {
          let rowID: Int64 = row[0]
          guard let file = listed[rowID], (row[1] as Data?).map(Array.init) == file.path.bytes,
            row[2] as Int64? == file.changed
          else { continue }
          waiting.insert(file.path)
        }
      }
      return waiting
    }
  }

  /// Whether any file waits for its content. Answered with or without the
  /// index a first crawl goes without (``Schema/deferredIndexes``): the
  /// passes beside the crawl ask it while the crawl runs.
  public func contentWaits() throws -> Bool {
    try read { db in
      try Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM item WHERE contentPending = 1)")
        ?? false
    }
  }

  /// How many files wait for their content.
  public func filesWaitingForContentCount() throws -> Int {
    try read(Self.filesWaitingForContentCount)
  }

  /// How many files wait for their content, read in `db` (within a read).
  static func filesWaitingForContentCount(_ db: Database) throws -> Int {
    try Int.fetchOne(db, sql: "SELECT count(*) FROM item WHERE contentPending = 1") ?? 0
  }
}
