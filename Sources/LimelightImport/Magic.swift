import CMagic
import LimelightModel

/// One libmagic handle. libmagic is not thread-safe: give each worker its own.
public final class Magic {
  private let cookie: magic_t?

  /// Opens libmagic with the system database, reading at most `bytesMax` bytes of a file.
  public init(bytesMax: Int = 64 * 1024) {
    cookie = magic_open(MAGIC_MIME_TYPE | MAGIC_SYMLINK | MAGIC_ERROR)
    if let cookie {
      if magic_load(cookie, nil) != 0 {
        magic_close(cookie)
        return
      }
      var limit = bytesMax
      _ = magic_setparam(cookie, MAGIC_PARAM_BYTES_MAX, &limit)
    }
  }

  deinit { if let cookie { magic_close(cookie) } }

  /// Whether libmagic and its database loaded.
  public var isAvailable: Bool { cookie != nil }

  /// The MIME type libmagic finds in a file's content, or nil when it cannot tell.
  public func mimeType(of path: RawPath) -> String? {
    guard let cookie else { return nil }
    guard let result = path.withCString({ magic_file(cookie, $0) }) else { return nil }
    return String(cString: result)
  }

  /// The character set libmagic finds in a buffer ("utf-8", "iso-8859-1", "binary", …).
  public func encoding(of bytes: ArraySlice<UInt8>) -> String? {
    guard let cookie else { return nil }
    _ = magic_setflags(cookie, MAGIC_MIME_ENCODING)
    defer { _ = magic_setflags(cookie, MAGIC_MIME_TYPE | MAGIC_SYMLINK | MAGIC_ERROR) }
    let result = bytes.withUnsafeBytes { magic_buffer(cookie, $0.baseAddress, $0.count) }
    return result.map { String(cString: $0) }
  }
}
