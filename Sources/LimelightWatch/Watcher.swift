import CLinux
import Foundation
import LimelightApplications
import LimelightExtensions
import LimelightImport
import LimelightModel
import LimelightPlatform
import LimelightStore
import LimelightThumbnails
import Logging

#if canImport(Glibc)
  import Glibc
#endif

/// The watcher's engine: it reconciles the roots with the index, then follows
/// inotify, carrying out durable requests as they come.
///
/// Everything runs on one thread around `poll(2)`: events, settle timers and
/// requests are handled in order, and only content extraction fans out to
/// worker threads. Writes are gathered into batches, one transaction each.
public final class Watcher: ReconcileSink {
  let store: IndexStore
  let location: IndexLocation
  let configuration: Configuration
  let roots: [RawPath]
  let rules: ExclusionRules
  let extractor: Extractor
  let logger: Logger
  let watching: Bool

  /// The folders inotify watches (and those it cannot).
  var watches: WatchTable
  var wakeInotify: Inotify?
  /// Reads the watches' events as they come (while watching).
  var drain: EventDrain?
  let thumbnails: ThumbnailQueue?
  /// The installed applications, when the configuration indexes them.
  let applications: ApplicationWatch?
  /// Applications' reindex extensions.
  let extensions: ExtensionHost
  /// Application items removed when their expiration date comes.
  var expiry = ExpiryPurge()
  /// Rung by the extensions' thread when a run wrote items.
  let expiryNudge = ExpiryPurge.Nudge()
  /// Thumbnails other programs write into the shared cache (while watching).
  var thumbnailWatch: ThumbnailWatch?
  /// The second pass: the content of files first indexed by name.
  let contentPass: ContentPass
  let reconciler: Reconciler
  let batchWriter: BatchWriter
  var overflows = 0
  var nextUnwatchedRescan = 0.0
  /// When a walk next looks at the user's changes, and since when its
  /// batch has held what it found (``betweenFolders()``).
  var nextLookDuringWalk = 0.0
  var walkBatchSince: Double?
  /// When the "changed in the last week" flags are next brought up to date.
  var nextRecencyExpiry = 0.0
  /// When the index's structure is checked next (monotonic seconds).
  var nextIntegrityCheck = Double.infinity
  /// Whether the start left items whose week is over for the event loop.
  var recencyBacklog = false
  static let recencyExpirySeconds = 3_600.0

  /// Paths whose change waits for the file to settle.
  var settling: Settling
  /// When it last wrote a burst, for the passes beside it.
  public let activity = WatcherActivity()
  /// How often a burst's settled changes are taken.
  var pacing = BurstPacing()
  /// Renames' first halves waiting for their second.
  var moves = MovePairing()
  /// Folders to reconcile with the disk (new folders, marker changes, overflows).
  var rescanQueue: [RawPath] = []
  /// Files the user's changes named first, their content read next.
  var liveContent = LiveContent()
  var batch: [IndexOperation] = []
  var paused = false
  var crawlSeen = 0
  var crawlDone = false
  /// Whether an earlier watcher named every entry once.
  var builtBefore = false
  var lastError: String?
  var statusChanged = true
  /// Set while writes to the index fail: what waits, and when to try again.
  var writeRetry: WriteRetry?
  /// The batch being written while the walk, or a burst's reading, goes on.
  var batchInFlight: BatchInFlight?
  /// Whether full batches are written while the walk goes on (the first pass).
  var writesAhead = false
  /// Whether an index the first crawl went without could not be made.
  var deferredIndexesMissing = false
  /// When the segments the last writes added are merged a step.
  var segmentTidying = SegmentTidying()
  /// Whether a first crawl's name terms could not be added to the typo index.
  var nameTermsMissing = false
  /// A first crawl's name terms on their way to the typo index.
  var nameTerms: NameTermsBackfill?
  /// What a slice of the second pass still has to write: its writing gave
  /// way to the user's changes (``writeSliceRest()``).
  var sliceRest: ContentPass.Outcome?
  /// When the index is packed after a pass that rewrote much of it.
  var packing = PackingSchedule()
  /// When the last event of the user's files came (monotonic seconds).
  var lastUserChange = 0.0
  /// The tidying last kept in the index, for the next watcher to do if
  /// this one stops first.
  var keptTidying: IndexTidying?

