import Foundation
import LimelightModel
import LimelightPlatform
import LimelightStore

/// Writes to the index that fail for a while (a full disk, an I/O error):
/// the watcher keeps what it would have written and tries again, later
/// each time (half a second, doubling, at most half a minute), and at once
/// when the file system holding the index has more room than when the
/// write failed.
struct WriteRetry {
  private(set) var block: WriteBlock
  private(set) var attempts = 1
  /// When to try again (monotonic seconds).
  private(set) var nextAttempt: Double
  /// The folder holding the index, and its free bytes when the write failed.
  let folder: RawPath
  private var freeBytes: UInt64?

  static let firstDelay = 0.5
  static let longestDelay = 30.0

  /// When writes began to fail (monotonic seconds).
  let started: Double

  init(_ error: any Error, waiting: Int, folder: RawPath, now: Double) {
    block = WriteBlock(reason: WriteBlock.reason(error), waiting: waiting, since: Date())
    started = now
    self.folder = folder
    freeBytes = FileSystem.freeBytes(folder)
    nextAttempt = now + Self.firstDelay
  }

  /// Another attempt failed.
  mutating func failedAgain(_ error: any Error, waiting: Int, now: Double) {
    attempts += 1
    block.reason = WriteBlock.reason(error)
    block.waiting = waiting
    freeBytes = FileSystem.freeBytes(folder)
    nextAttempt = now + min(Self.longestDelay, Self.firstDelay * pow(2, Double(attempts - 1)))
  }

  /// Whether to try again now.
  func isDue(now: Double) -> Bool {
    if now >= nextAttempt { return true }
    guard let before = freeBytes, let free = FileSystem.freeBytes(folder) else { return false }
    return free > before
  }
}
