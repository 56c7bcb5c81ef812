import LimelightModel
import LimelightPlatform

/// The shared thumbnail cache of the freedesktop Thumbnail Managing Standard,
/// `$XDG_CACHE_HOME/thumbnails/`: PNG files named by the MD5 of the file's URI
/// in one folder per size, each naming its file (`Thumb::URI`) and the file's
/// modification time (`Thumb::MTime`) in text chunks. File managers write it;
/// an item takes the largest valid thumbnail it finds there.
public struct ThumbnailCache: Sendable {
  public let root: RawPath

  /// Largest first: the best picture for a result.
  public static let sizes = ["xx-large", "x-large", "large", "normal"]

  public init(root: RawPath) { self.root = root }

  /// The file name of a thumbnail of `uri` in every size folder: the MD5 of the URI.
  public static func fileName(for uri: String) -> String { MD5.hex(Array(uri.utf8)) + ".png" }

  /// The path of a thumbnail of `uri` that is current for a file last
  /// modified at `modified` (seconds), or nil.
  public func existing(for uri: String, modified: Int64) -> RawPath? {
    let name = Self.fileName(for: uri)
    for size in Self.sizes {
      let path = root.appending(size).appending(name)
      guard FileSystem.status(path)?.kind == .regular,
        let head = try? FileSystem.readPrefix(path, limit: 256 << 10),
        Self.isCurrent(png: head, uri: uri, modified: modified)
      else { continue }
      return path
    }
    return nil
  }

  /// The URI and modification time (seconds) a thumbnail names, read from
  /// its text chunks; nil for a file that is not such a thumbnail.
  public static func subject(ofThumbnail path: RawPath) -> (uri: String, modified: Int64)? {
    guard let head = try? FileSystem.readPrefix(path, limit: 256 << 10) else { return nil }
    let text = textChunks(head)
    guard let uri = text["Thumb::URI"], let modified = text["Thumb::MTime"].flatMap({ Int64($0) })
    else { return nil }
    return (uri, modified)
  }

  /// How large a thumbnail in the cache is: the rank of its size folder,
  /// larger better (-1 outside the cache's size folders).
  public func rank(of thumbnail: RawPath) -> Int {
    guard thumbnail.parent.parent == root,
      let index = Self.sizes.firstIndex(of: thumbnail.parent.lastComponent.string)
    else { return -1 }
    return Self.sizes.count - index
  }

  /// Whether a thumbnail's text chunks name this URI and modification time.
  static func isCurrent(png: [UInt8], uri: String, modified: Int64) -> Bool {
    let text = textChunks(png)
    return text["Thumb::URI"] == uri && text["Thumb::MTime"].flatMap { Int64($0) } == modified
  }

  /// The `tEXt` chunks of a PNG (keyword → Latin-1 text), up to its end or
  /// its first damaged chunk.
  static func textChunks(_ png: [UInt8]) -> [String: String] {
    var texts: [String: String] = [:]
    for chunk in PNGChunks.read(png)?.chunks ?? [] where chunk.type == "tEXt" {
      guard let zero = png[chunk.data].firstIndex(of: 0) else { continue }
      let latin1 = { (bytes: ArraySlice<UInt8>) in
        String(bytes.map { Character(Unicode.Scalar($0)) })
      }
      texts[latin1(png[chunk.data.lowerBound..<zero])] = latin1(
        png[(zero + 1)..<chunk.data.upperBound])
    }
    return texts
  }
}

/// The chunks of a PNG file: length, type, data, CRC each.
enum PNGChunks {
  static let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]

  struct Chunk {
    var type: String
    /// The whole chunk, length to CRC.
    var whole: Range<Int>
    var data: Range<Int>
  }

  /// The chunks in order, up to `IEND` (`complete`) or up to the first one
  /// that runs past the end; nil without the PNG signature.
  static func read(_ png: [UInt8]) -> (chunks: [Chunk], complete: Bool)? {
    guard png.count >= 8, png[0..<8].elementsEqual(signature) else { return nil }
    var chunks: [Chunk] = []
    var at = 8
    while at + 12 <= png.count {
      let length =
        Int(png[at]) << 24 | Int(png[at + 1]) << 16 | Int(png[at + 2]) << 8 | Int(png[at + 3])
      guard length <= png.count - at - 12 else { break }
      let type = String(decoding: png[(at + 4)..<(at + 8)], as: UTF8.self)
      chunks.append(
        Chunk(type: type, whole: at..<(at + 12 + length), data: (at + 8)..<(at + 8 + length)))
      if type == "IEND" { return (chunks, true) }
      at += 12 + length
    }
    return (chunks, false)
  }
}
