import CLinux
import Foundation
import LimelightMeaning
import LimelightModel
import LimelightPlatform
import LimelightStore
import Logging
import Synchronization

/// The third pass: embeds the documents worth it (``IndexStore/meaningWork(limit:opening:)``)
/// with meaning search's model, newest first, on one thread of its own at
/// the lowest priority (nice 19, idle I/O), once the second pass has read
/// every file and while the watcher is not paused. A changed document
/// loses its vector and is embedded again; a deleted one takes its vector
/// with it. Its queue is the index: a pass cut short goes on at the next start.
public final class MeaningPass: Sendable {
  let store: IndexStore
  let engine: MeaningEngine
  let logger: Logger
  let location: IndexLocation
  private let stopping = StopFlag()
  /// Items embedded since the pass began (those that took a copy's vector
  /// among them), and when it began (monotonic seconds).
  private let progress = Mutex<(embedded: Int, copies: Int, since: Double?)>((0, 0, nil))

  /// Letters (not spaces) of text a document needs beside its title to be
  /// embedded: a note of a few words is found by its words.
  static let leastSubstance = 40
  /// Items embedded between writes.
  static let batch = 8

  /// What the watcher beside it is doing: a burst of the user's changes
  /// goes first.
  let watcher: WatcherActivity

  /// How long after the watcher's last burst the pass waits.
  static let quietSeconds = 2.0

  public init(
    store: IndexStore, engine: MeaningEngine, location: IndexLocation, logger: Logger,
    watcher: WatcherActivity
  ) {
    self.watcher = watcher
    self.location = location
    self.store = store
    self.engine = engine
    self.logger = logger
  }

  /// Items embedded a second since the pass began, once it has run a while.
  public var rate: Double? {
    progress.withLock { progress -> Double? in
      guard let since = progress.since, progress.embedded > 0 else { return nil }
      let seconds = monotonicNow() - since
      return seconds > 5 ? Double(progress.embedded) / seconds : nil
    }
  }

  /// Runs the pass on a thread of its own until ``stop()``.
  public func start() {
    let thread = Thread { [self] in
      limelight_lower_thread_priority(Watcher.backgroundNice)
      limelight_idle_io_priority()
      run()
    }
    thread.name = "meaning"
    thread.start()
  }

  public func stop() { stopping.stop() }

  func run() {
    do {
      let pruned = try store.pruneMeaning()
      if pruned > 0 {
        logger.info("meaning: \(pruned) vectors of items no longer worth one dropped")
      }
    } catch {
      logger.warning("meaning: \(error)")
    }
    MeaningReport().write(location)
    var reported = monotonicNow()
    var idleSince: Int64?
    while !stopping.isStopped {
      do {
        let generation = try store.generation()
        // Nothing new since the last look found nothing: wait for a change.
        let paused = try store.isPaused()
        let contentWaits = try store.contentWaits()
        if idleSince == generation || paused || contentWaits {
          stopping.sleep(seconds: 5)
          continue
        }
        if watcher.isBusy(within: Self.quietSeconds) {
          stopping.sleep(seconds: 1)
          continue
        }
        let work = try store.meaningWork(
          limit: Self.batch, opening: MeaningPassage.searchedCharacters)
        if work.isEmpty {
          if idleSince == nil { logIdle() }
          idleSince = try store.generation()
          progress.withLock { $0 = (0, 0, nil) }
          MeaningReport().write(location)
          continue
        }
        idleSince = nil
        progress.withLock { if $0.since == nil { $0.since = monotonicNow() } }
        var vectors: [(work: IndexStore.MeaningWork, vector: [UInt8])] = []
        // Copies in one batch (hard-linked trees list them side by side):
        // each passage is embedded once, under its heading.
        var made: [[String]: [UInt8]] = [:]
        var copies = 0
        // A burst that starts meanwhile cuts the batch short: what was
        // embedded is kept, the rest comes again.
        for item in work
        where !stopping.isStopped && !watcher.isBusy(within: Self.quietSeconds) {
          // An empty vector: too short to be about anything, or the model
          // failed on this text; tried again once it changes.
          let (passage, substance) = MeaningPassage.of(
            heading: item.heading, description: item.description, opening: item.opening)
          guard substance >= Self.leastSubstance else {
            vectors.append((item, []))
            continue
          }
          if let vector = item.copied ?? made[[item.heading, passage]] {
            vectors.append((item, vector))
            copies += 1
            continue
          }
          let vector = engine.embedDocument(heading: item.heading, passage: passage)
            .map(MeaningVector.quantized)
          if vector == nil { logger.warning("meaning: the model failed on item \(item.rowID)") }
          vectors.append((item, vector ?? []))
          made[[item.heading, passage]] = vector ?? []
        }
        try store.keepMeaning(vectors)
        progress.withLock {
          $0.embedded += vectors.count
          $0.copies += copies
        }
        if monotonicNow() - reported > 5 {
          MeaningReport(rate: rate).write(location)
          reported = monotonicNow()
        }
      } catch {
        logger.warning("meaning: \(error)")
        stopping.sleep(seconds: 30)
      }
    }
  }

  private func logIdle() {
    let (embedded, copies, since) = progress.withLock { ($0.embedded, $0.copies, $0.since) }
    guard embedded > 0, let since else { return }
    let seconds = monotonicNow() - since
    logger.info(
      "meaning pass done: documents are found by what they are about",
      metadata: [
        "items": "\(embedded)", "copies": "\(copies)",
        "seconds": "\(String(format: "%.1f", seconds))",
        "rate": "\(String(format: "%.2f", Double(embedded) / max(seconds, 0.001)))/s",
      ])
  }
}
