import GRDB
import LimelightModel

/// The indexes a first crawl goes without (``Schema/deferredIndexes``):
/// set aside when a crawl starts on an index that holds no files, made
/// once it ends, and made at any start that finds them missing (a first
/// crawl stopped before its end).
extension IndexStore {
  /// Drops the deferred indexes if the index holds no files yet. Returns
  /// whether it did: the caller then makes them again when its crawl ends
  /// (``makeDeferredIndexes()``).
  public func deferIndexesForFirstCrawl() throws -> Bool {
    try damageReported {
      try pool.write { db in
        let holdsFiles = try Bool.fetchOne(
          db, sql: "SELECT EXISTS (SELECT 1 FROM item WHERE domain = ?)",
          arguments: [fileDomain])
        if holdsFiles == true { return false }
        for index in Schema.deferredIndexes {
          try db.execute(sql: "DROP INDEX IF EXISTS \(index.name)")
        }
        return true
      }
    }
  }

  /// Makes the deferred indexes that are missing. Returns how many it made.
  @discardableResult
  public func makeDeferredIndexes() throws -> Int {
    try damageReported {
      try pool.write { db in
        let present = Set(try db.indexes(on: "item").map(\.name))
        let missing = Schema.deferredIndexes.filter { !present.contains($0.name) }
        for index in missing { try db.execute(sql: index.sql) }
        return missing.count
      }
    }
  }
}
