import Foundation
import GRDB
import LimelightModel
import LimelightPlatform

/// What `limelight status` reports: the watcher's own account (kept in `meta`)
/// and counts read from the index.
public struct IndexStatus: Sendable, Codable {
  /// Which front ends the desktop finds, filled in by `limelight status`.
  public var frontEnds: InstalledFrontEnds?
  public var running: Bool
  public var state: String
  public var pid: Int?
  public var generation: Int64
  public var items: Int
  public var files: Int
  public var folders: Int
  public var applicationItems: Int
  /// Installed applications (``applicationsDomain``), counted apart from pushed items.
  public var installedApplications: Int
  /// Reindex extensions the index knows, and those whose last run failed.
  public var extensions: Int
  public var failingExtensions: Int
  public var pendingRequests: Int
  public var queue: Int
  public var watchedFolders: Int
  public var unwatchedFolders: Int
  public var watchLimitReached: Bool
  public var overflows: Int
  /// The first pass: entries seen (and named); done when every entry is
  /// found by name; how long it took and its rate (entries a second).
  public var crawlSeen: Int
  public var crawlDone: Bool
  public var namesSeconds: Double?
  public var namesRate: Double?
  /// The first pass checked an index built before (``WatcherReport/namesChecked``).
  public var namesChecked: Bool
  /// The second pass: files whose content waits, files read so far in this
  /// pass and their rate (files a second), and the seconds left at that rate.
  public var contentWaiting: Int
  public var contentRead: Int?
  public var contentRate: Double?
  public var contentSecondsLeft: Double?
  /// The last second pass to end: the files it read and how long it took.
  public var contentFiles: Int?
  public var contentSeconds: Double?
  /// Both passes are done: everything the roots hold is read.
  public var contentDone: Bool
  public var paused: Bool
  public var roots: [String]
  /// Files whose reading failed, locked documents left out (they are not
  /// errors), and each kind of trouble's count, locked documents included.
  public var failures: Int
  public var troubles: [String: Int] = [:]
  public var recentFailures: [Failure]
  public var lastError: String?
  /// Writes to the index fail, and the watcher keeps what it would write.
  public var writeBlocked: WriteBlock?
  /// The index was last found damaged and built again then, for this reason.
  public var rebuilt: IndexRebuild?
  public var databaseBytes: Int64
  public var updated: Date?
  /// Meaning search: off and why, or its third pass's progress.
  public var meaning: MeaningStatus? = nil
  /// Files whose thumbnails the running watcher is still drawing.
  public var thumbnailsWaiting: Int? = nil
  /// What the running watcher still does to the index after a large pass.
  public var tidying: IndexTidying? = nil
  /// While packing waits: the seconds without a change it waits for.
  public var packingQuietSeconds: Double? = nil
  /// The `meta` key the thumbnails' worker keeps its backlog in.
  static let thumbnailsKey = "thumbnailsWaiting"
  /// How the sending to a shared store goes (the watcher's last account),
  /// and the local generations not sent yet.
  public var sharedStore: SharedStoreReport?
  public var sharedStoreBehind: Int64?
  /// The shared store's hosts (filled in by `limelight status`), or why
  /// they could not be read.
  public var sharedHosts: [SharedStoreHost]?
  public var sharedHostsError: String?
  /// The shared store's hot standby the front ends read (limelight.conf's
  /// `store-read`; filled in by `limelight status`): how it stands, or why
  /// it could not be read.
  public var sharedStandby: SharedStandby?

  /// A hot standby of the shared store, as `limelight status` found it.
  public struct SharedStandby: Sendable, Codable, Equatable {
    public var store: String
    /// Whether it is a standby at all (a promoted one is a primary).
    public var isStandby: Bool?
    /// Whether it has replayed all the log it received.
    public var caughtUp: Bool?
    /// Seconds behind the primary, while it has log to replay.
    public var lagSeconds: Double?
    /// Why it could not be read: searches read the primary then.
    public var error: String?

