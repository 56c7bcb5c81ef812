import Foundation
import LimelightStore

/// What one run of a reindex extension leaves behind, decided without
/// running anything: the run's record after it (failures in a row, back-off,
/// the work that is done or dropped), its outcome, and whether the requests
/// it answers got what they asked for. A pure policy, tested on its own.
struct ExtensionRetry {
  /// Failed runs in a row before the work is dropped (until the next request).
  static let attempts = 6

  /// Seconds before a failed run is tried again: 30 s, doubling, at most an hour.
  static func backoff(afterFailures failures: Int) -> Double {
    min(3600, 30 * pow(2, Double(max(0, failures - 1))))
  }

  /// The run's record after this run.
  var run: ExtensionRun
  var outcome: ExtensionRunOutcome
  /// Whether the run finished what the requests it answers asked for.
  var finished: Bool

  /// A run that was asked for the whole domain (`all`) or for `ids`, and
  /// failed for `failure` or printed what `summary` counts, at `now`.
  init(
    after before: ExtensionRun, all: Bool, ids: [String], failure: String?,
    summary: ItemImport.Summary, now: Date
  ) {
    var run = before
    let scope: ExtensionRunOutcome.Scope = all ? .all : .ids(ids.count)
    finished = true
    if let failure {
      run.failures += 1
      if run.failures >= Self.attempts {
        outcome = .gaveUp(scope, reason: failure, attempts: run.failures)
        run.pendingAll = false
        run.pendingIDs = []
        run.nextAttempt = nil
      } else {
        let wait = Self.backoff(afterFailures: run.failures)
        outcome = .retrying(scope, reason: failure, seconds: Int(wait))
        run.nextAttempt = now.addingTimeInterval(wait)
      }
    } else {
      outcome = .indexed(scope, indexed: summary.indexed, deleted: summary.deleted)
      run.failures = 0
      run.nextAttempt = nil
      run.lastSuccess = now
      if all {
        run.pendingAll = false
        run.pendingIDs = []
      } else {
        run.pendingIDs.removeFirst(min(ids.count, run.pendingIDs.count))
        finished = run.pendingIDs.isEmpty
      }
    }
    run.lastOutcome = outcome
    self.run = run
  }
}
