import CLinux
import LimelightModel

#if canImport(Glibc)
  import Glibc
#endif

/// Turns the bytes of a text file into a string, whatever its encoding, and
/// refuses binary content so that garbage never reaches the index.
public enum TextDecoder {
  /// Decodes `bytes`; `truncated` says the file went on past them. `charset` is
  /// what libmagic guessed, used when the bytes are not UTF-8.
  public static func decode(_ bytes: [UInt8], truncated: Bool, charset: String?) -> String? {
    if bytes.isEmpty { return "" }
    // Byte-order marks name their encoding.
    if bytes.starts(with: [0xEF, 0xBB, 0xBF]) {
      return decodeUTF8(Array(bytes.dropFirst(3)), truncated: truncated)
    }
    if bytes.starts(with: [0xFF, 0xFE]) {
      return iconvDecode(Array(bytes.dropFirst(2)), from: "UTF-16LE")
    }
    if bytes.starts(with: [0xFE, 0xFF]) {
      return iconvDecode(Array(bytes.dropFirst(2)), from: "UTF-16BE")
    }
    if let charset = charset?.lowercased(),
      charset.hasPrefix("utf-16") || charset.hasPrefix("utf-32")
    {
      return iconvDecode(bytes, from: charset.uppercased())
    }
    if looksBinary(bytes) { return nil }
    if let text = decodeUTF8(bytes, truncated: truncated) { return text }
    var source = "WINDOWS-1252"
    if let charset = charset?.lowercased(), charset != "unknown-8bit", charset != "binary",
      charset != "us-ascii", charset != "utf-8"
    {
      source = charset.uppercased()
    }
    return iconvDecode(bytes, from: source) ?? iconvDecode(bytes, from: "ISO-8859-1")
  }

  /// NUL bytes or many control characters in the first 8 KiB mark binary content.
  /// UTF-16 text (with its byte-order mark) is full of NULs but is not binary.
  public static func looksBinary(_ bytes: [UInt8]) -> Bool {
    if bytes.starts(with: [0xFF, 0xFE]) || bytes.starts(with: [0xFE, 0xFF]) { return false }
    let sample = bytes.prefix(8192)
    var control = 0
    for byte in sample {
      if byte == 0 { return true }
      if byte < 0x20 && byte != 0x09 && byte != 0x0A && byte != 0x0D && byte != 0x0C && byte != 0x1B
      {
        control += 1
      }
    }
    return control * 20 > sample.count
  }

  /// Strict UTF-8; a sequence cut by the size cap at the very end is dropped.
  static func decodeUTF8(_ bytes: [UInt8], truncated: Bool) -> String? {
    var bytes = bytes
    if truncated {
      // Drop up to three bytes of a multi-byte sequence the cap cut in half.
      var cut = 0
      while cut < 3, let last = bytes.last, last & 0xC0 == 0x80 {
        bytes.removeLast()
        cut += 1
      }
      if let last = bytes.last, last >= 0xC0 { bytes.removeLast() }
    }
    return String(validating: bytes, as: UTF8.self)
  }

  /// Converts from any encoding iconv knows to a String, or nil.
  static func iconvDecode(_ bytes: [UInt8], from encoding: String) -> String? {
    let converter = iconv_open("UTF-8", encoding)
    guard converter != iconv_t(bitPattern: -1) else { return nil }
    defer { iconv_close(converter) }
    var input = bytes.map { CChar(bitPattern: $0) }
    var output = [CChar](repeating: 0, count: bytes.count * 4 + 16)
    var result: [UInt8] = []
    let ok = input.withUnsafeMutableBufferPointer { inBuffer -> Bool in
      output.withUnsafeMutableBufferPointer { outBuffer -> Bool in
        var inPointer: UnsafeMutablePointer<CChar>? = inBuffer.baseAddress
        var inLeft = inBuffer.count
        var outPointer: UnsafeMutablePointer<CChar>? = outBuffer.baseAddress
        var outLeft = outBuffer.count
        while inLeft > 0 {
          let status = iconv(converter, &inPointer, &inLeft, &outPointer, &outLeft)
          if status == -1 {
            // Skip one undecodable byte (or stop at a sequence cut at the end).
            if errno == EILSEQ, inLeft > 0 {
              inPointer = inPointer! + 1
              inLeft -= 1
              continue
            }
            break
          }
        }
        let produced = outBuffer.count - outLeft
        result = outBuffer.prefix(produced).map { UInt8(bitPattern: $0) }
        return true
      }
    }
    guard ok else { return nil }
    return String(decoding: result, as: UTF8.self)
  }
}
