import LimelightModel
import LimelightPlatform
import LimelightSubprocess

/// What the watcher (``HelperImporter``) and the `limelight-import --serve`
/// helper say to each other, both sides written from this one type:
/// - a request is the content type, a newline, the text limit in bytes, a
///   newline and the file's path, ended by a NUL byte;
/// - a reply is framed as ``ServedProcess`` reads it (a 4-byte big-endian
///   length, then the body): `A` and the attributes as JSON; `T`, the JSON's
///   length (4 bytes, big-endian), the attributes as JSON and the text's
///   UTF-8 bytes, raw; or `F` and why the file could not be read. The text
///   goes apart from the JSON: escaping it and reading it back was a third
///   of what the helper and the watcher spent on a man page.
public enum HelperWire {
  /// One file to read.
  public struct Request: Equatable, Sendable {
    /// The type the watcher found (empty: the helper finds it).
    public var contentType: String
    public var textLimit: Int
    public var path: RawPath

    public init(contentType: String, textLimit: Int, path: RawPath) {
      (self.contentType, self.textLimit, self.path) = (contentType, textLimit, path)
    }

    /// The request as it is sent, NUL included.
    public var encoded: [UInt8] {
      Array(contentType.utf8) + [0x0A] + Array(String(textLimit).utf8) + [0x0A] + path.bytes + [0]
    }

    /// A request read up to its NUL (not included); nil when malformed.
    public init?(encoded: [UInt8]) {
      let parts = encoded.split(separator: 0x0A, maxSplits: 2, omittingEmptySubsequences: false)
      guard parts.count == 3, let limit = Int(String(decoding: parts[1], as: UTF8.self)),
        limit > 0
      else { return nil }
      self.init(
        contentType: String(decoding: parts[0], as: UTF8.self), textLimit: limit,
        path: RawPath(bytes: Array(parts[2])))
    }
  }

  /// The helper's answer.
  public enum Reply: Equatable, Sendable {
    /// The attributes, as a JSON object's bytes, and the text, if any, as
    /// UTF-8 bytes apart.
    case attributes([UInt8], text: [UInt8]?)
    /// Why the file could not be read.
    case failure(String)

    /// The reply as it is sent: framed.
    public var framed: [UInt8] {
      let body: [UInt8] =
        switch self {
        case .attributes(let json, nil): [UInt8(ascii: "A")] + json
        case .attributes(let json, let text?):
          [UInt8(ascii: "T")] + ServedProcess.frame(json) + text
        case .failure(let reason): [UInt8(ascii: "F")] + Array(reason.utf8)
        }
      return ServedProcess.frame(body)
    }

    /// A reply's body (its frame taken off); nil out of protocol.
    public init?(body: [UInt8]) {
      switch body.first {
      case UInt8(ascii: "A"): self = .attributes(Array(body.dropFirst()), text: nil)
      case UInt8(ascii: "T"):
        guard body.count >= 5 else { return nil }
        let length = ServedProcess.frameLength(body[1..<5])
        guard length <= body.count - 5 else { return nil }
        self = .attributes(
          Array(body[5..<(5 + length)]), text: Array(body[(5 + length)...]))
      case UInt8(ascii: "F"): self = .failure(String(decoding: body.dropFirst(), as: UTF8.self))
      default: return nil
      }
    }
  }
}
