import Foundation
import LimelightModel
import LimelightPlatform

/// Images: pixel dimensions from the header of PNG, JPEG, GIF, WebP, BMP
/// and TIFF files (and camera raw files built on TIFF), and from a JPEG's
/// EXIF block or a TIFF's own directory the camera, lens, date taken,
/// orientation and GPS position. A bounded reader of the bytes: nothing in
/// the file can make it read outside them or loop.
public struct ImageImporter: ContentImporter {
  public var contentTypes: [String] {
    ["image/png", "image/jpeg", "image/gif", "image/webp", "image/bmp", "image/tiff"]
  }

  public init() {}

  /// How much of a JPEG is read looking for its EXIF block and frame header.
  static let jpegScanBytes = 1 << 20

  public func importContent(_ request: ImportRequest, into attributes: inout AttributeSet) throws {
    let tree = request.contentTypeTree
    var bytes = request.head
    if tree.contains("image/jpeg") && request.head.count >= FileImporter.headSize {
      bytes = try FileSystem.readPrefix(request.path, limit: Self.jpegScanBytes)
    }
    let reader = ByteReader(bytes)
    var size: (Int, Int)?
    if tree.contains("image/png") {
      size = reader.png()
    } else if tree.contains("image/jpeg") {
      var exif: [String: AttributeValue] = [:]
      size = reader.jpeg(exif: &exif)
      for (key, value) in exif { attributes.extra[key] = value }
      if case .date(let taken)? = exif["dateTaken"] { attributes.created = taken }
    } else if tree.contains("image/gif") {
      size = reader.gif()
    } else if tree.contains("image/webp") {
      size = reader.webp()
    } else if tree.contains("image/bmp") {
      size = reader.bmp()
    } else if tree.contains("image/tiff") {
      var exif: [String: AttributeValue] = [:]
      size = try Self.tiff(request, exif: &exif)
      for (key, value) in exif { attributes.extra[key] = value }
      if case .date(let taken)? = exif["dateTaken"] { attributes.created = taken }
    }
    guard let (width, height) = size else { throw ImportFailure.malformed("no image header") }
    attributes.extra["pixelWidth"] = .number(Double(width))
    attributes.extra["pixelHeight"] = .number(Double(height))
  }
}

extension ImageImporter {
  /// A TIFF image's size and EXIF fields, from its first directory. libtiff
  /// and Pillow write the directory after the pixels, so the window around
  /// it is read, not the file's start.
  static func tiff(_ request: ImportRequest, exif: inout [String: AttributeValue]) throws -> (
    Int, Int
  )? {
    let head = ByteReader(request.head)
    guard head.matches(0, "II") || head.matches(0, "MM") else { return nil }
    let little = head.matches(0, "II")
    guard let first = head.u32(4, little: little), first >= 8, Int64(first) < request.size
    else { return nil }
    // Its values (the camera's name, the date) lie close to it.
    let start = max(0, first - (64 << 10))
    let window = try FileSystem.readRange(request.path, offset: start, length: 256 << 10)
    var fields: [String: AttributeValue] = [:]
    Exif(reader: ByteReader(window), base: -start, end: window.count)
      .read(from: first, little: little, into: &fields)
    guard case .number(let width)? = fields.removeValue(forKey: "pixelWidth"),
      case .number(let height)? = fields.removeValue(forKey: "pixelHeight"), width > 0,
      height > 0
    else { return nil }
    exif = fields
    return (Int(width), Int(height))
  }
}

/// Bounds-checked reads of integers from a byte buffer.
struct ByteReader {
  let bytes: [UInt8]
  init(_ bytes: [UInt8]) { self.bytes = bytes }

  func u8(_ at: Int) -> Int? { at >= 0 && at < bytes.count ? Int(bytes[at]) : nil }
  func u16(_ at: Int, little: Bool) -> Int? {
    guard let a = u8(at), let b = u8(at + 1) else { return nil }
    return little ? a | b << 8 : a << 8 | b
  }
  func u32(_ at: Int, little: Bool) -> Int? {
    guard let a = u16(at, little: little), let b = u16(at + 2, little: little) else { return nil }
    return little ? a | b << 16 : a << 16 | b
  }
  func matches(_ at: Int, _ text: String) -> Bool {
    let pattern = Array(text.utf8)
    return at >= 0 && at + pattern.count <= bytes.count
      && Array(bytes[at..<at + pattern.count]) == pattern
  }

