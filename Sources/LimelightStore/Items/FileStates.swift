import GRDB
import LimelightModel
import LimelightPlatform

extension IndexStore {
  /// What the index remembers of the files in `folder` (not below), by path.
  public func childStates(of folder: RawPath) throws -> [RawPath: StoredFileState] {
    try read { db in try IndexWriter(db: db, generation: 0, texts: texts).childStates(of: folder) }
  }

  /// What the index remembers of the files of this identity, by path.
  public func fileStates(device: UInt64, inode: UInt64) throws -> [RawPath: StoredFileState] {
    try read { db in
      try IndexWriter(db: db, generation: 0, texts: texts).fileStates(device: device, inode: inode)
    }
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
