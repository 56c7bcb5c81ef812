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
  /// not read again, unless `force`.
  func run(_ top: RawPath, force: Bool, into sink: ReconcileSink) {
    guard let root = root(of: top) else { return }
    if isExcluded(top, root: root) {
      sink.emit(.remove(top))
      sink.unwatchTree(top)
      return
    }
    sink.flush()
    var stored: [RawPath: StoredFileState]
    do {
      stored = try store.fileStates(under: top)
    } catch {
      sink.note("cannot read the index: \(error)")
      return
    }
    guard let topStatus = files.status(top) else {
      if !stored.isEmpty { sink.emit(.remove(top)) }
      sink.unwatchTree(top)
      return
    }
    var byIdentity: [FileKey: RawPath]?
    /// Known paths met on disk (the others are removed at the end).
    var seen: Set<RawPath> = []
    // Names first: what a crawl finds is searchable by name at once, its
    // content follows in the second pass. A forced reindex reads at once.
    func job(_ path: RawPath, _ status: FileStatus) -> ImportJob {
      ImportJob(
        path: path, status: status, hidden: isHidden(path), nameOnly: !force)
    }

    func visit(_ path: RawPath, _ status: FileStatus) {
      // Only paths the index knows are ever looked up in `seen`: a first
      // crawl of a million entries keeps no set of them all.
      if stored[path] != nil { seen.insert(path) }
      sink.countEntry()
      if let old = stored[path] {
        if force || old.needsReading(for: status) {
          sink.emit(.importFile(job(path, status)))
        } else if old.metadataDiffers(from: status) {
          sink.emit(.metadata(path, status))
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
        !seen.contains(oldPath), files.status(oldPath)?.inode != status.inode,
        let old = stored[oldPath], old.isFolder == status.isDirectory,
        old.isFolder || !old.contentDiffers(from: status)
      {
        sink.emit(.move(oldPath, path))
        byIdentity![FileKey(status.device, status.inode)] = nil
        for (p, s) in stored where p.isInside(oldPath) {
          stored[p] = nil
          stored[p.rebased(from: oldPath, to: path)] = s
        }
        visit(path, status)
        return
      }
      sink.emit(.importFile(job(path, status)))
    }

    visit(top, topStatus)
    var stack: [RawPath] = topStatus.isDirectory ? [top] : []
    while let folder = stack.popLast() {
      if StopSignal.isRequested { return }
      if ExclusionRules.hasNoIndexMarker(folder, in: files) {
        // Out of the index with all below it, but still watched, to see the marker go.
        sink.emit(.remove(folder))
        sink.unwatchTree(folder)
        sink.watchMarked(folder)
        for p in stored.keys where p.isInside(folder) { seen.insert(p) }
        continue
      }
      sink.watch(folder)
      let names: [RawPath]
      do {
        names = try files.entries(of: folder)
      } catch {
        // Keep what was indexed below a folder that cannot be read now.
        sink.emit(.failure(folder, error.description))
        for p in stored.keys where p.isInside(folder) { seen.insert(p) }
        continue
      }
      for name in names {
        let path = folder.appending(name)
        guard !rules.excludes(path, root: root), let status = files.status(path) else {
          continue
        }
        visit(path, status)
        if status.isDirectory { stack.append(path) }
      }
    }
    for path in stored.keys where !seen.contains(path) { sink.emit(.remove(path)) }
  }

  struct FileKey: Hashable {
    var device: UInt64
    var inode: UInt64
    init(_ device: UInt64, _ inode: UInt64) {
      self.device = device
      self.inode = inode
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
