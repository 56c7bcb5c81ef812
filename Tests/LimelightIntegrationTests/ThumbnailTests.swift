import Foundation
import LimelightImport
import LimelightModel
import LimelightPlatform
import LimelightThumbnails
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// Thumbnails made in the background by the system's thumbnailers, into the
/// shared freedesktop cache.
@Suite struct ThumbnailTests {
  static let pixbufThumbnailer = "/usr/bin/gdk-pixbuf-thumbnailer"

  @Test func picturesGetThumbnailsThatFileManagersShare() throws {
    try #require(
      access(Self.pixbufThumbnailer, X_OK) == 0, "gdk-pixbuf-thumbnailer (libgdk-pixbuf2.0-bin)")
    let instance = try Instance()
    try instance.write("Pictures/dot.png", bytes: Self.png(width: 4, height: 4))
    try instance.startWatcher()
    var shown: [String: Any] = [:]
    try instance.waitFor("a thumbnail") {
      shown = try instance.show("Pictures/dot.png")
      return shown["thumbnailPath"] is String
    }
    let thumbnail = try #require(shown["thumbnailPath"] as? String)
    let path = RawPath(instance.path("Pictures/dot.png"))
    let uri = FileURI.uri(for: path)
    #expect(
      thumbnail == instance.base + "/xdg/cache/thumbnails/large/" + MD5.hex(Array(uri.utf8))
        + ".png")
    // Current by the standard's rules, so a file manager takes it too.
    let modified = try #require(FileSystem.status(path)).modified / 1_000_000_000
    let cache = ThumbnailCache(root: RawPath(instance.base + "/xdg/cache/thumbnails"))
    #expect(cache.existing(for: uri, modified: modified)?.string == thumbnail)
    // A change makes a new one for the new version.
    sleep(1)
    try instance.write("Pictures/dot.png", bytes: Self.png(width: 8, height: 8))
    let changed = try #require(FileSystem.status(path)).modified / 1_000_000_000
    try instance.waitFor("the new version's thumbnail") {
      let current = cache.existing(for: uri, modified: changed) != nil
      let shown = try instance.show("Pictures/dot.png")["thumbnailPath"] as? String
      return current && shown == thumbnail
    }
  }

  @Test func thumbnailsFollowTheirFilesAndGoWithThem() throws {
    try #require(access(Self.pixbufThumbnailer, X_OK) == 0)
    let instance = try Instance()
    try instance.write("Pictures/Trip/beach.png", bytes: Self.png(width: 5, height: 5))
    try instance.startWatcher()
    let cache = ThumbnailCache(root: RawPath(instance.base + "/xdg/cache/thumbnails"))
    func large(_ relative: String) -> String {
      let uri = FileURI.uri(for: RawPath(instance.path(relative)))
      return cache.root.string + "/large/" + MD5.hex(Array(uri.utf8)) + ".png"
    }
    try instance.waitFor("a thumbnail") {
      (try? instance.show("Pictures/Trip/beach.png"))?["thumbnailPath"] as? String
        == large("Pictures/Trip/beach.png")
    }
    // A renamed file, then a moved folder: the thumbnail is moved and
    // retagged for the new URI, and the old one is gone.
    for (from, to, shown) in [
      ("Pictures/Trip/beach.png", "Pictures/Trip/shore.png", "Pictures/Trip/shore.png"),
      ("Pictures/Trip", "Pictures/Holiday", "Pictures/Holiday/shore.png"),
    ] {
      let before = large(from.hasSuffix(".png") ? from : from + "/shore.png")
      try instance.move(from, to)
      // (The item may not be at its new path yet.)
      try instance.waitFor("the thumbnail of \(shown)") {
        (try? instance.show(shown))?["thumbnailPath"] as? String == large(shown)
      }
      let subject = ThumbnailCache.subject(ofThumbnail: RawPath(large(shown)))
      #expect(subject?.uri == FileURI.uri(for: RawPath(instance.path(shown))))
      #expect(access(before, F_OK) != 0, "\(before) is left behind")
    }
    // A file deleted takes its thumbnail with it.
    try instance.remove("Pictures/Holiday/shore.png")
    try instance.waitFor("the thumbnail to go") {
      access(large("Pictures/Holiday/shore.png"), F_OK) != 0
    }
    #expect(instance.stopWatcher() == 0)
  }

  @Test func aCleanedCacheIsFilledAgain() throws {
    try #require(access(Self.pixbufThumbnailer, X_OK) == 0)
    let instance = try Instance()
    try instance.write("Pictures/gull.png", bytes: Self.png(width: 7, height: 7))
    try instance.startWatcher()
    var thumbnail = ""
    try instance.waitFor("a thumbnail") {
      thumbnail = (try? instance.show("Pictures/gull.png"))?["thumbnailPath"] as? String ?? ""
      return access(thumbnail, F_OK) == 0
    }
    // Cleaned while the watcher runs, and while it is down: drawn again both times.
    for running in [true, false] {
      if !running { #expect(instance.stopWatcher() == 0) }
      #expect(unlink(thumbnail) == 0)
      if !running { try instance.startWatcher() }
      try instance.waitFor("the thumbnail drawn again (watcher running: \(running))") {
        let shown = try instance.show("Pictures/gull.png")["thumbnailPath"] as? String
        return access(thumbnail, F_OK) == 0 && shown == thumbnail
      }
    }
    #expect(instance.stopWatcher() == 0)
  }

  @Test func filesIndexedByAOneOffCrawlGetThumbnailsWhenTheWatcherStarts() throws {
    try #require(access(Self.pixbufThumbnailer, X_OK) == 0)
    let instance = try Instance()
    try instance.write("Pictures/early.png", bytes: Self.png(width: 6, height: 6))
    try instance.indexOnce()
    #expect(try instance.show("Pictures/early.png")["thumbnailPath"] is NSNull)
    try instance.startWatcher()
    try instance.waitFor("a thumbnail for the file indexed before") {
      try instance.show("Pictures/early.png")["thumbnailPath"] is String
    }
  }

  @Test func aThumbnailerThatFailsLeavesAFailureRecord() throws {
    let instance = try Instance()
    let folder = instance.base + "/xdg/data/thumbnailers"
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    try Data("[Thumbnailer Entry]\nExec=/bin/false %i %o\nMimeType=text/csv;\n".utf8).write(
      to: URL(fileURLWithPath: folder + "/broken.thumbnailer"))
    try instance.write("Tables/data.csv", "a,b\n")
    try instance.startWatcher()
    let uri = FileURI.uri(for: RawPath(instance.path("Tables/data.csv")))
    let record =
      instance.base + "/xdg/cache/thumbnails/fail/limelight/" + MD5.hex(Array(uri.utf8)) + ".png"
    try instance.waitFor("a failure record") { FileManager.default.fileExists(atPath: record) }
    #expect(try instance.show("Tables/data.csv")["thumbnailPath"] is NSNull)
  }

  @Test func theBuiltInThumbnailerDrawsImagesAndPDFPages() throws {
    let instance = try Instance()
    // The system's image thumbnailer, masked by the user's descriptor of the
    // same name whose program is missing: the built-in one draws instead.
    let folder = instance.base + "/xdg/data/thumbnailers"
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    try Data(
      "[Thumbnailer Entry]\nTryExec=/nonexistent\nExec=/nonexistent %i %o\nMimeType=image/png;\n"
        .utf8
    ).write(to: URL(fileURLWithPath: folder + "/gdk-pixbuf-thumbnailer.thumbnailer"))
    try instance.write("Pictures/wide.png", bytes: Self.png(width: 300, height: 150))
    try instance.write("Pictures/tiny.png", bytes: Self.png(width: 3, height: 2))
    try instance.write(
      "Docs/paper.pdf",
      bytes: ContainedImporterTests.pdf(
        title: "Paper", author: "A", subject: "S", keywords: "K", lines: ["drawn page"]))
    try instance.startWatcher()
    let cache = ThumbnailCache(root: RawPath(instance.base + "/xdg/cache/thumbnails"))
    for (file, size) in [("Pictures/wide.png", (256, 128)), ("Pictures/tiny.png", (3, 2))] {
      var thumbnail: String?
      try instance.waitFor("a built-in thumbnail of \(file)") {
        thumbnail = try instance.show(file)["thumbnailPath"] as? String
        return thumbnail != nil
      }
      let png = try #require(FileManager.default.contents(atPath: thumbnail ?? ""))
      // Scaled to fit 256 pixels, never enlarged, and current by the standard's rules.
      let drawn = Self.dimensions(Array(png))
      #expect(drawn?.0 == size.0 && drawn?.1 == size.1, "\(file): \(String(describing: drawn))")
      let path = RawPath(instance.path(file))
      let modified = try #require(FileSystem.status(path)).modified / 1_000_000_000
      #expect(cache.existing(for: FileURI.uri(for: path), modified: modified)?.string == thumbnail)
    }
    try instance.waitFor("the PDF's first page as its thumbnail") {
      try instance.show("Docs/paper.pdf")["thumbnailPath"] is String
    }
    let page = try #require(
      FileManager.default.contents(
        atPath: try instance.show("Docs/paper.pdf")["thumbnailPath"] as? String ?? ""))
    #expect(Self.dimensions(Array(page))?.1 == 256)
    #expect(instance.stopWatcher() == 0)
  }

  @Test func thumbnailsThatFileManagersWriteLaterAreTaken() throws {
    let instance = try Instance()
    try instance.write("Tables/data.csv", "a,b\n")
    try instance.startWatcher()
    #expect(try instance.show("Tables/data.csv")["thumbnailPath"] is NSNull)
    // A file manager draws it: written beside, renamed in, as the standard says.
    let path = RawPath(instance.path("Tables/data.csv"))
    let uri = FileURI.uri(for: path)
    let modified = try #require(FileSystem.status(path)).modified / 1_000_000_000
    let folder = instance.base + "/xdg/cache/thumbnails/normal"
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    let target = folder + "/" + MD5.hex(Array(uri.utf8)) + ".png"
    // A stale one (another modification time) is not taken.
    let stale = Self.png(
      width: 4, height: 4, text: [("Thumb::URI", uri), ("Thumb::MTime", String(modified - 10))])
    try Data(stale).write(to: URL(fileURLWithPath: target + ".tmp"))
    #expect(rename(target + ".tmp", target) == 0)
    usleep(500_000)
    #expect(try instance.show("Tables/data.csv")["thumbnailPath"] is NSNull)
    let current = Self.png(
      width: 4, height: 4, text: [("Thumb::URI", uri), ("Thumb::MTime", String(modified))])
    try Data(current).write(to: URL(fileURLWithPath: target + ".tmp"))
    #expect(rename(target + ".tmp", target) == 0)
    try instance.waitFor("the file manager's thumbnail") {
      try instance.show("Tables/data.csv")["thumbnailPath"] as? String == target
    }
    #expect(instance.stopWatcher() == 0)
  }

  /// Width and height from a PNG's header.
  static func dimensions(_ png: [UInt8]) -> (Int, Int)? {
    guard png.count > 24 else { return nil }
    func be(_ at: Int) -> Int { png[at..<(at + 4)].reduce(0) { $0 << 8 | Int($1) } }
    return (be(16), be(20))
  }

  /// A valid PNG (8-bit grey, stored deflate block), which real decoders read.
  static func png(width: UInt32, height: UInt32, text: [(String, String)] = []) -> [UInt8] {
    func be(_ v: UInt32) -> [UInt8] { (0..<4).reversed().map { UInt8((v >> ($0 * 8)) & 0xFF) } }
    func chunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
      let typed = Array(type.utf8) + data
      return be(UInt32(data.count)) + typed + be(crc32(typed))
    }
    var raw: [UInt8] = []
    for row in 0..<height {
      raw.append(0)  // filter: none
      for column in 0..<width { raw.append(UInt8(truncatingIfNeeded: (row * 40 + column * 20))) }
    }
    var a: UInt32 = 1
    var b: UInt32 = 0
    for byte in raw {
      a = (a + UInt32(byte)) % 65521
      b = (b + a) % 65521
    }
    let length = UInt16(raw.count)
    let deflate: [UInt8] =
      [
        0x78, 0x01, 0x01, UInt8(length & 0xFF), UInt8(length >> 8), UInt8(~length & 0xFF),
        UInt8(~length >> 8),
      ] + raw + be(b << 16 | a)
    return [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
      + chunk("IHDR", be(width) + be(height) + [8, 0, 0, 0, 0])
      + text.flatMap { chunk("tEXt", Array($0.0.utf8) + [0] + Array($0.1.utf8)) }
      + chunk("IDAT", deflate) + chunk("IEND", [])
  }

  static func crc32(_ bytes: [UInt8]) -> UInt32 {
    var crc: UInt32 = 0xFFFF_FFFF
    for byte in bytes {
      crc ^= UInt32(byte)
      for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
    }
    return ~crc
  }
}
