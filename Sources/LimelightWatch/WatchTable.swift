import LimelightModel
import LimelightPlatform

#if canImport(Glibc)
  import Glibc
#endif

/// The folders inotify watches, both ways (watch descriptor to folder and
/// back), and those it does not: folders beyond the kernel's watch limit
/// (rescanned on a timer) and folders holding a `.noindex` marker (watched
/// only to see the marker go).
final class WatchTable {
  /// Nil for a one-off crawl, which watches nothing.
  let inotify: Inotify?
  /// At most this many watches (0: as many as the kernel gives).
  let maxWatches: Int
  private(set) var paths: [Int32: RawPath] = [:]
  private(set) var descriptors: [RawPath: Int32] = [:]
  private(set) var marked: Set<RawPath> = []
  private(set) var unwatched: Set<RawPath> = []
  private(set) var limitReached = false

  init(inotify: Inotify?, maxWatches: Int) {
    self.inotify = inotify
    self.maxWatches = maxWatches
  }

  /// What became of a request to watch a folder.
  enum Outcome {
    case watched
    /// Beyond the limit: rescanned on a timer instead. `first`: the first folder so.
    case overLimit(first: Bool)
    /// Gone or no longer a folder: nothing to watch.
    case gone
    case failed(String)
  }

  var count: Int { paths.count }

  func folder(of descriptor: Int32) -> RawPath? { paths[descriptor] }

  func isWatched(_ folder: RawPath) -> Bool { descriptors[folder] != nil }

  func isMarked(_ folder: RawPath) -> Bool { marked.contains(folder) }

  @discardableResult
  func watch(_ folder: RawPath) -> Outcome {
    guard let inotify, descriptors[folder] == nil else { return .watched }
    if maxWatches > 0 && paths.count >= maxWatches { return markUnwatched(folder) }
    switch inotify.addWatch(folder) {
    case .success(let wd):
      if let previous = paths[wd], previous != folder { descriptors[previous] = nil }
      paths[wd] = folder
      descriptors[folder] = wd
      unwatched.remove(folder)
      return .watched
    case .failure(let error):
      if error.code == ENOSPC { return markUnwatched(folder) }
      if error.code == ENOENT || error.code == ENOTDIR { return .gone }
      return .failed(error.description)
    }
  }

  private func markUnwatched(_ folder: RawPath) -> Outcome {
    let first = !limitReached
    limitReached = true
    unwatched.insert(folder)
    return .overLimit(first: first)
  }

  /// Watches a folder that holds a `.noindex` marker, to see the marker go.
  func watchMarked(_ folder: RawPath) {
    guard inotify != nil else { return }
    watch(folder)
    marked.insert(folder)
  }

  /// The marker of a folder changed: it is read again as any other.
  func unmark(_ folder: RawPath) { marked.remove(folder) }

  /// The kernel dropped a watch (`IN_IGNORED`): its folder went.
  func dropped(_ descriptor: Int32) {
    if let path = paths.removeValue(forKey: descriptor), descriptors[path] == descriptor {
      descriptors[path] = nil
    }
  }

  /// Stops watching `folder` and everything below it.
  func unwatchTree(_ folder: RawPath) {
    for (path, wd) in descriptors where path.isInside(folder) {
      inotify?.removeWatch(wd)
      descriptors[path] = nil
      paths[wd] = nil
    }
    for path in unwatched where path.isInside(folder) { unwatched.remove(path) }
    for path in marked where path.isInside(folder) { marked.remove(path) }
  }

  /// A folder moved within the watched trees: its watches follow it.
  func rebase(from old: RawPath, to new: RawPath) {
    for (path, wd) in descriptors where path.isInside(old) {
      let target = path.rebased(from: old, to: new)
      descriptors[path] = nil
      descriptors[target] = wd
      paths[wd] = target
    }
    for path in unwatched where path.isInside(old) {
      unwatched.remove(path)
      unwatched.insert(path.rebased(from: old, to: new))
    }
  }
}
