import GRDB
import LimelightModel
import LimelightPlatform

extension IndexStore {
  /// What the index remembers of the files at and below `root`, by path.
  public func fileStates(under root: RawPath) throws -> [RawPath: StoredFileState] {
    try read { db in try IndexWriter(db: db, generation: 0, texts: texts).fileStates(under: root) }
  }

  /// The stored states of some paths (absent ones are left out).
  public func fileStates(at paths: [RawPath]) throws -> [RawPath: StoredFileState] {
    try read { db in
      let reader = IndexWriter(db: db, generation: 0, texts: texts)
      var result: [RawPath: StoredFileState] = [:]
      for path in paths { result[path] = try reader.fileState(at: path) }
      return result
    }
  }
}
