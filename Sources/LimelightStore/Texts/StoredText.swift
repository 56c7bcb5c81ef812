import CInflate
import Foundation
import GRDB
import LimelightModel
import LimelightPlatform

/// An item's extracted text as the index keeps it: once, packed (text
/// compresses about fourfold: ``TextPacker``), in `text_body`. The
/// full-text index reads it back through `limelight_inflate` when it needs
/// the words (snippets, phrase checks, removing an item's words).
enum StoredText {
  /// The packed text of the item whose words are `w` (an `item_words`
  /// row), as SQL: NULL when it has none.
  static let bodyOfWords = "(SELECT text FROM text_body WHERE id = w.textID)"

  /// `expression`, over the words `w` (an `item_words` row) of the item
  /// whose rowid `row` names, as SQL.
  static func ofWords(_ expression: String, row: String) -> String {
    "(SELECT \(expression) FROM item_words AS w WHERE w.rowid = \(row))"
  }

  /// The deflated bytes of a text (zlib format): how texts are packed
  /// until the index has a dictionary. Zlib's fastest level: packing the
  /// index packs them again with the dictionary once it is trained, so
  /// they are kept this way for minutes only.
  static func deflate(_ text: [UInt8]) -> Data {
    var input = text
    var length = compressBound(uLong(input.count))
    var output = [UInt8](repeating: 0, count: Int(length))
    let status = input.withUnsafeMutableBufferPointer { source in
      compress2(&output, &length, source.baseAddress, uLong(source.count), 1)
    }
    // compress2 fails only for want of room, which compressBound rules out.
    precondition(status == Z_OK, "zlib compress2 failed: \(status)")
    return Data(output.prefix(Int(length)))
  }

  /// The text of deflated bytes; nil when they are not zlib data.
  static func inflate(_ data: [UInt8]) -> String? {
    var stream = z_stream()
    guard inflateInit_(&stream, ZLIB_VERSION, Int32(MemoryLayout<z_stream>.size)) == Z_OK else {
      return nil
    }
    defer { inflateEnd(&stream) }
    var result = [UInt8]()
    result.reserveCapacity(data.count * 4)
    var chunk = [UInt8](repeating: 0, count: 64 * 1024)
    var input = data
    return input.withUnsafeMutableBufferPointer { source -> String? in
      stream.next_in = source.baseAddress
      stream.avail_in = uInt(source.count)
      while true {
        let status = chunk.withUnsafeMutableBufferPointer { out -> Int32 in
          stream.next_out = out.baseAddress
          stream.avail_out = uInt(out.count)
          return CInflate.inflate(&stream, Z_NO_FLUSH)
        }
        result.append(contentsOf: chunk.prefix(chunk.count - Int(stream.avail_out)))
        if status == Z_STREAM_END { return String(decoding: result, as: UTF8.self) }
        if status != Z_OK { return nil }
      }
    }
  }

  /// `limelight_deflate(text)`: the stored form of a text (NULL for NULL or '').
  static let deflateFunction = DatabaseFunction("limelight_deflate", argumentCount: 1, pure: true) {
    values in
    guard let text = String.fromDatabaseValue(values[0]), !text.isEmpty else { return nil }
    return deflate(Array(text.utf8))
  }

  /// `limelight_repack(blob)`: a stored text packed again as `texts` packs
  /// now (with the dictionary trained since it was written).
  static func repackFunction(_ texts: TextPacker) -> DatabaseFunction {
    DatabaseFunction("limelight_repack", argumentCount: 1, pure: false) { values in
      guard let data = Data.fromDatabaseValue(values[0]) else { return nil }
      guard let text = TextPacker.unpack(data) else { return data }
      return texts.pack(text)
    }
  }

  /// `limelight_file_uri(path)`: the `file://` URI of a path (bytes), from
  /// which `item.uri` is computed for files instead of being stored.
  static let fileURIFunction = DatabaseFunction(
    "limelight_file_uri", argumentCount: 1, pure: true
  ) { values in
    guard let path = Data.fromDatabaseValue(values[0]) else { return nil }
    return FileURI.uri(for: RawPath(bytes: Array(path)))
  }

  /// `limelight_inflate(blob)`: the text of a stored form (NULL for NULL).
  /// Damaged bytes read as NULL: the item then has no text, which is better
  /// than a query that fails.
  static let inflateFunction = DatabaseFunction("limelight_inflate", argumentCount: 1, pure: true) {
    values in
    guard let data = Data.fromDatabaseValue(values[0]) else { return nil }
    return TextPacker.unpack(data)
  }
}