  /// Commit after this many operations.
  static let batchSize = 512
  /// Commit after this many in the first pass, whose batches are written
  /// while the walk goes on: each commit writes again the pages of every
  /// index its rows touched (at a million entries, 512 a batch wrote 22 GB
  /// of log, 4,096 wrote 15).
  static let namesBatchSize = 4096

  public init(
    store: IndexStore, configuration: Configuration, roots: [RawPath], watching: Bool,
    logger: Logger
  ) {
    self.store = store
    self.location = store.location
    self.configuration = configuration
    self.roots = roots
    self.rules = ExclusionRules(
      configuration: configuration,
      alwaysExcluded: [
        store.location.dataDirectory, store.location.runtimeDirectory,
        store.location.cacheHome.appending("thumbnails"),
      ])
    let workers = max(1, min(4, ProcessInfo.processInfo.activeProcessorCount))
    let (programs, problems) = ImporterDescriptors.load(
      from: store.location.descriptorFolders("importers.d"))
    for problem in problems { logger.warning("importer descriptor ignored: \(problem)") }
    let mime = MIMEDatabase()
    let makeExtractor = {
      Extractor(
        mime: mime, maxTextBytes: configuration.maxTextBytes, workers: workers,
        texts: store.texts, programs: programs,
        thumbnails: ThumbnailCache(root: store.location.cacheHome.appending("thumbnails")))
    }
    self.extractor = makeExtractor()
    self.watches = WatchTable(inotify: nil, maxWatches: configuration.maxWatches)
    self.settling = Settling(settleSeconds: configuration.settleSeconds)
    let reconciler = Reconciler(store: store, rules: rules, roots: roots)
    self.reconciler = reconciler
    self.logger = logger
    self.watching = watching
    let nudge = expiryNudge
    self.extensions = ExtensionHost(
      store: store, location: store.location, logger: logger, afterWriting: { nudge.signal() })
    self.contentPass = ContentPass(
      store: store, makeExtractor: makeExtractor,
      isHidden: reconciler.isHidden)
    self.applications =
      configuration.indexApplications
      ? ApplicationWatch(
        catalog: InstalledApplications(
          folders: ApplicationFolders(configuration: configuration, location: store.location),
          dataDirectories: store.location.base.everyDataDirectory.map { RawPath($0) }),
        store: store) : nil
    // Thumbnails are made while watching, in the background; a one-off crawl
    // takes only those already in the shared cache.
    if watching {
      let maker = ThumbnailMaker(
        cache: ThumbnailCache(root: store.location.cacheHome.appending("thumbnails")),
        thumbnailers: Thumbnailer.installed(
          dataDirectories: store.location.base.everyDataDirectory.reversed().map { RawPath($0) })
          + [Thumbnailer.builtIn(helper: HelperFormats.helperCommand())])
      self.thumbnails = ThumbnailQueue(
        maker: maker, store: store,
        afterDrawing: { MemoryRelease.afterBurst(of: store, idle: true) })
    } else {
      self.thumbnails = nil
    }
    self.batchWriter = BatchWriter(
      store: store, extractor: extractor, thumbnails: thumbnails,
      isHidden: reconciler.isHidden)
  }

  // MARK: - Running

  /// Crawls, then (unless `watching` is false) follows changes until a stop signal.
  /// The nice value of the threads that crawl, extract and write: a search
  /// (the query service's threads keep the process's priority) and the
  /// user's programs come first.
  static let indexingNice: Int32 = 10
  /// The nice value of the second pass (with the idle I/O class): it reads
  /// only when nothing else wants the machine.
  static let backgroundNice: Int32 = 19

