import Foundation
import GRDB
import LimelightModel

/// What the index keeps of one reindex extension, by its domain: the work
/// still to do (kept across restarts) and how its last run went.
public struct ExtensionRun: Sendable, Equatable, Codable {
  public var domain: String
  /// The descriptor file it was registered by.
  public var descriptor: String
  public var lastRun: Date?
  public var lastOutcome: ExtensionRunOutcome?
  public var lastSuccess: Date?
  /// Failed runs in a row.
  public var failures: Int
  /// When a failed run is tried again.
  public var nextAttempt: Date?
  /// Whether every item of the domain is to be reindexed.
  public var pendingAll: Bool
  /// Ids to reindex.
  public var pendingIDs: [String]

  public init(domain: String, descriptor: String) {
    self.domain = domain
    self.descriptor = descriptor
    failures = 0
    pendingAll = false
    pendingIDs = []
  }

  /// Whether work is waiting.
  public var hasWork: Bool { pendingAll || !pendingIDs.isEmpty }

  init(row: Row) {
    domain = row["domain"]
    descriptor = row["descriptor"]
    lastRun = (row["lastRun"] as Double?).map(Date.init(timeIntervalSince1970:))
    lastOutcome = ExtensionRunOutcome.stored(row["lastOutcome"])
    lastSuccess = (row["lastSuccess"] as Double?).map(Date.init(timeIntervalSince1970:))
    failures = row["failures"]
    nextAttempt = (row["nextAttempt"] as Double?).map(Date.init(timeIntervalSince1970:))
    pendingAll = row["pendingAll"]
    pendingIDs = IndexWriter.strings(inJSON: row["pendingIDs"])
  }
}

extension IndexWriter {
  /// Stores an extension's state.
  public func save(_ run: ExtensionRun) throws {
    try db.execute(
      sql: """
        INSERT OR REPLACE INTO extension_run (domain, descriptor, lastRun, lastOutcome,
          lastSuccess, failures, nextAttempt, pendingAll, pendingIDs)
        VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
        """,
      arguments: [
        run.domain, run.descriptor, run.lastRun?.timeIntervalSince1970, run.lastOutcome?.stored,
        run.lastSuccess?.timeIntervalSince1970, run.failures,
        run.nextAttempt?.timeIntervalSince1970,
        run.pendingAll, Self.json(run.pendingIDs),
      ])
  }

  /// Forgets an extension whose descriptor went away.
  public func forgetExtension(domain: String) throws {
    try db.execute(sql: "DELETE FROM extension_run WHERE domain = ?", arguments: [domain])
  }

  /// The state of every extension the index knows.
  public func extensionRuns() throws -> [ExtensionRun] {
    try Row.fetchAll(db, sql: "SELECT * FROM extension_run ORDER BY domain").map(
      ExtensionRun.init(row:))
  }
}

extension IndexStore {
  /// The state of every extension the index knows, by domain.
  public func extensionRuns() throws -> [ExtensionRun] {
    try read { db in
      try Row.fetchAll(db, sql: "SELECT * FROM extension_run ORDER BY domain").map(
        ExtensionRun.init(row:))
    }
  }
}
