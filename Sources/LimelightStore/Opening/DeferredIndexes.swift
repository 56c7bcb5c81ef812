import GRDB
import LimelightModel

/// The indexes a first crawl goes without (``Schema/deferredIndexes``, and
/// the typo index of name terms, ``TermDeletions``):
/// set aside when a crawl starts on an index that holds no files, made
/// once it ends, and made at any start that finds them missing (a first
/// crawl stopped before its end).
extension IndexStore {
  /// Drops the deferred indexes if the index holds no files yet. Returns
  /// whether it did: the caller then makes them again when its crawl ends
  /// (``makeDeferredIndexes()``).
  public func deferIndexesForFirstCrawl() throws -> Bool {
    let deferred = try damageReported {
      try pool.write { db in
        let holdsFiles = try Bool.fetchOne(
          db, sql: "SELECT EXISTS (SELECT 1 FROM item WHERE domain = ?)",
          arguments: [fileDomain])
        if holdsFiles == true { return false }
        for index in Schema.deferredIndexes {
          try db.execute(sql: "DROP INDEX IF EXISTS \(index.name)")
        }
        // The typo index too: its terms are added once the crawl ends.
        try db.execute(
          sql: "INSERT OR REPLACE INTO meta (key, value) VALUES (?, 1)",
          arguments: [Self.termsDeferredKey])
        return true
      }
    }
    // Only once committed: a mark that did not land defers nothing.
    if deferred { committedTerms.isDeferring = true }
    return deferred
  }

  /// The meta key that says the typo index waits for the terms of a first
  /// crawl (kept across a stop: the next start adds them).
  static let termsDeferredKey = "termDeletionsDeferred"

  /// Makes the deferred indexes that are missing. Returns how many it made.
  /// The typo index of name terms follows apart (``addDeferredNameTerms()``):
  /// names are found without it, and it takes as long as the indexes.
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

  /// Adds the terms of every name to the typo index if a first crawl went
  /// without them. Returns whether it did.
  @discardableResult
  public func addDeferredNameTerms() throws -> Bool {
    try damageReported {
      try pool.write { db in
        let termsDeferred = try Bool.fetchOne(
          db, sql: "SELECT EXISTS (SELECT 1 FROM meta WHERE key = ?)",
          arguments: [Self.termsDeferredKey])
        guard termsDeferred == true else {
          committedTerms.isDeferring = false
          return false
        }
        try TermDeletions(db: db).addAll()
        try db.execute(sql: "DELETE FROM meta WHERE key = ?", arguments: [Self.termsDeferredKey])
        // Only now: the terms written until here are those addAll read.
        committedTerms.isDeferring = false
        return true
      }
    }
  }
}
