import Foundation
import LimelightImport
import LimelightModel
import LimelightPlatform

#if canImport(Glibc)
  import Glibc
#endif

/// Video containers read from their headers: MP4 and QuickTime (`mvhd` and
/// `tkhd` boxes), Matroska and WebM (EBML `Info` and `Tracks`), and AVI (the
/// `avih` header): duration, pixel dimensions, title and creation date where
/// the container holds them. The file is read by seeking from header to
/// header, never whole.
public struct VideoImporter: ContentImporter {
  public let contentTypes = HelperFormats.video

  public init() {}

  public func importContent(_ request: ImportRequest, into attributes: inout AttributeSet) throws {
    let file = try RandomAccessFile(request.path)
    let head = request.head
    var found = VideoFacts()
    if head.count >= 12 && Array(head[0..<4]) == Array("RIFF".utf8)
      && Array(head[8..<12]) == Array("AVI ".utf8)
    {
      found = try AVIReader(file: file).read()
    } else if head.count >= 4 && Array(head[0..<4]) == [0x1A, 0x45, 0xDF, 0xA3] {
      found = try MatroskaReader(file: file).read()
    } else if head.count >= 8 {
      found = try MP4Reader(file: file).read()
    }
    guard found.duration != nil || found.width != nil else {
      throw ImportFailure.malformed("no video header found")
    }
    if let duration = found.duration, duration.isFinite, duration >= 0 {
      attributes.extra["duration"] = .number((duration * 1000).rounded() / 1000)
    }
    if let width = found.width, let height = found.height, width > 0, height > 0 {
      attributes.extra["pixelWidth"] = .number(Double(width))
      attributes.extra["pixelHeight"] = .number(Double(height))
    }
    if let title = found.title, !title.isEmpty { attributes.title = title }
    if let created = found.created {
      attributes.extra["contentCreationDate"] = .date(created)
    }
  }
}

/// What a container says about its video.
struct VideoFacts {
  var duration: Double?
  var width: Int?
  var height: Int?
  var title: String?
  var created: Date?
}

/// Reads parts of a file at offsets, within its size.
final class RandomAccessFile {
  let fd: Int32
  let size: Int64

  init(_ path: RawPath) throws {
    fd = path.withCString { open($0, O_RDONLY | O_CLOEXEC) }
    guard fd >= 0 else {
      throw ImportFailure.malformed("cannot open: \(String(cString: strerror(errno)))")
    }
    var info = stat()
    size = fstat(fd, &info) == 0 ? Int64(info.st_size) : 0
  }

  deinit { close(fd) }

  /// Up to `count` bytes at `offset` (fewer at the end of the file).
  func read(at offset: Int64, count: Int) -> [UInt8] {
    guard offset >= 0, offset < size, count > 0 else { return [] }
    let wanted = Int(min(Int64(count), size - offset))
    var buffer = [UInt8](repeating: 0, count: wanted)
    // Whole, whatever interrupts the reads: a short read is read on from.
    var filled = 0
    while filled < wanted {
      let n = buffer.withUnsafeMutableBytes {
        pread(fd, $0.baseAddress! + filled, wanted - filled, off_t(offset) + off_t(filled))
      }
      if n < 0 && errno == EINTR { continue }
      guard n > 0 else { break }
      filled += n
    }
    return Array(buffer.prefix(filled))
  }
}

/// ISO base media files (MP4, MOV, M4V, 3GP).
struct MP4Reader {
  let file: RandomAccessFile
  /// Seconds from 1904-01-01 (the format's epoch) to 1970-01-01.
  static let epochOffset: Double = 2_082_844_800
  static let maxBoxes = 10_000

