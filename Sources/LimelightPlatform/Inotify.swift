#if canImport(Glibc)
  import Glibc
#endif

/// One inotify event, with the name of the entry it concerns (if any).
public struct InotifyEvent: Sendable {
  public var watch: Int32
  public var mask: UInt32
  public var cookie: UInt32
  public var name: RawPath?

  public init(watch: Int32, mask: UInt32, cookie: UInt32, name: RawPath?) {
    self.watch = watch
    self.mask = mask
    self.cookie = cookie
    self.name = name
  }

  public func has(_ flag: Int32) -> Bool { mask & UInt32(flag) != 0 }
  public func has(_ flag: UInt32) -> Bool { mask & flag != 0 }
}

/// A non-blocking inotify instance.
public final class Inotify {
  public let fd: Int32
  private var buffer = [UInt8](repeating: 0, count: 256 * 1024)

  /// What folders are watched for: changes to their entries, never opens or reads
  /// (the crawler's own reads would flood the queue).
  public static let folderMask: UInt32 =
    UInt32(IN_CREATE | IN_DELETE | IN_MODIFY | IN_CLOSE_WRITE | IN_MOVED_FROM | IN_MOVED_TO)
    | UInt32(IN_ATTRIB | IN_DELETE_SELF | IN_MOVE_SELF)
    | UInt32(IN_ONLYDIR) | UInt32(IN_DONT_FOLLOW) | UInt32(IN_EXCL_UNLINK)

  public init() throws(SystemError) {
    fd = inotify_init1(Int32(IN_NONBLOCK) | Int32(IN_CLOEXEC))
    guard fd >= 0 else { throw SystemError("inotify_init1") }
  }

  deinit { close(fd) }

  /// Adds a watch; the error's code is ENOSPC when the kernel's watch limit is reached.
  public func addWatch(_ path: RawPath, mask: UInt32 = folderMask) -> Result<Int32, SystemError> {
    let wd = path.withCString { inotify_add_watch(fd, $0, mask) }
    return wd >= 0 ? .success(wd) : .failure(SystemError("cannot watch", path: path))
  }

  public func removeWatch(_ wd: Int32) { _ = inotify_rm_watch(fd, wd) }

  /// Reads every event now queued (none if the queue is empty).
  public func readEvents() -> [InotifyEvent] {
    var events: [InotifyEvent] = []
    while true {
      let count = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
      if count <= 0 { break }
      buffer.withUnsafeBytes { raw in
        var offset = 0
        // struct inotify_event { int wd; uint32_t mask, cookie, len; char name[]; }
        while offset + 16 <= count {
          let wd = raw.loadUnaligned(fromByteOffset: offset, as: Int32.self)
          let mask = raw.loadUnaligned(fromByteOffset: offset + 4, as: UInt32.self)
          let cookie = raw.loadUnaligned(fromByteOffset: offset + 8, as: UInt32.self)
          let length = Int(raw.loadUnaligned(fromByteOffset: offset + 12, as: UInt32.self))
          var name: RawPath?
          if length > 0 {
            let bytes = raw[(offset + 16)..<min(count, offset + 16 + length)].prefix { $0 != 0 }
            name = RawPath(bytes: Array(bytes))
          }
          events.append(InotifyEvent(watch: wd, mask: mask, cookie: cookie, name: name))
          offset += 16 + length
        }
      }
      if count < buffer.count / 2 { break }
    }
    return events
  }
}
