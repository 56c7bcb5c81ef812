import CLinux
import Dispatch
import Foundation
import LimelightImport
import LimelightModel
import LimelightPlatform
import LimelightStore
import LimelightThumbnails

/// A file waiting to be read.
struct ImportJob: Sendable {
  var path: RawPath
  var status: FileStatus
  var hidden: Bool
  /// The first pass: the name and `lstat` only, the content later.
  var nameOnly = false
}

/// Runs importers on several files at once, one importer (and so one import
/// helper and one libmagic handle) per worker, let go with the extractor
/// (the second pass's, at its end: what a handle's rules compiled for a pass
/// is megabytes). A handle shared by the workers cost the content pass a
/// tenth of its time: libmagic is not thread-safe, so workers took it in
/// turn, and a worker waiting for it spun.
final class Extractor: @unchecked Sendable {
  private let importers: [FileImporter]
  /// How the index packs texts: the workers pack them.
  private let texts: TextPacker

  init(
    mime: MIMEDatabase, maxTextBytes: Int, workers: Int, texts: TextPacker,
    programs: [ProgramImporter] = [], thumbnails: ThumbnailCache? = nil
  ) {
    self.texts = texts
    importers = (0..<max(1, workers)).map { _ in
      FileImporter(
        mime: mime, maxTextBytes: maxTextBytes, programs: programs, thumbnails: thumbnails,
        magic: Magic())
    }
  }

  /// The records of `jobs`, in order; with a `deadline` (monotonic seconds),
  /// of those begun before it and before their texts reached `textBudget`
  /// bytes: a prefix of the jobs, at least one. Read at the caller's
  /// priority, or with `background` at the lowest CPU and I/O priority
  /// (the second pass).
  func extract(
    _ jobs: [ImportJob], until deadline: Double? = nil, textBudget: Int = .max,
    background: Bool = false
  ) -> [FileRecord] {
    if jobs.isEmpty { return [] }
    let results = ResultSlots(count: jobs.count, deadline: deadline, textBudget: textBudget)
    let workers = min(importers.count, jobs.count)
    let work = { @Sendable (worker: Int) in
      let importer = self.importers[worker]
      while let index = results.claim() {
        let job = jobs[index]
        var record =
          job.nameOnly
          ? importer.nameRecord(for: job.path, status: job.status, hidden: job.hidden)
          : importer.record(for: job.path, status: job.status, hidden: job.hidden)
        // Folded and packed here, on the workers, not by the one thread that writes.
        IndexWriter.prepare(&record, texts: self.texts)
        results.store(record, at: index)
      }
    }
    // Threads of their own, which start at the caller's priority: the
    // watcher's own for the user's changes, the crawl's (lowered) for a
    // crawl; the second pass lowers its threads further. A thread's
    // priority, once lowered, stays so: pool threads would carry one
    // caller's priority to the next.
    // At the caller's own priority, the caller is the first worker, and a
    // batch of a few files is read by it alone (a thread made and let go
    // per call cost a burst's writing thread a twentieth of its time).
    let first = background ? 0 : 1
    let end = !background && jobs.count < Self.inlineJobs ? 1 : workers
    let group = DispatchGroup()
    for worker in first..<end {
      group.enter()
      let thread = Thread {
        if background {
          limelight_lower_thread_priority(Watcher.backgroundNice)
          limelight_idle_io_priority()
        }
        work(worker)
        group.leave()
      }
      thread.start()
    }
    if !background { work(0) }
    group.wait()
    return results.values()
  }

  /// Fewer jobs than this are read on the caller's thread alone.
  static let inlineJobs = 8
}

/// Slots that workers claim one by one and fill.
private final class ResultSlots: @unchecked Sendable {
  private let lock = NSLock()
  private var next = 0
  private var slots: [FileRecord?]
  private let deadline: Double?
  private let textBudget: Int
  private var textBytes = 0

  init(count: Int, deadline: Double?, textBudget: Int) {
    slots = Array(repeating: nil, count: count)
    self.deadline = deadline
    self.textBudget = textBudget
  }

  func claim() -> Int? {
    lock.lock()
    defer { lock.unlock() }
    guard next < slots.count else { return nil }
    if next > 0, let deadline, monotonicNow() >= deadline { return nil }
    if next > 0, textBytes >= textBudget { return nil }
    next += 1
    return next - 1
  }

  func store(_ record: FileRecord, at index: Int) {
    let bytes = record.indexedText?.content.utf8.count ?? 0
    lock.lock()
    slots[index] = record
    textBytes += bytes
    lock.unlock()
  }

  /// The records of the claimed slots (all filled once the workers are done).
  func values() -> [FileRecord] { slots.prefix(next).map { $0! } }
}