  public func run() throws {
    StopSignal.install()
    // glibc gives each thread that allocates an arena of its own, and what a
    // crawl leaves in them stays resident (40 MB seen across six, 10 MB in a
    // second one at idle): one arena serves a watcher's few threads as well.
    _ = mallopt(M_ARENA_MAX, 1)
    // Large blocks (texts read, batches of them) mapped apart and unmapped
    // when freed: glibc otherwise raises its threshold past each one freed,
    // and the heap kept the largest text's room after it.
    _ = mallopt(M_MMAP_THRESHOLD, 256 * 1024)
    // The watcher's own thread keeps the process's priority for the user's
    // changes; a crawl runs lowered (``atIndexingPriority(_:)``).
    if !watching { limelight_lower_thread_priority(Self.indexingNice) }
    if watching {
      let inotify = try Inotify()
      watches = WatchTable(inotify: inotify, maxWatches: configuration.maxWatches)
      drain = try EventDrain(inotify)
      let wake = try Inotify()
      try? FileSystem.makeDirectories(location.runtimeDirectory, mode: 0o700)
      _ = wake.addWatch(location.runtimeDirectory, mask: Self.wakeMask)
      wakeInotify = wake
      watchDescriptorFolders()
      // Damage no query has met yet is found in the background.
      startIntegrityCheck()
    }
    paused = (try? store.isPaused()) ?? false
    builtBefore = (try? store.watcherReport())??.built ?? false
    try store.write { writer in
      try writer.save(report())
      // A watcher stopped while it drew left its count: this one's queue
      // starts empty.
      try writer.noteThumbnailsWaiting(0)
      try writer.removeFiles(outside: roots)
      recencyBacklog = try writer.expireRecency(atMost: Self.recencyBatch) == Self.recencyBatch
    }
    if let applications {
      if watching { applications.startWatching() }
      if let problem = applications.sync() { note(problem) }
    } else {
      try store.write { writer in _ = try writer.deleteDomain(applicationsDomain) }
    }
    for root in roots where FileSystem.status(root)?.isDirectory != true {
      note("root \(root.string) is missing or not a folder; it is checked again on each rescan")
    }
    extensions.reload()
    if watching {
      extensions.start()
      thumbnailWatch = ThumbnailWatch(
        cache: ThumbnailCache(root: location.cacheHome.appending("thumbnails")), store: store,
        queue: thumbnails)
    }
    store.checkpointAside()
    resumeTidying()
    // A first crawl stopped before its end left them out.
    makeDeferredIndexes()
    addDeferredNameTerms()
    processRequests()
    if !paused || !watching { atIndexingPriority { self.initialCrawl() } }
    if !watching {
      // Its queue is read on an index that could not be made: the run
      // ends with the reason.
      while nextSlice != nil && !StopSignal.isRequested && !deferredIndexesMissing {
        if writeRetry != nil {
          waitForWrites()
          continue
        }
        if let due = nextSlice, due > monotonicNow() {
          usleep(UInt32(min(1, due - monotonicNow()) * 1_000_000))
          continue
        }
        readContentSlice()
      }
    }
    if watching && !StopSignal.isRequested { eventLoop() }
    if !watching && !StopSignal.isRequested {
      extensions.runPendingOnce()
      purgeExpiredIfDue()
    }
    extensions.stop()
    drain?.stop()
    flush()
    if let retry = writeRetry {
      // Stopped before the index could be written: the next start's crawl
      // compares the disk with the index and finds these changes again.
      logger.warning(
        "stopping with changes not written",
        metadata: ["waiting": "\(batch.count)", "reason": "\(retry.block.reason)"])
      WriteBlock.clear(store.location)
      // A one-off run ends with the reason and a failure.
      var block = retry.block
      block.waiting = batch.count
      if !watching { throw WriteFailure(description: block.description) }
    }
    try? store.write { writer in
      try writer.save(report(state: .stopped))
      try writer.pruneRemovals()
    }
    try? store.pruneRequests()
    store.checkpoint()
    if !watching && deferredIndexesMissing {
      throw WriteFailure(description: lastError ?? "the index could not be completed")
    }
  }

