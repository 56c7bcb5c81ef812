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
/// WAL hook, which takes the place of its automatic checkpoint); past
/// ``threshold`` it wakes this thread, whose passive checkpoint copies what
/// no reader still needs while the writer goes on. The next commit after a
/// whole copy starts the log over (and shrinks its file to the
/// `journal_size_limit`). Should the log grow to ``inlineFactor`` times the
/// threshold all the same (the writer never pausing long enough for a copy
/// to catch up), the commit copies it itself, as SQLite would.
final class LogCheckpointer: @unchecked Sendable {
  private let path: String
  private let condition = NSCondition()
  private var due = false
  private var stopped = false
  /// Log pages past which a commit wakes the thread.
  let threshold = Atomic<Int32>(1000)
  /// Checkpoints run, for tests.
  let runs = Atomic<Int>(0)
  static let inlineFactor: Int32 = 4

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
        if pages >= threshold * LogCheckpointer.inlineFactor {
          _ = sqlite3_wal_checkpoint_v2(connection, nil, SQLITE_CHECKPOINT_PASSIVE, nil, nil)
        } else if pages >= threshold {
          checkpointer.wake()
        }
        return SQLITE_OK
      }, Unmanaged.passUnretained(self).toOpaque())
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
      // Passive: it neither waits for nor holds up readers and the writer.
      _ = sqlite3_wal_checkpoint_v2(connection, nil, SQLITE_CHECKPOINT_PASSIVE, nil, nil)
      runs.add(1, ordering: .relaxed)
    }
  }
}
