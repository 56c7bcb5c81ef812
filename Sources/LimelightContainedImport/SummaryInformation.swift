import Foundation
import LimelightImport
import LimelightModel

/// The document properties an Office file of before 2007 keeps in its
/// `SummaryInformation` stream (an OLE property set): title, subject,
/// author, keywords, comments, page count and the date it was made.
struct SummaryInformation {
  var title: String?
  var subject: String?
  var author: String?
  var keywords: String?
  var comments: String?
  var pageCount: Int?
  var created: Date?

  /// The stream's name inside the compound file.
  static let streamName = "\u{5}SummaryInformation"

  /// Reads the first property section; nil when the stream is not one.
  init?(_ stream: [UInt8]) {
    guard stream.count >= 48, stream.littleEndian(0, 2) == 0xFFFE else { return nil }
    let section = Int(stream.littleEndian(44, 4))
    let count = Int(stream.littleEndian(section + 4, 4))
    guard section + 8 + 8 * count <= stream.count, count < 1_000 else { return nil }
    var values: [UInt32: Int] = [:]
    for index in 0..<count {
      let entry = section + 8 + 8 * index
      values[UInt32(stream.littleEndian(entry, 4))] =
        section + Int(stream.littleEndian(entry + 4, 4))
    }
    // Property 1 is the code page of every 8-bit string in the set.
    let codePage = values[1].map { Int(stream.littleEndian($0 + 4, 2)) } ?? 1252
    func string(_ id: UInt32) -> String? {
      guard let at = values[id], at + 8 <= stream.count else { return nil }
      let length = Int(stream.littleEndian(at + 4, 4))
      let start = at + 8
      switch stream.littleEndian(at, 4) {
      case 0x1E:  // bytes in the set's code page, ending in a NUL
        let end = min(start + length, stream.count)
        let bytes = stream[start..<end].prefix { $0 != 0 }
        return DocumentProperties.meaningful(Self.decode(Array(bytes), codePage: codePage))
      case 0x1F:  // UTF-16 code units, ending in a NUL
        let units = stride(from: start, to: min(start + 2 * length, stream.count - 1), by: 2)
          .map { UInt16(stream.littleEndian($0, 2)) }.prefix { $0 != 0 }
        return DocumentProperties.meaningful(String(decoding: units, as: UTF16.self))
      default: return nil
      }
    }
    title = string(2)
    subject = string(3)
    author = string(4)
    keywords = string(5)
    comments = string(6)
    if let at = values[14], stream.littleEndian(at, 4) == 0x03 {
      let pages = Int(Int32(bitPattern: UInt32(stream.littleEndian(at + 4, 4))))
      if pages > 0 { pageCount = pages }
    }
    if let at = values[12], stream.littleEndian(at, 4) == 0x40 {
      // 100-nanosecond steps since 1601; a date before 1980 is a blank one.
      let ticks = stream.littleEndian(at + 4, 8)
      let seconds = Double(ticks) / 10_000_000 - 11_644_473_600
      if seconds > 315_532_800, seconds < 4_102_444_800 {
        created = Date(timeIntervalSince1970: seconds)
      }
    }
  }

  /// 8-bit text in a Windows code page; an unknown page is read as UTF-8
  /// when it is valid, else as Windows Western.
  static func decode(_ bytes: [UInt8], codePage: Int) -> String? {
    let encodings: [Int: String.Encoding] = [
      1250: .windowsCP1250, 1251: .windowsCP1251, 1252: .windowsCP1252, 1253: .windowsCP1253,
      1254: .windowsCP1254, 932: .shiftJIS, 10000: .macOSRoman, 28591: .isoLatin1,
      65001: .utf8,
    ]
    if let encoding = encodings[codePage], let text = String(bytes: bytes, encoding: encoding) {
      return text
    }
    return String(validating: bytes, as: UTF8.self)
      ?? String(bytes: bytes, encoding: .windowsCP1252)
  }

  /// The properties into an item's attributes, beside what its text gave.
  func apply(to attributes: inout AttributeSet) {
    if let title { attributes.title = String(title.prefix(AttributeSet.descriptionLimit)) }
    if let author { attributes.authors = [author] }
    if let subject { attributes.extra["subject"] = .string(subject) }
    if let keywords {
      attributes.keywords += DocumentProperties.keywords(in: keywords)
    }
    if let comments { attributes.contentDescription = AttributeSet.summary(of: comments) }
    if let pageCount { attributes.extra["pageCount"] = .number(Double(pageCount)) }
    if let created { attributes.created = created }
  }
}
