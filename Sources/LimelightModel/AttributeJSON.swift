import Foundation

/// Attribute sets as JSON objects, in Core Spotlight's attribute names: what
/// importer programs print and what applications push. Known names fill the
/// attribute set's fields; any other name becomes a custom attribute.
public enum AttributeJSON {
  /// Why a JSON object is not an attribute set.
  public struct Invalid: Error, CustomStringConvertible {
    public let description: String
    public init(_ description: String) { self.description = description }
  }

  /// Custom attributes whose values are dates (Core Spotlight's names).
  static let dateNames: Set<String> = [
    "recordingDate", "dateTaken", "dueDate", "startDate", "endDate",
  ]

  /// Applies the attributes of `object` to `attributes`; the first malformed
  /// value is an error that names it, and then nothing is applied.
  public static func apply(_ object: [String: Any], to attributes: inout AttributeSet) throws {
    var updated = attributes
    for (name, value) in object.sorted(by: { $0.key < $1.key }) {
      func string() throws -> String {
        guard let text = value as? String else {
          throw Invalid("attribute '\(name)': expected a string")
        }
        return text
      }
      func strings() throws -> [String] {
        if let text = value as? String { return [text] }
        guard let list = value as? [Any], let texts = list as? [String] else {
          throw Invalid("attribute '\(name)': expected a list of strings")
        }
        return texts
      }
      func date() throws -> Date {
        if let seconds = number(value) { return Date(timeIntervalSince1970: seconds) }
        guard let text = value as? String, let date = parseDate(text) else {
          throw Invalid("attribute '\(name)': expected an ISO 8601 date")
        }
        return date
      }
      if value is NSNull { continue }
      switch name {
      case "displayName":
        let text = try string()
        guard !text.isEmpty else { throw Invalid("attribute 'displayName': empty") }
        updated.displayName = text
      case "title": updated.title = try string()
      case "contentType": updated.contentType = try string()
      case "kind": updated.kind = try string()
      case "keywords": updated.keywords = try strings()
      case "authors": updated.authors = try strings()
      case "contentDescription":
        updated.contentDescription = AttributeSet.summary(of: try string())
      case "textContent": updated.textContent = try string()
      case "thumbnailPath": updated.thumbnailPath = try string()
      // Core Spotlight's names for the item's own dates, and the short ones.
      case "created", "contentCreationDate": updated.created = try date()
      case "modified", "contentModificationDate": updated.modified = try date()
      case "lastUsed": updated.lastUsed = try date()
      case "added": updated.added = try date()
      case "size":
        guard let size = number(value), size >= 0 else {
          throw Invalid("attribute 'size': expected a number of bytes")
        }
        updated.size = Int64(size)
      default:
        if dateNames.contains(name) {
          updated.extra[name] = .date(try date())
        } else if let n = number(value) {
          updated.extra[name] = .number(n)
        } else if let text = value as? String {
          updated.extra[name] = .string(text)
        } else if value is [Any] {
          updated.extra[name] = .strings(try strings())
        } else {
          throw Invalid("attribute '\(name)': expected a string, a number or a list of strings")
        }
      }
    }
    attributes = updated
  }

  /// The attributes an importer found, as the JSON object it prints: the
  /// content attributes (not the file's name, type, size or dates, which the
  /// watcher knows), with dates as ISO 8601 text.
  public static func contentObject(of attributes: AttributeSet) -> [String: Any] {
    var object: [String: Any] = [:]
    if let title = attributes.title { object["title"] = title }
    if !attributes.authors.isEmpty { object["authors"] = attributes.authors }
    if !attributes.keywords.isEmpty { object["keywords"] = attributes.keywords }
    if let text = attributes.contentDescription { object["contentDescription"] = text }
    if let text = attributes.textContent { object["textContent"] = text }
    for (name, value) in attributes.extra { object[name] = value.jsonValue }
    return object
  }

  /// A JSON number as a Double (true and false read as 1 and 0).
  static func number(_ value: Any) -> Double? {
    guard !(value is String), let number = value as? NSNumber else { return nil }
    return number.doubleValue
  }

  /// An ISO 8601 date, with or without a time and fractional seconds.
  public static func parseDate(_ text: String) -> Date? {
    let full = ISO8601DateFormatter()
    if let date = full.date(from: text) { return date }
    full.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
    if let date = full.date(from: text) { return date }
    full.formatOptions = [.withFullDate]
    return full.date(from: text)
  }
}
