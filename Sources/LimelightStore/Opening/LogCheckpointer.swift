import Foundation
import GRDBSQLite
import Synchronization

/// Copies the write-ahead log back into the index on a thread and a
/// connection of its own, so that no write waits for it.
///
/// SQLite's own checkpoint runs inside the commit that fills the log: while
/// the second pass wrote, one commit in 16,384 pages copied 64 MB and waited
/// for the disk (0.2 to 1.5 s), and a file the user saved meanwhile waited
/// with it. Here the writer's commit only counts the log's pages (SQLite's
/// WAL hook, which takes the place of its automatic checkpoint); every
/// ``wakeFraction`` of ``threshold`` it wakes this thread, whose passive
/// checkpoint copies what no reader still needs while the writer goes on.
/// The log starts over only when a copy has caught up with the writer:
/// while the writer never pauses (a crawl), the commit that takes the log
/// past ``threshold`` copies the little left itself, as SQLite would have
/// copied all of it, and the next starts the log over (shrinking its file
/// to the `journal_size_limit`).
final class LogCheckpointer: @unchecked Sendable {
  private let path: String
  private let condition = NSCondition()
  private var due = false
  private var stopped = false
  /// Log pages past which the commit copies the log itself.
  let threshold = Atomic<Int32>(1000)
  /// Checkpoints run, for tests.
  let runs = Atomic<Int>(0)
  /// The share of ``threshold`` the thread copies at a time.
  static let wakeFraction: Int32 = 16
  /// A commit of the whole index is coming (``expectLargeCommit()``), or
  /// was made and the thread copies it: commits meanwhile leave the copy to it.
  private let large = Atomic<Int>(Large.none)
  private enum Large {
    static let none = 0
    static let coming = 1
    static let copying = 2
  }

  init(path: String) {
    self.path = path
    let thread = Thread { [self] in run() }
    thread.name = "limelight.checkpoint"
    thread.start()
  }

  /// Installs the count on the connection that writes (replacing SQLite's
  /// automatic checkpoint there).
  func watch(_ connection: OpaquePointer) {
    sqlite3_wal_hook(
      connection,
      { context, connection, _, pages in
        guard let context else { return SQLITE_OK }
        let checkpointer = Unmanaged<LogCheckpointer>.fromOpaque(context).takeUnretainedValue()
        let threshold = checkpointer.threshold.load(ordering: .relaxed)
        guard pages >= threshold else {
          if pages >= max(threshold / LogCheckpointer.wakeFraction, 16) { checkpointer.wake() }
          return SQLITE_OK
        }
        if checkpointer.large.load(ordering: .relaxed) == Large.none {
          _ = sqlite3_wal_checkpoint_v2(connection, nil, SQLITE_CHECKPOINT_PASSIVE, nil, nil)
        } else {
          _ = checkpointer.large.compareExchange(
            expected: Large.coming, desired: Large.copying, ordering: .relaxed)
          checkpointer.wake()
        }
        return SQLITE_OK
      }, Unmanaged.passUnretained(self).toOpaque())
  }

  /// The next commit rewrites the whole index (packing): its hundreds of
  /// megabytes are copied by the thread, not by that commit (2.7 of the
  /// 6.7 s that packing 600 MB could not give way for), nor by the
  /// commits that come while the thread copies.
  func expectLargeCommit() {
    large.store(Large.coming, ordering: .relaxed)
  }

  /// Asks for a checkpoint now, whatever the log's size.
  func wake() {
    condition.lock()
    due = true
    condition.signal()
    condition.unlock()
  }

  /// Ends the thread (after the checkpoint it is running, if any).
  func stop() {
    condition.lock()
    stopped = true
    condition.signal()
    condition.unlock()
  }

  private func run() {
    var connection: OpaquePointer?
    defer { if connection != nil { sqlite3_close_v2(connection) } }
    while true {
      condition.lock()
      while !due && !stopped { condition.wait() }
      let done = stopped
      due = false
      condition.unlock()
      if done { return }
      if connection == nil {
        guard
          sqlite3_open_v2(path, &connection, SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOMUTEX, nil)
            == SQLITE_OK
        else {
          sqlite3_close_v2(connection)
          connection = nil
          continue
        }
      }
      let copyingLarge = large.load(ordering: .relaxed) == Large.copying
      // Passive: it neither waits for nor holds up readers and the writer.
      _ = sqlite3_wal_checkpoint_v2(connection, nil, SQLITE_CHECKPOINT_PASSIVE, nil, nil)
      if copyingLarge { large.store(Large.none, ordering: .relaxed) }
      runs.add(1, ordering: .relaxed)
    }
  }
}
