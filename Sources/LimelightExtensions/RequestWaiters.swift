import LimelightStore

/// The requests waiting for runs of reindex extensions, in the order they
/// came, and what each run tells them. A value with no clock, no threads and
/// no index: the host keeps one under its lock and writes the completions
/// it returns.
struct RequestWaiters {
  /// A request that is completed once its extensions have run: all of them
  /// well, or one of them failing (a failure is news to whoever waits).
  struct Waiter {
    let request: IndexRequest
    /// The domains of the extensions still to run for it.
    var domains: Set<String>
    /// What came before (an erase's crawl) and what each finished run did.
    var outcomes: [RequestOutcome]
    /// Any whole-domain run that ends answers it, even one already under way
    /// (an erase marks every domain before it waits).
    let anyWholeRun: Bool
  }

  private(set) var waiting: [Waiter] = []

  mutating func add(_ waiter: Waiter) { waiting.append(waiter) }

  /// The requests waiting for a run in `domain`: those a run starting now answers.
  func requests(waitingFor domain: String) -> Set<Int64> {
    Set(waiting.filter { $0.domains.contains(domain) }.map(\.request.id))
  }

  /// Updates the waiters (`change` returns true for one that failed) and
  /// takes out those that failed or have no extension left to wait for:
  /// each request with the outcome to complete it with.
  mutating func settle(_ change: (inout Waiter) -> Bool) -> [(IndexRequest, RequestOutcome)] {
    var done: [(IndexRequest, RequestOutcome)] = []
    waiting = waiting.compactMap { waiter in
      var waiter = waiter
      guard change(&waiter) || waiter.domains.isEmpty else { return waiter }
      let outcomes = waiter.outcomes
      done.append((waiter.request, outcomes.count == 1 ? outcomes[0] : .each(outcomes)))
      return nil
    }
    return done
  }

  /// The extensions of `registered` domains alone are waited for: the others
  /// went away, which each waiter is told.
  mutating func forgetAllBut(_ registered: Set<String>) -> [(IndexRequest, RequestOutcome)] {
    settle { waiter in
      for domain in waiter.domains.subtracting(registered) {
        waiter.domains.remove(domain)
        waiter.outcomes.append(.extensionUnregistered(domain: domain))
      }
      return false
    }
  }

  /// A run in `domain` ended (`all`: of its whole domain) with `outcome`; it
  /// answers the requests in `answered` (taken before it started) and, when
  /// whole, those waiting for any whole run. A failed run completes them at
  /// once; a finished one once no other extension is left for them.
  mutating func ran(
    _ domain: String, all: Bool, answered: Set<Int64>, outcome: ExtensionRunOutcome,
    failed: Bool, finished: Bool
  ) -> [(IndexRequest, RequestOutcome)] {
    settle { waiter in
      guard waiter.domains.contains(domain),
        answered.contains(waiter.request.id) || (waiter.anyWholeRun && all)
      else { return false }
      guard failed || finished else { return false }
      waiter.domains.remove(domain)
      waiter.outcomes.append(
        waiter.outcomes.isEmpty && waiter.domains.isEmpty && !waiter.anyWholeRun
          ? .extensionRun(outcome) : .inDomain(domain, .extensionRun(outcome)))
      return failed
    }
  }
}
