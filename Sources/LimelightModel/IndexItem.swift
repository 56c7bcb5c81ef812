import Foundation
import LimelightPlatform

/// The reserved domain that holds the user's files.
public let fileDomain = "limelight.files"

/// The reserved domain of installed applications (their `.desktop` launchers).
public let applicationsDomain = "limelight.applications"

/// One searchable thing as the index keeps it: a file, a folder, or an
/// application's item (applications describe theirs with LimelightKit's
/// `SearchableItem`, which becomes one of these).
public struct IndexItem: Sendable, Equatable {
  /// Unique within the index. For files it is made once and kept across renames.
  public var id: String
  /// Dotted and hierarchical (`com.example.notes`); files are in ``fileDomain``.
  public var domain: String
  /// What the user opens: `file:///…` for files.
  public var uri: String
  /// The file's path (files only), as raw bytes.
  public var path: RawPath?
  public var attributes: AttributeSet
  /// When an application item disappears; files never expire.
  public var expirationDate: Date?

  public init(
    id: String, domain: String, uri: String, path: RawPath? = nil, attributes: AttributeSet,
    expirationDate: Date? = nil
  ) {
    self.id = id
    self.domain = domain
    self.uri = uri
    self.path = path
    self.attributes = attributes
    self.expirationDate = expirationDate
  }
}

/// The attributes of an item (the `CSSearchableItemAttributeSet` of Limelight).
public struct AttributeSet: Sendable, Equatable {
  public var displayName: String
  public var title: String?
  /// A MIME type, e.g. `text/markdown`.
  public var contentType: String?
  /// The content type and its ancestors, most specific first (`text/x-python`, `text/plain`, `text/*`).
  public var contentTypeTree: [String] = []
  /// A human description of the type: "PNG image".
  public var kind: String?
  public var keywords: [String] = []
  /// A short summary, at most 300 characters.
  public var contentDescription: String?
  /// The full text (searchable, never printed).
  public var textContent: String?
  public var thumbnailPath: String?
  public var size: Int64?
  public var created: Date?
  public var modified: Date?
  public var lastUsed: Date?
  public var added: Date?
  public var authors: [String] = []
  /// What only some types have, by Core Spotlight's names: `pixelWidth`,
  /// `cameraModel`, `pageCount`, `recipients`, … (stored as `customAttributes`).
  public var extra: [String: AttributeValue] = [:]

  public init(displayName: String) { self.displayName = displayName }

  /// The longest description kept.
  public static let descriptionLimit = 300

  /// `text` with runs of white space folded, cut at ``descriptionLimit`` characters.
  public static func summary(of text: String) -> String? {
    var text = text
    if let ascii = text.withUTF8({ asciiSummary(of: $0) }) { return ascii }
    return characterSummary(of: text)
  }

  /// The summary of a text given as UTF-8 (a stored text read back).
  public static func summary(ofUTF8 bytes: [UInt8]) -> String? {
    if let ascii = bytes.withUnsafeBufferPointer({ asciiSummary(of: $0) }) { return ascii }
    return characterSummary(of: String(decoding: bytes, as: UTF8.self))
  }

  /// The summary of a text whose first characters, as many as the summary
  /// may look at, are ASCII, read byte by byte (a character at a time took
  /// 30 µs a text): nil when they are not ASCII, else the summary (nil when
  /// there is nothing to draw). A character is a byte but CR LF, one
  /// character of two bytes, white space like each of them.
  static func asciiSummary(of bytes: UnsafeBufferPointer<UInt8>) -> String?? {
    let looked = descriptionLimit * 8
    // At most two bytes a character (CR LF).
    guard bytes.prefix(2 * looked).allSatisfy({ $0 < 0x80 }) else { return nil }
    var out: [UInt8] = []
    var (count, characters, index) = (0, 0, 0)
    var pendingSpace = false
    while index < bytes.count && characters < looked {
      let byte = bytes[index]
      index += byte == 0x0D && index + 1 < bytes.count && bytes[index + 1] == 0x0A ? 2 : 1
      characters += 1
      // Unicode's white space among ASCII: tab, line feed, vertical tab,
      // form feed, carriage return and space.
      if (0x09...0x0D).contains(byte) || byte == 0x20 {
        pendingSpace = count > 0
        continue
      }
      if pendingSpace {
        if count + 2 > descriptionLimit { break }
        out.append(0x20)
        count += 1
        pendingSpace = false
      }
      out.append(byte)
      count += 1
      if count >= descriptionLimit { break }
    }
    return .some(out.isEmpty ? nil : String(decoding: out, as: UTF8.self))
  }

  static func characterSummary(of text: String) -> String? {
    var out = ""
    var count = 0
    var pendingSpace = false
    for ch in text.prefix(descriptionLimit * 8) {
      if ch.isWhitespace {
        pendingSpace = count > 0
        continue
      }
      if pendingSpace {
        if count + 2 > descriptionLimit { break }
        out.append(" ")
        count += 1
        pendingSpace = false
      }
      out.append(ch)
      count += 1
      if count >= descriptionLimit { break }
    }
    return out.isEmpty ? nil : out
  }
}

/// The value of a type-specific attribute.
public enum AttributeValue: Sendable, Equatable {
  case string(String)
  case strings([String])
  case number(Double)
  case date(Date)

  /// The words a user may search for (names, models, addresses), if any.
  public var searchableText: String? {
    switch self {
    case .string(let text): return text
    case .strings(let texts): return texts.joined(separator: " ")
    case .number, .date: return nil
    }
  }

  /// The value as JSON: dates as ISO 8601 text.
  public var jsonValue: Any {
    switch self {
    case .string(let text): return text
    case .strings(let texts): return texts
    case .number(let number): return Self.wholeNumber(number).map { $0 as Any } ?? number
    case .date(let date): return Self.jsonDate(date)
    }
  }

  /// A number that is whole as an integer, which JSON writes without a
  /// fraction; nil for any other.
  public static func wholeNumber(_ number: Double) -> Int64? {
    number.rounded() == number && abs(number) < 1e15 ? Int64(number) : nil
  }

  /// A date as JSON holds it: ISO 8601 text.
  public static func jsonDate(_ date: Date) -> String { ISO8601DateFormatter().string(from: date) }
}
