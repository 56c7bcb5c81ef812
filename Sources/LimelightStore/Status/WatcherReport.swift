import Foundation
import GRDB

/// What the watcher says of itself, kept in the index as one value (the
/// `meta` key `watcher`, as JSON) for `limelight status` and for the note
/// queries show while a new index is built.
public struct WatcherReport: Codable, Equatable, Sendable {
  public enum State: String, Codable, Sendable {
    case crawling, watching
    /// Reading after its crawl, watching nothing: a one-off run (`--once`).
    case reading
    case paused, stopped
  }

  /// The process that wrote it.
  public var pid: Int?
  public var state: State = .stopped
  public var roots: [String] = []
  /// Changes settling, folders to read again and moves waiting for a pair.
  public var queue = 0
  public var watchedFolders = 0
  public var unwatchedFolders = 0
  public var watchLimitReached = false
  /// inotify queue overflows since the watcher started.
  public var overflows = 0
  /// The first pass: entries seen (and named) so far, and whether every one is.
  public var crawlSeen = 0
  public var crawlDone = false
  /// Every entry was named once, by this watcher or one before it: queries
  /// stop saying that results may be missing.
  public var built = false
  /// How long the first pass took and its rate (entries a second).
  public var namesSeconds: Double?
  public var namesRate: Double?
  /// The first pass checked an index built before against the disk (a
  /// watcher started again), rather than naming every entry anew; nil in a
  /// report of a version before it.
  public var namesChecked: Bool?
  /// Files read by the second pass so far, and its rate (files a second).
  public var contentRead: Int?
  public var contentRate: Double?
  /// The last second pass to end: the files it read and how long it took.
  public var contentFiles: Int?
  public var contentSeconds: Double?
  public var lastError: String?
  public var updated: Date?
  /// What the watcher still does to the index after a pass that rewrote
  /// much of it; nil when nothing.
  public var tidying: IndexTidying?
  /// While packing waits: the seconds without a change it waits for.
  public var packingQuietSeconds: Double?

  public init() {}

  static let key = "watcher"

  var stored: String {
    String(decoding: (try? JSONEncoder().encode(self)) ?? Data(), as: UTF8.self)
  }

  static func stored(_ text: String?) -> WatcherReport? {
    text.flatMap { try? JSONDecoder().decode(WatcherReport.self, from: Data($0.utf8)) }
  }

  static func load(_ db: Database) throws -> WatcherReport? {
    stored(try String.fetchOne(db, sql: "SELECT value FROM meta WHERE key = ?", arguments: [key]))
  }
}

extension IndexWriter {
  /// Records the watcher's account of itself.
  public func save(_ report: WatcherReport) throws {
    try setMeta(WatcherReport.key, report.stored)
  }
}

extension IndexStore {
  /// The watcher's last account of itself, if one was ever written.
  public func watcherReport() throws -> WatcherReport? {
    try read { db in try WatcherReport.load(db) }
  }
}

/// Tidying the index after a pass that rewrote much of it, a step at a time
/// between the user's changes.
public enum IndexTidying: String, Codable, Sendable {
  /// The full-text indexes' segments are merged into one.
  case merging
  /// The pages merged segments held go back to the file system.
  case releasing
  /// The index is packed (every page full) after minutes without a change.
  case packingWaits = "packing-waits"
}
