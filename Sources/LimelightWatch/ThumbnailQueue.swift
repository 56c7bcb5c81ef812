import CLinux
import Dispatch
import Foundation
import LimelightModel
import LimelightPlatform
import LimelightStore
import LimelightThumbnails
import Synchronization

#if canImport(Glibc)
  import Glibc
#endif

/// Makes thumbnails in the background, at the lowest priority, after the text
/// is indexed: the files of indexed batches that a system thumbnailer draws
/// and that have no current thumbnail. Each finished thumbnail is written to
/// its item (if the file has not changed since). The thumbnails of files that
/// were moved follow them, and those of files that are gone are removed.
public final class ThumbnailQueue: Sendable {
  public struct Job: Sendable {
    public var file: FileVersion
    /// Where the file was before a move: its thumbnails there are moved
    /// rather than drawn again.
    public var movedFrom: RawPath? = nil

    public init(file: FileVersion, movedFrom: RawPath? = nil) {
      self.file = file
      self.movedFrom = movedFrom
    }

    var path: RawPath { file.path }
    var contentTypeTree: [String] { file.contentTypeTree }
    var modifiedNs: Int64 { file.modifiedNs }
  }

  /// Work waiting, and whether a worker is draining it.
  struct Work {
    /// Files to thumbnail (the newest made first).
    var jobs: [Job] = []
    /// Files gone from the disk, whose thumbnails go too.
    var gone: [RawPath] = []
    var running = false
  }

  let maker: ThumbnailMaker
  let store: IndexStore
  let state = Mutex(Work())
  /// More waiting than this and new ones are dropped (a later change or
  /// restart offers them again).
  static let capacity = 20_000

  /// The next piece of work a worker takes, and the thumbnails waiting
  /// after it.
  enum Next {
    case forget(RawPath)
    case draw(Job, waiting: Int)
  }

  /// Called when the queue is empty again: what drawing took (its writes'
  /// pages, its decoders' buffers) can go back to the system.
  let afterDrawing: @Sendable () -> Void

  public init(
    maker: ThumbnailMaker, store: IndexStore, afterDrawing: @escaping @Sendable () -> Void = {}
  ) {
    self.maker = maker
    self.store = store
    self.afterDrawing = afterDrawing
  }

  /// Offers the records of a written batch.
  public func offer(_ records: [FileRecord]) {
    enqueue(
      records.compactMap { record -> Job? in
        guard record.status.kind == .regular, record.attributes.thumbnailPath == nil,
          maker.canDraw(record.attributes.contentTypeTree)
        else { return nil }
        return Job(
          file: FileVersion(
            path: record.path, contentTypeTree: record.attributes.contentTypeTree,
            modifiedNs: record.status.modified))
      })
  }

  /// Offers the files indexed earlier (by a previous run, or `--once`) that
  /// still have no thumbnail, and those whose thumbnail is gone from the
  /// cache (cleaned up meanwhile) or named for another URI (a move the
  /// watcher did not live to finish); read in the background after the
  /// first crawl.
  public func offerIndexedFiles() {
    DispatchQueue.global(qos: .background).async { [self] in
      if let stale = try? store.files(
        limit: Self.capacity,
        showingThumbnailWhere: { uri, thumbnail in
          let path = RawPath(thumbnail)
          return path.lastComponent.string != ThumbnailCache.fileName(for: uri)
            || FileSystem.status(path) == nil
        })
      {
        drop(stale)
      }
      guard
        let files = try? store.filesWithoutThumbnails(
          limit: Self.capacity, wanted: maker.canDraw)
      else { return }
      enqueue(files.map { Job(file: $0) })
    }
  }

  /// Offers files that were moved: `moves` pairs each file's old path with
  /// what it is now.
  public func offerMoves(_ moves: [(from: RawPath, to: Job)]) {
    enqueue(
      moves.map { move in
        var job = move.to
        job.movedFrom = move.from
        return job
      })
  }

  /// Forgets thumbnails deleted from the cache on the items that showed
  /// them, and offers those files to be drawn again. Runs in the background,
  /// and finds the items in a read: it takes a pass over them, which no
  /// writer should wait for.
  public func offerDropped(_ thumbnails: [String]) {
    let gone = Set(thumbnails)
    DispatchQueue.global(qos: .background).async { [self] in
      if let showing = try? store.files(showingThumbnailWhere: { gone.contains($1) }) {
        drop(showing)
      }
    }
  }

  /// Forgets the thumbnails of these files (unless they have others by now),
  /// and offers the files to be drawn again.
  public func drop(_ showing: [(rowID: Int64, thumbnail: String, file: FileVersion)]) {
    guard !showing.isEmpty,
      let dropped = try? store.write({ writer in
        try showing.filter { try writer.dropThumbnail($0.thumbnail, ofItem: $0.rowID) }
      })
    else { return }
    enqueue(dropped.map { Job(file: $0.file) })
  }

  /// Offers files that left the index: those gone from the disk lose their thumbnails.
  public func offerRemovals(_ paths: [RawPath]) {
    guard !paths.isEmpty else { return }
    start { state in state.gone += paths.prefix(max(0, Self.capacity - state.gone.count)) }
  }

  func enqueue(_ jobs: [Job]) {
    guard !jobs.isEmpty else { return }
    start { state in state.jobs += jobs.prefix(max(0, Self.capacity - state.jobs.count)) }
  }

  /// Adds work, and starts a worker unless one is draining.
  func start(_ add: (inout Work) -> Void) {
    let start = state.withLock { state -> Bool in
      add(&state)
      if state.running { return false }
      state.running = true
      return true
    }
    // A thread of its own, lowered for its life: a thread of Dispatch's
    // pool, once lowered, stayed so for whatever work the pool gave it next
    // (the query service's among them).
    if start { Thread.detachNewThread { self.drain() } }
  }

  func drain() {
    limelight_lower_thread_priority(19)
    defer { afterDrawing() }
    // What `limelight status` says is left to draw, saved with each
    // thumbnail, and as none once the queue is empty.
    var saidWaiting = 0
    defer {
      if saidWaiting > 0 { _ = try? store.write { try $0.noteThumbnailsWaiting(0) } }
    }
    while let next = state.withLock({ state -> Next? in
      if let gone = state.gone.popLast() { return .forget(gone) }
      if let job = state.jobs.popLast() { return .draw(job, waiting: state.jobs.count) }
      state.running = false
      return nil
    }) {
      let job: Job
      let waiting: Int
      switch next {
      case .forget(let path):
        maker.forget(path)
        continue
      case .draw(let taken, let left): (job, waiting) = (taken, left)
      }
      // The file may have changed or gone since: its next version is offered again.
      guard let status = FileSystem.status(job.path), status.modified == job.modifiedNs else {
        continue
      }
      let modified = job.modifiedNs / 1_000_000_000
      guard
        let thumbnail = job.movedFrom.flatMap({
          maker.move(from: $0, to: job.path, modified: modified)
        })
          ?? maker.make(path: job.path, contentTypeTree: job.contentTypeTree, modified: modified)
      else { continue }
      let saved: Void? = try? store.write { writer in
        try writer.setThumbnail(path: job.path, modifiedNs: job.modifiedNs, thumbnail: thumbnail)
        if waiting != saidWaiting { try writer.noteThumbnailsWaiting(waiting) }
      }
      if saved != nil { saidWaiting = waiting }
    }
  }
}
