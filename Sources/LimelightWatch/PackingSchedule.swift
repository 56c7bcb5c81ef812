import Glibc
import LimelightPlatform

/// When the watcher packs the index after a pass that rewrote much of it
/// (``IndexStore/pack(givingWay:)``): once the full-text indexes are merged
/// and their free pages given back, a step at a time, after minutes without
/// a change of the user's. Its rewrite makes every page full (4 % of a home
/// read for the first time), takes seconds, and holds every write meanwhile:
/// it gives way to the first event, and is tried again after a longer quiet
/// each time it did. Its last seconds, copying the packed file back, cannot
/// give way (a file saved while a home of 180,000 entries was packed at
/// once waited 20 s; one saved in those last seconds waits about 4 s).
struct PackingSchedule {
  /// Whether a pack waits.
  private(set) var isWanted = false
  /// Seconds without a change the next try waits for.
  private(set) var quietNeeded = Self.firstQuiet
  /// When the pack was wanted (monotonic seconds): the quiet counts from then.
  private var since = 0.0

  static let firstQuiet = 300.0
  static let longestQuiet = 3600.0

  /// A pass rewrote enough of the index to pack it.
  mutating func want(now: Double) {
    isWanted = true
    since = now
    quietNeeded = Self.firstQuiet
  }

  /// When the next try is due, with the user's last change at `lastChange`.
  func due(lastChange: Double) -> Double? {
    isWanted ? max(lastChange, since) + quietNeeded : nil
  }

  /// A try gave way to a change: the next waits for a longer quiet.
  mutating func noteGaveWay() {
    quietNeeded = min(quietNeeded * 2, Self.longestQuiet)
  }

  /// Packed, or given up (the index is usable either way).
  mutating func done() { isWanted = false }

  /// A question for a pack to ask as it goes, from any thread: whether one
  /// of `fds` (the loop's inotify queues, its requests' and stop's pipes)
  /// has something for the watcher, or a stop was asked for.
  static func somethingWaits(on fds: [Int32]) -> @Sendable () -> Bool {
    { () -> Bool in
      if StopSignal.isRequested { return true }
      var polled = fds.map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) }
      return poll(&polled, nfds_t(polled.count), 0) > 0
    }
  }
}
