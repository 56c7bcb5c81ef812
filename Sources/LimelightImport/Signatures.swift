/// The leading bytes of common binary formats. When a file's name and its
/// signature agree (a `.docx` that starts like a ZIP archive), the name's more
/// specific type is taken without running libmagic's slower rule set.
enum Signatures {
  private static let table: [([UInt8], String)] = [
    ([0x1F, 0x8B], "application/gzip"),
    ([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A], "image/png"),
    ([0xFF, 0xD8, 0xFF], "image/jpeg"),
    (Array("GIF8".utf8), "image/gif"),
    (Array("%PDF-".utf8), "application/pdf"),
    ([0x50, 0x4B, 0x03, 0x04], "application/zip"),
    ([0x7F, 0x45, 0x4C, 0x46], "application/x-executable"),
    (Array("BZh".utf8), "application/x-bzip2"),
    ([0xFD, 0x37, 0x7A, 0x58, 0x5A, 0x00], "application/x-xz"),
    ([0x28, 0xB5, 0x2F, 0xFD], "application/zstd"),
    (Array("OggS".utf8), "audio/ogg"),
    (Array("fLaC".utf8), "audio/flac"),
    (Array("ID3".utf8), "audio/mpeg"),
    ([0xDE, 0x12, 0x04, 0x95], "application/x-gettext-translation"),
    ([0x95, 0x04, 0x12, 0xDE], "application/x-gettext-translation"),
    (Array("7z".utf8) + [0xBC, 0xAF, 0x27, 0x1C], "application/x-7z-compressed"),
    (Array("wOFF".utf8), "font/woff"),
    (Array("wOF2".utf8), "font/woff2"),
    ([0x00, 0x01, 0x00, 0x00, 0x00], "font/ttf"),
    (Array("OTTO".utf8), "font/otf"),
  ]

  /// The type the leading bytes announce, or nil.
  static func type(of head: [UInt8]) -> String? {
    for (magic, type) in table where head.starts(with: magic) { return type }
    return nil
  }
}
