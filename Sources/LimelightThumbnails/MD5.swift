import Foundation

/// MD5 (RFC 1321), for the names of the freedesktop thumbnail cache, which
/// are the MD5 of a file's URI. Not for anything that needs security.
public enum MD5 {
  static let shifts: [UInt32] = [
    7, 12, 17, 22, 7, 12, 17, 22, 7, 12, 17, 22, 7, 12, 17, 22,
    5, 9, 14, 20, 5, 9, 14, 20, 5, 9, 14, 20, 5, 9, 14, 20,
    4, 11, 16, 23, 4, 11, 16, 23, 4, 11, 16, 23, 4, 11, 16, 23,
    6, 10, 15, 21, 6, 10, 15, 21, 6, 10, 15, 21, 6, 10, 15, 21,
  ]
  /// floor(abs(sin(i + 1)) * 2^32).
  static let constants: [UInt32] = (0..<64).map { i in
    UInt32(truncatingIfNeeded: Int64((abs(sin(Double(i + 1))) * 4_294_967_296.0).rounded(.down)))
  }

  /// The digest of `bytes` as 32 lowercase hexadecimal digits.
  public static func hex(_ bytes: [UInt8]) -> String {
    digest(bytes).map { byte in
      let digits = Array("0123456789abcdef")
      return String([digits[Int(byte >> 4)], digits[Int(byte & 0xF)]])
    }.joined()
  }

  public static func digest(_ bytes: [UInt8]) -> [UInt8] {
    var message = bytes
    let bitLength = UInt64(bytes.count) &* 8
    message.append(0x80)
    while message.count % 64 != 56 { message.append(0) }
    for i in 0..<8 { message.append(UInt8(truncatingIfNeeded: bitLength >> (8 * UInt64(i)))) }
    var (a0, b0, c0, d0): (UInt32, UInt32, UInt32, UInt32) = (
      0x6745_2301, 0xEFCD_AB89, 0x98BA_DCFE, 0x1032_5476
    )
    for chunk in stride(from: 0, to: message.count, by: 64) {
      var words = [UInt32](repeating: 0, count: 16)
      for i in 0..<16 {
        let at = chunk + i * 4
        words[i] =
          UInt32(message[at]) | UInt32(message[at + 1]) << 8 | UInt32(message[at + 2]) << 16
          | UInt32(message[at + 3]) << 24
      }
      var (a, b, c, d) = (a0, b0, c0, d0)
      for i in 0..<64 {
        var f: UInt32
        let g: Int
        switch i {
        case 0..<16: (f, g) = ((b & c) | (~b & d), i)
        case 16..<32: (f, g) = ((d & b) | (~d & c), (5 * i + 1) % 16)
        case 32..<48: (f, g) = (b ^ c ^ d, (3 * i + 5) % 16)
        default: (f, g) = (c ^ (b | ~d), (7 * i) % 16)
        }
        f = f &+ a &+ constants[i] &+ words[g]
        a = d
        d = c
        c = b
        b = b &+ (f << shifts[i] | f >> (32 - shifts[i]))
      }
      a0 = a0 &+ a
      b0 = b0 &+ b
      c0 = c0 &+ c
      d0 = d0 &+ d
    }
    return [a0, b0, c0, d0].flatMap { word in
      (0..<4).map { UInt8(truncatingIfNeeded: word >> (8 * $0)) }
    }
  }
}
