import CMagic
import LimelightModel
import LimelightPlatform
import Synchronization

/// One libmagic handle, which threads take in turn (libmagic is not
/// thread-safe). The watcher gives each of its workers one of its own (a
/// shared handle made them wait for each other); each keeps the regular
/// expressions of the rules it has run, compiled, megabytes of them, and
/// libmagic types only the files whose name and first bytes do not.
public final class Magic: Sendable {
  private let cookie: Cookie?
  private let turn = Mutex(())

  private struct Cookie: @unchecked Sendable {
    let pointer: magic_t
  }

  /// Opens libmagic with the system database, reading at most `bytesMax` bytes of a file.
  public init(bytesMax: Int = 64 * 1024) {
    guard let opened = magic_open(MAGIC_MIME_TYPE | MAGIC_SYMLINK | MAGIC_ERROR) else {
      cookie = nil
      return
    }
    if magic_load(opened, nil) != 0 {
      magic_close(opened)
      cookie = nil
      return
    }
    var limit = bytesMax
    _ = magic_setparam(opened, MAGIC_PARAM_BYTES_MAX, &limit)
    cookie = Cookie(pointer: opened)
  }

  deinit { if let cookie { magic_close(cookie.pointer) } }

  /// Whether libmagic and its database loaded.
  public var isAvailable: Bool { cookie != nil }

  /// The MIME type libmagic finds in a file's content, or nil when it cannot tell.
  public func mimeType(of path: RawPath) -> String? {
    guard let cookie = cookie?.pointer else { return nil }
    return turn.withLock { _ in
      path.withCString { magic_file(cookie, $0) }.map { String(cString: $0) }
    }
  }

  /// The MIME type libmagic finds in a buffer, or nil when it cannot tell.
  public func mimeType(of bytes: ArraySlice<UInt8>) -> String? {
    guard let cookie = cookie?.pointer else { return nil }
    return turn.withLock { _ in
      bytes.withUnsafeBytes { magic_buffer(cookie, $0.baseAddress, $0.count) }
        .map { String(cString: $0) }
    }
  }

  /// The character set libmagic finds in a buffer ("utf-8", "iso-8859-1", "binary", …).
  public func encoding(of bytes: ArraySlice<UInt8>) -> String? {
    guard let cookie = cookie?.pointer else { return nil }
    return turn.withLock { _ in
      _ = magic_setflags(cookie, MAGIC_MIME_ENCODING)
      defer { _ = magic_setflags(cookie, MAGIC_MIME_TYPE | MAGIC_SYMLINK | MAGIC_ERROR) }
      let result = bytes.withUnsafeBytes { magic_buffer(cookie, $0.baseAddress, $0.count) }
      return result.map { String(cString: $0) }
    }
  }
}
