import Foundation
import Synchronization
import Testing

@testable import LimelightService

/// The query service lets its connections go after a quiet spell: a burst
/// of searches ends in one release, a spell after the last of them.
@Suite struct QuietSpellTests {
  @Test func aBurstOfActivitiesEndsInOneActionAfterTheLast() async throws {
    let spell = QuietSpell(seconds: 0.3)
    let actions = Atomic<Int>(0)
    let tags = Mutex<[Int]>([])
    for tag in 1...5 {
      spell.noteActivity {
        actions.add(1, ordering: .relaxed)
        tags.withLock { $0.append(tag) }
      }
    }
    // Only the last activity's action runs, once its spell has passed.
    var waited = 0.0
    while actions.load(ordering: .relaxed) == 0 && waited < 10 {
      try await Task.sleep(for: .milliseconds(50))
      waited += 0.05
    }
    try await Task.sleep(for: .milliseconds(700))
    #expect(actions.load(ordering: .relaxed) == 1)
    #expect(tags.withLock { $0 } == [5])
    // A later activity starts a spell of its own.
    spell.noteActivity { actions.add(1, ordering: .relaxed) }
    waited = 0
    while actions.load(ordering: .relaxed) == 1 && waited < 10 {
      try await Task.sleep(for: .milliseconds(50))
      waited += 0.05
    }
    #expect(actions.load(ordering: .relaxed) == 2)
  }
}
