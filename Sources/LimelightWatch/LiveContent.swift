import CLinux
import Dispatch
import Foundation
import LimelightPlatform

/// Files the user's changes named first — the larger files of a burst (a
/// small one is read with its name, ``Watcher/readAtOnceBytes``), of a
/// folder that arrived with files in it — whose content the watcher reads next, at
/// its own priority, a slice per turn of its loop: every name is found at
/// once, the text follows within seconds, and inotify's queue is read
/// between slices, so that a burst does not overflow it.
///
/// The first crawl's backlog is the second pass's (``ContentPass``), read
/// at the lowest priority; what the user just made is read before it.
struct LiveContent {
  private var paths: [RawPath] = []
  private var head = 0

  /// The most it holds: past it, files wait for the second pass (a path is
  /// about a hundred bytes: this is a few megabytes at most).
  static let capacity = 100_000
  /// Files a turn of the loop reads.
  static let sliceSize = 256

  var isEmpty: Bool { head == paths.count }
  var count: Int { paths.count - head }

  /// Queues `path`; false when the queue is full (the second pass reads it).
  @discardableResult
  mutating func append(_ path: RawPath) -> Bool {
    guard count < Self.capacity else { return false }
    paths.append(path)
    return true
  }

  /// The next slice, taken out.
  mutating func takeSlice() -> ArraySlice<RawPath> {
    let end = min(paths.count, head + Self.sliceSize)
    let slice = paths[head..<end]
    head = end
    if head == paths.count {
      paths.removeAll(keepingCapacity: paths.count < 4096)
      head = 0
    }
    return slice
  }
}

extension Watcher {
  /// A burst: this many settled changes in one turn are named first, their
  /// content read in slices after.
  static let burstSize = 64
  /// Settled changes taken in one turn of the loop, at most: inotify's
  /// queue is read between turns.
  static let readyPerTurn = 2048
  /// A file of a burst this small is read with its name, not after it.
  static let readAtOnceBytes: Int64 = 16 * 1024

  /// Reads the next slice of ``liveContent``, at the watcher's own priority.
  func readLiveContent() {
    guard !liveContent.isEmpty, writeRetry == nil else { return }
    for path in liveContent.takeSlice() {
      // Gone or moved since: its removal or move comes as an event.
      guard let status = FileSystem.status(path), status.kind == .regular else { continue }
      batch.append(.importFile(ImportJob(path: path, status: status, hidden: isHidden(path))))
    }
    flush()
  }

  /// Runs `body` on a thread lowered to ``indexingNice`` and waits for it:
  /// a crawl yields to the user's programs, while the watcher's own thread,
  /// which reads the user's changes as they come, keeps the process's
  /// priority (a thread's priority, once lowered, stays so). A one-off run
  /// is lowered whole.
  func atIndexingPriority(_ body: @escaping () -> Void) {
    guard watching else { return body() }
    let work = Unchecked(body)
    let done = DispatchSemaphore(value: 0)
    Thread.detachNewThread {
      limelight_lower_thread_priority(Watcher.indexingNice)
      work.value()
      done.signal()
    }
    done.wait()
  }
}

/// A value handed to a thread that runs while its owner waits for it.
private struct Unchecked<Value>: @unchecked Sendable {
  let value: Value
  init(_ value: Value) { self.value = value }
}