  func read() throws -> VideoFacts {
    var facts = VideoFacts()
    var visited = 0
    guard let moov = try box("moov", from: 0, to: file.size, visited: &visited) else {
      return facts
    }
    if let mvhd = try box("mvhd", from: moov.body, to: moov.end, visited: &visited) {
      let bytes = file.read(at: mvhd.body, count: 32)
      let version = bytes.first ?? 0
      let (created, scale, duration) =
        version == 1
        ? (bytes.bigEndian(4, 8), bytes.bigEndian(20, 4), bytes.bigEndian(24, 8))
        : (bytes.bigEndian(4, 4), bytes.bigEndian(12, 4), bytes.bigEndian(16, 4))
      if scale > 0 { facts.duration = Double(duration) / Double(scale) }
      let seconds = Double(created) - Self.epochOffset
      if created > 0, seconds > 0, seconds < 4_102_444_800 {
        facts.created = Date(timeIntervalSince1970: seconds)
      }
    }
    var offset = moov.body
    while offset < moov.end, visited < Self.maxBoxes,
      let trak = try box("trak", from: offset, to: moov.end, visited: &visited)
    {
      offset = trak.end
      guard let tkhd = try box("tkhd", from: trak.body, to: trak.end, visited: &visited) else {
        continue
      }
      let bytes = file.read(at: tkhd.body, count: 92)
      let at = (bytes.first ?? 0) == 1 ? 88 : 76
      let width = Int(bytes.bigEndian(at, 4) >> 16)
      let height = Int(bytes.bigEndian(at + 4, 4) >> 16)
      if width > 0 && height > 0 && facts.width == nil {
        (facts.width, facts.height) = (width, height)
      }
    }
    return facts
  }

  struct Box {
    var body: Int64
    var end: Int64
  }

  /// The first box of `type` among the boxes from `start` to `end`.
  func box(_ type: String, from start: Int64, to end: Int64, visited: inout Int) throws -> Box? {
    var offset = start
    let wanted = Array(type.utf8)
    while offset + 8 <= end, visited < Self.maxBoxes {
      visited += 1
      let header = file.read(at: offset, count: 16)
      guard header.count >= 8 else { return nil }
      var size = Int64(header.bigEndian(0, 4))
      var bodyStart = offset + 8
      if size == 1 {
        guard header.count >= 16 else { return nil }
        let large = header.bigEndian(8, 8)
        guard large <= UInt64(Int64.max) else { throw ImportFailure.malformed("box too large") }
        size = Int64(large)
        bodyStart = offset + 16
      } else if size == 0 {
        size = end - offset
      }
      guard size >= bodyStart - offset, offset <= end - size else {
        throw ImportFailure.malformed("a box runs past its container")
      }
      if Array(header[4..<8]) == wanted { return Box(body: bodyStart, end: offset + size) }
      offset += size
    }
    return nil
  }
}

/// Matroska and WebM.
struct MatroskaReader {
  let file: RandomAccessFile
  static let maxElements = 20_000

  func read() throws -> VideoFacts {
    var facts = VideoFacts()
    var visited = 0
    // The EBML header, then the Segment.
    var offset: Int64 = 0
    guard let header = element(at: offset, limit: file.size) else { return facts }
    offset = header.end
    guard let segment = element(at: offset, limit: file.size), segment.id == 0x1853_8067 else {
      throw ImportFailure.malformed("no Matroska segment")
    }
    var scale = 1_000_000.0
    var rawDuration: Double?
    var child = segment.body
    while child < segment.end, visited < Self.maxElements,
      let top = element(at: child, limit: segment.end)
    {
      visited += 1
      child = top.end
      switch top.id {
      case 0x1549_A966:  // Info
        var at = top.body
        while at < top.end, visited < Self.maxElements, let item = element(at: at, limit: top.end) {
          visited += 1
          at = item.end
          let bytes = file.read(at: item.body, count: Int(min(item.end - item.body, 4096)))
          switch item.id {
          case 0x2A_D7B1: scale = Double(bytes.bigEndian(0, min(bytes.count, 8)))
          case 0x4489:
            if bytes.count == 4 {
              rawDuration = Double(Float(bitPattern: UInt32(bytes.bigEndian(0, 4))))
            } else if bytes.count == 8 {
              rawDuration = Double(bitPattern: bytes.bigEndian(0, 8))
            }
          case 0x7BA9: facts.title = String(decoding: bytes, as: UTF8.self)
          default: break
          }
        }
      case 0x1654_AE6B:  // Tracks
        try readTracks(top, into: &facts, visited: &visited)
      case 0x1F43_B675:  // Cluster: the frames; the headers come before them.
        child = segment.end
      default: break
      }
    }
    if let rawDuration, scale > 0 { facts.duration = rawDuration * scale / 1e9 }
    return facts
  }

