import CLinux
import Foundation
import LimelightModel
import LimelightPlatform
import LimelightStore

#if canImport(Glibc)
  import Glibc
#endif

/// The durable requests (`limelight pause`, `resume`, `erase`, `reindex`,
/// `reindex-request`), carried out in the order they were made.
extension Watcher {
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
        if wasPaused && !crawlDone { atIndexingPriority { self.initialCrawl() } }
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
        extensions.complete(request, since: erased, afterReindexing: .erasedAndCrawled)
      case .domain:
        extensions.take(request)
      case .eraseDomain:
        eraseDomain(request)
      case .all:
        if paused && watching { continue }
        for root in roots { reconcile(root, force: true) }
        batch.append(.complete(request, .reindexedEveryRoot))
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
        batch.append(.complete(request, .reindexed(outsideRoots: outside)))
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
          try writer.complete(request, outcome: .erasedAndReadAgain)
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
        try writer.setPaused(value)
        try writer.save(report(state: value ? .paused : activeState))
        try writer.complete(request, outcome: value ? .paused : .resumed)
      }
    } catch { note("cannot record the pause: \(error)") }
  }

}