  func initialCrawl() {
    let started = monotonicNow()
    store.prepareForWrites(.crawl)
    // A first crawl names every entry without the indexes it would write
    // to at random (``IndexStore/deferIndexesForFirstCrawl()``).
    let deferred = (try? store.deferIndexesForFirstCrawl()) ?? false
    writesAhead = true
    for root in roots where !StopSignal.isRequested { reconcile(root, force: false) }
    writesAhead = false
    flush()
    waitForWrites()
    if StopSignal.isRequested { return }
    if deferred { makeDeferredIndexes() }
    // The pass's figures go with its end into the same status: written
    // apart, a status read between said "done" without them.
    let seconds = monotonicNow() - started
    namesPass = (crawlSeen, seconds, Double(crawlSeen) / max(seconds, 0.001))
    crawlDone = true
    statusChanged = true
    flush()
    // Thumbnails wait for the second pass, when there is one: drawn meanwhile
    // they slowed it and doubled the watcher's peak memory with their helpers.
    if (try? store.contentWaits()) == false {
      passesDone()
    } else {
      // The crawl's transient maps and page cache are gone: give their
      // memory back to the system.
      store.prepareForWrites(.content)
      MemoryRelease.afterBurst(of: store, idle: false)
    }
    logger.info(
      "names pass done: every entry is found by name; content follows",
      metadata: [
        "entries": "\(crawlSeen)", "seconds": "\(String(format: "%.1f", seconds))",
        "rate": "\(Int(namesPass!.rate))/s", "watches": "\(watches.count)",
      ])
    if deferred { addDeferredNameTerms() }
  }

  /// Makes the indexes a first crawl went without, if any are missing.
  /// Queries do without one that cannot be made now (the disk full); the
  /// second pass tries again before each slice.
  func makeDeferredIndexes() {
    deferredIndexesMissing = !deferredStep(
      done: "indexes made after the first crawl",
      failing: "cannot make the indexes the first crawl went without"
    ) { try store.makeDeferredIndexes() > 0 }
  }

  /// Runs a step a first crawl put off: logs how long it took when it did
  /// something (`step` true), notes why when it failed; false then.
  private func deferredStep(done: String, failing: String, _ step: () throws -> Bool) -> Bool {
    let started = monotonicNow()
    do {
      guard try step() else { return true }
      logger.info(
        "\(done)", metadata: ["seconds": "\(String(format: "%.1f", monotonicNow() - started))"])
      return true
    } catch {
      note("\(failing): \(error)")
      return false
    }
  }

  /// Writes that never went through, the reason a one-off run fails.
  struct WriteFailure: Error, CustomStringConvertible {
    var description: String
  }

  /// The entries the first pass named, how long it took and its rate
  /// (entries a second). Its count is the one reported once it is done:
  /// the running count goes on with every rescan (folders past the watch
  /// limit are rescanned on a timer, and a million entries' names line
  /// said 1,392,879 for 1,084,140 items).
  var namesPass: (entries: Int, seconds: Double, rate: Double)?
  /// The last second pass to end: the files it read and its seconds.
  var contentPassDone: (files: Int, seconds: Double)?

  /// When ``readContentSlice()`` has work next, if any waits: the rest of a
  /// slice, a part of the name terms (checked again every 50 ms while they
  /// are gathered), or the second pass's next slice.
  var nextSlice: Double? {
    let now = monotonicNow()
    if sliceRest != nil || nameTerms?.isGathered == true { return now }
    var content = contentPass.nextDue
    if content == nil, let pack = packing.due(lastChange: lastUserChange) { content = pack }
    guard nameTerms != nil else { return content }
    return min(content ?? .infinity, now + 0.05)
  }

