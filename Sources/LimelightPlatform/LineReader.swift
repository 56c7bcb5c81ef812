#if canImport(Glibc)
  import Glibc
#endif

/// Lines of a file descriptor, without their newlines; a line longer than
/// the limit is reported (and skipped) instead of being held in memory.
public struct LineReader: Sequence, IteratorProtocol {
  public struct TooLong: Error {}

  /// The longest line read by default (16 MiB: an item line of
  /// limelight-items(7) with its text).
  public static let defaultLimit = 16 << 20

  let fd: Int32
  let limit: Int
  let separator: UInt8
  var buffer: [UInt8] = []
  var start = 0
  var ended = false

  /// Lines of `fd` ended by `separator` (a newline, or NUL for records).
  public init(fd: Int32, separator: UInt8 = 0x0A, limit: Int = LineReader.defaultLimit) {
    self.fd = fd
    self.separator = separator
    self.limit = limit
  }

  public mutating func next() -> Result<[UInt8], TooLong>? {
    var skipping = false
    while true {
      if let newline = buffer[start...].firstIndex(of: separator) {
        let line = Array(buffer[start..<newline])
        start = newline + 1
        if skipping { return .failure(TooLong()) }
        return .success(line)
      }
      if buffer.count - start > limit {
        skipping = true
        buffer.removeAll(keepingCapacity: true)
        start = 0
      }
      if ended {
        guard start < buffer.count || skipping else { return nil }
        let line = Array(buffer[start...])
        buffer.removeAll()
        start = 0
        return skipping ? .failure(TooLong()) : .success(line)
      }
      if start > 0 {
        buffer.removeFirst(start)
        start = 0
      }
      var chunk = [UInt8](repeating: 0, count: 1 << 16)
      let count = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
      if count < 0 && errno == EINTR { continue }
      if count <= 0 {
        ended = true
        continue
      }
      buffer.append(contentsOf: chunk[..<count])
    }
  }
}
