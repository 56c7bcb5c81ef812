/// The format of a RIFF WAVE file, read from its `fmt ` chunk.
///
/// TagLib gives no audio properties for a WAVE file whose `data` chunk is
/// empty (Python's `wave` module and `sox … trim 0 0` write such files: a
/// 44-byte header and no frames), yet the file is valid: silence of no
/// length. This tells such a file from a damaged one.
struct WaveHeader {
  var channels: Int
  var sampleRate: Int
  /// Bytes of sound a second.
  var byteRate = 0
  /// Where the frames start in the file and the size the `data` chunk
  /// says, when the bytes reach its header.
  var frames: (offset: Int, size: Int)?

  /// The format of the WAVE file whose first bytes are `bytes`, if they
  /// hold a `RIFF`/`WAVE` header and a `fmt ` chunk that names at least one
  /// channel and a sample rate.
  init?(_ bytes: [UInt8]) {
    guard bytes.count >= 12, bytes[0..<4].elementsEqual("RIFF".utf8),
      bytes[8..<12].elementsEqual("WAVE".utf8)
    else { return nil }
    // Zero past the end of the bytes.
    func littleEndian(_ at: Int, _ width: Int) -> Int { Int(bytes.littleEndian(at, width)) }
    var chunk = 12
    while chunk + 8 <= bytes.count {
      let size = littleEndian(chunk + 4, 4)
      if bytes[chunk..<chunk + 4].elementsEqual("fmt ".utf8) {
        guard size >= 16, chunk + 8 + 8 <= bytes.count else { return nil }
        channels = littleEndian(chunk + 10, 2)
        sampleRate = littleEndian(chunk + 12, 4)
        byteRate = littleEndian(chunk + 16, 4)
        guard channels > 0, sampleRate > 0 else { return nil }
        // The frames follow the format, often after other chunks.
        var data = chunk + 8 + size + size % 2
        while data + 8 <= bytes.count {
          let dataSize = littleEndian(data + 4, 4)
          if bytes[data..<data + 4].elementsEqual("data".utf8) {
            frames = (data + 8, dataSize)
            break
          }
          data += 8 + dataSize + dataSize % 2
        }
        return
      }
      // Chunks are padded to an even length.
      chunk += 8 + size + size % 2
    }
    return nil
  }
}
