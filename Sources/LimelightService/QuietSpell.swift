import Dispatch
import Synchronization

/// Runs an action once a spell of quiet has passed: each activity
/// (``noteActivity(then:)``) starts the spell again, so a burst of
/// activities ends in one action, a while after the last.
final class QuietSpell: Sendable {
  /// How long the quiet must last.
  let seconds: Double
  private let activities = Atomic<Int>(0)

  init(seconds: Double) { self.seconds = seconds }

  /// An activity: `action` runs a whole spell from now, unless another
  /// activity comes meanwhile (whose own action then waits its spell).
  func noteActivity(then action: @escaping @Sendable () -> Void) {
    let mark = activities.add(1, ordering: .relaxed).newValue
    DispatchQueue.global(qos: .utility).asyncAfter(deadline: .now() + seconds) { [self] in
      if activities.load(ordering: .relaxed) == mark { action() }
    }
  }
}
