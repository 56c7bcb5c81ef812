import CLinux
import Dispatch
import Foundation
import LimelightModel
import LimelightPlatform
import LimelightStore

/// A batch written on a thread of its own while the watcher goes on: the
/// first pass's, while the walk lists the next folders, and a burst of the
/// user's changes, while the loop reads the next files of it. The walk or
/// the reading keeps one core and the index takes the batch before on the
/// other. One batch at most is on its way; whatever else writes waits for
/// it first (``Watcher/flush()``), so that batches land in the order they
/// were made, and a batch that fails comes back to the watcher as if it had
/// been written in its place.
final class BatchInFlight: @unchecked Sendable {
  let operations: [IndexOperation]
  private let writer: BatchWriter
  private let report: WatcherReport
  private let records: [FileRecord]
  private let done = DispatchGroup()
  /// Set by the writing thread before it leaves `done`; read after it left.
  private var result: Result<[FileRecord], any Error> = .success([])

  /// Starts writing `operations`, whose files `records` holds as read
  /// (``BatchWriter/read(_:)``), with `report` as the watcher's status, on
  /// a thread at `nice`.
  init(
    _ operations: [IndexOperation], records: [FileRecord], writer: BatchWriter,
    report: WatcherReport, nice: Int32
  ) {
    self.operations = operations
    self.writer = writer
    self.report = report
    self.records = records
    done.enter()
    // A thread of its own, not a shared queue's: a thread lowered once
    // stays lowered, and the user's changes are written at the watcher's
    // priority.
    Thread.detachNewThread { [self] in
      if nice > 0 { limelight_lower_thread_priority(nice) }
      result = Result {
        try self.writer.write(self.operations, extracted: self.records) {
          try $0.save(self.report)
        }
      }
      done.leave()
    }
  }

  /// Waits until the batch is written or has failed.
  func outcome() -> Result<[FileRecord], any Error> {
    done.wait()
    return result
  }

  /// Whether the batch is written or has failed, without waiting.
  var isDone: Bool { done.wait(timeout: .now()) == .success }
}

extension Watcher {
  /// Writes the batch while the watcher goes on (``BatchInFlight``), once
  /// the one before is written, on a thread at `nice`. A write that fails,
  /// or one kept for later, turns back to writing in place and waiting, as
  /// ``flush()``.
  func flushAhead(nice: Int32 = Watcher.indexingNice) {
    // This batch's files are read (on the walk's side: the thread that
    // writes is the busier one) while the batch before is still written.
    let operations = batch
    batch.removeAll(keepingCapacity: true)
    let records = writeRetry == nil ? batchWriter.read(operations) : nil
    settleBatchInFlight()
    rebuildIfDamaged()
    guard writeRetry == nil, let records else {
      // Behind what failed, in order; read again when it is written.
      batch += operations
      flush()
      waitForWrites()
      return
    }
    guard !operations.isEmpty else { return }
    // The report goes with this batch; a later change of status is saved
    // with a later one. It is marked unsaved again if this one fails.
    statusChanged = false
    activity.wrote(operations.count)
    batchInFlight = BatchInFlight(
      operations, records: records, writer: batchWriter, report: report(), nice: nice)
  }

  /// Ends a turn of the watching loop: a burst's batch is written while the
  /// next turn reads the files after it; a smaller one, or the status, is
  /// written in place (``flush()``, which also looks for damage a reader
  /// found). A batch on its way is not waited for when there is nothing
  /// else to write.
  func flushTurn() {
    if batch.count >= Self.burstSize && writeRetry == nil {
      flushAhead(nice: 0)
    } else if !batch.isEmpty || statusChanged || batchInFlight?.isDone != false {
      flush()
    }
  }

  /// Waits for the batch on its way, if any, and takes its outcome as
  /// ``flush()`` takes its own.
  func settleBatchInFlight() {
    guard let write = batchInFlight else { return }
    batchInFlight = nil
    let outcome = write.outcome()
    if case .failure = outcome { statusChanged = true }
    take(outcome, of: write.operations, now: monotonicNow())
  }
}
