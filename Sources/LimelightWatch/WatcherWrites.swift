import Foundation
import LimelightModel
import LimelightPlatform
import LimelightStore

/// The watcher's writes: its batch of changes, committed in one
/// transaction, kept and tried again while writes fail, and its own
/// account of what it does (the index's `meta`), for `limelight status`.
extension Watcher {
  /// Writes the batch in one transaction (which advances the generation).
  /// A write that fails for a while (``WriteRetry``) keeps it, and the
  /// changes that follow, until a later attempt goes through; one that
  /// fails for good is tried a change at a time, so that only the change
  /// that cannot be written is lost, and said so.
  func flush() { flush(givingWay: nil) }

  /// ``flush()``, stopping where `givingWay` first says the user's changes
  /// wait (``BatchWriter/write(_:extracted:givingWay:finish:)``): returns
  /// the operations left unwritten.
  @discardableResult
  func flush(givingWay: (() -> Bool)?) -> ArraySlice<IndexOperation> {
    settleBatchInFlight()
    rebuildIfDamaged()
    guard !batch.isEmpty || statusChanged else { return [] }
    let now = monotonicNow()
    if let retry = writeRetry, !retry.isDue(now: now) { return [] }
    let operations = batch
    batch.removeAll(keepingCapacity: true)
    activity.wrote(operations.count)
    let outcome = Result {
      try batchWriter.write(operations, givingWay: givingWay) { try writeStatus($0) }
    }
    if case .success = outcome { statusChanged = false }
    let written = (try? outcome.get().count) ?? operations.count
    take(outcome.map(\.records), of: Array(operations.prefix(written)), now: now)
    return operations.dropFirst(written)
  }

  /// Writes what ``sliceRest`` holds, giving way to the user's changes: a
  /// slice takes 100 to 600 ms to write, and a file saved meanwhile waited
  /// for it, then for the next slice begun before its settling was over.
  /// Once it has written for ``sliceShare`` seconds, a slice stops at the
  /// first event inotify brings or the first settled change that is due;
  /// the loop takes them, and the rest follows, less what the user's
  /// changes wrote meanwhile (``ContentPass/current(_:)``).
  func writeSliceRest() {
    // A burst on its way may write the slice's files: it lands first.
    settleBatchInFlight()
    rebuildIfDamaged()
    guard let rest = sliceRest.map(contentPass.current) else { return }
    sliceRest = nil
    guard !rest.operations.isEmpty else { return }
    // Alone in its transaction, so that what is left of it is the slice's;
    // behind what waits while writes fail.
    if !batch.isEmpty { flush() }
    batch += rest.operations
    guard batch.count == rest.operations.count else { return }
    let started = monotonicNow()
    let settled = settling.nextDeadline ?? .infinity
    let left = flush(givingWay: { [drain] in
      let time = monotonicNow()
      return time - started >= Self.sliceShare && (time >= settled || drain?.hasWaiting == true)
    })
    if !left.isEmpty {
      sliceRest = ContentPass.Outcome(
        records: left.compactMap { if case .write(let record) = $0 { record } else { nil } },
        missing: left.compactMap { if case .remove(let path) = $0 { path } else { nil } },
        files: rest.files)
    }
  }

  /// Seconds a slice writes before it gives way to the user's changes.
  static let sliceShare = 0.03

  /// Whether a settled change of the user's is due within a moment: the
  /// second pass then waits for it rather than begin a slice.
  func userChangeDueSoon() -> Bool {
    settling.nextDeadline.map { $0 <= monotonicNow() + 0.1 } ?? false
  }

