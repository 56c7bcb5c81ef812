import Dispatch
import Foundation
import LimelightModel
import LimelightPlatform
import LimelightStore
import LimelightSubprocess
import Logging
import Synchronization

/// Runs reindex extensions on a thread of its own, so that a slow one never
/// holds up file indexing. The work to do is kept in the index (the
/// `extension_run` table): an extension runs when its descriptor first
/// appears, when the index was erased or found damaged, and when a request
/// names its domain; a failed run is retried with back-off
/// (``ExtensionRetry``). A run itself is an ``ExtensionRunner``'s; the
/// requests waiting for runs are ``RequestWaiters``.
public final class ExtensionHost: Sendable {
  let store: IndexStore
  let folders: [RawPath]
  let logger: Logger
  let wake = DispatchSemaphore(value: 0)
  let state = Mutex(State())

  struct State {
    var extensions: [ReindexExtension] = []
    var waiters = RequestWaiters()
    /// Requests already taken (the watcher offers each pending one on every wake).
    var taken: Set<Int64> = []
    /// The domain whose extension runs now, and whether work for it came
    /// meanwhile (that run may not see it: another must follow).
    var running: String?
    var askedAgain = false
    var stopping = false
  }

  /// The most ids given to one run; the rest wait for the next.
  static let idsPerRun = 1000

  /// Called on the host's thread after a run wrote items (which may expire).
  let afterWriting: @Sendable () -> Void

  public init(
    store: IndexStore, location: IndexLocation, logger: Logger,
    afterWriting: @escaping @Sendable () -> Void = {}
  ) {
    self.store = store
    self.folders = location.descriptorFolders("extensions.d")
    self.logger = logger
    self.afterWriting = afterWriting
  }

  // MARK: - What the watcher calls

  /// Reads the descriptors again: a new one gets its whole domain indexed,
  /// one that went away is forgotten. Returns the descriptors that are wrong.
  @discardableResult
  public func reload() -> [ExtensionDescriptors.Problem] {
    var (extensions, problems) = ExtensionDescriptors.load(from: folders)
    // A descriptor read right before that now reads wrong (a read racing a
    // write, a read cut short): its extension is kept as it was, not
    // forgotten, and the next reload reads it again.
    let before = state.withLock { $0.extensions }
    for problem in problems {
      if let kept = before.first(where: { $0.descriptor == problem.path }),
        !extensions.contains(where: { $0.domain == kept.domain })
      {
        extensions.append(kept)
        logger.warning("extension descriptor kept as it was read before: \(problem)")
      } else {
        logger.warning("extension descriptor ignored: \(problem)")
      }
    }
    do {
      let known = Dictionary(
        try store.extensionRuns().map { ($0.domain, $0) }, uniquingKeysWith: { a, _ in a })
      var saves: [ExtensionRun] = []
      for found in extensions {
        if var run = known[found.domain] {
          if run.descriptor != found.descriptor.string {
            run.descriptor = found.descriptor.string
            saves.append(run)
          }
        } else {
          var run = ExtensionRun(domain: found.domain, descriptor: found.descriptor.string)
          run.pendingAll = true
          run.lastOutcome = .registered
          saves.append(run)
        }
      }
      let gone = known.keys.filter { domain in !extensions.contains { $0.domain == domain } }
      // Nothing written when nothing changed: a write is a new generation.
      if !saves.isEmpty || !gone.isEmpty {
        try store.write { writer in
          for run in saves { try writer.save(run) }
          for domain in gone { try writer.forgetExtension(domain: domain) }
        }
      }
    } catch {
      logger.warning("cannot record the reindex extensions: \(error)")
    }
    state.withLock { $0.extensions = extensions }
    let registered = Set(extensions.map(\.domain))
    complete(state.withLock { $0.waiters.forgetAllBut(registered) })
    wake.signal()
    return problems
  }

