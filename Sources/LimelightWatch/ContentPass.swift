import Dispatch
import Foundation
import LimelightModel
import LimelightPlatform
import LimelightStore

/// The second pass: reads the content of the files the first pass indexed by
/// name alone, newest first, a slice at a time between the watcher's events,
/// so that a change the user makes meanwhile waits for one slice at most.
///
/// Slices are read on threads of their own (nice 19, idle I/O class), one
/// after another, up to ``readAhead`` ahead of the one the watcher writes:
/// reading and writing overlap. Its queue is
/// the index itself (`contentPending`): a pass cut short by a stop goes on
/// where it was at the next start.
final class ContentPass {
  let store: IndexStore
  /// Importers of its own: a slice is read while the watcher's own
  /// importers read the user's changes. Made when a pass begins, let go
  /// when it ends (with their helpers).
  private let makeExtractor: () -> Extractor
  private var extractor: Extractor?
  private let isHidden: (RawPath) -> Bool

  /// Files taken for a slice at most, of which as many are read as
  /// ``sliceSeconds`` allow; the rest wait for the next. A slice takes
  /// twice what the one before read (at least ``smallestSlice``): a slice
  /// of large texts reads a few files, and looking up and checking 512 for
  /// each of them cost the writer a tenth of its time.
  static let sliceSize = 512
  static let smallestSlice = 32
  static let sliceSeconds = 0.25
  /// Bytes of text a slice reads at most: one slice is read while the one
  /// before waits to be written, each held folded and packed, and a slice
  /// of 512 large documents held tens of megabytes.
  static let sliceTextBytes = 2 << 20

  /// Whether the index may hold files waiting (cleared when none is found).
  private(set) var mayHaveWork = true
  /// When this pass began reading (monotonic seconds), and how many it read.
  private(set) var started: Double?
  private(set) var read = 0
  /// Seconds the watcher waited for slices to be read, and spent writing them.
  private(set) var waitingSeconds = 0.0
  private(set) var writingSeconds = 0.0
  /// Slices read or being read, oldest first, up to ``readAhead``: with one
  /// slice read beside each written, the writer waited whenever a slice was
  /// slow to read (a large page or a document a helper reads), and the
  /// readers waited whenever one was slow to write, a quarter of the pass
  /// each on a home of manuals and sources.
  private var queue: [Slice] = []
  static let readAhead = 2
  /// Where the slices are read, one at a time, in the order they were taken.
  private let lane = DispatchQueue(label: "limelight.content-pass")
  /// Where tidying the index after a pass is: merging the full-text
  /// indexes' segments, then giving the pages they freed back.
  private var merging = Merging.none
  enum Merging { case none, first, ongoing, releasing }
  /// After a slice that could not be written, when to try again; while
  /// the oldest slice is read, when to look again.
  private var retryAt = 0.0
  /// Since when the watcher has found the oldest slice still being read.
  private var waitingSince: Double?
  /// Seconds between looks at a slice still being read.
  static let readingCheck = 0.02
  private var lastFiles: [PendingFile] = []
  /// Files the last slice read or found gone.
  private var lastTaken = sliceSize / 2

  /// A slice on its way: its files, newest first, and once read the records
  /// of those read (in the order of their rows) and the files found gone.
  private final class Slice: @unchecked Sendable {
    let files: [PendingFile]
    let done = DispatchGroup()
    var records: [FileRecord] = []
    var missing: [RawPath] = []
    init(files: [PendingFile]) { self.files = files }
  }

  /// What a finished slice hands the watcher to write.
  struct Outcome {
    var records: [FileRecord]
    /// Files gone since the first pass named them.
    var missing: [RawPath]
    /// The files the slice was taken for, as the index listed them.
    var files: [PendingFile]

    /// The operations that write it.
    var operations: [IndexOperation] { missing.map { .remove($0) } + records.map { .write($0) } }
  }

  init(
    store: IndexStore, makeExtractor: @escaping () -> Extractor,
    isHidden: @escaping (RawPath) -> Bool
  ) {
    self.store = store
    self.makeExtractor = makeExtractor
    self.isHidden = isHidden
  }

  /// Files were indexed by name alone: there is content to read.
  func noteNamesWritten() { mayHaveWork = true }

  /// Whether a slice (or a merge step) is due now.
  func isDue(now: Double) -> Bool { nextDue.map { now >= $0 } ?? false }

  /// When the next slice is due, if any waits.
  var nextDue: Double? { mayHaveWork || !queue.isEmpty || isMerging ? retryAt : nil }

  /// Whether the full-text indexes' segments are still being merged (or
  /// the pages they held given back).
  var isMerging: Bool { merging != .none }

  /// What the pass's tidying does, for the status.
  var tidying: IndexTidying? {
    switch merging {
    case .none: nil
    case .first, .ongoing: .merging
    case .releasing: .releasing
    }
  }

  /// Whether the pass has read everything it found (and has figures to tell).
  var isFinished: Bool { !mayHaveWork && queue.isEmpty && started != nil }