    public init(
      store: String, isStandby: Bool? = nil, caughtUp: Bool? = nil, lagSeconds: Double? = nil,
      error: String? = nil
    ) {
      (self.store, self.isStandby, self.caughtUp) = (store, isStandby, caughtUp)
      (self.lagSeconds, self.error) = (lagSeconds, error)
    }
  }

  public struct Failure: Sendable, Codable {
    public var path: String
    public var message: String
  }
}

extension IndexStore {
  /// The kind of trouble (``Trouble``) of a row of `failure`, as SQL.
  static let troubleExpression =
    "CASE "
    + Trouble.patterns.map { kind, patterns in
      "WHEN " + patterns.map { "message LIKE '\($0)'" }.joined(separator: " OR ")
        + " THEN '\(kind.rawValue)'"
    }.joined(separator: " ") + " ELSE '\(Trouble.other.rawValue)' END"
  static let isLocked = "message LIKE 'locked: %'"

  /// Every failure of one kind of trouble, paths and messages, at most `limit`.
  public func failures(of kind: Trouble, limit: Int) throws -> [IndexStatus.Failure] {
    try read { db in
      try Row.fetchAll(
        db,
        sql: """
          SELECT path, message FROM failure WHERE \(Self.troubleExpression) = ?
            ORDER BY path LIMIT ?
          """, arguments: [kind.rawValue, limit]
      ).map {
        IndexStatus.Failure(
          path: RawPath(bytes: Array($0["path"] as Data)).string, message: $0["message"])
      }
    }
  }

  /// The status of this index; `watcherPID` is the process holding the watcher's
  /// lock (see ``IndexLocation/watcherPID()``), nil when none runs.
  public func status(watcherPID: Int?) throws -> IndexStatus {
    let running = watcherPID != nil
    let blocked = running ? WriteBlock.load(location) : nil
    return try read { db in
      func meta<T: DatabaseValueConvertible>(_ key: String) throws -> T? {
        try T.fetchOne(db, sql: "SELECT value FROM meta WHERE key = ?", arguments: [key])
      }
      // Counted on `item_domain` alone, without reading the rows.
      var counts: [String: Int] = [:]
      for row in try Row.fetchAll(
        db, sql: "SELECT domain, isFolder, count(*) AS n FROM item GROUP BY domain, isFolder")
      {
        let domain: String = row["domain"]
        let n: Int = row["n"]
        counts["items", default: 0] += n
        if domain == fileDomain {
          counts[row["isFolder"] ? "folders" : "files", default: 0] += n
        } else if domain == applicationsDomain {
          counts["installed", default: 0] += n
        } else {
          counts["apps", default: 0] += n
        }
      }
      let extensions = try Row.fetchOne(
        db, sql: "SELECT count(*) AS known, sum(failures > 0) AS failing FROM extension_run")
      var troubles: [String: Int] = [:]
      for row in try Row.fetchAll(
        db,
        sql: "SELECT \(Self.troubleExpression) AS kind, count(*) AS n FROM failure GROUP BY kind")
      {
        troubles[row["kind"]] = row["n"]
      }
      let failures = troubles.filter { $0.key != Trouble.locked.rawValue }.values.reduce(0, +)
      let recent = try Row.fetchAll(
        db,
        sql: """
          SELECT path, message FROM failure WHERE NOT (\(Self.isLocked))
            ORDER BY time DESC LIMIT 5
          """
      ).map {
        IndexStatus.Failure(
          path: RawPath(bytes: Array($0["path"] as Data)).string, message: $0["message"])
      }
      let pending =
        try Int.fetchOne(
          db, sql: "SELECT count(*) FROM request WHERE doneGeneration IS NULL") ?? 0
      let report = try WatcherReport.load(db) ?? WatcherReport()
      let size =
        (FileSystem.status(location.databasePath)?.size ?? 0)
        + (FileSystem.status(RawPath(location.databasePath.string + "-wal"))?.size ?? 0)
      let paused: Bool = try meta("paused") ?? false
      // Until a new watcher has written its first report, the one recorded is its predecessor's.
      let current = !running || report.pid == watcherPID
      let recordedState = current ? report.state.rawValue : "starting"
      let crawlDone = current && report.crawlDone
      let waiting = try Self.filesWaitingForContentCount(db)
      let generation: Int64 = try meta("generation") ?? 0
      let shared = SharedStoreReport.read(location)
      let rate = running && waiting > 0 ? report.contentRate : nil
      var status = IndexStatus(
        running: running,
        state: running ? (paused ? "paused" : recordedState) : "stopped",
        pid: watcherPID,
        generation: generation,
        items: counts["items"] ?? 0, files: counts["files"] ?? 0,
        folders: counts["folders"] ?? 0, applicationItems: counts["apps"] ?? 0,
        installedApplications: counts["installed"] ?? 0,
        extensions: extensions?["known"] ?? 0, failingExtensions: extensions?["failing"] ?? 0,
        pendingRequests: pending,
        queue: running ? report.queue : 0,
        watchedFolders: running ? report.watchedFolders : 0,
        unwatchedFolders: running ? report.unwatchedFolders : 0,
        watchLimitReached: running && report.watchLimitReached,
        overflows: report.overflows,
        crawlSeen: report.crawlSeen,
        crawlDone: crawlDone,
        namesSeconds: report.namesSeconds,
        namesRate: report.namesRate,
        namesChecked: report.namesChecked ?? false,
        contentWaiting: waiting,
        contentRead: running ? report.contentRead : nil,
        contentRate: rate,
        contentSecondsLeft: rate.map { Double(waiting) / max($0, 0.001) },
        contentFiles: report.contentFiles, contentSeconds: report.contentSeconds,
        // Not done while changes wait to be written.
        contentDone: crawlDone && waiting == 0 && blocked == nil,
        paused: paused, roots: report.roots, failures: failures, troubles: troubles,
        recentFailures: recent,
        lastError: report.lastError, writeBlocked: blocked,
        rebuilt: IndexRebuild.fromStored(try meta(IndexRebuild.key)), databaseBytes: size,
        updated: report.updated, sharedStore: shared,
        sharedStoreBehind: shared.map { max(0, generation - ($0.sentThrough ?? 0)) })
      // With the watcher stopped, what the index holds (and why meaning
      // search was off when it last ran), without the pass's rate.
      let meaning = MeaningReport.read(location).map { running ? $0 : MeaningReport(off: $0.off) }
      status.meaning = try MeaningStatus(db, report: meaning ?? MeaningReport())
      if running {
        let thumbnails: Int? = try meta(IndexStatus.thumbnailsKey)
        status.thumbnailsWaiting = thumbnails.flatMap { $0 > 0 ? $0 : nil }
        if current {
          status.tidying = report.tidying
          status.packingQuietSeconds = report.packingQuietSeconds
        }
      }
      return status
    }
  }
}

