import LimelightImport
import LimelightModel
import LimelightPlatform
import LimelightStore
import LimelightThumbnails

/// One change the watcher writes to the index.
enum IndexOperation {
  /// A file to read (or to name, in the first pass) and store.
  case importFile(ImportJob)
  /// A file the second pass has read already.
  case write(FileRecord)
  case metadata(RawPath, FileStatus)
  case move(RawPath, RawPath)
  case remove(RawPath)
  case failure(RawPath, String)
  /// A file indexed before that cannot be read now: it keeps its item.
  case unreadable(RawPath, String)
  case complete(IndexRequest, RequestOutcome)
}

/// Writes the watcher's operations, a batch in one transaction (which
/// advances the generation): it reads the files to import first, on the
/// extractor's threads, and afterwards tells the thumbnail queue what to
/// draw, move along or remove.
struct BatchWriter {
  let store: IndexStore
  let extractor: Extractor
  let thumbnails: ThumbnailQueue?
  /// Whether a path lies in a hidden folder (for the items a move carries).
  let isHidden: (RawPath) -> Bool

  /// The records of the files `operations` import, read on the
  /// extractor's threads, in order.
  func read(_ operations: [IndexOperation]) -> [FileRecord] {
    extractor.extract(
      operations.compactMap { op -> ImportJob? in
        if case .importFile(let job) = op { return job }
        return nil
      })
  }

  /// Writes `operations` and then, in the same transaction, `finish` (the
  /// watcher's status); the files they import are read first, unless
  /// `extracted` holds their records (``read(_:)``). Returns the records of
  /// the files it imported.
  func write(
    _ operations: [IndexOperation], extracted: [FileRecord]? = nil,
    finish: (IndexWriter) throws -> Void
  ) throws -> [FileRecord] {
    try write(operations, extracted: extracted, givingWay: nil, finish: finish).records
  }

  /// What ``write(_:extracted:givingWay:finish:)`` wrote: the records of
  /// the files it imported, and how many of the operations, from the first.
  struct Written {
    var records: [FileRecord]
    var count: Int
  }

  /// Writes `operations` as ``write(_:extracted:finish:)`` does, but stops
  /// after the operation at which `givingWay` first says the user's changes
  /// wait (asked after each one): what is written so far, and `finish`,
  /// commit, and the rest is left to the caller.
  func write(
    _ operations: [IndexOperation], extracted: [FileRecord]? = nil,
    givingWay: (() -> Bool)?, finish: (IndexWriter) throws -> Void
  ) throws -> Written {
    let extracted = extracted ?? read(operations)
    var nextRecord = 0
    var records: [FileRecord] = []
    var count = 0
    // Thumbnails follow their files: moved along, removed when they are gone.
    var movedThumbnails: [(from: RawPath, to: ThumbnailQueue.Job)] = []
    var removedThumbnails: [RawPath] = []
    try store.write { writer in
      for op in operations {
        if count > 0, let givingWay, givingWay() { break }
        count += 1
        switch op {
        case .importFile, .write:
          let record: FileRecord
          if case .write(let read) = op {
            record = read
          } else {
            record = extracted[nextRecord]
            nextRecord += 1
          }
          // Gone since it was listed: its move or removal follows.
          if record.vanished { continue }
          try writer.upsert(record)
          if let message = record.extractionError {
            try writer.recordFailure(record.path, message: message)
          }
          // The second pass's files get their thumbnails once it is done.
          if case .importFile = op { records.append(record) }
        case .metadata(let path, let status):
          try writer.updateMetadata(
            path: path, status: status, keywords: FileImporter.tags(of: path),
            readable: { FileSystem.unreadable(path) == nil })
        case .move(let old, let new):
          if thumbnails != nil {
            movedThumbnails += try writer.thumbnailed(inTreeOf: old).map { file in
              (
                file.path,
                ThumbnailQueue.Job(
                  file: FileVersion(
                    path: file.path.rebased(from: old, to: new),
                    contentTypeTree: file.contentTypeTree, modifiedNs: file.modifiedNs))
              )
            }
          }
          try writer.move(from: old, to: new, hidden: isHidden)
        case .remove(let path):
          if thumbnails != nil {
            removedThumbnails += try writer.thumbnailed(inTreeOf: path).map(\.path)
          }
          try writer.removeTree(path)
        case .failure(let path, let message):
          try writer.recordFailure(path, message: message)
        case .unreadable(let path, let message):
          try writer.markUnreadable(path, message: message)
        case .complete(let request, let outcome):
          try writer.complete(request, outcome: outcome)
        }
      }
      try finish(writer)
    }
    thumbnails?.offer(records.filter { !$0.contentPending })
    thumbnails?.offerMoves(movedThumbnails)
    thumbnails?.offerRemovals(removedThumbnails)
    return Written(records: records, count: count)
  }
}
