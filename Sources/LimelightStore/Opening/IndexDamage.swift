import Foundation
import GRDB
import LimelightModel
import LimelightPlatform

#if canImport(Glibc)
  import Glibc
#endif

/// A damaged index, as any process that reads or writes it may find it
/// (SQLite's "malformed", "not a database"): the process says so, and
/// leaves a note beside the index's socket that wakes the watcher, which
/// sets the damaged file aside and builds a new index from the disk.
public enum IndexDamage {
  /// Whether an error is SQLite finding the file damaged.
  public static func isDamage(_ error: any Error) -> Bool {
    guard let error = error as? DatabaseError else { return false }
    return error.resultCode == .SQLITE_CORRUPT || error.resultCode == .SQLITE_NOTADB
  }

  /// What SQLite said, without the statement it was running.
  public static func reason(_ error: any Error) -> String {
    guard let error = error as? DatabaseError else { return "\(error)" }
    return error.message ?? "\(error.resultCode)"
  }

  static func note(_ location: IndexLocation) -> String {
    location.runtimeDirectory.appending("damaged").string
  }

  /// Leaves the note (with the reason) and wakes the watcher.
  public static func report(_ location: IndexLocation, reason: String) {
    try? FileSystem.makeDirectories(location.runtimeDirectory, mode: 0o700)
    try? Data(reason.utf8).write(to: URL(fileURLWithPath: note(location)), options: .atomic)
    FileSystem.touch(location.wakePath)
  }

  /// The reason of a damage reported and not yet dealt with.
  public static func reported(_ location: IndexLocation) -> String? {
    FileSystem.readText(RawPath(note(location)))
  }

  /// The files of an index: the database, its log and its shared memory.
  static let fileSuffixes = ["", "-wal", "-shm"]

  /// Removes an index an older version made, to be built anew (it is a
  /// cache of the disk: nothing is kept).
  public static func remove(_ location: IndexLocation) {
    let path = location.databasePath.string
    for suffix in fileSuffixes { unlink(path + suffix) }
    unlink(note(location))
  }

  /// Sets the damaged index aside, where it stays for a bug report (the
  /// copy set aside before goes), and clears the note: the next open
  /// builds a new index. Returns the path of the copy.
  @discardableResult
  public static func setAside(_ location: IndexLocation) -> RawPath {
    let path = location.databasePath.string
    let aside = path + ".damaged"
    for suffix in fileSuffixes {
      unlink(aside + suffix)
      _ = rename(path + suffix, aside + suffix)
    }
    unlink(note(location))
    return RawPath(aside)
  }
}

/// When the index was last found damaged and built again, and why: kept in
/// the new index for `limelight status`.
public struct IndexRebuild: Sendable, Codable, Equatable {
  public var reason: String
  public var time: Date
  /// Built anew because an older version made it (not damaged; nothing set
  /// aside). Absent from the records of earlier versions.
  public var older: Bool?

  /// Its `meta` key.
  static let key = "rebuilt"

  public init(reason: String, time: Date, older: Bool? = nil) {
    self.reason = reason
    self.time = time
    self.older = older
  }

  /// What the user reads.
  public var description: String {
    let when = ISO8601DateFormatter.string(
      from: time, timeZone: .current, formatOptions: [.withInternetDateTime])
    if older == true { return "built again from the disk on \(when): \(reason)" }
    return "found damaged on \(when) (\(reason)) and built again from the disk;"
      + " the damaged copy is kept beside it as index.sqlite.damaged"
  }

  static let note = "rebuilt.json"

  /// Left for the watcher that builds the new index (the one that found
  /// the damage starts again in its place).
  public func leave(_ location: IndexLocation) { RuntimeNote.write(self, Self.note, location) }

  /// The rebuild left for this watcher, taken (the note goes).
  public static func take(_ location: IndexLocation) -> IndexRebuild? {
    defer { RuntimeNote.remove(note, location) }
    return RuntimeNote.read(IndexRebuild.self, note, location)
  }

  /// As stored in the index's `meta`.
  var stored: String? {
    RuntimeNote.encoded(self).map { String(decoding: $0, as: UTF8.self) }
  }

  static func fromStored(_ text: String?) -> IndexRebuild? {
    RuntimeNote.decoded(IndexRebuild.self, from: text?.data(using: .utf8))
  }
}

extension IndexStore {
  /// Records in the index that it was built again after damage.
  public func record(_ rebuild: IndexRebuild) throws {
    try write { writer in try writer.setMeta(IndexRebuild.key, rebuild.stored) }
  }

  /// What a query should say while the watcher builds a new index (the
  /// first pass of its first crawl not done): results may be missing. Nil
  /// once built, or when no watcher runs.
  public func buildingNote() -> String? {
    guard
      let (report, rebuilt) = try? read({ db in
        (
          try WatcherReport.load(db),
          IndexRebuild.fromStored(
            try String.fetchOne(
              db, sql: "SELECT value FROM meta WHERE key = ?", arguments: [IndexRebuild.key]))
        )
      })
    else { return nil }
    // A built index (the common case) is told by the one read, without
    // asking whether a watcher holds its lock.
    if report?.built == true { return nil }
    guard location.watcherPID() != nil else { return nil }
    let seen = report?.crawlSeen ?? 0
    return
      (rebuilt == nil
      ? "limelightd is still reading the home folder"
      : rebuilt?.older == true
        ? "the index is being built again for this version"
        : "the index is being built again after it was found damaged")
      + " (\(seen) entries so far): results may be missing until it is done"
  }

  /// Reads the whole file's structure (`PRAGMA quick_check`): nil when
  /// sound, else what is wrong (its first line). Slow on a large index (it
  /// reads every page): the watcher runs it in the background.
  public func structuralProblem() throws -> String? {
    let lines = try read { db in try String.fetchAll(db, sql: "PRAGMA quick_check(1)") }
    if lines == ["ok"] { return nil }
    // Past SQLite's heading ("*** in database main ***").
    let problems = lines.flatMap { $0.split(separator: "\n") }.filter { !$0.hasPrefix("***") }
    return problems.first.map(String.init) ?? "damaged"
  }
}
