import Foundation
import LimelightImport

/// The text of a PowerPoint 97–2003 presentation: the text atoms of its
/// `PowerPoint Document` stream, in the order they are stored. PowerPoint
/// keeps a slide's placeholders in the document's slide list and other text
/// in the slide's drawing; LibreOffice writes all of it in the drawings
/// (catppt reads only the slide list, and finds nothing in LibreOffice's).
/// The masters' sample text ("Click to edit the title text format") is left
/// out.
struct PowerPointText {
  static let streamName = "PowerPoint Document"

  /// The paragraphs, in order.
  var paragraphs: [String] = []
  /// The number of slides.
  var slides = 0

  private enum Record: UInt16 {
    case slide = 0x03EE
    case mainMaster = 0x03F8
    case handout = 0x0FC9
    case textChars = 0x0FA0
    case textBytes = 0x0FA8
  }

  /// Reads every record of the stream, up to `limit` bytes of text.
  init(_ stream: [UInt8], limit: Int) {
    var budget = limit
    walk(stream, from: 0, to: stream.count, depth: 0, budget: &budget)
  }

  private mutating func walk(
    _ stream: [UInt8], from start: Int, to end: Int, depth: Int, budget: inout Int
  ) {
    var offset = start
    while offset + 8 <= end, budget > 0 {
      let version = UInt16(stream.littleEndian(offset, 2)) & 0x0F
      let type = Record(rawValue: UInt16(stream.littleEndian(offset + 2, 2)))
      let length = Int(stream.littleEndian(offset + 4, 4))
      let body = offset + 8
      let bodyEnd = min(end, body + length)
      if type == .slide { slides += 1 }
      if version == 0x0F {
        if type != .mainMaster && type != .handout && depth < 32 {
          walk(stream, from: body, to: bodyEnd, depth: depth + 1, budget: &budget)
        }
      } else if type == .textChars || type == .textBytes {
        let text: String
        if type == .textChars {
          let units = stride(from: body, to: bodyEnd - 1, by: 2).map {
            UInt16(stream.littleEndian($0, 2))
          }
          text = String(decoding: units, as: UTF16.self)
        } else {
          // One byte a character: the low bytes of UTF-16, that is Latin-1.
          text = String(stream[body..<bodyEnd].map { Character(Unicode.Scalar($0)) })
        }
        // A carriage return ends a paragraph, a vertical tab breaks a line.
        for line in text.split(whereSeparator: { $0 == "\r" || $0 == "\u{0B}" || $0 == "\n" }) {
          let trimmed = line.trimmingCharacters(in: .whitespaces)
          // "*" alone is a slide number's field, not text.
          guard !trimmed.isEmpty, trimmed != "*" else { continue }
          paragraphs.append(trimmed)
          budget -= trimmed.utf8.count + 1
        }
      }
      offset = body + length
    }
  }
}
