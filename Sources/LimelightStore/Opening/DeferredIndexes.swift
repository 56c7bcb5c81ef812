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

  /// Whether a first crawl's name terms wait to be added to the typo
  /// index. When they do, every write from here on adds the terms of its
  /// own names: ``deferredNameTerms()`` read after it returns lists the
  /// terms of all the names written before.
  public func beginAddingDeferredNameTerms() throws -> Bool {
    try damageReported {
      try pool.write { db in
        let termsDeferred = try Bool.fetchOne(
          db, sql: "SELECT EXISTS (SELECT 1 FROM meta WHERE key = ?)",
          arguments: [Self.termsDeferredKey])
        // Set while no other write runs: one that began before skipped
        // its terms, and has committed.
        committedTerms.isDeferring = false
        return termsDeferred == true
      }
    }
  }

  /// The terms of every name and keyword worth keys in the typo index,
  /// sorted (``TermDeletions/nameTerms(_:)``): a second or two of reading,
  /// done off the writer.
  public func deferredNameTerms() throws -> [String] {
    try damageReported { try read { try TermDeletions.nameTerms($0) } }
  }

  /// Adds a part of ``deferredNameTerms()`` to the typo index in a
  /// transaction of its own; the `last` one ends the wait.
  public func addDeferredNameTerms(_ terms: ArraySlice<String>, last: Bool) throws {
    try damageReported {
      try pool.write { db in
        try TermDeletions(db: db).add(sortedTerms: terms)
        if last {
          try db.execute(
            sql: "DELETE FROM meta WHERE key = ?", arguments: [Self.termsDeferredKey])
        }
      }
    }
  }

  /// Terms of a part of ``addDeferredNameTerms(_:last:)``: about 20,000
  /// keys, a tenth of a second of writing.
  public static let nameTermsPart = 2_000

  /// Adds the terms of every name to the typo index, all parts at once, if
  /// a first crawl went without them. Returns whether it did.
  @discardableResult
  public func addDeferredNameTerms() throws -> Bool {
    guard try beginAddingDeferredNameTerms() else { return false }
    var left = try deferredNameTerms()[...]
    repeat {
      let part = left.prefix(Self.nameTermsPart)
      left = left.dropFirst(part.count)
      try addDeferredNameTerms(part, last: left.isEmpty)
    } while !left.isEmpty
    return true
  }
}
