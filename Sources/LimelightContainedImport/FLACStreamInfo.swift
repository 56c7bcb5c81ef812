import LimelightImport
import LimelightModel
import LimelightPlatform

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
  /// Samples a channel, 0 when the encoder did not know.
  var samples: UInt64

  /// The most of a file read to find its first frame: past its metadata,
  /// which a cover picture can make large.
  static let searched = 1 << 20

  /// The stream header of the FLAC file `request` names, read as far as
  /// its first frame (its first bytes alone, when they are the whole file).
  init?(of request: ImportRequest) throws {
    guard request.head.starts(with: Self.magic) else { return nil }
    let bytes =
      request.size <= Int64(request.head.count)
      ? request.head : try FileSystem.readPrefix(request.path, limit: Self.searched)
    self.init(bytes)
  }

  static let magic = Array("fLaC".utf8)

  /// The stream header of the FLAC file whose first bytes are `head`, if
  /// it is sound and a frame follows the metadata within `head`.
  init?(_ head: [UInt8]) {
    guard head.count >= 42, head.starts(with: Self.magic), head[4] & 0x7F == 0,
      head.bigEndian(5, 3) == 34
    else { return nil }
    // 20 bits of rate, 3 of channels less one, 5 of bits less one, 36 of samples.
    let packed = head.bigEndian(18, 8)
    sampleRate = Int(packed >> 44)
    channels = Int((packed >> 41) & 0x7) + 1
    let bitsPerSample = Int((packed >> 36) & 0x1F) + 1
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
    guard Self.frameStarts(in: head, at: at) else { return nil }
  }

  /// Whether a frame's sync code is anywhere in `bytes` from `start`.
  static func frameFollows(in bytes: [UInt8], from start: Int) -> Bool {
    (start..<max(start, bytes.count)).contains { frameStarts(in: bytes, at: $0) }
  }

  /// Whether a frame begins at `at`: 14 bits set and a reserved 0 (0xFFF8
  /// or 0xFFF9).
  static func frameStarts(in bytes: [UInt8], at: Int) -> Bool {
    at >= 0 && at + 1 < bytes.count && bytes[at] == 0xFF && bytes[at + 1] & 0xFE == 0xF8
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
