import Foundation
import LimelightPlatform
import Synchronization

/// A background loop's stop, asked from another thread and seen between
/// its naps: the third pass and the look for a meaning model.
final class StopFlag: Sendable {
  private let stopped = Atomic<Bool>(false)

  func stop() { stopped.store(true, ordering: .relaxed) }

  var isStopped: Bool { stopped.load(ordering: .relaxed) }

  /// Sleeps `seconds`, a fifth of a second at a time, unless stopped
  /// meanwhile; whether it was.
  @discardableResult
  func sleep(seconds: Double) -> Bool {
    let end = monotonicNow() + seconds
    while !isStopped && monotonicNow() < end { Thread.sleep(forTimeInterval: 0.2) }
    return isStopped
  }
}
