import Foundation
import LimelightPlatform

/// One line of the application protocol: what `limelight index` reads, what a
/// reindex extension prints and what the Swift library writes (JSON Lines, in
/// the vocabulary of `CSSearchableItem`; see limelight-items(7)).
public enum ItemLine: Sendable, Equatable {
  /// Add an item, or replace the item of the same id in the same domain.
  case item(IndexItem)
  /// `{"delete": ["41", "40"], "domain": "com.example.notes"}`
  case delete(ids: [String], domain: String)
  /// `{"deleteDomain": "com.example.notes"}`: the domain and every domain under it.
  case deleteDomain(String)
  /// `{"endBatch": {"clientState": "…", "expectedClientState": "…"}}`: commit
  /// the lines since the last end together, storing the client state with them.
  case endBatch(clientState: String?, expectedClientState: String?)

  /// Why a line is not part of the protocol.
  public struct Invalid: Error, CustomStringConvertible {
    public let description: String
    public init(_ description: String) { self.description = description }
  }

  /// The longest id, URI and domain accepted.
  public static let idLimit = 1024
  public static let uriLimit = 8192
  public static let domainLimit = 255
  /// The longest line read (an item with its full text).
  public static let lineLimit = LineReader.defaultLimit
  /// The most bytes of lines one batch may hold: a batch is held whole in
  /// memory until it is written, so a stream without batch ends is bounded.
  public static let batchLimit = 256 << 20

  /// Parses one line. `mime` gives pushed content types their ancestors and kind.
  public static func parse(_ line: some StringProtocol, mime: MIMEDatabase?) throws(Invalid)
    -> ItemLine
  {
    let object: [String: Any]
    do {
      guard
        let parsed = try JSONSerialization.jsonObject(
          with: Data(line.utf8), options: [.fragmentsAllowed]) as? [String: Any]
      else { throw Invalid("expected a JSON object") }
      object = parsed
    } catch let error as Invalid {
      throw error
    } catch {
      throw Invalid("not JSON: \(Self.reason(error))")
    }
    if let end = object["endBatch"] {
      var state: String?
      var expected: String?
      if let options = end as? [String: Any] {
        state = try optionalString(options, "clientState")
        expected = try optionalString(options, "expectedClientState")
      } else if !(end is NSNumber) {
        throw Invalid("'endBatch' must be true or an object with 'clientState'")
      }
      return .endBatch(clientState: state, expectedClientState: expected)
    }
    if let domain = object["deleteDomain"] {
      guard let domain = domain as? String else { throw Invalid("'deleteDomain' must be a string") }
      try validate(domain: domain)
      return .deleteDomain(domain)
    }
    if let ids = object["delete"] {
      let list: [String]
      if let one = ids as? String {
        list = [one]
      } else if let many = ids as? [Any], let strings = many as? [String] {
        list = strings
      } else {
        throw Invalid("'delete' must be an id or a list of ids")
      }
      for id in list { try validate(id: id) }
      guard let domain = object["domain"] as? String else {
        throw Invalid("a deletion needs its 'domain'")
      }
      try validate(domain: domain)
      return .delete(ids: list, domain: domain)
    }
    guard let id = object["id"] as? String else { throw Invalid("missing 'id' (a string)") }
    try validate(id: id)
    guard let domain = object["domain"] as? String else {
      throw Invalid("missing 'domain' (a string such as com.example.notes)")
    }
    try validate(domain: domain)
    guard let uri = object["uri"] as? String else { throw Invalid("missing 'uri' (a string)") }
    try validate(uri: uri)
    var attributes = AttributeSet(displayName: id)
    var named = false
    if let value = object["attributes"], !(value is NSNull) {
      guard let given = value as? [String: Any] else {
        throw Invalid("'attributes' must be an object")
      }
      do { try AttributeJSON.apply(given, to: &attributes) } catch {
        throw Invalid(String(describing: error))
      }
      named = given["displayName"] is String
    }
    if !named, let title = attributes.title, !title.isEmpty { attributes.displayName = title }
    if let type = attributes.contentType, let mime {
      attributes.contentTypeTree = mime.ancestors(of: mime.canonical(type))
      if attributes.kind == nil { attributes.kind = mime.comment(for: type) }
    }
    var expiration: Date?
    if let value = object["expirationDate"], !(value is NSNull) {
      if let text = value as? String, let date = AttributeJSON.parseDate(text) {
        expiration = date
      } else if let seconds = AttributeJSON.number(value) {
        expiration = Date(timeIntervalSince1970: seconds)
      } else {
        throw Invalid("'expirationDate' must be an ISO 8601 date")
      }
    }
    return .item(
      IndexItem(
        id: id, domain: domain, uri: uri, attributes: attributes, expirationDate: expiration))
  }

