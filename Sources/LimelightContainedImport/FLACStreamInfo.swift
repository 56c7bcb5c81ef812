import LimelightModel

/// The stream of a FLAC file, read from its `STREAMINFO` block: what
/// TagLib gives, for a file whose later metadata it rejects.
///
/// The block opens every FLAC file (`fLaC`, then a block header of type 0
/// and 34 bytes). A file whose header is sound but in which no frame
/// follows the metadata blocks (cut short after its tags, as a copy that
/// stopped) is still taken for damaged.
struct FLACStreamInfo {
  var sampleRate: Int
  var channels: Int
  var bitsPerSample: Int
  /// Samples a channel, 0 when the encoder did not know.
  var samples: UInt64

  /// The most of a file read to find its first frame: past its metadata,
  /// which a cover picture can make large.
  static let searched = 1 << 20

  /// The stream header of the FLAC file whose first bytes are `head`, if
  /// it is sound and a frame follows the metadata within `head`.
  init?(_ head: [UInt8]) {
    guard head.count >= 42, head[0..<4].elementsEqual("fLaC".utf8), head[4] & 0x7F == 0,
      head.bigEndian(5, 3) == 34
    else { return nil }
    // 20 bits of rate, 3 of channels less one, 5 of bits less one, 36 of samples.
    let packed = head.bigEndian(18, 8)
    sampleRate = Int(packed >> 44)
    channels = Int((packed >> 41) & 0x7) + 1
    bitsPerSample = Int((packed >> 36) & 0x1F) + 1
    samples = packed & 0xF_FFFF_FFFF
    guard (1...655_350).contains(sampleRate), bitsPerSample >= 4 else { return nil }
    // The metadata blocks, by their lengths, to the first frame. A block
    // that says it is empty (what TagLib rejects) ends the chain: its
    // frames are looked for after it.
    var at = 42
    var last = head[4] & 0x80 != 0
    while !last {
      guard at + 4 <= head.count else { return nil }
      let length = Int(head.bigEndian(at + 1, 3))
      let padding = head[at] & 0x7F == 1
      last = head[at] & 0x80 != 0
      at += 4
      if length == 0 && !padding {
        guard Self.frameFollows(in: head, from: at) else { return nil }
        return
      }
      at += length
    }
    // A frame begins with 14 bits set and a reserved 0 (0xFFF8 or 0xFFF9).
    guard at + 1 < head.count, head[at] == 0xFF, head[at + 1] & 0xFE == 0xF8 else { return nil }
  }

  /// Whether a frame's sync code is anywhere in `bytes` from `start`.
  static func frameFollows(in bytes: [UInt8], from start: Int) -> Bool {
    var at = start
    while at + 1 < bytes.count {
      if bytes[at] == 0xFF, bytes[at + 1] & 0xFE == 0xF8 { return true }
      at += 1
    }
    return false
  }

  /// The stream's rate, channels and length, as TagLib would give them.
  func describe(_ attributes: inout AttributeSet) {
    attributes.extra["audioSampleRate"] = .number(Double(sampleRate))
    attributes.extra["audioChannelCount"] = .number(Double(channels))
    if samples > 0 {
      attributes.extra["duration"] = .number(
        (Double(samples) / Double(sampleRate) * 1000).rounded() / 1000)
    }
  }
}
