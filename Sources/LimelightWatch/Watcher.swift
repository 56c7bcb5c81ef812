import CLinux
import Foundation
import LimelightExtensions
import LimelightImport
import LimelightModel
import LimelightStore
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
public final class Watcher {
  let store: IndexStore
  let location: IndexLocation
  let configuration: Configuration
  let roots: [RawPath]
  let rules: ExclusionRules
  let extractor: Extractor
  let logger: Logger
  let watching: Bool

  var inotify: Inotify?
  var wakeInotify: Inotify?
  let thumbnails: ThumbnailQueue?
  /// The installed applications, when the configuration indexes them.
  let applications: ApplicationWatch?
  /// Applications' reindex extensions.
  let extensions: ExtensionHost
  /// Thumbnails other programs write into the shared cache (while watching).
  var thumbnailWatch: ThumbnailWatch?
  /// The second pass: the content of files first indexed by name.
  let contentPass: ContentPass
  var watchPaths: [Int32: RawPath] = [:]
  var watchOf: [RawPath: Int32] = [:]
  /// Folders holding a `.noindex` marker: watched only to see the marker go.
  var markedFolders: Set<RawPath> = []
  /// Folders that could not be watched (the kernel's limit): rescanned on a timer.
  var unwatched: Set<RawPath> = []
  var watchLimitReached = false
  var overflows = 0
  var nextUnwatchedRescan = 0.0
  /// When the "changed in the last week" flags are next brought up to date.
  var nextRecencyExpiry = 0.0
  static let recencyExpirySeconds = 3_600.0

  /// Paths whose change waits for the file to settle.
  var due: [RawPath: PendingChange] = [:]
  /// MOVED_FROM halves waiting for their MOVED_TO, by cookie.
  var pendingMoves: [UInt32: (path: RawPath, deadline: Double, isFolder: Bool)] = [:]
  /// Folders to reconcile with the disk (new folders, marker changes, overflows).
  var rescanQueue: [RawPath] = []
  var batch: [Operation] = []
  var paused = false
  var crawlSeen = 0
  var crawlDone = false
  var lastError: String?
  var statusChanged = true

  struct PendingChange {
    var deadline: Double
    var firstSeen: Double
    /// Re-read even when size and time look unchanged (a rename that changed the extension).
    var force: Bool
  }

  enum Operation {
    case importFile(ImportJob)
    /// A file the second pass has read already.
    case write(FileRecord)
    case metadata(RawPath, FileStatus)
    case move(RawPath, RawPath)
    case remove(RawPath)
    case failure(RawPath, String)
    case complete(IndexRequest, String)
  }

