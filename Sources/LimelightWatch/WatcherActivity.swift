import LimelightPlatform
import Synchronization

/// When the watcher last wrote a burst of the user's changes, for the
/// passes that run beside it to keep out of its way: the meaning pass,
/// at the lowest priority, holds the index's one writer for each of its
/// transactions, and the watcher's thread waited behind it while a
/// program at normal priority kept it from running.
public final class WatcherActivity: Sendable {
  /// Monotonic milliseconds of the last burst written.
  private let lastBurst = Atomic<Int64>(Int64.min / 2)

  public init() {}

  /// A write of this many changes is a burst.
  static let burstOperations = 16

  /// Notes a write of `operations` changes.
  func wrote(_ operations: Int) {
    guard operations >= Self.burstOperations else { return }
    lastBurst.store(Int64(monotonicNow() * 1000), ordering: .relaxed)
  }

  /// Whether the watcher wrote a burst within the last `seconds`.
  public func isBusy(within seconds: Double) -> Bool {
    Int64(monotonicNow() * 1000) - lastBurst.load(ordering: .relaxed) < Int64(seconds * 1000)
  }
}
