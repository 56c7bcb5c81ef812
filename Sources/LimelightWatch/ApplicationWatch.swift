import Foundation
import LimelightApplications
import LimelightImport
import LimelightModel
import LimelightPlatform
import LimelightStore

#if canImport(Glibc)
  import Glibc
#endif

/// Keeps the ``applicationsDomain`` equal to the installed launchers: a sync
/// at start, then another a moment after inotify reports a change in a
/// launcher folder (a package install touches many files at once).
final class ApplicationWatch {
  let catalog: InstalledApplications
  let store: IndexStore
  var inotify: Inotify?
  /// Watched folders; for a missing launcher folder, its parent, waiting for it.
  var watched: [Int32: (path: RawPath, waitingFor: RawPath?)] = [:]
  /// When the next sync is due (monotonic seconds), after a change.
  var due: Double?
  static let settle = 1.0

  init(catalog: InstalledApplications, store: IndexStore) {
    self.catalog = catalog
    self.store = store
  }

  /// Starts following the launcher folders.
  func startWatching() {
    inotify = try? Inotify()
    rewatch()
  }

  func rewatch() {
    guard let inotify else { return }
    for wd in watched.keys { inotify.removeWatch(wd) }
    watched.removeAll()
    for folder in catalog.folders.folders {
      if FileSystem.status(folder)?.isDirectory == true {
        watchTree(folder, depth: 0)
      } else if case .success(let wd) = inotify.addWatch(folder.parent) {
        watched[wd] = (folder.parent, folder.lastComponent)
      }
    }
  }

  func watchTree(_ folder: RawPath, depth: Int) {
    guard let inotify, depth < 8, case .success(let wd) = inotify.addWatch(folder) else { return }
    watched[wd] = (folder, nil)
    for name in (try? FileSystem.entries(of: folder)) ?? [] {
      let path = folder.appending(name)
      if FileSystem.status(path)?.isDirectory == true { watchTree(path, depth: depth + 1) }
    }
  }

  /// Reads the queued events; a change that concerns launchers schedules a sync.
  func handleEvents() {
    guard let inotify else { return }
    for event in inotify.readEvents() {
      guard let entry = watched[event.watch] else {
        if event.has(IN_Q_OVERFLOW) { due = monotonicNow() + Self.settle }
        continue
      }
      if let waitingFor = entry.waitingFor, event.name != waitingFor { continue }
      due = monotonicNow() + Self.settle
    }
  }

  /// Syncs if one is due; returns whether it ran.
  func syncIfDue() -> String? {
    guard let due, monotonicNow() >= due else { return nil }
    self.due = nil
    rewatch()
    return sync()
  }

  /// Makes the domain equal to the launchers installed; returns a problem, if any.
  @discardableResult
  func sync() -> String? {
    let launchers = catalog.scan()
    do {
      var known: [String: (modified: Double, file: String?)] = [:]
      for item in try store.itemStates(inDomain: applicationsDomain) {
        let attributes = item.customAttributes.flatMap {
          try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
        }
        known[item.localID] = (item.modified, attributes?["launcher"] as? String)
      }
      let changed = launchers.filter { launcher in
        guard let old = known[launcher.id] else { return true }
        let modified = Double(launcher.modifiedNs) / 1e9
        return abs(old.modified - modified) > 1e-6 || old.file != launcher.file.string
      }
      let current = Set(launchers.map(\.id))
      let gone = known.keys.filter { !current.contains($0) }
      guard !changed.isEmpty || !gone.isEmpty else { return nil }
      try store.write { writer in
        for launcher in changed { try writer.upsert(applicationItem: launcher.item) }
        _ = try writer.deleteApplicationItems(ids: gone, domain: applicationsDomain)
      }
      return nil
    } catch {
      return "cannot index the installed applications: \(error)"
    }
  }

}
