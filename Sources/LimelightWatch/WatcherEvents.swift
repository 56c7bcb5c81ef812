import CLinux
import LimelightModel
import LimelightPlatform

#if canImport(Glibc)
  import Glibc
#endif

/// What the watcher does with inotify's events: changes wait to settle,
/// renames are paired, folders that arrive are reconciled, and what is due
/// is compared with what the index remembers.
extension Watcher {
  func handle(_ events: [InotifyEvent]) {
    let now = monotonicNow()
    lastUserChange = now
    for event in events {
      if event.has(IN_Q_OVERFLOW) {
        overflows += 1
        statusChanged = true
        logger.warning("inotify queue overflowed; rescanning every root")
        rescanQueue.append(contentsOf: roots)
        continue
      }
      if event.has(IN_IGNORED) {
        watches.dropped(event.watch)
        continue
      }
      guard let folder = watches.folder(of: event.watch) else { continue }
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
        watches.unmark(folder)
        rescanQueue.append(folder)
        continue
      }
      if watches.isMarked(folder) { continue }
      guard let eventRoot = root(of: path) else { continue }
      let excluded = rules.excludes(path, root: eventRoot)
      if event.has(IN_MOVED_FROM) {
        moves.departed(path, cookie: event.cookie, isFolder: isFolder, now: now)
        continue
      }
      if event.has(IN_MOVED_TO) {
        if let from = moves.arrived(cookie: event.cookie) {
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

  func schedule(
    _ path: RawPath, delay: Double, now: Double, settled: Bool = false, force: Bool = false
  ) {
    if settling.schedule(path, delay: delay, now: now, settled: settled, force: force) {
      pacing.arrived(now: now)
    }
  }

  func arrived(_ path: RawPath, isFolder: Bool, now: Double) {
    if isFolder {
      rescanQueue.append(path)
    } else {
      schedule(path, delay: 0.02, now: now, settled: true)
    }
  }

  func removeNow(_ path: RawPath, isFolder: Bool) {
    settling.forget(inside: path)
    batch.append(.remove(path))
    if isFolder { unwatchTree(path) }
  }

  func moveNow(from old: RawPath, to new: RawPath, isFolder: Bool) {
    settling.rebase(from: old, to: new)
    batch.append(.move(old, new))
    if isFolder {
      watches.rebase(from: old, to: new)
      // Entries inside may have been excluded (or not) under the old name.
      rescanQueue.append(new)
    } else {
      // Another extension may mean another content type: read again. With
      // the same one, the file is only compared with what the index holds
      // once the move is written: a file renamed before it was read (its
      // settling taken, the old name gone when looked at) is not there,
      // and the move alone would leave it out.
      let reread = Self.fileExtension(old) != Self.fileExtension(new)
      schedule(new, delay: 0.02, now: monotonicNow(), settled: true, force: reread)
    }
  }

  static func fileExtension(_ path: RawPath) -> [UInt8] {
    let name = path.lastComponent.bytes
    guard let dot = name.lastIndex(of: UInt8(ascii: ".")) else { return [] }
    return Array(name[dot...]).map { $0 >= 65 && $0 <= 90 ? $0 + 32 : $0 }
  }

  /// Carries out settled changes and unpaired moves whose time has come;
  /// whether there were any.
  @discardableResult
  func processDue() -> Bool {
    let now = monotonicNow()
    let expired = moves.takeExpired(now: now)
    for move in expired { removeNow(move.path, isFolder: move.isFolder) }
    if pacing.heldUntil(now: now) != nil { return !expired.isEmpty }
    let ready = settling.takeReady(now: now, limit: Self.readyPerTurn)
    guard !ready.isEmpty else { return !expired.isEmpty }
    pacing.took(now: now)
    // Moves and removals first, so stored states below are current; a
    // burst's batch on its way is not waited for (a file of it taken again
    // meanwhile is only read and written again).
    if !batch.isEmpty { flush() }
    let stored = (try? store.fileStates(at: Array(ready.keys))) ?? [:]
    // A burst is named at once and read in slices after (``LiveContent``).
    let burst = ready.count > Self.burstSize
    for (path, force) in ready {
      consider(path, stored: stored[path], force: force, namesFirst: burst)
    }
    return true
  }

  /// Decides what a path needs, comparing the disk with what the index
  /// remembers; with `namesFirst`, a file to read is named now (if new) and
  /// read with the next slice of ``liveContent``.
  func consider(
    _ path: RawPath, stored: StoredFileState?, force: Bool, namesFirst: Bool = false
  ) {
    guard let status = FileSystem.status(path) else {
      if stored != nil { batch.append(.remove(path)) }
      return
    }
    // A folder not watched yet, or one that could not be listed and whose
    // permissions changed: crawled (and watched) now.
    if status.isDirectory && !watches.isWatched(path) && watches.inotify != nil
      && stored.map({ $0.needsReading(for: status) }) ?? true
    {
      rescanQueue.append(path)
      return
    }
    if let stored, !force, !stored.needsReading(for: status) {
      if stored.metadataDiffers(from: status) {
        batch.append(.metadata(path, status))
        // Its permissions taken away: it keeps its item, and says so.
        if !stored.isFolder, status.kind == .regular, let problem = FileSystem.unreadable(path) {
          batch.append(.unreadable(path, problem))
        }
      }
      return
    }
    var job = ImportJob(path: path, status: status, hidden: isHidden(path))
    // A small file is read at once: naming it first and reading it after
    // would write its item twice for a read that costs less than a write.
    if namesFirst, status.kind == .regular, status.size > Self.readAtOnceBytes,
      liveContent.append(path)
    {
      // A file the index knows keeps its item until its slice is read.
      job.nameOnly = true
      if stored == nil { batch.append(.importFile(job)) }
      return
    }
    batch.append(.importFile(job))
  }

  /// Between two folders of a walk (``ReconcileSink``): at most every
  /// ``lookDuringWalk`` seconds, the user's changes that came meanwhile are
  /// taken, and those settled written, as the loop would. What a rescan
  /// found changed is written once it has waited ``walkBatchAge`` seconds
  /// (a file saved in a folder the walk had not reached is found there),
  /// not when the walk ends; a first crawl's batches fill on their own.
  func betweenFolders() -> Bool {
    guard !paused, let drain else { return false }
    let now = monotonicNow()
    guard now >= nextLookDuringWalk else { return false }
    // A first crawl's batches are written while its walk goes on: each
    // look that writes holds the walk, so it looks less often (a program
    // writing every 50 ms made the corpus tree's names pass 1 to 3 s slower).
    nextLookDuringWalk = now + (writesAhead ? Self.lookDuringFirstCrawl : Self.lookDuringWalk)
    let events = drain.take()
    if !events.isEmpty { handle(events) }
    if processDue() || !events.isEmpty {
      flush()
      walkBatchSince = nil
      return true
    }
    if batch.isEmpty || writesAhead {
      walkBatchSince = nil
    } else if let since = walkBatchSince, now - since >= Self.walkBatchAge {
      flush()
      walkBatchSince = nil
    } else if walkBatchSince == nil {
      walkBatchSince = now
    }
    return false
  }

  /// Seconds between looks at the user's changes during a walk: each look
  /// that finds some commits the walk's batch early.
  static let lookDuringWalk = 0.1
  static let lookDuringFirstCrawl = 1.0
  /// Seconds a rescan's changes wait for more before they are written.
  static let walkBatchAge = 0.25

  func processRescans() {
    while !rescanQueue.isEmpty && !StopSignal.isRequested && !paused {
      let folder = rescanQueue.removeFirst()
      rescanQueue.removeAll { $0.isInside(folder) }
      reconcile(folder, force: false)
      flush()
    }
    if monotonicNow() >= nextUnwatchedRescan {
      nextUnwatchedRescan = monotonicNow() + configuration.rescanSeconds
      var folders = Array(watches.unwatched)
      folders.append(contentsOf: roots.filter { !watches.isWatched($0) })
      let tops = folders.filter { f in !folders.contains { $0 != f && f.isInside($0) } }
      for folder in tops where !StopSignal.isRequested {
        logger.debug("rescanning an unwatched folder", metadata: ["folder": "\(folder.string)"])
        reconcile(folder, force: false)
        flush()
      }
    }
  }

}