  /// Takes a `domain` request (once): its extensions run and then complete it.
  /// A request no extension answers is completed at once.
  public func take(_ request: IndexRequest) {
    guard let domain = request.domain else { return }
    let fresh = state.withLock { $0.taken.insert(request.id).inserted }
    guard fresh else { return }
    let serving = state.withLock { $0.extensions.filter { $0.answers(for: domain) } }
    do {
      try store.write { writer in
        guard !serving.isEmpty else {
          try writer.complete(request, outcome: .noExtension(domain: domain))
          return
        }
        let runs = Dictionary(
          try writer.extensionRuns().map { ($0.domain, $0) }, uniquingKeysWith: { a, _ in a })
        for found in serving {
          var run =
            runs[found.domain]
            ?? ExtensionRun(domain: found.domain, descriptor: found.descriptor.string)
          if request.kind == .eraseDomain || request.ids.isEmpty {
            run.pendingAll = true
          } else if !run.pendingAll {
            run.pendingIDs += request.ids.filter { !run.pendingIDs.contains($0) }
          }
          // A request is a reason to try again now.
          run.nextAttempt = nil
          run.failures = 0
          try writer.save(run)
        }
      }
    } catch {
      logger.warning("cannot record a reindex request: \(error)")
      return
    }
    state.withLock { state in
      state.waiters.add(
        .init(
          request: request, domains: Set(serving.map(\.domain)), outcomes: [],
          anyWholeRun: false))
      if let running = state.running, serving.contains(where: { $0.domain == running }) {
        state.askedAgain = true
      }
    }
    wake.signal()
  }

  /// Completes `request` (an erase made at `start`, whose crawl gave
  /// `outcome`) once every extension with its whole domain still to reindex
  /// has run; at once when none has. The runs already over since `start` are
  /// told too.
  public func complete(
    _ request: IndexRequest, since start: Date, afterReindexing outcome: RequestOutcome
  ) {
    let registered = Set(state.withLock { $0.extensions.map(\.domain) })
    let runs = ((try? store.extensionRuns()) ?? []).filter { registered.contains($0.domain) }
    // A run since the erase that failed is news now, not after its back-off.
    func ranSince(_ run: ExtensionRun) -> Bool { (run.lastRun ?? .distantPast) >= start }
    let due = runs.filter { $0.pendingAll && !(ranSince($0) && $0.failures > 0) }.map(\.domain)
    let over: [RequestOutcome] = runs.filter { ranSince($0) && (!$0.pendingAll || $0.failures > 0) }
      .compactMap { run -> RequestOutcome? in
        run.lastOutcome.map { RequestOutcome.inDomain(run.domain, .extensionRun($0)) }
      }
    complete(
      state.withLock { state in
        state.waiters.add(
          .init(
            request: request, domains: Set(due), outcomes: [outcome] + over, anyWholeRun: true))
        return state.waiters.settle { _ in false }
      })
    wake.signal()
  }

  /// Completes the requests the waiters let go.
  func complete(_ done: [(IndexRequest, RequestOutcome)]) {
    guard !done.isEmpty else { return }
    do {
      try store.write { writer in
        for (request, outcome) in done { try writer.complete(request, outcome: outcome) }
      }
    } catch {
      logger.warning("cannot complete reindex requests: \(error)")
    }
  }

  /// Marks every extension's whole domain for reindexing (after an erase),
  /// in the caller's transaction: call ``nudge()`` once it is committed.
  public func reindexEverything(in writer: IndexWriter) throws {
    state.withLock { state in if state.running != nil { state.askedAgain = true } }
    for var run in try writer.extensionRuns() {
      run.pendingAll = true
      run.pendingIDs = []
      run.failures = 0
      run.nextAttempt = nil
      try writer.save(run)
    }
  }

  /// Has the thread look for work now (after a commit that added some).
  public func nudge() { wake.signal() }