  func png() -> (Int, Int)? {
    guard matches(12, "IHDR"), let w = u32(16, little: false), let h = u32(20, little: false)
    else { return nil }
    return (w, h)
  }

  func gif() -> (Int, Int)? {
    guard matches(0, "GIF"), let w = u16(6, little: true), let h = u16(8, little: true)
    else { return nil }
    return (w, h)
  }

  func bmp() -> (Int, Int)? {
    guard matches(0, "BM"), let w = u32(18, little: true), let h = u32(22, little: true) else {
      return nil
    }
    return (w, h > 0x7FFF_FFFF ? 0x1_0000_0000 - h : h)
  }

  func webp() -> (Int, Int)? {
    guard matches(0, "RIFF"), matches(8, "WEBP") else { return nil }
    if matches(12, "VP8X"), let w = u32(24, little: true), let h = u32(27, little: true) {
      return ((w & 0xFFFFFF) + 1, (h & 0xFFFFFF) + 1)
    }
    if matches(12, "VP8L"), let b = u32(21, little: true) {
      return ((b & 0x3FFF) + 1, (b >> 14 & 0x3FFF) + 1)
    }
    if matches(12, "VP8 "), let w = u16(26, little: true), let h = u16(28, little: true) {
      return (w & 0x3FFF, h & 0x3FFF)
    }
    return nil
  }

  /// Walks the JPEG markers up to the frame header, reading EXIF on the way.
  func jpeg(exif: inout [String: AttributeValue]) -> (Int, Int)? {
    guard u8(0) == 0xFF, u8(1) == 0xD8 else { return nil }
    var at = 2
    var steps = 0
    while let marker = u8(at + 1), u8(at) == 0xFF, steps < 1000 {
      steps += 1
      guard let length = u16(at + 2, little: false), length >= 2 else { return nil }
      if marker == 0xE1, matches(at + 4, "Exif\0\0") {
        Exif(reader: self, base: at + 10, end: min(at + 2 + length, bytes.count)).read(into: &exif)
      }
      // Start-of-frame markers (not DHT C4, JPG C8, DAC CC) carry the size.
      if (0xC0...0xCF).contains(marker) && ![0xC4, 0xC8, 0xCC].contains(marker) {
        guard let h = u16(at + 5, little: false), let w = u16(at + 7, little: false) else {
          return nil
        }
        return (w, h)
      }
      at += 2 + length
    }
    return nil
  }
}

/// The EXIF fields worth searching, from a TIFF structure inside a JPEG.
struct Exif {
  let reader: ByteReader
  let base: Int
  let end: Int

  func read(into out: inout [String: AttributeValue]) {
    guard reader.matches(base, "II") || reader.matches(base, "MM") else { return }
    let little = reader.matches(base, "II")
    guard let first = reader.u32(base + 4, little: little) else { return }
    read(from: first, little: little, into: &out)
  }

