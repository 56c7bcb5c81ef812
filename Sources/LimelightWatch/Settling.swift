import LimelightModel
import LimelightPlatform

/// Changes that wait for their file to settle: a path is read once it has
/// been quiet for a while (`IN_MODIFY` after `IN_MODIFY` pushes it back),
/// and a file written without pause is still read after ten settle periods
/// (at least 5 s).
struct Settling {
  struct Change {
    var deadline: Double
    var firstSeen: Double
    /// Re-read even when size and time look unchanged (a rename that changed the extension).
    var force: Bool
  }

  /// How long a file must be quiet, from the configuration.
  let settleSeconds: Double
  private(set) var due: [RawPath: Change] = [:]

  init(settleSeconds: Double) { self.settleSeconds = settleSeconds }

  var count: Int { due.count }

  /// The earliest deadline, if any change waits.
  var nextDeadline: Double? { due.values.map(\.deadline).min() }

  /// Reads `path` once it has been quiet for `delay` seconds; `settled`: the
  /// writer closed it, so the delay starts again from now. True when no
  /// change of it was waiting.
  @discardableResult
  mutating func schedule(
    _ path: RawPath, delay: Double, now: Double, settled: Bool = false, force: Bool = false
  ) -> Bool {
    let waiting = due[path]
    var change = waiting ?? Change(deadline: now + delay, firstSeen: now, force: force)
    let latest = change.firstSeen + max(5, settleSeconds * 10)
    change.deadline = settled ? now + delay : min(max(change.deadline, now + delay), latest)
    change.force = change.force || force
    due[path] = change
    return waiting == nil
  }

  /// Forgets the changes at and below `path` (removed).
  mutating func forget(inside path: RawPath) {
    for key in due.keys where key.isInside(path) { due[key] = nil }
  }

  /// Carries the changes at and below `old` over to `new` (moved).
  mutating func rebase(from old: RawPath, to new: RawPath) {
    for (key, change) in due where key.isInside(old) {
      due[key] = nil
      due[key.rebased(from: old, to: new)] = change
    }
  }

  /// The changes whose time has come (at most `limit` of them), taken out,
  /// with whether each is forced.
  mutating func takeReady(now: Double, limit: Int = .max) -> [RawPath: Bool] {
    var ready: [RawPath: Bool] = [:]
    for (path, change) in due where change.deadline <= now {
      ready[path] = change.force
      if ready.count >= limit { break }
    }
    for path in ready.keys { due[path] = nil }
    return ready
  }
}