  /// Starts the thread that runs extensions.
  public func start() {
    let thread = Thread { [self] in loop() }
    thread.name = "reindex extensions"
    thread.start()
  }

  /// Asks the thread to stop (a run in progress finishes or hits its limit).
  public func stop() {
    state.withLock { $0.stopping = true }
    wake.signal()
  }

  /// Runs every extension that has work now, once each, without retrying
  /// (`limelightd --once`).
  public func runPendingOnce() {
    for found in state.withLock({ $0.extensions }) {
      guard let run = try? store.extensionRuns().first(where: { $0.domain == found.domain }),
        run.hasWork
      else { continue }
      perform(found, run)
    }
  }

  // MARK: - The thread

  func loop() {
    while !state.withLock({ $0.stopping }) {
      let next = step()
      if state.withLock({ $0.stopping }) { return }
      if let next {
        _ = wake.wait(timeout: .now() + max(0.01, min(next - Date().timeIntervalSince1970, 3600)))
      } else {
        wake.wait()
      }
    }
  }

  /// Runs what is due; returns when something next falls due (seconds since
  /// 1970), nil when nothing will until a request comes.
  func step() -> Double? {
    let extensions = state.withLock { $0.extensions }
    guard let runs = try? store.extensionRuns() else { return Date().timeIntervalSince1970 + 60 }
    var next: Double?
    func soonest(_ time: Double) { next = min(next ?? time, time) }
    for found in extensions {
      if state.withLock({ $0.stopping }) { return nil }
      guard let run = runs.first(where: { $0.domain == found.domain }), run.hasWork else {
        continue
      }
      if let attempt = run.nextAttempt, attempt > Date() {
        soonest(attempt.timeIntervalSince1970)
        continue
      }
      perform(found, run)
      // Something may have been left (ids beyond one run's share, a retry).
      soonest(Date().timeIntervalSince1970)
    }
    return next
  }

  /// One run of an extension: the output applied on success, the back-off
  /// and the record of how it went either way.
  func perform(_ found: ReindexExtension, _ before: ExtensionRun) {
    // Requests taken before this run starts are answered by it; later ones
    // wait for the next (the run may have read the application's data before
    // the change the request is about).
    let answered = state.withLock { state in
      state.running = found.domain
      state.askedAgain = false
      return state.waiters.requests(waitingFor: found.domain)
    }
    let all = before.pendingAll
    let ids = Array(before.pendingIDs.prefix(Self.idsPerRun))
    var run = before
    run.lastRun = Date()
    let ran = ExtensionRunner(store: store).run(found, all: all, ids: ids)
    if ran.summary.indexed > 0 { afterWriting() }
    let retry = ExtensionRetry(
      after: run, all: all, ids: ids, failure: ran.failure, summary: ran.summary, now: Date())
    run = retry.run
    if ran.failure != nil {
      logger.warning("reindex extension \(found.name) (\(found.domain)): \(retry.outcome)")
    }
    let askedAgain = state.withLock { state in
      state.running = nil
      return state.askedAgain
    }
    do {
      try store.write { writer in
        // A request, an erase or a reload may have added work meanwhile: keep
        // it. A request during the run asks for what it asked once more.
        if let now = try writer.extensionRuns().first(where: { $0.domain == found.domain }) {
          if now.pendingAll && (askedAgain || !before.pendingAll) { run.pendingAll = true }
          run.pendingIDs += now.pendingIDs.filter {
            (askedAgain || !before.pendingIDs.contains($0)) && !run.pendingIDs.contains($0)
          }
          if askedAgain { run.nextAttempt = nil }
        }
        try writer.save(run)
      }
    } catch {
      logger.warning("cannot record how reindex extension \(found.name) ran: \(error)")
    }
    complete(
      state.withLock {
        $0.waiters.ran(
          found.domain, all: all, answered: answered, outcome: retry.outcome,
          failed: ran.failure != nil, finished: retry.finished)
      })
  }
}
