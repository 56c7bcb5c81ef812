/// `file://` URIs as RFC 8089 and RFC 3986 spell them: every byte outside the
/// unreserved set and "/" is percent-encoded, so any Linux path round-trips.
public enum FileURI {
  private static let hex = Array("0123456789ABCDEF".utf8)

  private static func isUnreserved(_ byte: UInt8) -> Bool {
    switch byte {
    case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
      UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."),
      UInt8(ascii: "_"), UInt8(ascii: "~"), UInt8(ascii: "/"):
      return true
    default:
      return false
    }
  }

  /// The `file:///…` URI of an absolute path.
  public static func uri(for path: RawPath) -> String {
    encode(path.bytes, after: Array("file://".utf8), keepingSlashes: true)
  }

  /// Text with every byte outside the unreserved set (slashes included)
  /// percent-encoded, for the opaque part of other URIs.
  public static func percentEncoded(_ text: String) -> String {
    encode(Array(text.utf8), after: [], keepingSlashes: false)
  }

  /// Percent-encoded text decoded; nil when an escape is broken or the bytes
  /// are not UTF-8.
  public static func percentDecoded(_ text: String) -> String? {
    guard let bytes = decode(Substring(text)) else { return nil }
    return String(validating: bytes, as: UTF8.self)
  }

  private static func encode(_ bytes: [UInt8], after prefix: [UInt8], keepingSlashes: Bool)
    -> String
  {
    var out = prefix
    out.reserveCapacity(out.count + bytes.count * 2)
    for byte in bytes {
      if isUnreserved(byte) && (keepingSlashes || byte != UInt8(ascii: "/")) {
        out.append(byte)
      } else {
        out.append(UInt8(ascii: "%"))
        out.append(hex[Int(byte >> 4)])
        out.append(hex[Int(byte & 0xF)])
      }
    }
    return String(decoding: out, as: UTF8.self)
  }

  /// The path of a `file:` URI (`file:///p`, `file://localhost/p` or `file:/p`), or nil.
  public static func path(from uri: String) -> RawPath? {
    var rest: Substring
    if uri.hasPrefix("file://localhost/") {
      rest = uri.dropFirst("file://localhost".count)
    } else if uri.hasPrefix("file:///") {
      rest = uri.dropFirst("file://".count)
    } else if uri.hasPrefix("file:/") {
      rest = uri.dropFirst("file:".count)
    } else {
      return nil
    }
    if let cut = rest.firstIndex(where: { $0 == "?" || $0 == "#" }) { rest = rest[..<cut] }
    return decode(rest).map { RawPath(bytes: $0) }
  }

  /// The host and path of a `file://HOST/path` URI (RFC 8089), the host as
  /// written (decoded, in lower case); nil for a URI that names no host
  /// (`file:///p`, `file:/p`) or is not a `file:` URI.
  public static func hostAndPath(from uri: String) -> (host: String, path: RawPath)? {
    guard uri.lowercased().hasPrefix("file://") else { return nil }
    let rest = uri.dropFirst("file://".count)
    guard let slash = rest.firstIndex(of: "/"), slash != rest.startIndex,
      let host = percentDecoded(String(rest[..<slash])),
      let path = Self.path(from: "file://" + rest[slash...])
    else { return nil }
    return (host.lowercased(), path)
  }

  private static func decode(_ rest: Substring) -> [UInt8]? {
    var bytes: [UInt8] = []
    var iterator = Array(rest.utf8).makeIterator()
    while let byte = iterator.next() {
      guard byte == UInt8(ascii: "%") else {
        bytes.append(byte)
        continue
      }
      guard let high = iterator.next().flatMap(hexValue),
        let low = iterator.next().flatMap(hexValue)
      else { return nil }
      bytes.append(high << 4 | low)
    }
    return bytes
  }

  private static func hexValue(_ byte: UInt8) -> UInt8? {
    switch byte {
    case UInt8(ascii: "0")...UInt8(ascii: "9"): return byte - UInt8(ascii: "0")
    case UInt8(ascii: "a")...UInt8(ascii: "f"): return byte - UInt8(ascii: "a") + 10
    case UInt8(ascii: "A")...UInt8(ascii: "F"): return byte - UInt8(ascii: "A") + 10
    default: return nil
    }
  }
}