  static func optionalString(_ object: [String: Any], _ key: String) throws(Invalid) -> String? {
    guard let value = object[key], !(value is NSNull) else { return nil }
    guard let text = value as? String else { throw Invalid("'\(key)' must be a string") }
    return text
  }

  static func reason(_ error: any Error) -> String {
    let text = (error as NSError).userInfo["NSDebugDescription"] as? String
    // Foundation's sentence ends with a full stop; the caller's message goes on.
    return text.map { $0.hasSuffix(".") ? String($0.dropLast()) : $0 } ?? "malformed"
  }

  /// An id: any text but an empty one, up to ``idLimit`` bytes, without NUL.
  public static func validate(id: String) throws(Invalid) {
    guard !id.isEmpty else { throw Invalid("an id must not be empty") }
    guard id.utf8.count <= idLimit else { throw Invalid("an id is longer than \(idLimit) bytes") }
    guard !id.utf8.contains(0) else { throw Invalid("an id must not contain NUL") }
  }

  /// A domain: dotted words of letters, digits, `-` and `_`
  /// (`com.example.notes`); `limelight` and below are Limelight's own.
  public static func validate(domain: String, allowReserved: Bool = false) throws(Invalid) {
    let words = domain.split(separator: ".", omittingEmptySubsequences: false)
    guard !domain.isEmpty, domain.utf8.count <= domainLimit,
      words.allSatisfy({ word in
        !word.isEmpty
          && word.unicodeScalars.allSatisfy {
            $0.isASCII
              && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || $0 == "-"
                || $0 == "_")
          }
      })
    else {
      throw Invalid(
        "'\(domain.prefix(80))' is not a domain: dotted words of letters, digits, - and _, "
          + "such as com.example.notes")
    }
    if !allowReserved && words.first == "limelight" {
      throw Invalid("the domain '\(domain)' is reserved for Limelight's own items")
    }
  }

  /// A URI: a scheme, a colon, and no spaces or control characters (one URI
  /// a line is the output contract).
  public static func validate(uri: String) throws(Invalid) {
    guard uri.utf8.count <= uriLimit else {
      throw Invalid("a uri is longer than \(uriLimit) bytes")
    }
    let bytes = Array(uri.utf8)
    guard let colon = bytes.firstIndex(of: UInt8(ascii: ":")), colon > 0,
      bytes[0].isASCIILetter,
      bytes[..<colon].allSatisfy({
        $0.isASCIILetter || ($0 >= 0x30 && $0 <= 0x39) || $0 == 0x2B || $0 == 0x2D || $0 == 0x2E
      }), colon + 1 < bytes.count
    else {
      throw Invalid("'\(uri.prefix(80))' is not a URI: it needs a scheme, as in notes://note/42")
    }
    guard !bytes.contains(where: { $0 <= 0x20 || $0 == 0x7F }) else {
      throw Invalid("a uri must not contain spaces or control characters: percent-encode them")
    }
  }
}

extension UInt8 {
  fileprivate var isASCIILetter: Bool { (self | 0x20) >= 0x61 && (self | 0x20) <= 0x7A }
}

/// Whether `domain` is `ancestor` or below it (`com.example` holds `com.example.notes`).
public func domain(_ domain: String, isWithin ancestor: String) -> Bool {
  domain == ancestor || domain.hasPrefix(ancestor + ".")
}