  /// Commit after this many operations while crawling.
  static let batchSize = 512

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
        programs: programs,
        thumbnails: ThumbnailCache(root: store.location.cacheHome.appending("thumbnails")))
    }
    self.extractor = makeExtractor()
    self.logger = logger
    self.watching = watching
    self.extensions = ExtensionHost(store: store, location: store.location, logger: logger)
    self.contentPass = ContentPass(
      store: store, makeExtractor: makeExtractor,
      isHidden: { [roots] path in Self.isHidden(path, roots: roots) })
    self.applications =
      configuration.indexApplications
      ? ApplicationWatch(
        catalog: InstalledApplications(
          folders: ApplicationFolders(configuration: configuration, location: store.location),
          dataDirectories: ApplicationFolders.dataDirectories(location: store.location)),
        store: store) : nil
    // Thumbnails are made while watching, in the background; a one-off crawl
    // takes only those already in the shared cache.
    if watching {
      let environment = ProcessEnvironment.current
      let system = (environment["XDG_DATA_DIRS"] ?? "/usr/local/share:/usr/share")
        .split(separator: ":").filter { $0.hasPrefix("/") }.map { RawPath(String($0)) }
      let maker = ThumbnailMaker(
        cache: ThumbnailCache(root: store.location.cacheHome.appending("thumbnails")),
        thumbnailers: Thumbnailer.installed(
          dataDirectories: system.reversed() + [store.location.dataDirectory.parent])
          + [Thumbnailer.builtIn(helper: HelperFormats.helperPath())])
      self.thumbnails = ThumbnailQueue(maker: maker, store: store)
    } else {
      self.thumbnails = nil
    }
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
    // crawl leaves in them stays resident (40 MB seen across six): two
    // arenas serve a watcher's few threads as well.
    _ = mallopt(M_ARENA_MAX, 2)
    limelight_lower_thread_priority(Self.indexingNice)
    if watching {
      inotify = try Inotify()
      let wake = try Inotify()
      try? FileSystem.makeDirectories(location.runtimeDirectory, mode: 0o700)
      _ = wake.addWatch(location.runtimeDirectory, mask: Self.wakeMask)
      wakeInotify = wake
      watchDescriptorFolders()
    }
    paused =
      (try? store.read { db in
        try Bool.fetchOne(db, sql: "SELECT value FROM meta WHERE key = 'paused'")
      }) ?? false
    try store.write { writer in
      try writer.setMeta("status.pid", Int(getpid()))
      try writer.setMeta("status.state", paused ? "paused" : "crawling")
      try writer.setMeta("status.crawlDone", false)
      try writer.setMeta("status.crawlSeen", 0)
      let rootsJSON = try JSONSerialization.data(withJSONObject: roots.map(\.string))
      try writer.setMeta("status.roots", String(decoding: rootsJSON, as: UTF8.self))
      try writer.removeFiles(outside: roots)
      try writer.expireRecency()
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
    processRequests()
    if !paused || !watching { initialCrawl() }
    if !watching {
      while contentPass.nextDue != nil && !StopSignal.isRequested {
        if let due = contentPass.nextDue, due > monotonicNow() {
          usleep(UInt32(min(1, due - monotonicNow()) * 1_000_000))
          continue
        }
        readContentSlice()
      }
    }
    if watching && !StopSignal.isRequested { eventLoop() }
    if !watching && !StopSignal.isRequested { extensions.runPendingOnce() }
    extensions.stop()
    flush()
    try? store.write { writer in
      try writer.setMeta("status.state", "stopped")
      try writer.pruneRemovals()
    }
    try? store.pruneRequests()
    store.checkpoint()
  }

  func initialCrawl() {
    let started = monotonicNow()
    store.prepareForBulkWrites(true)
    for root in roots where !StopSignal.isRequested { reconcile(root, force: false) }
    flush()
    if StopSignal.isRequested { return }
    crawlDone = true
    statusChanged = true
    flush()
    // Thumbnails wait for the second pass, when there is one: drawn meanwhile
    // they slowed it and doubled the watcher's peak memory with their helpers.
    if (try? store.filesWaitingForContentCount()) == 0 { thumbnails?.offerIndexedFiles() }
    // The crawl's transient maps are gone: give their memory back to the system.
    _ = malloc_trim(0)
    let seconds = monotonicNow() - started
    namesPass = (seconds, Double(crawlSeen) / max(seconds, 0.001))
    statusChanged = true
    logger.info(
      "names pass done: every entry is found by name; content follows",
      metadata: [
        "entries": "\(crawlSeen)", "seconds": "\(String(format: "%.1f", seconds))",
        "rate": "\(Int(namesPass!.rate))/s", "watches": "\(watchPaths.count)",
      ])
  }

  /// How long the first pass took and its rate (entries a second).
  var namesPass: (seconds: Double, rate: Double)?

  /// Reads the content of the next slice of files the first pass indexed by
  /// name, at the lowest priority; logs the pass's figures when none is left.
  func readContentSlice() {
    if contentPass.mergeStep() { return }
    if let outcome = contentPass.step(now: monotonicNow()) {
      let started = monotonicNow()
      batch += outcome.missing.map { .remove($0) } + outcome.records.map { .write($0) }
      flush()
      contentPass.noteWritten(seconds: monotonicNow() - started)
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
    contentPass.finish()
    statusChanged = true
    flush()
    thumbnails?.offerIndexedFiles()
    // Both passes are done: the memory they used goes back to the system.
    HelperPool.shared.stopIdle(after: 0)
    store.prepareForBulkWrites(false)
    store.releaseMemory()
    _ = malloc_trim(0)
  }

  func eventLoop() {
    nextUnwatchedRescan = monotonicNow() + configuration.rescanSeconds
    nextRecencyExpiry = monotonicNow() + Self.recencyExpirySeconds
    while !StopSignal.isRequested {
      var fds = [pollfd(fd: StopSignal.pipeRead, events: Int16(POLLIN), revents: 0)]
      if let wake = wakeInotify {
        fds.append(pollfd(fd: wake.fd, events: Int16(POLLIN), revents: 0))
      }
      if !paused, let inotify {
        fds.append(pollfd(fd: inotify.fd, events: Int16(POLLIN), revents: 0))
      }
      if !paused, let launchers = applications?.inotify {
        fds.append(pollfd(fd: launchers.fd, events: Int16(POLLIN), revents: 0))
      }
      if !paused, let thumbnailWatch {
        fds.append(pollfd(fd: thumbnailWatch.inotify.fd, events: Int16(POLLIN), revents: 0))
      }
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
      if !paused, let inotify {
        let events = inotify.readEvents()
        if !events.isEmpty { handle(events) }
      }
      if paused { continue }
      if let problem = thumbnailWatch?.handleEvents() { note(problem) }
      if let applications {
        applications.handleEvents()
        if let problem = applications.syncIfDue() { note(problem) }
      }
      processDue()
      processRescans()
      if monotonicNow() >= nextRecencyExpiry {
        nextRecencyExpiry = monotonicNow() + Self.recencyExpirySeconds
        do { try store.write { try $0.expireRecency() } } catch {
          note("cannot write to the index: \(error)")
        }
      }
      flush()
      HelperPool.shared.stopIdle()
      // What was due is done: the second pass reads on between events.
      if crawlDone && contentPass.isDue(now: monotonicNow()) { readContentSlice() }
    }
  }

  /// Milliseconds until the next timer, or -1 to sleep until something happens.
  func pollTimeout() -> Int32 {
    if paused { return -1 }
    var next = Double.infinity
    for change in due.values { next = min(next, change.deadline) }
    for move in pendingMoves.values { next = min(next, move.deadline) }
    if let launchersDue = applications?.due { next = min(next, launchersDue) }
    if !unwatched.isEmpty || roots.contains(where: { watchOf[$0] == nil }) {
      next = min(next, nextUnwatchedRescan)
    }
    if !rescanQueue.isEmpty { return 0 }
    if crawlDone, let content = contentPass.nextDue { next = min(next, content) }
    next = min(next, nextRecencyExpiry)
    if let helpers = HelperPool.shared.nextIdleStop { next = min(next, helpers) }
    guard next.isFinite else { return -1 }
    return Int32(max(0, min(3_600_000, ((next - monotonicNow()) * 1000).rounded(.up))))
  }

  // MARK: - Events

  func handle(_ events: [InotifyEvent]) {
    let now = monotonicNow()
    for event in events {
      if event.has(IN_Q_OVERFLOW) {
        overflows += 1
        statusChanged = true
        logger.warning("inotify queue overflowed; rescanning every root")
        rescanQueue.append(contentsOf: roots)
        continue
      }
      if event.has(IN_IGNORED) {
        if let path = watchPaths.removeValue(forKey: event.watch), watchOf[path] == event.watch {
          watchOf[path] = nil
        }
        continue
      }
      guard let folder = watchPaths[event.watch] else { continue }
      guard let name = event.name else {
        if event.has(IN_DELETE_SELF) && roots.contains(folder) {
          batch.append(.remove(folder))
          unwatchTree(folder)
        }
        continue
      }
      let path = folder.appending(name)
      let isFolder = event.has(IN_ISDIR)
      if Configuration.markerFiles.contains(name.string) {
        markedFolders.remove(folder)
        rescanQueue.append(folder)
        continue
      }
      if markedFolders.contains(folder) { continue }
      guard let eventRoot = root(of: path) else { continue }
      let excluded = rules.excludes(path, root: eventRoot)
      if event.has(IN_MOVED_FROM) {
        pendingMoves[event.cookie] = (path, now + 0.05, isFolder)
        continue
      }
      if event.has(IN_MOVED_TO) {
        if let from = pendingMoves.removeValue(forKey: event.cookie) {
          if excluded {
            removeNow(from.path, isFolder: from.isFolder)
          } else if root(of: from.path) != nil && !rules.excludes(from.path, root: eventRoot) {
            moveNow(from: from.path, to: path, isFolder: isFolder)
          } else {
            arrived(path, isFolder: isFolder, now: now)
          }
        } else if !excluded {
          arrived(path, isFolder: isFolder, now: now)
        }
        continue
      }
      if excluded { continue }
      if event.has(IN_DELETE) {
        removeNow(path, isFolder: isFolder)
      } else if event.has(IN_CREATE) {
        if isFolder {
          arrived(path, isFolder: true, now: now)
        } else {
          schedule(path, delay: configuration.settleSeconds, now: now)
        }
      } else if event.has(IN_CLOSE_WRITE) || event.has(IN_ATTRIB) {
        schedule(path, delay: 0.02, now: now, settled: true)
      } else if event.has(IN_MODIFY) {
        schedule(path, delay: configuration.settleSeconds, now: now)
      }
    }
  }

  /// Indexes `path` once it has been quiet for `delay` seconds; a file written
  /// without pause is still indexed after ten settle periods (at least 5 s).
  func schedule(
    _ path: RawPath, delay: Double, now: Double, settled: Bool = false, force: Bool = false
  ) {
    var change = due[path] ?? PendingChange(deadline: now + delay, firstSeen: now, force: force)
    let latest = change.firstSeen + max(5, configuration.settleSeconds * 10)
    change.deadline = settled ? now + delay : min(max(change.deadline, now + delay), latest)
    change.force = change.force || force
    due[path] = change
  }

  func arrived(_ path: RawPath, isFolder: Bool, now: Double) {
    if isFolder {
      rescanQueue.append(path)
    } else {
      schedule(path, delay: 0.02, now: now, settled: true)
    }
  }

  func removeNow(_ path: RawPath, isFolder: Bool) {
    for key in due.keys where key.isInside(path) { due[key] = nil }
    batch.append(.remove(path))
    if isFolder { unwatchTree(path) }
  }

  func moveNow(from old: RawPath, to new: RawPath, isFolder: Bool) {
    for (key, change) in due where key.isInside(old) {
      due[key] = nil
      due[key.rebased(from: old, to: new)] = change
    }
    batch.append(.move(old, new))
    if isFolder {
      for (path, wd) in watchOf where path.isInside(old) {
        let target = path.rebased(from: old, to: new)
        watchOf[path] = nil
        watchOf[target] = wd
        watchPaths[wd] = target
      }
      for path in unwatched where path.isInside(old) {
        unwatched.remove(path)
        unwatched.insert(path.rebased(from: old, to: new))
      }
      // Entries inside may have been excluded (or not) under the old name.
      rescanQueue.append(new)
    } else if Self.fileExtension(old) != Self.fileExtension(new) {
      // Another extension may mean another content type: read it again.
      schedule(new, delay: 0.02, now: monotonicNow(), settled: true, force: true)
    }
  }

  static func fileExtension(_ path: RawPath) -> [UInt8] {
    let name = path.lastComponent.bytes
    guard let dot = name.lastIndex(of: UInt8(ascii: ".")) else { return [] }
    return Array(name[dot...]).map { $0 >= 65 && $0 <= 90 ? $0 + 32 : $0 }
  }

  /// Carries out settled changes and unpaired moves whose time has come.
  func processDue() {
    let now = monotonicNow()
    for (cookie, move) in pendingMoves where move.deadline <= now {
      pendingMoves[cookie] = nil
      removeNow(move.path, isFolder: move.isFolder)
    }
    let ready = due.filter { $0.value.deadline <= now }
    guard !ready.isEmpty else { return }
    for path in ready.keys { due[path] = nil }
    flush()  // moves and removals first, so stored states below are current
    let stored = (try? store.fileStates(at: Array(ready.keys))) ?? [:]
    for (path, change) in ready {
      consider(path, stored: stored[path], force: change.force)
    }
  }

  /// Decides what a path needs, comparing the disk with what the index remembers.
  func consider(_ path: RawPath, stored: StoredFileState?, force: Bool) {
    guard let status = FileSystem.status(path) else {
      if stored != nil { batch.append(.remove(path)) }
      return
    }
    if status.isDirectory && watchOf[path] == nil && inotify != nil && stored == nil {
      rescanQueue.append(path)
      return
    }
    if let stored, !force, !stored.contentDiffers(from: status) {
      if stored.metadataDiffers(from: status) { batch.append(.metadata(path, status)) }
      return
    }
    batch.append(.importFile(ImportJob(path: path, status: status, hidden: isHidden(path))))
  }

  func processRescans() {
    while !rescanQueue.isEmpty && !StopSignal.isRequested && !paused {
      let folder = rescanQueue.removeFirst()
      rescanQueue.removeAll { $0.isInside(folder) }
      reconcile(folder, force: false)
      flush()
    }
    if monotonicNow() >= nextUnwatchedRescan {
      nextUnwatchedRescan = monotonicNow() + configuration.rescanSeconds
      var folders = Array(unwatched)
      folders.append(contentsOf: roots.filter { watchOf[$0] == nil })
      let tops = folders.filter { f in !folders.contains { $0 != f && f.isInside($0) } }
      for folder in tops where !StopSignal.isRequested {
        logger.debug("rescanning an unwatched folder", metadata: ["folder": "\(folder.string)"])
        reconcile(folder, force: false)
        flush()
      }
    }
  }

  // MARK: - Reconciling

  /// Brings the index in line with the disk at and below `top`, watching every
  /// folder before listing it so that nothing created meanwhile is missed.
  /// Unchanged files (same identity, size and time) are not read again, unless `force`.
  func reconcile(_ top: RawPath, force: Bool) {
    guard let root = root(of: top) else { return }
    if isExcluded(top, root: root) {
      batch.append(.remove(top))
      unwatchTree(top)
      return
    }
    flush()
    var stored: [RawPath: StoredFileState]
    do {
      stored = try store.fileStates(under: top)
    } catch {
      note("cannot read the index: \(error)")
      return
    }
    guard let topStatus = FileSystem.status(top) else {
      if !stored.isEmpty { batch.append(.remove(top)) }
      unwatchTree(top)
      return
    }
    var byIdentity: [FileKey: RawPath]?
    /// Known paths met on disk (the others are removed at the end).
    var seen: Set<RawPath> = []
    // Names first: what a crawl finds is searchable by name at once, its
    // content follows in the second pass. A forced reindex reads at once.
    func job(_ path: RawPath, _ status: FileStatus) -> ImportJob {
      ImportJob(path: path, status: status, hidden: isHidden(path), nameOnly: !force)
    }

    func visit(_ path: RawPath, _ status: FileStatus) {
      // Only paths the index knows are ever looked up in `seen`: a first
      // crawl of a million entries keeps no set of them all.
      if stored[path] != nil { seen.insert(path) }
      crawlSeen += 1
      if let old = stored[path] {
        if force || old.contentDiffers(from: status) {
          batch.append(.importFile(job(path, status)))
        } else if old.metadataDiffers(from: status) {
          batch.append(.metadata(path, status))
        }
        return
      }
      // A path the index does not know: perhaps something it knows, moved while
      // the watcher was down. Same device and inode, and the old path gone.
      if byIdentity == nil {
        byIdentity = [:]
        for (p, s) in stored where s.inode != 0 { byIdentity![FileKey(s.device, s.inode)] = p }
      }
      // Files must also keep size and time: an inode freed by an atomic save and
      // reused by a new file is not a move.
      if let oldPath = byIdentity![FileKey(status.device, status.inode)], oldPath != path,
        !seen.contains(oldPath), FileSystem.status(oldPath)?.inode != status.inode,
        let old = stored[oldPath], old.isFolder == status.isDirectory,
        old.isFolder || !old.contentDiffers(from: status)
      {
        batch.append(.move(oldPath, path))
        byIdentity![FileKey(status.device, status.inode)] = nil
        for (p, s) in stored where p.isInside(oldPath) {
          stored[p] = nil
          stored[p.rebased(from: oldPath, to: path)] = s
        }
        visit(path, status)
        return
      }
      batch.append(.importFile(job(path, status)))
    }

    visit(top, topStatus)
    var stack: [RawPath] = topStatus.isDirectory ? [top] : []
    while let folder = stack.popLast() {
      if StopSignal.isRequested { return }
      if ExclusionRules.hasNoIndexMarker(folder) {
        // Out of the index with all below it, but still watched, to see the marker go.
        batch.append(.remove(folder))
        unwatchTree(folder)
        if inotify != nil {
          watch(folder)
          markedFolders.insert(folder)
        }
        for p in stored.keys where p.isInside(folder) { seen.insert(p) }
        continue
      }
      if inotify != nil { watch(folder) }
      let names: [RawPath]
      do {
        names = try FileSystem.entries(of: folder)
      } catch {
        // Keep what was indexed below a folder that cannot be read now.
        batch.append(.failure(folder, error.description))
        for p in stored.keys where p.isInside(folder) { seen.insert(p) }
        continue
      }
      for name in names {
        let path = folder.appending(name)
        guard !rules.excludes(path, root: root), let status = FileSystem.status(path) else {
          continue
        }
        visit(path, status)
        if status.isDirectory { stack.append(path) }
        if batch.count >= Self.batchSize { flush() }
      }
    }
    for path in stored.keys where !seen.contains(path) { batch.append(.remove(path)) }
  }

  struct FileKey: Hashable {
    var device: UInt64
    var inode: UInt64
    init(_ device: UInt64, _ inode: UInt64) {
      self.device = device
      self.inode = inode
    }
  }

  func watch(_ folder: RawPath) {
    guard let inotify, watchOf[folder] == nil else { return }
    if configuration.maxWatches > 0 && watchPaths.count >= configuration.maxWatches {
      markUnwatched(folder)
      return
    }
    switch inotify.addWatch(folder) {
    case .success(let wd):
      if let previous = watchPaths[wd], previous != folder { watchOf[previous] = nil }
      watchPaths[wd] = folder
      watchOf[folder] = wd
      unwatched.remove(folder)
    case .failure(let error):
      if error.code == ENOSPC {
        markUnwatched(folder)
      } else if error.code != ENOENT && error.code != ENOTDIR {
        batch.append(.failure(folder, error.description))
      }
    }
  }

  func markUnwatched(_ folder: RawPath) {
    if !watchLimitReached {
      note(
        "the inotify watch limit is reached: folders beyond it are rescanned every \(Int(configuration.rescanSeconds)) s (raise fs.inotify.max_user_watches to watch them all)"
      )
    }
    watchLimitReached = true
    unwatched.insert(folder)
    statusChanged = true
  }

  func unwatchTree(_ folder: RawPath) {
    for (path, wd) in watchOf where path.isInside(folder) {
      inotify?.removeWatch(wd)
      watchOf[path] = nil
      watchPaths[wd] = nil
    }
    for path in unwatched where path.isInside(folder) { unwatched.remove(path) }
    for path in markedFolders where path.isInside(folder) { markedFolders.remove(path) }
  }

  // MARK: - Paths

  func root(of path: RawPath) -> RawPath? {
    roots.filter { path.isInside($0) }.max { $0.bytes.count < $1.bytes.count }
  }

  /// Whether a dot-named component lies between the root and the path.
  func isHidden(_ path: RawPath) -> Bool { Self.isHidden(path, roots: roots) }

  static func isHidden(_ path: RawPath, roots: [RawPath]) -> Bool {
    guard
      let root = roots.filter({ path.isInside($0) }).max(by: { $0.bytes.count < $1.bytes.count })
    else { return false }
    return path.relative(to: root).bytes.split(separator: UInt8(ascii: "/")).contains {
      $0.first == UInt8(ascii: ".")
    }
  }

  /// Whether a path or any folder between it and its root is left out.
  func isExcluded(_ path: RawPath, root: RawPath) -> Bool {
    var current = path
    while current != root && current.isInside(root) {
      if rules.excludes(current, root: root) { return true }
      let parent = current.parent
      if parent != root && ExclusionRules.hasNoIndexMarker(parent) { return true }
      current = parent
    }
    return ExclusionRules.hasNoIndexMarker(root) && path != root
  }

  // MARK: - Requests

  func processRequests() {
    let requests: [IndexRequest]
    do { requests = try store.pendingRequests() } catch {
      note("cannot read requests: \(error)")
      return
    }
    for request in requests {
      if StopSignal.isRequested { return }
      switch request.kind {
      case .pause:
        paused = true
        setPaused(true, completing: request)
      case .resume:
        let wasPaused = paused
        paused = false
        setPaused(false, completing: request)
        if wasPaused && !crawlDone { initialCrawl() }
      case .erase:
        if paused && watching { continue }
        flush()
        let erased = Date()
        do {
          try store.write { writer in
            _ = try writer.removeAllFiles()
            _ = try writer.deleteAllApplicationItems()
            _ = try writer.deleteDomain(applicationsDomain)
            try extensions.reindexEverything(in: writer)
          }
        } catch { note("cannot erase the index: \(error)") }
        extensions.nudge()
        applications?.sync()
        unwatchTree(RawPath("/"))
        crawlDone = false
        for root in roots { reconcile(root, force: true) }
        crawlDone = true
        flush()
        // Done when the extensions have given their domains back too.
        extensions.complete(request, since: erased, afterReindexing: "erased and crawled again")
      case .domain:
        extensions.take(request)
      case .eraseDomain:
        eraseDomain(request)
      case .all:
        if paused && watching { continue }
        for root in roots { reconcile(root, force: true) }
        batch.append(.complete(request, "reindexed every root"))
        flush()
      case .paths:
        if paused && watching { continue }
        var outside: [String] = []
        for path in request.paths {
          if root(of: path) != nil {
            reconcile(path, force: true)
          } else {
            outside.append(path.string)
          }
        }
        let outcome =
          outside.isEmpty ? "reindexed" : "not under any root: " + outside.joined(separator: ", ")
        batch.append(.complete(request, outcome))
        flush()
      }
    }
  }

  /// What in a folder wakes the loop: a request written, a file that came.
  static let wakeMask =
    UInt32(IN_CLOSE_WRITE) | UInt32(IN_ATTRIB) | UInt32(IN_MOVED_TO) | UInt32(IN_CREATE)

  /// Extension descriptors that come, change or go wake the loop (and the
  /// user's configuration folder does, for an extensions.d made later).
  /// Watching a folder twice is harmless: inotify keeps one watch.
  func watchDescriptorFolders() {
    guard let wake = wakeInotify else { return }
    let mask = Self.wakeMask | UInt32(IN_DELETE) | UInt32(IN_MOVED_FROM)
    let config = store.location.configDirectory
    for folder in store.location.descriptorFolders("extensions.d") + [config] {
      _ = wake.addWatch(folder, mask: mask)
    }
    // Only new entries there: other programs' settings change all the time.
    _ = wake.addWatch(config.parent, mask: UInt32(IN_CREATE) | UInt32(IN_MOVED_TO))
  }

  /// `limelight erase --domain D`: the items of D and below go; the installed
  /// applications are read again, an application's extension reindexes its own.
  func eraseDomain(_ request: IndexRequest) {
    guard let domain = request.domain else { return }
    flush()
    do {
      try store.write { writer in
        if LimelightModel.domain(fileDomain, isWithin: domain) { _ = try writer.removeAllFiles() }
        if domain != fileDomain { _ = try writer.deleteDomain(domain) }
        // Limelight's own domains are read again below; an application's
        // request is completed by its extension's run.
        if LimelightModel.domain(domain, isWithin: "limelight") {
          try writer.complete(request, outcome: "erased and read again")
        }
      }
    } catch { note("cannot erase \(domain): \(error)") }
    if LimelightModel.domain(fileDomain, isWithin: domain) {
      crawlDone = false
      for root in roots { reconcile(root, force: true) }
      crawlDone = true
      flush()
    }
    if LimelightModel.domain(applicationsDomain, isWithin: domain) { applications?.sync() }
    if !LimelightModel.domain(domain, isWithin: "limelight") { extensions.take(request) }
  }

  func setPaused(_ value: Bool, completing request: IndexRequest) {
    flush()
    do {
      try store.write { writer in
        try writer.setMeta("paused", value)
        try writer.setMeta("status.state", value ? "paused" : (crawlDone ? "watching" : "crawling"))
        try writer.complete(request, outcome: value ? "paused" : "resumed")
      }
    } catch { note("cannot record the pause: \(error)") }
  }

  // MARK: - Writing

  /// Commits the batch in one transaction (which advances the generation).
  func flush() {
    guard !batch.isEmpty || statusChanged else { return }
    let operations = batch
    batch.removeAll(keepingCapacity: true)
    let jobs = operations.compactMap { op -> ImportJob? in
      if case .importFile(let job) = op { return job }
      return nil
    }
    let extracted = extractor.extract(jobs)
    var nextRecord = 0
    var records: [FileRecord] = []
    let hidden = { [self] (path: RawPath) in isHidden(path) }
    // Thumbnails follow their files: moved along, removed when they are gone.
    var movedThumbnails: [(from: RawPath, to: ThumbnailQueue.Job)] = []
    var removedThumbnails: [RawPath] = []
    do {
      try store.write { writer in
        for op in operations {
          switch op {
          case .importFile, .write:
            let record: FileRecord
            if case .write(let read) = op {
              record = read
            } else {
              record = extracted[nextRecord]
              nextRecord += 1
            }
            try writer.upsert(record)
            if let message = record.extractionError {
              try writer.recordFailure(record.path, message: message)
            }
            // The second pass's files get their thumbnails once it is done.
            if case .importFile = op { records.append(record) }
          case .metadata(let path, let status):
            try writer.updateMetadata(
              path: path, status: status, keywords: FileImporter.tags(of: path))
          case .move(let old, let new):
            if thumbnails != nil {
              movedThumbnails += try writer.thumbnailed(inTreeOf: old).map { file in
                (
                  file.path,
                  ThumbnailQueue.Job(
                    path: file.path.rebased(from: old, to: new),
                    contentTypeTree: file.contentTypeTree, modifiedNs: file.modifiedNs)
                )
              }
            }
            try writer.move(from: old, to: new, hidden: hidden)
          case .remove(let path):
            if thumbnails != nil {
              removedThumbnails += try writer.thumbnailed(inTreeOf: path).map(\.path)
            }
            try writer.removeTree(path)
          case .failure(let path, let message):
            try writer.recordFailure(path, message: message)
          case .complete(let request, let outcome):
            try writer.complete(request, outcome: outcome)
          }
        }
        try writeStatus(writer)
      }
      statusChanged = false
      if records.contains(where: \.contentPending) { contentPass.noteNamesWritten() }
      thumbnails?.offer(records.filter { !$0.contentPending })
      thumbnails?.offerMoves(movedThumbnails)
      thumbnails?.offerRemovals(removedThumbnails)
    } catch {
      note("cannot write to the index: \(error)")
    }
  }

  func writeStatus(_ writer: IndexWriter) throws {
    try writer.setMeta("status.state", paused ? "paused" : (crawlDone ? "watching" : "crawling"))
    try writer.setMeta("status.queue", due.count + rescanQueue.count + pendingMoves.count)
    try writer.setMeta("status.watches", watchPaths.count)
    try writer.setMeta("status.unwatched", unwatched.count)
    try writer.setMeta("status.watchLimit", watchLimitReached)
    try writer.setMeta("status.overflows", overflows)
    try writer.setMeta("status.crawlSeen", crawlSeen)
    try writer.setMeta("status.crawlDone", crawlDone)
    try writer.setMeta("status.namesSeconds", namesPass?.seconds)
    try writer.setMeta("status.namesRate", namesPass?.rate)
    try writer.setMeta("status.contentRead", contentPass.started == nil ? nil : contentPass.read)
    try writer.setMeta("status.contentRate", contentPass.rate(now: monotonicNow()))
    try writer.setMeta("status.lastError", lastError)
    try writer.setMeta("status.updated", Date().timeIntervalSince1970)
  }

  func note(_ message: String) {
    logger.warning("\(message)")
    lastError = message
    statusChanged = true
  }
}
