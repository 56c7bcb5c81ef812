/// The format of a RIFF WAVE file, read from its `fmt ` chunk.
///
/// TagLib gives no audio properties for a WAVE file whose `data` chunk is
/// empty (Python's `wave` module and `sox … trim 0 0` write such files: a
/// 44-byte header and no frames), yet the file is valid: silence of no
/// length. Nor for a big-endian one (`RIFX`, as SciPy's test data and
/// some DAWs of big-endian machines have it), which is as valid. This
/// tells such files from damaged ones.
struct WaveHeader {
  var channels: Int
  var sampleRate: Int
  /// Bytes of sound a second.
  var byteRate = 0
  /// Where the frames start in the file and the size the `data` chunk
  /// says, when the bytes reach its header.
  var frames: (offset: Int, size: Int)?

  /// The format of the WAVE file whose first bytes are `bytes`, if they
  /// hold a `RIFF`/`WAVE` header (or `RIFX`, its numbers big-endian) and a
  /// `fmt ` chunk that names at least one channel and a sample rate.
  init?(_ bytes: [UInt8]) {
    guard bytes.count >= 12, bytes[8..<12].elementsEqual("WAVE".utf8) else { return nil }
    let bigEndian: Bool
    if bytes[0..<4].elementsEqual("RIFF".utf8) {
      bigEndian = false
    } else if bytes[0..<4].elementsEqual("RIFX".utf8) {
      bigEndian = true
    } else {
      return nil
    }
    // A number in the file's byte order, zero past the end of the bytes.
    func number(_ at: Int, _ width: Int) -> Int {
      Int(bigEndian ? bytes.bigEndian(at, width) : bytes.littleEndian(at, width))
    }
    var chunk = 12
    while chunk + 8 <= bytes.count {
      let size = number(chunk + 4, 4)
      if bytes[chunk..<chunk + 4].elementsEqual("fmt ".utf8) {
        guard size >= 16, chunk + 8 + 8 <= bytes.count else { return nil }
        channels = number(chunk + 10, 2)
        sampleRate = number(chunk + 12, 4)
        byteRate = number(chunk + 16, 4)
        guard channels > 0, sampleRate > 0 else { return nil }
        // The frames follow the format, often after other chunks.
        var data = chunk + 8 + size + size % 2
        while data + 8 <= bytes.count {
          let dataSize = number(data + 4, 4)
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
