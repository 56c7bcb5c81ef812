/// Big-endian and little-endian integers from bytes, zero past the end.
extension Array where Element == UInt8 {
  func bigEndian(_ at: Int, _ width: Int) -> UInt64 {
    guard at >= 0, at + width <= count else { return 0 }
    return (at..<(at + width)).reduce(0) { $0 << 8 | UInt64(self[$1]) }
  }

  func littleEndian(_ at: Int, _ width: Int) -> UInt64 {
    guard at >= 0, at + width <= count else { return 0 }
    return (at..<(at + width)).reversed().reduce(0) { $0 << 8 | UInt64(self[$1]) }
  }
}