  /// Reads the content of the next slice of files the first pass indexed by
  /// name, at the lowest priority; logs the pass's figures when none is left.
  func readContentSlice() {
    // Nothing more is read while what was read cannot be written.
    if writeRetry != nil { return }
    // Its queue is read on one of them: without it, it backs off and tries again.
    if deferredIndexesMissing { makeDeferredIndexes() }
    if nameTermsMissing { addDeferredNameTerms() }
    if addNameTermsPart() { return }
    defer { keepTidying() }
    // A slice the user's changes cut short is written on first.
    if sliceRest == nil {
      if contentPass.mergeStep() || packIfDue() { return }
      sliceRest = contentPass.step(now: monotonicNow())
    }
    if sliceRest != nil {
      let started = monotonicNow()
      writeSliceRest()
      contentPass.noteWritten(seconds: monotonicNow() - started)
      if sliceRest != nil { return }
      tidySegments()
      MemoryRelease.afterSlice()
    }
    guard contentPass.isFinished, let started = contentPass.started else { return }
    let seconds = monotonicNow() - started
    logger.info(
      "content pass done",
      metadata: [
        "files": "\(contentPass.read)", "seconds": "\(String(format: "%.1f", seconds))",
        "rate": "\(Int(Double(contentPass.read) / max(seconds, 0.001)))/s",
        "waitingForReads": "\(String(format: "%.1f", contentPass.waitingSeconds))",
        "writing": "\(String(format: "%.1f", contentPass.writingSeconds))",
      ])
    let read = contentPass.read
    contentPassDone = (read, seconds)
    contentPass.finish()
    statusChanged = true
    flush()
    if watching {
      // Packed once merged, at a quiet moment (packIfDue()).
      if (try? store.isWorthPacking(afterRewriting: read)) == true {
        packing.want(now: monotonicNow())
      }
    } else {
      compact(afterReading: read)
    }
    passesDone()
  }

  /// Packs the index after a pass that grew many of its rows, at once (a
  /// one-off run; see ``IndexStore/compact(afterRewriting:minimum:)``); a
  /// failure (no room for the packed copy) leaves the index as it was.
  func compact(afterReading read: Int) {
    let started = monotonicNow()
    do {
      guard try store.compact(afterRewriting: read) else { return }
      logPacked(since: started)
    } catch {
      logger.warning("the index could not be packed: \(error)")
    }
  }

  /// What the watcher still does to the index after a large pass.
  var tidying: IndexTidying? {
    contentPass.tidying ?? (packing.isWanted ? .packingWaits : nil)
  }

  /// Tidying the watcher before this one left undone (stopped after a large
  /// pass): merged and packed by this one, after its own passes.
  func resumeTidying() {
    guard let wanted = try? store.tidyingWanted() else { return }
    if wanted.merge { contentPass.resumeMerging() }
    // A one-off run packs only after a pass of its own, at once.
    if wanted.pack && watching { packing.want(now: monotonicNow()) }
    keptTidying = tidying
  }

  /// Keeps what tidying is left in the index when it changed, and says so
  /// in the status.
  func keepTidying() {
    guard tidying != keptTidying else { return }
    statusChanged = true
    // Merged: what passesDone() left goes back now.
    if keptTidying == .merging || keptTidying == .releasing, !contentPass.isMerging {
      MemoryRelease.afterBurst(of: store, idle: true)
    }
    do {
      try store.noteTidying(merge: contentPass.isMerging, pack: packing.isWanted)
      keptTidying = tidying
    } catch {
      // Kept at the next change; a watcher stopped meanwhile leaves the
      // index unpacked, not damaged.
    }
  }

  /// Merges a step of the segments the user's changes added, when one is
  /// due (``SegmentTidying``) and no write waits.
  func tidySegmentsIfDue() {
    guard let due = segmentTidying.due, monotonicNow() >= due else { return }
    guard batch.isEmpty, batchInFlight == nil, writeRetry == nil else {
      segmentTidying.putOff(now: monotonicNow())
      return
    }
    tidySegments()
  }

  /// Merges a step of the full-text indexes' segments where a level holds
  /// several (``SegmentTidying``): when one is due, and after each slice of
  /// the second pass. A step that fails (the disk full) waits for the next write.
  func tidySegments() {
    let more = (try? store.mergeStep(first: false)) ?? false
    segmentTidying.stepped(more: more, now: monotonicNow())
  }

