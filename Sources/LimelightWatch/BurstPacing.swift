import Foundation

/// How often the settled changes of a burst are taken and written.
///
/// Each write is one transaction, and a transaction costs the same few
/// milliseconds whatever it holds (both full-text indexes flush a segment
/// each, the log is written, the watcher's report saved). A watcher that
/// took changes as they settled kept up with a program writing files one by
/// one, a file or two a transaction: 30,000 notes were written in 3,000 to
/// 6,000 transactions, at twice the cost per file of a watcher that had
/// fallen behind. Once changes arrive faster than ``burstRate`` a second
/// (counted as they arrive, not as they are taken: a watcher taking one at
/// a time sees only its own pace), they are taken at most every
/// ``spacing`` seconds; a change alone is taken at once.
struct BurstPacing {
  /// Changes arrived lately: a count that decays by half every ``halfLife``.
  private var recent = 0.0
  private var lastArrival = -Double.infinity
  private var lastTake = -Double.infinity

  /// Past this rate (changes a second), the burst is paced.
  static let burstRate = 200.0
  /// The least time between two takes of a paced burst: what a name of a
  /// burst may wait, at most, beyond its settling.
  static let spacing = 0.25
  static let halfLife = 0.1

  /// When the next take may be, if not at once.
  func heldUntil(now: Double) -> Double? {
    let rate = decayed(now: now) * log(2) / Self.halfLife
    guard rate >= Self.burstRate, now < lastTake + Self.spacing else { return nil }
    return lastTake + Self.spacing
  }

  /// Notes a change of a file that had none waiting.
  mutating func arrived(now: Double) {
    recent = decayed(now: now) + 1
    lastArrival = now
  }

  /// ``recent`` as it has decayed by `now`.
  private func decayed(now: Double) -> Double {
    recent * exp2(-(now - lastArrival) / Self.halfLife)
  }

  /// Notes that settled changes were taken at `now`.
  mutating func took(now: Double) { lastTake = now }
}
