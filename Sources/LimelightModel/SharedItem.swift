import Foundation
import LimelightPlatform

/// An item as a store shared with other hosts receives it: what its
/// searches need, the text folded as this index keeps it. A file, or an
/// item an application gave the index (``domain`` set, ``path`` its URI's
/// bytes).
public struct SharedItem: Sendable, Equatable {
  /// A file's path; an application item's URI.
  public var path: RawPath
  public var isFolder: Bool
  public var size: Int64?
  /// Modification time in nanoseconds since 1970.
  public var modifiedNs: Int64?
  public var contentTypeTree: [String]
  public var keywords: [String]
  public var text: String?
  /// The words the local index made of the name (with its humps,
  /// initials and readings) and of the keywords, folded; nil: made from
  /// them.
  public var nameWords: String?
  public var keywordWords: String?
  /// Who may find it: its folder's owner, group and mode (to list it, a
  /// reader needs read and search), then those of each folder above that
  /// others may not pass (search). nil: only the store's owner finds it.
  public var reach: [Ownership]?
  /// An application item's domain (nil for a file): found only by the
  /// role that sent it.
  public var domain: String?
  /// An application item's name (a file's is its path's last component).
  public var displayName: String?
  /// What the importers read besides the text: its title, kind,
  /// authors, description, and when it was made and last opened.
  public var details = SharedItemDetails()
  /// Its meaning vector (a signed byte a dimension) when the third pass
  /// made one.
  public var meaning: [UInt8]?

  public init(
    path: RawPath, isFolder: Bool, size: Int64?, modifiedNs: Int64?, contentTypeTree: [String],
    keywords: [String], text: String?, nameWords: String? = nil, keywordWords: String? = nil,
    reach: [Ownership]? = nil, domain: String? = nil, displayName: String? = nil
  ) {
    (self.nameWords, self.keywordWords, self.reach, self.domain, self.displayName) =
      (nameWords, keywordWords, reach, domain, displayName)
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
    let attributes = record.attributes
    details = SharedItemDetails(
      title: attributes.title, kind: attributes.kind, authors: attributes.authors,
      contentDescription: attributes.contentDescription, created: attributes.created,
      lastUsed: attributes.lastUsed)
  }
}

/// The attributes of a shared item that only the predicate language,
/// `created:`, `used:` and `limelight show` read.
public struct SharedItemDetails: Sendable, Equatable {
  public var title: String?
  public var kind: String?
  public var authors: [String]
  public var contentDescription: String?
  public var created: Date?
  public var lastUsed: Date?

  public init(
    title: String? = nil, kind: String? = nil, authors: [String] = [],
    contentDescription: String? = nil, created: Date? = nil, lastUsed: Date? = nil
  ) {
    (self.title, self.kind, self.authors) = (title, kind, authors)
    (self.contentDescription, self.created, self.lastUsed) = (contentDescription, created, lastUsed)
  }
}

extension SharedItem {
  /// The name searches show: a file's last path component, an
  /// application item's display name.
  public var name: String { displayName ?? path.lastComponent.string }
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