  func readTracks(_ tracks: Element, into facts: inout VideoFacts, visited: inout Int) throws {
    var at = tracks.body
    while at < tracks.end, visited < Self.maxElements,
      let entry = element(at: at, limit: tracks.end)
    {
      visited += 1
      at = entry.end
      guard entry.id == 0xAE else { continue }
      var inner = entry.body
      while inner < entry.end, visited < Self.maxElements,
        let item = element(at: inner, limit: entry.end)
      {
        visited += 1
        inner = item.end
        guard item.id == 0xE0 else { continue }  // Video
        var field = item.body
        while field < item.end, visited < Self.maxElements,
          let value = element(at: field, limit: item.end)
        {
          visited += 1
          field = value.end
          let bytes = file.read(at: value.body, count: Int(min(value.end - value.body, 8)))
          let number = Int(bytes.bigEndian(0, bytes.count) & 0xFFFF_FFFF)
          if value.id == 0xB0 && facts.width == nil { facts.width = number }
          if value.id == 0xBA && facts.height == nil { facts.height = number }
        }
      }
    }
  }

  struct Element {
    var id: UInt64
    var body: Int64
    var end: Int64
  }

  /// The element at `offset`; an unknown size reaches to `limit`.
  func element(at offset: Int64, limit: Int64) -> Element? {
    let bytes = file.read(at: offset, count: 12)
    guard let first = bytes.first, first != 0 else { return nil }
    let idLength = first.leadingZeroBitCount + 1
    guard idLength <= 4, bytes.count > idLength else { return nil }
    let id = bytes.bigEndian(0, idLength)
    let sizeByte = bytes[idLength]
    guard sizeByte != 0 else { return nil }
    let sizeLength = sizeByte.leadingZeroBitCount + 1
    guard bytes.count >= idLength + sizeLength else { return nil }
    var size = bytes.bigEndian(idLength, sizeLength)
    let marker = UInt64(1) << UInt64(7 * sizeLength)
    size &= marker - 1
    let body = offset + Int64(idLength + sizeLength)
    guard body <= limit else { return nil }
    let unknown = size == marker - 1
    guard unknown || size <= UInt64(limit - body) else { return nil }
    return Element(id: id, body: body, end: unknown ? limit : body + Int64(size))
  }
}

/// AVI: the main header of the `hdrl` list.
struct AVIReader {
  let file: RandomAccessFile

  func read() throws -> VideoFacts {
    var facts = VideoFacts()
    let bytes = file.read(at: 12, count: 128)
    // LIST <size> hdrl avih <size> <header>
    guard bytes.count >= 64, Array(bytes[0..<4]) == Array("LIST".utf8),
      Array(bytes[8..<12]) == Array("hdrl".utf8), Array(bytes[12..<16]) == Array("avih".utf8)
    else { throw ImportFailure.malformed("no AVI header") }
    let header = Array(bytes[20...])
    let microseconds = header.littleEndian(0, 4)
    let frames = header.littleEndian(16, 4)
    if microseconds > 0 { facts.duration = Double(frames) * Double(microseconds) / 1e6 }
    facts.width = Int(header.littleEndian(32, 4))
    facts.height = Int(header.littleEndian(36, 4))
    return facts
  }
}