  /// Packs the index when a pack waits and the user has made no change for
  /// a while, giving way to the first thing the loop has to do; whether it
  /// tried.
  func packIfDue() -> Bool {
    // Not before the pass and its merging are done (nothing else due).
    guard let due = packing.due(lastChange: lastUserChange), monotonicNow() >= due,
      contentPass.nextDue == nil
    else { return false }
    let started = monotonicNow()
    statusChanged = true
    do {
      // Not for thumbnails: its own helpers draw them meanwhile.
      let inputs = [StopSignal.pipeRead, wakeInotify?.fd, drain?.wakeFD].compactMap { $0 }
      if try store.pack(givingWay: PackingSchedule.somethingWaits(on: inputs)) {
        packing.done()
        logPacked(since: started)
        // The packed file's pages wait in the log: copied back beside the
        // writer, not by the next write's commit.
        store.checkpointSoon()
      } else {
        packing.noteGaveWay()
        logger.info(
          "packing the index gave way to a change; tried again after a quiet moment",
          metadata: [
            "seconds": "\(String(format: "%.1f", monotonicNow() - started))",
            "quietNeeded": "\(Int(packing.quietNeeded))",
          ])
      }
    } catch {
      // No room for the packed copy: the index stays as it is.
      packing.done()
      logger.warning("the index could not be packed: \(error)")
    }
    return true
  }

  func logPacked(since started: Double) {
    logger.info(
      "index packed after the content pass",
      metadata: ["seconds": "\(String(format: "%.1f", monotonicNow() - started))"])
  }

  /// Both passes are done: thumbnails follow, and the memory and log space
  /// the passes used go back to the system. The program's own pages wait
  /// for the index's merging, which would read them back at once (and the
  /// user's first change after the pass waited 0.3 s for them).
  func passesDone() {
    thumbnails?.offerIndexedFiles()
    HelperPool.shared.stopIdle(after: 0)
    store.prepareForWrites(.idle)
    MemoryRelease.afterBurst(of: store, idle: !contentPass.isMerging)
  }

  func eventLoop() {
    nextUnwatchedRescan = monotonicNow() + configuration.rescanSeconds
    nextRecencyExpiry = monotonicNow() + (recencyBacklog ? 0 : Self.recencyExpirySeconds)
    while !StopSignal.isRequested {
      var fds = loopInputs()
      fds.append(pollfd(fd: expiryNudge.readEnd, events: Int16(POLLIN), revents: 0))
      let ready = poll(&fds, nfds_t(fds.count), pollTimeout())
      if ready < 0 && errno != EINTR { break }
      if StopSignal.isRequested { break }
      if let wake = wakeInotify, !wake.readEvents().isEmpty {
        // An extensions.d made since is watched before it is read, so that a
        // descriptor written into it just now is not missed.
        watchDescriptorFolders()
        extensions.reload()
        processRequests()
      }
      if !paused, let drain {
        let events = drain.take()
        if !events.isEmpty { handle(events) }
      }
      // Emptied even while paused: a pipe left full would wake the loop again at once.
      if expiryNudge.take() { expiry.lookSoon() }
      if paused { continue }
      if let problem = thumbnailWatch?.handleEvents() { note(problem) }
      if let applications {
        applications.handleEvents()
        if let problem = applications.syncIfDue() { note(problem) }
      }
      processDue()
      processRescans()
      readLiveContent()
      expireRecencyIfDue()
      purgeExpiredIfDue()
      if monotonicNow() >= nextIntegrityCheck { startIntegrityCheck() }
      flushTurn()
      tidySegmentsIfDue()
      HelperPool.shared.stopIdle()
      // What was due is done: the second pass reads on between events,
      // after what the user just made.
      if crawlDone && liveContent.isEmpty && !userChangeDueSoon()
        && nextSlice.map({ $0 <= monotonicNow() }) == true
      {
        readContentSlice()
      }
    }
  }

  /// What the loop waits on, beside its timers: a stop, requests, the
  /// user's files, launchers and thumbnails.
  func loopInputs() -> [pollfd] {
    var fds = [pollfd(fd: StopSignal.pipeRead, events: Int16(POLLIN), revents: 0)]
    if let wake = wakeInotify {
      fds.append(pollfd(fd: wake.fd, events: Int16(POLLIN), revents: 0))
    }
    if !paused, let drain {
      fds.append(pollfd(fd: drain.wakeFD, events: Int16(POLLIN), revents: 0))
    }
    if !paused, let launchers = applications?.inotify {
      fds.append(pollfd(fd: launchers.fd, events: Int16(POLLIN), revents: 0))
    }
    if !paused, let thumbnailWatch {
      fds.append(pollfd(fd: thumbnailWatch.inotify.fd, events: Int16(POLLIN), revents: 0))
    }
    return fds
  }

