/// An audio file's length to the millisecond, read from the file itself.
/// TagLib's C interface counts whole seconds, so a clip of under a second
/// (a spoken word, a sound effect) had no length at all, and a song of
/// 3.7 seconds had 3.
enum AudioLength {
  /// The length of an Ogg Vorbis or Opus stream (`bytes` the whole file),
  /// or of a WAVE file's frames; nil for other files or when it cannot be
  /// told.
  static func seconds(of bytes: [UInt8]) -> Double? {
    if let wave = WaveHeader(bytes), let frames = wave.dataBytes, wave.byteRate > 0 {
      return Double(frames) / Double(wave.byteRate)
    }
    return ogg(bytes)
  }

  /// The last granule position of the first logical stream, over the rate
  /// its identification header gives (Opus counts at 48 kHz, less the
  /// samples its decoder skips).
  static func ogg(_ bytes: [UInt8]) -> Double? {
    guard bytes.count >= 28, bytes.starts(with: Array("OggS".utf8)) else { return nil }
    let segments = Int(bytes[26])
    let packet = 27 + segments
    guard packet + 19 <= bytes.count else { return nil }
    let serial = CompoundFile.u32(bytes, 14)
    let rate: Double
    var skipped = 0.0
    if bytes[packet..<packet + 7].elementsEqual([1] + Array("vorbis".utf8)) {
      rate = Double(CompoundFile.u32(bytes, packet + 12))
    } else if bytes[packet..<packet + 8].elementsEqual("OpusHead".utf8) {
      rate = 48_000
      skipped = Double(CompoundFile.u16(bytes, packet + 10))
    } else {
      return nil
    }
    guard rate > 0 else { return nil }
    // The last page of the stream carries the position after its last sample.
    var at = bytes.count - 27
    while at >= 0 {
      if bytes[at] == 0x4F, bytes[at..<at + 4].elementsEqual("OggS".utf8),
        CompoundFile.u32(bytes, at + 14) == serial
      {
        let granule =
          UInt64(CompoundFile.u32(bytes, at + 6))
          | UInt64(CompoundFile.u32(bytes, at + 10)) << 32
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