/// Meaning search as `limelight status` tells it.
public struct MeaningStatus: Sendable, Codable, Equatable {
  /// Why it is off; nil while on.
  public var off: String?
  /// Documents the third pass read, those worth it, and those it found
  /// long enough to be about something (the others are found by their words).
  public var embedded: Int
  public var worth: Int
  public var vectors: Int
  /// Items embedded a second, and the seconds left at that rate, while the pass runs.
  public var rate: Double?
  public var secondsLeft: Double?

  init?(_ db: Database, report: MeaningReport?) throws {
    guard let report else { return nil }
    off = report.off
    (embedded, worth) = report.off == nil ? try IndexStore.meaningCounts(db) : (0, 0)
    vectors = report.off == nil ? try IndexStore.meaningVectors(db) : 0
    rate = worth > embedded ? report.rate : nil
    secondsLeft = rate.map { Double(worth - embedded) / max($0, 0.001) }
  }
}

extension IndexStore {
  /// The bytes each table and index of the file takes (SQLite's `dbstat`),
  /// largest first: where an index's size goes.
  public func tableSizes() throws -> [(name: String, bytes: Int64)] {
    try read { db in
      try Row.fetchAll(
        db,
        sql: "SELECT name, sum(pgsize) AS bytes FROM dbstat GROUP BY name ORDER BY bytes DESC"
      ).map { ($0["name"], $0["bytes"]) }
    }
  }
}
