import Foundation
import LimelightModel
import LimelightStore

/// The second pass: reads the content of the files the first pass indexed by
/// name alone, newest first, a slice at a time between the watcher's events,
/// so that a change the user makes meanwhile waits for one slice at most.
///
/// Its queue is the index itself (`contentPending`): a pass cut short by a
/// stop goes on where it was at the next start.
final class ContentPass {
  let store: IndexStore
  /// Files read in each slice: about a tenth of a second of reading.
  static let sliceSize = 48

  /// Whether the index may hold files waiting (cleared when a slice finds none).
  private(set) var mayHaveWork = true
  /// When this pass began reading (monotonic seconds), and how many it read.
  private(set) var started: Double?
  private(set) var read = 0
  /// How many waited when the pass began, and when it was last counted.
  private(set) var waitingAtStart = 0
  /// The slice before, and when to try again after a slice that changed
  /// nothing (the index could not be written): the same files, later.
  private var lastSlice: [RawPath] = []
  private var retryAt = 0.0

  init(store: IndexStore) { self.store = store }

  /// Files were indexed by name alone: there is content to read.
  func noteNamesWritten() { mayHaveWork = true }

  /// Whether a slice is due now.
  func isDue(now: Double) -> Bool { mayHaveWork && now >= retryAt }

  /// When the next slice is due, if any waits.
  var nextDue: Double? { mayHaveWork ? retryAt : nil }

  /// The next files to read; empty when none waits (the pass is then done).
  func nextSlice(now: Double) -> [RawPath] {
    guard let paths = try? store.filesWaitingForContent(limit: Self.sliceSize) else {
      retryAt = now + 5
      return []
    }
    if paths.isEmpty {
      mayHaveWork = false
      return []
    }
    if started == nil {
      started = now
      read = 0
      waitingAtStart = (try? store.filesWaitingForContentCount()) ?? paths.count
    }
    if paths == lastSlice {
      // The same files again: the slice before was not written. Back off.
      retryAt = now + 5
      lastSlice = []
      return []
    }
    lastSlice = paths
    read += paths.count
    return paths
  }

  /// Files read per second in this pass, once it has run a moment.
  func rate(now: Double) -> Double? {
    guard let started, now - started > 1 else { return nil }
    return Double(read) / (now - started)
  }

  /// The pass is over: the next one counts afresh.
  func finish() {
    started = nil
    lastSlice = []
  }
}