  /// Deals with the outcome of writing `operations`: a batch that went
  /// through ends a spell of failing writes; one that failed for a while is
  /// kept, ahead of what came since; one that failed for good is tried a
  /// change at a time.
  func take(
    _ outcome: Result<[FileRecord], any Error>, of operations: [IndexOperation], now: Double
  ) {
    do {
      let records = try outcome.get()
      if !operations.isEmpty { segmentTidying.wrote(now: now) }
      // A new mode or new tags may leave a file to read again (its own
      // keywords, ``IndexWriter/updateMetadata(path:status:keywords:)``).
      if records.contains(where: \.contentPending)
        || operations.contains(where: { if case .metadata = $0 { true } else { false } })
      {
        contentPass.noteNamesWritten()
      }
      if let retry = writeRetry {
        writeRetry = nil
        WriteBlock.clear(store.location)
        logger.info(
          "the index can be written again",
          metadata: ["attempts": "\(retry.attempts + 1)", "written": "\(operations.count)"])
      }
    } catch IndexStore.OpenError.damaged(_, let reason) {
      rebuild(after: reason)
    } catch  where WriteBlock.isTransient(error) {
      batch = operations + batch
      if writeRetry == nil {
        writeRetry = WriteRetry(
          error, waiting: batch.count, folder: store.location.dataDirectory, now: now)
        logger.warning(
          "\(writeRetry!.block.description); the watcher keeps them and tries again",
          metadata: ["error": "\(error)"])
      } else {
        writeRetry!.failedAgain(error, waiting: batch.count, now: now)
      }
      writeRetry!.block.save(store.location)
    } catch {
      writeOneByOne(operations, after: error)
    }
  }

  /// Writes the operations of a batch that failed for good one at a time;
  /// those that fail alone are logged and left out.
  func writeOneByOne(_ operations: [IndexOperation], after error: any Error) {
    note("cannot write to the index: \(error); writing its changes one at a time")
    for operation in operations {
      do {
        _ = try batchWriter.write([operation]) { try writeStatus($0) }
      } catch {
        note("a change was left out of the index: \(operation): \(error)")
      }
    }
  }

  /// Waits (and tries again) until what waits to be written is written:
  /// a crawl does not go on reading what it cannot keep. A one-off run
  /// (`--once`) that nobody may be there to make room for gives up after
  /// `onceWriteSeconds` and ends with the reason, rather than wait forever.
  func waitForWrites() {
    while let retry = writeRetry, !StopSignal.isRequested {
      if !watching && monotonicNow() - retry.started > Self.onceWriteSeconds {
        StopSignal.requested = 1
        return
      }
      usleep(100_000)
      flush()
    }
  }

  /// How long a one-off run waits for writes that fail.
  static let onceWriteSeconds = 60.0

  func writeStatus(_ writer: IndexWriter) throws { try writer.save(report()) }

  /// What the watcher is doing when not paused: crawling, then watching
  /// (or, in a one-off run, reading what it crawled).
  var activeState: WatcherReport.State {
    crawlDone ? (watching ? .watching : .reading) : .crawling
  }

  /// The watcher's account of itself as it is now, in `state` (by default
  /// the one its flags say).
  func report(state: WatcherReport.State? = nil) -> WatcherReport {
    var report = WatcherReport()
    report.pid = Int(getpid())
    report.state = state ?? (paused ? .paused : activeState)
    report.roots = roots.map(\.string)
    report.queue = settling.count + rescanQueue.count + moves.count + liveContent.count
    report.watchedFolders = watches.count
    report.unwatchedFolders = watches.unwatched.count
    report.watchLimitReached = watches.limitReached
    report.overflows = overflows
    report.crawlSeen = namesPass?.entries ?? crawlSeen
    report.crawlDone = crawlDone
    report.built = builtBefore || crawlDone
    report.namesSeconds = namesPass?.seconds
    report.namesRate = namesPass?.rate
    report.namesChecked = builtBefore
    report.contentRead = contentPass.started == nil ? nil : contentPass.read
    report.contentRate = contentPass.rate(now: monotonicNow())
    report.contentFiles = contentPassDone?.files
    report.contentSeconds = contentPassDone?.seconds
    report.lastError = lastError
    report.tidying = tidying
    if tidying == .packingWaits { report.packingQuietSeconds = packing.quietNeeded }
    report.updated = Date()
    return report
  }

  func note(_ message: String) {
    logger.warning("\(message)")
    lastError = message
    statusChanged = true
  }
}