  /// Takes the oldest slice read meanwhile, and starts reading the next
  /// ones, which the caller writes while they are read. Not while the
  /// oldest is still being read: nil then, and the pass is due again in a
  /// moment (the watcher's loop waited for it, and a large document a
  /// helper read held the user's changes for seconds).
  func step(now: Double) -> Outcome? {
    var outcome: Outcome?
    var written: Set<RawPath> = []
    if let slice = queue.first {
      guard slice.done.wait(timeout: .now()) == .success else {
        waitingSince = waitingSince ?? now
        retryAt = max(retryAt, now + Self.readingCheck)
        return nil
      }
      queue.removeFirst()
      if let since = waitingSince { waitingSeconds += monotonicNow() - since }
      waitingSince = nil
      read += slice.records.count
      written = Set(slice.records.map(\.path)).union(slice.missing)
      lastTaken = written.count
      outcome = current(slice)
    }
    while queue.count < Self.readAhead, startSlice(now: now, excluding: written) {}
    return outcome
  }

  /// What a slice read of the files it may still write
  /// (``IndexStore/stillWaitingForContent(_:)``): not of one the watcher
  /// wrote, moved, removed or tagged while the slice was read, which a
  /// later slice reads again if it still waits.
  private func current(_ slice: Slice) -> Outcome {
    current(Outcome(records: slice.records, missing: slice.missing, files: slice.files))
  }

  /// What of `outcome` may still be written (as for a slice just read).
  func current(_ outcome: Outcome) -> Outcome {
    guard let waiting = try? store.stillWaitingForContent(outcome.files) else { return outcome }
    return Outcome(
      records: outcome.records.filter { waiting.contains($0.path) },
      missing: outcome.missing.filter(waiting.contains), files: outcome.files)
  }

  /// The watcher wrote a slice in `seconds`.
  func noteWritten(seconds: Double) { writingSeconds += seconds }

  /// Starts reading a slice after those queued; whether one was started.
  private func startSlice(now: Double, excluding written: Set<RawPath>) -> Bool {
    guard mayHaveWork, now >= retryAt else { return false }
    // The slice just read is not written yet, nor are those queued: the
    // index still lists them.
    let unwritten = queue.reduce(into: written) { $0.formUnion($1.files.map(\.path)) }
    let take = min(Self.sliceSize, max(Self.smallestSlice, 2 * lastTaken))
    guard
      let files = try? Array(
        store.filesWaitingForContent(limit: take + unwritten.count)
          .filter({ !unwritten.contains($0.path) }).prefix(take))
    else {
      retryAt = now + 5
      return false
    }
    if files.isEmpty {
      if unwritten.isEmpty { mayHaveWork = false }
      return false
    }
    if files == lastFiles && unwritten.isEmpty {
      // The same files again, though none is being written: the slice
      // before could not be written. Back off.
      retryAt = now + 5
      lastFiles = []
      return false
    }
    lastFiles = files
    if started == nil {
      started = now
      read = 0
      waitingSeconds = 0
      writingSeconds = 0
    }
    let slice = Slice(files: files)
    queue.append(slice)
    let extractor = self.extractor ?? makeExtractor()
    self.extractor = extractor
    let hidden = slice.files.map { isHidden($0.path) }
    slice.done.enter()
    // Newest first, as many as the time allows; written in the order of
    // their rows (``PendingFile/rowID``). Their status is read here, off
    // the thread that writes.
    lane.async {
      var jobs: [ImportJob] = []
      var rows: [RawPath: Int64] = [:]
      for (file, hidden) in zip(slice.files, hidden) {
        if let status = FileSystem.status(file.path) {
          jobs.append(ImportJob(path: file.path, status: status, hidden: hidden))
          rows[file.path] = file.rowID
        } else {
          slice.missing.append(file.path)
        }
      }
      slice.records = extractor.extract(
        jobs, until: monotonicNow() + Self.sliceSeconds, textBudget: Self.sliceTextBytes,
        background: true
      ).sorted { rows[$0.path, default: 0] < rows[$1.path, default: 0] }
      slice.done.leave()
    }
    return true
  }

  /// Files read per second in this pass, once it has run a moment.
  func rate(now: Double) -> Double? {
    guard let started, now - started > 1 else { return nil }
    return Double(read) / (now - started)
  }

  /// The pass is over: the next one counts afresh. After a pass that read
  /// many files, the full-text indexes' segments are merged, a step at a time.
  func finish() {
    if read >= Self.mergeAfter { merging = .first }
    started = nil
    lastFiles = []
    extractor = nil
  }

  /// Merging a watcher stopped before it was done: done first thing.
  func resumeMerging() {
    if merging == .none { merging = .first }
  }

  /// Files a pass reads before its segments are worth merging.
  static let mergeAfter = 2000

  /// One merge step, when any is left; whether it did one.
  func mergeStep() -> Bool {
    guard merging != .none, !mayHaveWork, queue.isEmpty else { return false }
    do {
      switch merging {
      case .none: break
      case .first, .ongoing:
        // Merged: the space the small segments held goes back to the disk.
        merging = try store.mergeStep(first: merging == .first) ? .ongoing : .releasing
      case .releasing:
        if try !store.releaseFreePages() { merging = .none }
      }
    } catch {
      retryAt = monotonicNow() + 5
    }
    return true
  }
}
