import Foundation
import LimelightPlatform

/// A file item as a store shared with other hosts receives it: what its
/// searches need, the text folded as this index keeps it.
public struct SharedItem: Sendable, Equatable {
  public var path: RawPath
  public var isFolder: Bool
  public var size: Int64?
  /// Modification time in nanoseconds since 1970.
  public var modifiedNs: Int64?
  public var contentTypeTree: [String]
  public var keywords: [String]
  public var text: String?
  /// The words the local index made of the name and keywords (with the
  /// name's humps, initials and readings), folded; nil: made from them.
  public var nameWords: String?
  /// Who may find it: its folder's owner, group and mode (to list it, a
  /// reader needs read and search), then those of each folder above that
  /// others may not pass (search). nil: only the store's owner finds it.
  public var reach: [Ownership]?

  public init(
    path: RawPath, isFolder: Bool, size: Int64?, modifiedNs: Int64?, contentTypeTree: [String],
    keywords: [String], text: String?, nameWords: String? = nil, reach: [Ownership]? = nil
  ) {
    (self.nameWords, self.reach) = (nameWords, reach)
    (self.path, self.isFolder, self.size, self.modifiedNs) = (path, isFolder, size, modifiedNs)
    (self.contentTypeTree, self.keywords, self.text) = (contentTypeTree, keywords, text)
  }
}

extension SharedItem {
  /// An entry as the watcher read it.
  public init(_ record: FileRecord) {
    self.init(
      path: record.path, isFolder: record.status.kind == .directory, size: record.status.size,
      modifiedNs: record.status.modified, contentTypeTree: record.attributes.contentTypeTree,
      keywords: record.attributes.keywords, text: record.attributes.textContent.map(SearchText.fold)
    )
  }
}

/// A host that writes to a shared store: its entries, and when it last wrote.
public struct SharedStoreHost: Equatable, Sendable, Codable {
  public var name: String
  public var entries: Int
  public var lastContact: Date?

  public init(name: String, entries: Int, lastContact: Date?) {
    (self.name, self.entries, self.lastContact) = (name, entries, lastContact)
  }
}
