import Foundation
import Testing

@testable import LimelightThumbnails

/// The shared thumbnail cache's names and validity checks.
@Suite struct ThumbnailCacheTests {
  @Test func md5MatchesTheStandardVectors() {
    #expect(MD5.hex([]) == "d41d8cd98f00b204e9800998ecf8427e")
    #expect(MD5.hex(Array("abc".utf8)) == "900150983cd24fb0d6963f7d28e17f72")
    #expect(
      MD5.hex(Array("The quick brown fox jumps over the lazy dog".utf8))
        == "9e107d9d372bb6826bd81d3542a419d6")
    let long = Array(String(repeating: "1234567890", count: 8).utf8)
    #expect(MD5.hex(long) == "57edf4a22be3c955ac49da2e2107b67a")
    // The standard's own example.
    #expect(
      MD5.hex(Array("file:///home/jens/photos/me.png".utf8)) == "c6ee772d9e49320e97ec29a7eb5b1697")
  }

  @Test func aThumbnailIsCurrentOnlyForItsURIAndTime() {
    let png = Self.png(text: ["Thumb::URI": "file:///a/b.png", "Thumb::MTime": "1700000000"])
    #expect(ThumbnailCache.isCurrent(png: png, uri: "file:///a/b.png", modified: 1_700_000_000))
    #expect(!ThumbnailCache.isCurrent(png: png, uri: "file:///a/c.png", modified: 1_700_000_000))
    #expect(!ThumbnailCache.isCurrent(png: png, uri: "file:///a/b.png", modified: 1_700_000_001))
    #expect(
      !ThumbnailCache.isCurrent(png: Array(png.prefix(30)), uri: "file:///a/b.png", modified: 1))
    #expect(ThumbnailCache.textChunks(Array(repeating: 0xFF, count: 64)).isEmpty)
  }

  /// A PNG signature, `tEXt` chunks and `IEND` (enough for the text; CRCs unchecked).
  static func png(text: [String: String]) -> [UInt8] {
    func chunk(_ type: String, _ body: [UInt8]) -> [UInt8] {
      let n = body.count
      return [UInt8(n >> 24 & 0xFF), UInt8(n >> 16 & 0xFF), UInt8(n >> 8 & 0xFF), UInt8(n & 0xFF)]
        + Array(type.utf8) + body + [0, 0, 0, 0]
    }
    var out: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
    for (key, value) in text.sorted(by: { $0.key < $1.key }) {
      out += chunk("tEXt", Array(key.utf8) + [0] + Array(value.utf8))
    }
    return out + chunk("IEND", [])
  }
}