  /// The fields of the directory at `first` and those it points to.
  func read(from first: Int, little: Bool, into out: inout [String: AttributeValue]) {
    var visited: Set<Int> = []
    var fields: [Int: Field] = [:]
    readDirectory(first, little: little, into: &fields, visited: &visited)
    if case .pointer(let exif)? = fields[0x8769] {
      readDirectory(exif, little: little, into: &fields, visited: &visited)
    }
    var gps: [Int: Field] = [:]
    if case .pointer(let offset)? = fields[0x8825] {
      readDirectory(offset, little: little, into: &gps, visited: &visited)
    }
    // A TIFF image's own size (a JPEG's comes from its frame header).
    if case .numbers(let width)? = fields[0x0100], case .numbers(let height)? = fields[0x0101],
      let width = width.first, let height = height.first
    {
      out["pixelWidth"] = .number(width)
      out["pixelHeight"] = .number(height)
    }
    if case .text(let make)? = fields[0x010F] { out["cameraMake"] = .string(make) }
    if case .text(let model)? = fields[0x0110] { out["cameraModel"] = .string(model) }
    if case .text(let lens)? = fields[0xA434] { out["lensModel"] = .string(lens) }
    if case .numbers(let values)? = fields[0x0112], let orientation = values.first {
      out["orientation"] = .number(orientation)
    }
    if case .text(let taken)? = fields[0x9003] ?? fields[0x0132],
      let date = Self.date(taken)
    {
      out["dateTaken"] = .date(date)
    }
    if case .numbers(let lat)? = gps[2], case .numbers(let lon)? = gps[4], lat.count == 3,
      lon.count == 3
    {
      var latitude = lat[0] + lat[1] / 60 + lat[2] / 3600
      var longitude = lon[0] + lon[1] / 60 + lon[2] / 3600
      if case .text("S")? = gps[1] { latitude = -latitude }
      if case .text("W")? = gps[3] { longitude = -longitude }
      if latitude.isFinite && longitude.isFinite && abs(latitude) <= 90 && abs(longitude) <= 180 {
        out["latitude"] = .number(latitude)
        out["longitude"] = .number(longitude)
      }
    }
  }

  enum Field {
    case text(String)
    case numbers([Double])
    case pointer(Int)
  }

  func readDirectory(
    _ offset: Int, little: Bool, into fields: inout [Int: Field], visited: inout Set<Int>
  ) {
    let start = base + offset
    guard offset > 0, start < end, visited.insert(start).inserted,
      let count = reader.u16(start, little: little), count < 1000
    else { return }
    for n in 0..<count {
      let entry = start + 2 + n * 12
      guard entry + 12 <= end, let tag = reader.u16(entry, little: little),
        let type = reader.u16(entry + 2, little: little),
        let items = reader.u32(entry + 4, little: little), items < 1 << 16
      else { return }
      let unit = [1: 1, 2: 1, 3: 2, 4: 4, 5: 8, 7: 1, 9: 4, 10: 8][type] ?? 0
      guard unit > 0 else { continue }
      let inline = unit * items <= 4
      guard
        let valueAt = inline ? entry + 8 : reader.u32(entry + 8, little: little).map({ base + $0 }),
        valueAt >= base, valueAt + unit * items <= end
      else { continue }
      if tag == 0x8769 || tag == 0x8825 {
        if let pointer = reader.u32(valueAt, little: little) { fields[tag] = .pointer(pointer) }
        continue
      }
      switch type {
      case 2:
        let text = String(
          decoding: reader.bytes[valueAt..<valueAt + items].prefix { $0 != 0 }, as: UTF8.self
        )
        .trimmingCharacters(in: .whitespaces)
        if !text.isEmpty { fields[tag] = .text(text) }
      case 3:
        fields[tag] = .numbers(
          (0..<min(items, 8)).compactMap {
            reader.u16(valueAt + $0 * 2, little: little).map(Double.init)
          })
      case 4:
        fields[tag] = .numbers(
          (0..<min(items, 8)).compactMap {
            reader.u32(valueAt + $0 * 4, little: little).map(Double.init)
          })
      case 5:
        fields[tag] = .numbers(
          (0..<min(items, 8)).compactMap { i -> Double? in
            guard let n = reader.u32(valueAt + i * 8, little: little),
              let d = reader.u32(valueAt + i * 8 + 4, little: little), d != 0
            else { return nil }
            return Double(n) / Double(d)
          })
      default: break
      }
    }
  }

  /// "2024:07:14 18:03:22", the EXIF date form (local time, no zone).
  static func date(_ text: String) -> Date? {
    let formatter = DateFormatter()
    formatter.locale = Locale(identifier: "en_US_POSIX")
    formatter.dateFormat = "yyyy:MM:dd HH:mm:ss"
    return formatter.date(from: String(text.prefix(19)))
  }
}
