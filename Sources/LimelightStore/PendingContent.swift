import Foundation
import GRDB
import LimelightModel

/// The second pass's queue: files the first pass indexed by name alone,
/// whose content waits (`item.contentPending`).
extension IndexStore {
  /// Up to `limit` files whose content waits, newest first.
  public func filesWaitingForContent(limit: Int) throws -> [RawPath] {
    try read { db in
      try Data.fetchAll(
        db.cachedStatement(
          sql: """
            SELECT path FROM item INDEXED BY item_content_pending
            WHERE contentPending = 1 ORDER BY modified DESC LIMIT ?
            """), arguments: [limit]
      ).map { RawPath(bytes: Array($0)) }
    }
  }

  /// How many files wait for their content.
  public func filesWaitingForContentCount() throws -> Int {
    try read { db in
      try Int.fetchOne(db, sql: "SELECT count(*) FROM item WHERE contentPending = 1") ?? 0
    }
  }
}
