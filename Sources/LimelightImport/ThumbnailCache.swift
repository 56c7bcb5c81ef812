import LimelightModel

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

  /// The path of a thumbnail of `uri` that is current for a file last
  /// modified at `modified` (seconds), or nil.
  public func existing(for uri: String, modified: Int64) -> RawPath? {
    let name = MD5.hex(Array(uri.utf8)) + ".png"
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

  /// Whether a thumbnail's text chunks name this URI and modification time.
  static func isCurrent(png: [UInt8], uri: String, modified: Int64) -> Bool {
    let text = textChunks(png)
    return text["Thumb::URI"] == uri && text["Thumb::MTime"].flatMap { Int64($0) } == modified
  }

  /// The `tEXt` chunks of a PNG (keyword → text), up to the image data's end.
  static func textChunks(_ png: [UInt8]) -> [String: String] {
    guard png.count >= 8,
      png[0..<8].elementsEqual([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
    else { return [:] }
    var chunks: [String: String] = [:]
    var at = 8
    while at + 8 <= png.count {
      let length =
        Int(png[at]) << 24 | Int(png[at + 1]) << 16 | Int(png[at + 2]) << 8 | Int(png[at + 3])
      let type = String(decoding: png[(at + 4)..<(at + 8)], as: UTF8.self)
      let body = at + 8
      guard length >= 0, length <= png.count - body else { break }
      if type == "tEXt", let zero = png[body..<(body + length)].firstIndex(of: 0) {
        // Latin-1 text.
        let key = String(png[body..<zero].map { Character(Unicode.Scalar($0)) })
        let value = String(png[(zero + 1)..<(body + length)].map { Character(Unicode.Scalar($0)) })
        chunks[key] = value
      }
      if type == "IEND" { break }
      at = body + length + 4
    }
    return chunks
  }
}
