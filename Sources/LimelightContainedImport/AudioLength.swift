import LimelightImport
import LimelightPlatform

/// An audio file's length to the millisecond, read from the file itself.
/// TagLib's C interface counts whole seconds, so a clip of under a second
/// (a spoken word, a sound effect) had no length at all, and a song of
/// 3.7 seconds had 3.
enum AudioLength {
  /// The most an Ogg page holds: the last one of a stream lies within
  /// twice this of the file's end.
  static let oggPage = 65_307

  /// The length of a WAVE file's frames or of an Ogg Vorbis or Opus stream,
  /// from the file's first bytes (and, for Ogg, its last pages); nil for
  /// other files, or when it cannot be told.
  static func seconds(of request: ImportRequest) throws -> Double? {
    let head = request.head
    if let wave = WaveHeader(head) {
      guard let frames = wave.frames, wave.byteRate > 0 else { return nil }
      let size = min(frames.size, max(0, Int(request.size) - frames.offset))
      return Double(size) / Double(wave.byteRate)
    }
    guard head.starts(with: Array("OggS".utf8)) else { return nil }
    let start = max(0, Int(request.size) - 2 * oggPage)
    let tail = try FileSystem.readRange(request.path, offset: start, length: 2 * oggPage)
    return ogg(head: head, tail: tail)
  }

  /// The last granule position of the first logical stream (its last page,
  /// in `tail`), over the rate its identification header (in `head`) gives:
  /// Opus counts at 48 kHz, less the samples its decoder skips.
  static func ogg(head: [UInt8], tail: [UInt8]) -> Double? {
    guard head.count >= 28, head.starts(with: Array("OggS".utf8)) else { return nil }
    let packet = 27 + Int(head[26])
    guard packet + 19 <= head.count else { return nil }
    let serial = head.littleEndian(14, 4)
    let rate: Double
    var skipped = 0.0
    if head[packet..<packet + 7].elementsEqual([1] + Array("vorbis".utf8)) {
      rate = Double(head.littleEndian(packet + 12, 4))
    } else if head[packet..<packet + 8].elementsEqual("OpusHead".utf8) {
      rate = 48_000
      skipped = Double(head.littleEndian(packet + 10, 2))
    } else {
      return nil
    }
    guard rate > 0 else { return nil }
    // The last page of the stream carries the position after its last sample.
    var at = tail.count - 27
    while at >= 0 {
      if tail[at] == 0x4F, tail[at..<at + 4].elementsEqual("OggS".utf8),
        tail.littleEndian(at + 14, 4) == serial
      {
        let granule = tail.littleEndian(at + 6, 8)
        if granule != UInt64.max {
          let samples = Double(granule) - skipped
          return samples > 0 ? (samples / rate * 1000).rounded() / 1000 : 0
        }
      }
      at -= 1
    }
    return nil
  }
}
