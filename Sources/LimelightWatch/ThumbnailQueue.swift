import CLinux
import Dispatch
import LimelightImport
import LimelightModel
import LimelightStore
import Synchronization

/// Makes thumbnails in the background, at the lowest priority, after the text
/// is indexed: the files of indexed batches that a system thumbnailer draws
/// and that have no current thumbnail. Each finished thumbnail is written to
/// its item (if the file has not changed since).
final class ThumbnailQueue: Sendable {
  struct Job: Sendable {
    var path: RawPath
    var contentTypeTree: [String]
    var modifiedNs: Int64
  }

  let maker: ThumbnailMaker
  let store: IndexStore
  /// Jobs waiting (the newest made first), and whether a worker is draining them.
  let state = Mutex<(jobs: [Job], running: Bool)>(([], false))
  /// More waiting than this and new ones are dropped (a later change or
  /// restart offers them again).
  static let capacity = 20_000

  init(maker: ThumbnailMaker, store: IndexStore) {
    self.maker = maker
    self.store = store
  }

  /// Offers the records of a written batch.
  func offer(_ records: [FileRecord]) {
    enqueue(
      records.compactMap { record -> Job? in
        guard record.status.kind == .regular, record.attributes.thumbnailPath == nil,
          maker.canDraw(record.attributes.contentTypeTree)
        else { return nil }
        return Job(
          path: record.path, contentTypeTree: record.attributes.contentTypeTree,
          modifiedNs: record.status.modified)
      })
  }

  /// Offers the files indexed earlier (by a previous run, or `--once`) that
  /// still have no thumbnail; read in the background after the first crawl.
  func offerIndexedFiles() {
    DispatchQueue.global(qos: .background).async { [self] in
      guard
        let files = try? store.filesWithoutThumbnails(
          limit: Self.capacity, wanted: maker.canDraw)
      else { return }
      enqueue(
        files.map {
          Job(path: $0.path, contentTypeTree: $0.contentTypeTree, modifiedNs: $0.modifiedNs)
        })
    }
  }

  func enqueue(_ jobs: [Job]) {
    guard !jobs.isEmpty else { return }
    let start = state.withLock { state -> Bool in
      state.jobs += jobs.prefix(max(0, Self.capacity - state.jobs.count))
      if state.running { return false }
      state.running = true
      return true
    }
    if start { DispatchQueue.global(qos: .background).async { self.drain() } }
  }

  func drain() {
    limelight_lower_thread_priority(19)
    while let job = state.withLock({ state -> Job? in
      if state.jobs.isEmpty {
        state.running = false
        return nil
      }
      return state.jobs.popLast()
    }) {
      // The file may have changed or gone since: its next version is offered again.
      guard let status = FileSystem.status(job.path), status.modified == job.modifiedNs,
        let thumbnail = maker.make(
          path: job.path, contentTypeTree: job.contentTypeTree,
          modified: job.modifiedNs / 1_000_000_000)
      else { continue }
      _ = try? store.write { writer in
        try writer.setThumbnail(path: job.path, modifiedNs: job.modifiedNs, thumbnail: thumbnail)
      }
    }
  }
}