  /// Once an hour (and at start), items whose week is over stop ranking as
  /// recently changed, a batch at a time: a tree copied a week ago expires
  /// all at once, and each item's names are indexed again in its new rank band.
  func expireRecencyIfDue() {
    guard monotonicNow() >= nextRecencyExpiry else { return }
    var expired = 0
    do { expired = try store.write { try $0.expireRecency(atMost: Self.recencyBatch) } } catch {
      note("cannot write to the index: \(error)")
    }
    nextRecencyExpiry =
      monotonicNow() + (expired < Self.recencyBatch ? Self.recencyExpirySeconds : 1)
  }

  func purgeExpiredIfDue() {
    if let problem = expiry.runIfDue(
      store: store, now: monotonicNow(), wallNow: Date().timeIntervalSince1970)
    {
      note(problem)
    }
  }

  /// How many items one step of ``expireRecencyIfDue()`` moves out of their week.
  static let recencyBatch = 20_000

  /// Milliseconds until the next timer, or -1 to sleep until something happens.
  func pollTimeout() -> Int32 {
    if paused { return -1 }
    var next = min(
      settling.nextDeadline.map { max($0, pacing.heldUntil(now: monotonicNow()) ?? $0) }
        ?? .infinity,
      moves.nextDeadline ?? .infinity, nextRecencyExpiry,
      expiry.deadline(now: monotonicNow(), wallNow: Date().timeIntervalSince1970))
    if let launchersDue = applications?.due { next = min(next, launchersDue) }
    if !watches.unwatched.isEmpty || roots.contains(where: { !watches.isWatched($0) }) {
      next = min(next, nextUnwatchedRescan)
    }
    if !rescanQueue.isEmpty || !liveContent.isEmpty { return 0 }
    if crawlDone, let slice = nextSlice { next = min(next, slice) }
    // Failing writes: tried again when due, and the free space looked at
    // every second.
    if let retry = writeRetry { next = min(next, retry.nextAttempt, monotonicNow() + 1) }
    // A batch on its way: its outcome is taken soon after it is written.
    if batchInFlight != nil { next = min(next, monotonicNow() + 0.02) }
    next = min(next, nextIntegrityCheck)
    if let helpers = HelperPool.shared.nextIdleStop { next = min(next, helpers) }
    if let segments = segmentTidying.due { next = min(next, segments) }
    guard next.isFinite else { return -1 }
    return Int32(max(0, min(3_600_000, ((next - monotonicNow()) * 1000).rounded(.up))))
  }

  // MARK: - Reconciling

  func reconcile(_ top: RawPath, force: Bool) {
    reconciler.run(top, force: force, into: self)
  }

  func emit(_ operation: IndexOperation) {
    // A folder that arrived while watching: named now, read next.
    if crawlDone, case .importFile(let job) = operation, job.nameOnly, job.status.kind == .regular {
      liveContent.append(job.path)
    }
    batch.append(operation)
    guard batch.count >= (writesAhead ? Self.namesBatchSize : Self.batchSize) else { return }
    if writesAhead {
      flushAhead()
    } else {
      flush()
      waitForWrites()
    }
  }

  func countEntry() { crawlSeen += 1 }

  func watch(_ folder: RawPath) {
    switch watches.watch(folder) {
    case .watched, .gone: break
    case .overLimit(let first):
      if first {
        note(
          "the inotify watch limit is reached: folders beyond it are rescanned every \(Int(configuration.rescanSeconds)) s (raise fs.inotify.max_user_watches to watch them all)"
        )
      }
      statusChanged = true
    case .failed(let message):
      batch.append(.failure(folder, message))
    }
  }

  func watchMarked(_ folder: RawPath) { watches.watchMarked(folder) }

  func unwatchTree(_ folder: RawPath) { watches.unwatchTree(folder) }

  // MARK: - Paths

  func root(of path: RawPath) -> RawPath? { reconciler.root(of: path) }

  func isHidden(_ path: RawPath) -> Bool { reconciler.isHidden(path) }
}
