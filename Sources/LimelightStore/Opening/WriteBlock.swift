import Foundation
import GRDB
import LimelightModel

/// The watcher's account of writes to the index that fail for a while (a
/// full disk, an I/O error): kept beside the index's socket rather than in
/// the index, which cannot be written meanwhile, for `limelight status`.
public struct WriteBlock: Sendable, Codable, Equatable {
  /// Why the index cannot be written, as a user would say it.
  public var reason: String
  /// Changes the watcher keeps until they can be written.
  public var waiting: Int
  /// Since when writes fail.
  public var since: Date

  public init(reason: String, waiting: Int, since: Date) {
    self.reason = reason
    self.waiting = waiting
    self.since = since
  }

  /// What the user reads.
  public var description: String {
    "the index cannot be written: \(reason) (\(waiting) changes waiting)"
  }

  /// Whether a failed write may succeed later: a full disk or file system,
  /// an I/O error, a lock held too long, memory short. Other errors (a
  /// damaged index, a constraint) do not pass with time.
  public static func isTransient(_ error: any Error) -> Bool {
    guard let error = error as? DatabaseError else { return false }
    switch error.resultCode {
    case .SQLITE_FULL, .SQLITE_IOERR, .SQLITE_BUSY, .SQLITE_LOCKED, .SQLITE_NOMEM,
      .SQLITE_CANTOPEN, .SQLITE_PROTOCOL:
      return true
    default:
      return false
    }
  }

  /// The reason of a failed write as a user would say it.
  public static func reason(_ error: any Error) -> String {
    if let error = error as? DatabaseError, error.resultCode == .SQLITE_FULL {
      return "no space left on the device holding it"
    }
    return "\(error)"
  }

  static let note = "write-blocked.json"

  /// Records the block for `limelight status` (the runtime folder is apart
  /// from the index's: usually a memory file system).
  public func save(_ location: IndexLocation) { RuntimeNote.write(self, Self.note, location) }

  /// The block the watcher recorded, if any.
  public static func load(_ location: IndexLocation) -> WriteBlock? {
    RuntimeNote.read(WriteBlock.self, note, location)
  }

  /// Writes go through again (or the watcher stops).
  public static func clear(_ location: IndexLocation) { RuntimeNote.remove(note, location) }
}
