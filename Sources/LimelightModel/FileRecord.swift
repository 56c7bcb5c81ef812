import LimelightPlatform

/// A file as an importer saw it: where it is, what `lstat` said, and its attributes.
/// The store turns it into an item, keeping the id of the file at that path.
public struct FileRecord: Sendable {
  public var path: RawPath
  public var status: FileStatus
  public var attributes: AttributeSet
  /// Whether a component of the path below its root is dot-named (such items rank last).
  public var hidden: Bool
  /// Why the content could not be read, when it could not.
  public var extractionError: String?
  /// Whether only the name and what `lstat` tells are known yet: the
  /// content waits for the second pass.
  public var contentPending: Bool
  /// The words to index, when made already (by the thread that read the file).
  public var indexedText: IndexedText?
  /// Whether the file was gone (renamed or removed) by the time it was
  /// opened: not written, since its move or removal comes as an event of
  /// its own, and a record of it would keep a name without a text.
  public var vanished = false

  public init(
    path: RawPath, status: FileStatus, attributes: AttributeSet, hidden: Bool,
    extractionError: String? = nil, contentPending: Bool = false
  ) {
    (self.path, self.status, self.attributes) = (path, status, attributes)
    (self.hidden, self.extractionError, self.contentPending) = (
      hidden, extractionError, contentPending
    )
  }
}

/// What the index remembers of a file to decide, without reading it, whether it changed.
public struct StoredFileState: Sendable, Equatable {
  public var rowID: Int64
  public var device: UInt64
  public var inode: UInt64
  /// The size the item keeps; -1 for none (a folder).
  public var size: Int64
  public var modified: Int64
  public var changed: Int64
  public var isFolder: Bool
  /// The file could not be read, or the folder listed, when last tried.
  public var failed: Bool

  public init(
    rowID: Int64, device: UInt64, inode: UInt64, size: Int64, modified: Int64, changed: Int64,
    isFolder: Bool, failed: Bool = false
  ) {
    (self.rowID, self.device, self.inode, self.size) = (rowID, device, inode, size)
    (self.modified, self.changed, self.isFolder, self.failed) = (
      modified, changed, isFolder, failed
    )
  }

  /// Whether the entry must be read again: its content may differ, or it
  /// could not be read and its permissions (or other metadata) changed since.
  public func needsReading(for status: FileStatus) -> Bool {
    contentDiffers(from: status) || failed && metadataDiffers(from: status)
  }

  /// Whether the content may differ from what was indexed (identity, size
  /// or modification time). The size compared is the one an item keeps
  /// (``FileStatus/keptSize``): a folder's size on disk, compared with the
  /// none kept, read every folder again at every rescan (14,845 of the
  /// corpus tree's 177,677 entries written again, and sent again to a
  /// shared store, at each start of a watcher).
  public func contentDiffers(from status: FileStatus) -> Bool {
    status.inode != inode || status.device != device || (status.keptSize ?? -1) != size
      || status.modified != modified || status.isDirectory != isFolder
  }

  /// Whether only metadata (tags, mode) may differ.
  public func metadataDiffers(from status: FileStatus) -> Bool { status.changed != changed }
}

extension FileStatus {
  /// The size an item keeps of what has this status: none for a folder
  /// (the bytes of its entries, whose change its time tells too).
  public var keptSize: Int64? { isDirectory ? nil : size }
}
