import LimelightImport
import LimelightModel
import LimelightPlatform
import LimelightStore

/// Where a reconciliation sends what it finds.
protocol ReconcileSink: AnyObject {
  /// An operation to write (the sink commits a batch once it is full).
  func emit(_ operation: IndexOperation)
  /// Commits what was emitted so far.
  func flush()
  /// A folder to watch before it is listed.
  func watch(_ folder: RawPath)
  /// A folder whose `.noindex` marker keeps it out: watched for the marker alone.
  func watchMarked(_ folder: RawPath)
  /// Stops watching a folder and everything below it.
  func unwatchTree(_ folder: RawPath)
  func note(_ problem: String)
  /// One more entry met (the first pass's progress).
  func countEntry()
  /// Between two folders of a walk: the sink may write the user's changes
  /// that came meanwhile (a start's rescan of a large home took seconds,
  /// and a file saved then waited for all of it). Whether it wrote any.
  func betweenFolders() -> Bool
}

/// Brings the index in line with the disk at and below a folder: what is new
/// is named (or read, when forced), what changed is read again, what moved
/// while nobody watched is moved (same device and inode), and what is gone
/// is removed. Every folder is watched before it is listed, so that nothing
/// created meanwhile is missed.
struct Reconciler {
  let store: IndexStore
  let rules: ExclusionRules
  let roots: [RawPath]
  /// The disk (a tree in memory, in tests).
  var files: any FileTree = LocalFileTree()

  /// Reconciles `top`; unchanged files (same identity, size and time) are
  /// not read again, unless `force`. What the index holds is read folder by
  /// folder as the walk lists it: a restart holds one folder's items at a
  /// time, not all of them (47 MB more at 281,000 entries).
  func run(_ top: RawPath, force: Bool, into sink: ReconcileSink) {
    guard let root = root(of: top) else { return }
    if isExcluded(top, root: root) {
      sink.emit(.remove(top))
      sink.unwatchTree(top)
      return
    }
    sink.flush()
    do {
      try walk(top, root: root, force: force, into: sink)
    } catch {
      sink.note("cannot read the index: \(error)")
    }
  }

  private func walk(_ top: RawPath, root: RawPath, force: Bool, into sink: ReconcileSink) throws {
    let topState = try store.fileStates(at: [top])[top]
    guard let topStatus = files.status(top) else {
      let holdsAny = try topState != nil || !store.childStates(of: top).isEmpty
      if holdsAny { sink.emit(.remove(top)) }
      sink.unwatchTree(top)
      return
    }
    // Known paths the disk no longer has, removed at the end (with all
    // below them) unless found moved meanwhile; known paths found moved.
    var vanished: [RawPath] = []
    var movedAway: Set<RawPath> = []
    // A tree the index knows nothing of has no moves to look for (a first
    // crawl of a million entries looks up none).
    let lookForMoves = topState != nil
    // Names first: what a crawl finds is searchable by name at once, its
    // content follows in the second pass. A forced reindex reads at once.
    func job(_ path: RawPath, _ status: FileStatus) -> ImportJob {
      ImportJob(path: path, status: status, hidden: isHidden(path), nameOnly: !force)
    }

    func visit(_ path: RawPath, _ status: FileStatus, known: StoredFileState?) throws {
      sink.countEntry()
      if let old = known {
        if force || old.needsReading(for: status) {
          sink.emit(.importFile(job(path, status)))
        } else if old.metadataDiffers(from: status) {
          sink.emit(.metadata(path, status))
        }
        return
      }
      // A path the index does not know: perhaps something it knows, moved
      // while the watcher was down. Same device and inode, and the old path
      // gone; files must also keep size and time (an inode freed by an
      // atomic save and reused by a new file is no move).
      if lookForMoves {
        let candidates = try store.fileStates(device: status.device, inode: status.inode)
        for (oldPath, old) in candidates.sorted(by: {
          $0.key.bytes.lexicographicallyPrecedes($1.key.bytes)
        })
        where oldPath != path && oldPath.isInside(top) && !movedAway.contains(oldPath)
          && files.status(oldPath)?.inode != status.inode && old.isFolder == status.isDirectory
          && (old.isFolder || !old.contentDiffers(from: status))
        {
          sink.emit(.move(oldPath, path))
          // Written at once: the folders below are listed from the index.
          sink.flush()
          movedAway.insert(oldPath)
          try visit(path, status, known: old)
          return
        }
      }
      sink.emit(.importFile(job(path, status)))
    }

    try visit(top, topStatus, known: topState)
    var stack: [RawPath] = topStatus.isDirectory ? [top] : []
    // Whether the user's changes were written during the walk: a path it
    // found gone may be back since.
    var userChanged = false
    while let folder = stack.popLast() {
      if StopSignal.isRequested { return }
      if sink.betweenFolders() { userChanged = true }
      if ExclusionRules.hasNoIndexMarker(folder, in: files) {
        // Out of the index with all below it, but still watched, to see the marker go.
        sink.emit(.remove(folder))
        sink.unwatchTree(folder)
        sink.watchMarked(folder)
        continue
      }
      sink.watch(folder)
      let names: [RawPath]
      do {
        names = try files.entries(of: folder)
      } catch {
        // Gone since it was met (moved or removed by the user): it goes at
        // the end, with what is below it. Unreadable: what was indexed
        // below it is kept.
        if files.status(folder) == nil {
          vanished.append(folder)
        } else {
          sink.emit(.failure(folder, error.description))
        }
        continue
      }
      var stored = try store.childStates(of: folder)
      for name in names {
        let path = folder.appending(name)
        let known = stored.removeValue(forKey: path)
        guard !rules.excludes(path, root: root), let status = files.status(path) else {
          if known != nil { vanished.append(path) }
          continue
        }
        try visit(path, status, known: known)
        if status.isDirectory { stack.append(path) }
      }
      vanished += stored.keys
    }
    for path in vanished.sorted(by: { $0.bytes.lexicographicallyPrecedes($1.bytes) })
    where !movedAway.contains(path) {
      // Made again since it was found gone: the user's change wrote it.
      if userChanged, files.status(path) != nil, !rules.excludes(path, root: root) { continue }
      sink.emit(.remove(path))
    }
  }

  /// The innermost root holding `path`.
  func root(of path: RawPath) -> RawPath? {
    roots.filter { path.isInside($0) }.max { $0.bytes.count < $1.bytes.count }
  }

  /// Whether a dot-named component lies between the root and the path.
  func isHidden(_ path: RawPath) -> Bool {
    guard let root = root(of: path) else { return false }
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
      if parent != root && ExclusionRules.hasNoIndexMarker(parent, in: files) { return true }
      current = parent
    }
    return ExclusionRules.hasNoIndexMarker(root, in: files) && path != root
  }
}
