import Foundation
import LimelightModel

/// What an application tells Limelight about one of its items (the
/// `CSSearchableItemAttributeSet` of Core Spotlight). Every property is
/// optional; ``custom`` holds attributes of the application's own, which are
/// searchable as text when they are strings.
public struct SearchableItemAttributeSet: Sendable, Equatable {
  /// A MIME type (`text/vcard`, `message/rfc822`): gives the item its kind.
  public var contentType: String?
  /// The name shown in results; the title, or the id, when not set.
  public var displayName: String?
  public var title: String?
  /// A short summary; cut at 300 characters.
  public var contentDescription: String?
  public var keywords: [String]?
  /// The full text: searchable, never printed.
  public var textContent: String?
  /// An image of the item (a file path).
  public var thumbnailPath: String?
  public var authorNames: [String]?
  public var emailAddresses: [String]?
  public var phoneNumbers: [String]?
  public var contentCreationDate: Date?
  public var contentModificationDate: Date?
  /// Attributes of the application's own, by name.
  public var custom: [String: CustomAttributeValue] = [:]

  public init(contentType: String? = nil) { self.contentType = contentType }
}

/// The value of a custom attribute.
public enum CustomAttributeValue: Sendable, Equatable {
  case string(String)
  case strings([String])
  case number(Double)
  case date(Date)
}

/// One item of an application (the `CSSearchableItem` of Core Spotlight).
public struct SearchableItem: Sendable, Equatable {
  /// The application's id for it, unique within its domain.
  public var uniqueIdentifier: String
  /// A dotted domain (`com.example.colleagues.people`): deleting a domain
  /// deletes every domain under it.
  public var domainIdentifier: String
  /// What opens the item: a URI of a scheme the application handles.
  public var uri: String
  public var attributeSet: SearchableItemAttributeSet
  /// When it leaves the index; 30 days after its last indexing when nil.
  public var expirationDate: Date?

  public init(
    uniqueIdentifier: String, domainIdentifier: String, uri: String,
    attributeSet: SearchableItemAttributeSet, expirationDate: Date? = nil
  ) {
    self.uniqueIdentifier = uniqueIdentifier
    self.domainIdentifier = domainIdentifier
    self.uri = uri
    self.attributeSet = attributeSet
    self.expirationDate = expirationDate
  }

  /// The item as the index's model has it, checked as `limelight index` checks a line.
  func modelItem(mime: MIMEDatabase) throws(SearchableIndexError) -> LimelightModel.IndexItem {
    do {
      try ItemLine.validate(id: uniqueIdentifier)
      try ItemLine.validate(domain: domainIdentifier)
      try ItemLine.validate(uri: uri)
    } catch { throw SearchableIndexError.invalidItem(uniqueIdentifier, error.description) }
    let set = attributeSet
    var attributes = AttributeSet(
      displayName: set.displayName ?? set.title.flatMap { $0.isEmpty ? nil : $0 }
        ?? uniqueIdentifier)
    attributes.title = set.title
    if let type = set.contentType {
      attributes.contentType = type
      attributes.contentTypeTree = mime.ancestors(of: mime.canonical(type))
      attributes.kind = mime.comment(for: type)
    }
    attributes.contentDescription = set.contentDescription.flatMap(AttributeSet.summary)
    attributes.keywords = set.keywords ?? []
    attributes.textContent = set.textContent
    attributes.thumbnailPath = set.thumbnailPath
    attributes.authors = set.authorNames ?? []
    attributes.created = set.contentCreationDate
    attributes.modified = set.contentModificationDate
    if let emails = set.emailAddresses { attributes.extra["emailAddresses"] = .strings(emails) }
    if let phones = set.phoneNumbers { attributes.extra["phoneNumbers"] = .strings(phones) }
    for (name, value) in set.custom {
      switch value {
      case .string(let text): attributes.extra[name] = .string(text)
      case .strings(let texts): attributes.extra[name] = .strings(texts)
      case .number(let number): attributes.extra[name] = .number(number)
      case .date(let date): attributes.extra[name] = .date(date)
      }
    }
    return LimelightModel.IndexItem(
      id: uniqueIdentifier, domain: domainIdentifier, uri: uri, attributes: attributes,
      expirationDate: expirationDate)
  }
}

/// Why the index refused a call.
public enum SearchableIndexError: Error, CustomStringConvertible, Sendable {
  /// An item's id, domain or URI is not acceptable.
  case invalidItem(String, String)
  /// A domain outside the index's own, or not a domain.
  case invalidDomain(String, String)
  /// `endBatch(expectedClientState:)` found another state stored.
  case clientStateMismatch
  /// `endBatch` without `beginBatch`, or `beginBatch` twice.
  case batchNotOpen
  case batchAlreadyOpen
  /// The index could not be opened or written.
  case index(String)

  public var description: String {
    switch self {
    case .invalidItem(let id, let reason): return "item '\(id)': \(reason)"
    case .invalidDomain(let domain, let reason): return "domain '\(domain)': \(reason)"
    case .clientStateMismatch:
      return "the stored client state is not the expected one (another import ran meanwhile)"
    case .batchNotOpen: return "no batch is open: call beginBatch() first"
    case .batchAlreadyOpen: return "a batch is already open: end it first"
    case .index(let reason): return reason
    }
  }
}

// MARK: - The JSON Lines protocol

extension SearchableItem {
  /// The item as one line of the protocol that `limelight index` reads and
  /// reindex extensions print (limelight-items(7)), without the newline.
  public var jsonLine: String {
    var attributes: [String: Any] = [:]
    let set = attributeSet
    func date(_ value: Date) -> String { ISO8601DateFormatter().string(from: value) }
    attributes["displayName"] = set.displayName
    attributes["title"] = set.title
    attributes["contentType"] = set.contentType
    attributes["contentDescription"] = set.contentDescription
    attributes["keywords"] = set.keywords
    attributes["textContent"] = set.textContent
    attributes["thumbnailPath"] = set.thumbnailPath
    attributes["authors"] = set.authorNames
    attributes["emailAddresses"] = set.emailAddresses
    attributes["phoneNumbers"] = set.phoneNumbers
    attributes["created"] = set.contentCreationDate.map(date)
    attributes["modified"] = set.contentModificationDate.map(date)
    for (name, value) in set.custom {
      switch value {
      case .string(let text): attributes[name] = text
      case .strings(let texts): attributes[name] = texts
      case .number(let number): attributes[name] = number
      case .date(let value): attributes[name] = date(value)
      }
    }
    var object: [String: Any] = [
      "id": uniqueIdentifier, "domain": domainIdentifier, "uri": uri, "attributes": attributes,
    ]
    object["expirationDate"] = expirationDate.map(date)
    return Self.line(object)
  }

  /// A deletion as one protocol line.
  public static func deletionLine(identifiers: [String], domain: String) -> String {
    line(["delete": identifiers, "domain": domain])
  }

  static func line(_ object: [String: Any]) -> String {
    guard
      let data = try? JSONSerialization.data(
        withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes])
    else { return "{}" }
    return String(decoding: data, as: UTF8.self)
  }
}
