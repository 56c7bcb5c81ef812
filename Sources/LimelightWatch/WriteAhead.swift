import CLinux
import Dispatch
import LimelightModel
import LimelightPlatform
import LimelightStore

/// A batch of the first pass written on a thread of its own while the walk
/// lists the next folders: the walk (listing, `lstat`) keeps one core and
/// the index takes the batch before on the other. One batch at most is on
/// its way; whatever else writes waits for it first (``Watcher/flush()``),
/// so that batches land in the order they were made, and a batch that
/// fails comes back to the watcher as if it had been written in its place.
final class BatchInFlight: @unchecked Sendable {
  let operations: [IndexOperation]
  private let writer: BatchWriter
  private let report: WatcherReport
  private let records: [FileRecord]
  private let done = DispatchGroup()
  /// Set by the writing thread before it leaves `done`; read after it left.
  private var result: Result<[FileRecord], any Error> = .success([])

  /// The thread the batches are written on, one after another.
  private static let queue = DispatchQueue(label: "limelight.write-ahead")

  /// Starts writing `operations`, whose files `records` holds as read
  /// (``BatchWriter/read(_:)``), with `report` as the watcher's status.
  init(
    _ operations: [IndexOperation], records: [FileRecord], writer: BatchWriter,
    report: WatcherReport
  ) {
    self.operations = operations
    self.writer = writer
    self.report = report
    self.records = records
    done.enter()
    Self.queue.async { [self] in
      // Indexing yields to searches, as the walk does.
      limelight_lower_thread_priority(Watcher.indexingNice)
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
}

extension Watcher {
  /// Writes the batch while the crawl goes on (``BatchInFlight``), once the
  /// one before is written. A write that fails, or one kept for later,
  /// turns the crawl back to writing in place and waiting, as ``flush()``.
  func flushAhead() {
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
    batchInFlight = BatchInFlight(
      operations, records: records, writer: batchWriter, report: report())
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
