import CLinux

#if canImport(Glibc)
  import Glibc
#endif

/// An error from a system call, with the path it concerned.
public struct SystemError: Error, CustomStringConvertible, Sendable {
  public var operation: String
  public var path: RawPath?
  public var code: Int32

  public init(_ operation: String, path: RawPath? = nil, code: Int32 = errno) {
    self.operation = operation
    self.path = path
    self.code = code
  }

  public var description: String {
    let reason = String(cString: strerror(code))
    if let path { return "\(operation) \(path.string): \(reason)" }
    return "\(operation): \(reason)"
  }
}

/// An entry's owner, group and permission bits.
public struct Ownership: Equatable, Hashable, Sendable {
  public var owner: UInt32
  public var group: UInt32
  public var mode: UInt32

  public init(owner: UInt32, group: UInt32, mode: UInt32) {
    (self.owner, self.group, self.mode) = (owner, group, mode)
  }
}

/// What `lstat` says of a path, in the terms the index uses.
public struct FileStatus: Equatable, Sendable {
  public enum FileKind: Sendable { case regular, directory, symlink, other }
  public var kind: FileKind
  public var device: UInt64
  public var inode: UInt64
  public var size: Int64
  /// Modification time in nanoseconds since 1970.
  public var modified: Int64
  /// Status change time in nanoseconds since 1970.
  public var changed: Int64
  /// Creation (birth) time in nanoseconds since 1970 where the file system keeps it.
  public var created: Int64?
  public var mode: UInt32

  public init(
    kind: FileKind, device: UInt64, inode: UInt64, size: Int64, modified: Int64, changed: Int64,
    created: Int64?, mode: UInt32
  ) {
    self.kind = kind
    self.device = device
    self.inode = inode
    self.size = size
    self.modified = modified
    self.changed = changed
    self.created = created
    self.mode = mode
  }

  public var isDirectory: Bool { kind == .directory }
}

/// Thin wrappers over the system calls the index needs, on raw paths.
public enum FileSystem {
  /// A pipe whose ends do not block and are closed across `exec`: a way to
  /// wake a `poll(2)` loop from a signal handler or another thread. Both
  /// ends are -1 when the system has no descriptor left.
  public static func wakePipe() -> (read: Int32, write: Int32) {
    var fds: [Int32] = [-1, -1]
    guard pipe(&fds) == 0 else { return (-1, -1) }
    for fd in fds {
      _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
      _ = fcntl(fd, F_SETFL, O_NONBLOCK)
    }
    return (fds[0], fds[1])
  }

  /// `lstat`: the entry itself, not what a link points to.
  public static func status(_ path: RawPath) -> FileStatus? {
    var st = stat()
    let result = path.withCString { lstat($0, &st) }
    guard result == 0 else { return nil }
    let kind: FileStatus.FileKind
    switch st.st_mode & S_IFMT {
    case S_IFREG: kind = .regular
    case S_IFDIR: kind = .directory
    case S_IFLNK: kind = .symlink
    default: kind = .other
    }
    func nanos(_ t: timespec) -> Int64 { Int64(t.tv_sec) * 1_000_000_000 + Int64(t.tv_nsec) }
    return FileStatus(
      kind: kind, device: UInt64(st.st_dev), inode: UInt64(st.st_ino), size: Int64(st.st_size),
      modified: nanos(st.st_mtim), changed: nanos(st.st_ctim), created: birthTime(path),
      mode: UInt32(st.st_mode))
  }

  /// Who owns an entry, and its permission bits (`lstat`); nil when it is gone.
  public static func ownership(_ path: RawPath) -> Ownership? {
    var st = stat()
    guard path.withCString({ lstat($0, &st) }) == 0 else { return nil }
    return Ownership(owner: st.st_uid, group: st.st_gid, mode: UInt32(st.st_mode) & 0o7777)
  }

  /// `stat`: what a link points to (nil for a dangling link).
  public static func followedStatus(_ path: RawPath) -> FileStatus? {
    guard let target = realPath(path) else { return nil }
    return status(target)
  }

  /// Birth time through statx, where the file system records it.
  static func birthTime(_ path: RawPath) -> Int64? {
    var seconds: Int64 = 0
    var nanoseconds: UInt32 = 0
    guard path.withCString({ limelight_birth_time($0, &seconds, &nanoseconds) }) == 0 else {
      return nil
    }
    return seconds * 1_000_000_000 + Int64(nanoseconds)
  }

  /// The names in a folder, without "." and "..".
  public static func entries(of directory: RawPath) throws(SystemError) -> [RawPath] {
    guard let dir = directory.withCString({ opendir($0) }) else {
      throw SystemError("cannot read folder", path: directory)
    }
    defer { closedir(dir) }
    var names: [RawPath] = []
    while let entry = readdir(dir) {
      let name = withUnsafeBytes(of: entry.pointee.d_name) { raw -> [UInt8] in
        Array(raw.prefix { $0 != 0 })
      }
      if name == [UInt8(ascii: ".")] || name == [UInt8(ascii: "."), UInt8(ascii: ".")] { continue }
      names.append(RawPath(bytes: name))
    }
    return names
  }

  /// `mkdir -p` with a mode for the folders it creates.
  public static func makeDirectories(_ path: RawPath, mode: mode_t = 0o755) throws(SystemError) {
    if let st = status(path) {
      if st.isDirectory { return }
      throw SystemError("not a folder", path: path, code: ENOTDIR)
    }
    let parent = path.parent
    if parent != path { try makeDirectories(parent, mode: mode) }
    let result = path.withCString { mkdir($0, mode) }
    if result != 0 && errno != EEXIST { throw SystemError("cannot create folder", path: path) }
  }

  /// The bytes an unprivileged writer may still use on the file system
  /// holding `path`; nil when it cannot be asked.
  public static func freeBytes(_ path: RawPath) -> UInt64? {
    var info = statvfs()
    guard path.withCString({ statvfs($0, &info) }) == 0 else { return nil }
    return UInt64(info.f_bavail) * UInt64(info.f_frsize)
  }

  /// Why a file cannot be opened for reading now, nil when it can.
  public static func unreadable(_ path: RawPath) -> String? {
    do {
      _ = try readPrefix(path, limit: 0)
      return nil
    } catch {
      return error.description
    }
  }

  /// Reads at most `limit` bytes from the start of a regular file: whole,
  /// whatever interrupts the reads (a signal, a short read), and read again
  /// when the file changed while it was read (its size or times moved), so
  /// that a read racing a write is never taken for the file's content.
  public static func readPrefix(_ path: RawPath, limit: Int) throws(SystemError) -> [UInt8] {
    try readPrefix(path, limit: limit) { fd, buffer, count in read(fd, buffer, count) }
  }

  /// Reads at most `length` bytes from `offset` on (the directory a TIFF
  /// image keeps after its pixels), whatever interrupts the reads.
  public static func readRange(_ path: RawPath, offset: Int, length: Int) throws(SystemError)
    -> [UInt8]
  {
    let fd = try openForReading(path)
    defer { close(fd) }
    guard lseek(fd, off_t(offset), SEEK_SET) == off_t(offset) else {
      throw SystemError("cannot seek", path: path)
    }
    var buffer = [UInt8](repeating: 0, count: max(0, length))
    let filled = try readAll(fd, into: &buffer, path: path) { fd, buffer, count in
      read(fd, buffer, count)
    }
    buffer.removeSubrange(filled...)
    return buffer
  }

  /// A descriptor to read a file through (not following a last link, not
  /// waiting on a FIFO), opened again when a signal interrupts.
  static func openForReading(_ path: RawPath) throws(SystemError) -> Int32 {
    var fd: Int32 = -1
    repeat {
      fd = path.withCString { open($0, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK) }
    } while fd < 0 && errno == EINTR
    guard fd >= 0 else { throw SystemError("cannot open", path: path) }
    return fd
  }

  /// The times a file that keeps changing while it is read is read again.
  static let rereads = 5

  /// ``readPrefix(_:limit:)`` with its `read(2)` given: the seam a test
  /// interrupts reads through.
  static func readPrefix(
    _ path: RawPath, limit: Int,
    read readSome: (Int32, UnsafeMutableRawPointer, Int) -> Int
  ) throws(SystemError) -> [UInt8] {
    let fd = try openForReading(path)
    defer { close(fd) }
    var attempt = 0
    while true {
      var before = stat()
      let regular = fstat(fd, &before) == 0 && (before.st_mode & S_IFMT) == S_IFREG
      // Size the buffer by the file, not the cap: most files are far smaller.
      let known = regular ? Int(before.st_size) : limit
      var buffer = [UInt8](repeating: 0, count: max(0, min(limit, known + 1)))
      let filled = try readAll(fd, into: &buffer, path: path, read: readSome)
      buffer.removeSubrange(filled...)
      var after = stat()
      let changed =
        regular && fstat(fd, &after) == 0
        && (after.st_size != before.st_size || after.st_mtim.tv_sec != before.st_mtim.tv_sec
          || after.st_mtim.tv_nsec != before.st_mtim.tv_nsec
          || after.st_ctim.tv_nsec != before.st_ctim.tv_nsec)
      attempt += 1
      guard changed, attempt < rereads, lseek(fd, 0, SEEK_SET) == 0 else { return buffer }
      usleep(UInt32(2_000 * attempt))
    }
  }

  /// Fills `buffer` from `fd` until it is full or the file ends, reading
  /// again after an interrupted (`EINTR`, `EAGAIN`) or short read.
  static func readAll(
    _ fd: Int32, into buffer: inout [UInt8], path: RawPath,
    read readSome: (Int32, UnsafeMutableRawPointer, Int) -> Int
  ) throws(SystemError) -> Int {
    let limit = buffer.count
    var filled = 0
    var waits = 0
    while filled < limit {
      let n = buffer.withUnsafeMutableBytes { raw in
        readSome(fd, raw.baseAddress! + filled, limit - filled)
      }
      if n < 0 {
        if errno == EINTR { continue }
        if errno == EAGAIN && waits < 100 {
          waits += 1
          usleep(1_000)
          continue
        }
        throw SystemError("cannot read", path: path)
      }
      if n == 0 { break }
      filled += n
    }
    return filled
  }

  /// Writes a whole file (used for small state files), replacing it atomically.
  public static func writeFile(_ path: RawPath, contents: [UInt8], mode: mode_t = 0o600)
    throws(SystemError)
  {
    let temporary = RawPath(bytes: path.bytes + Array(".tmp-\(getpid())".utf8))
    let fd = temporary.withCString { open($0, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, mode) }
    guard fd >= 0 else { throw SystemError("cannot write", path: temporary) }
    let written = contents.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
    close(fd)
    guard written == contents.count else { throw SystemError("cannot write", path: temporary) }
    let renamed = temporary.withCString { from in path.withCString { to in rename(from, to) } }
    guard renamed == 0 else { throw SystemError("cannot replace", path: path) }
  }

  /// The canonical path (symbolic links resolved), or nil when it does not exist.
  public static func realPath(_ path: RawPath) -> RawPath? {
    guard let resolved = path.withCString({ realpath($0, nil) }) else { return nil }
    defer { free(resolved) }
    return RawPath(
      bytes: Array(UnsafeBufferPointer(start: resolved, count: strlen(resolved))).map {
        UInt8(bitPattern: $0)
      })
  }

  /// Touches a file so that an inotify watch on its folder sees CLOSE_WRITE.
  public static func touch(_ path: RawPath) {
    let fd = path.withCString { open($0, O_WRONLY | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0o600) }
    if fd >= 0 {
      _ = write(fd, "!", 1)
      close(fd)
    }
  }

  /// Reads a whole text file as UTF-8 (lossy), or nil when it cannot be opened.
  public static func readText(_ path: RawPath, limit: Int = 64 << 20) -> String? {
    guard let bytes = try? readPrefix(path, limit: limit) else { return nil }
    return String(decoding: bytes, as: UTF8.self)
  }
}

/// What a walk of a tree asks of the file system: a seam, so that the
/// policies that walk trees (reconciling the index with the disk) can be
/// tested on a tree made up in memory.
public protocol FileTree: Sendable {
  /// A path's status, its own for a symbolic link; nil when it is not there.
  func status(_ path: RawPath) -> FileStatus?
  /// The names in a folder.
  func entries(of folder: RawPath) throws(SystemError) -> [RawPath]
}

/// The tree the system mounts.
public struct LocalFileTree: FileTree {
  public init() {}
  public func status(_ path: RawPath) -> FileStatus? { FileSystem.status(path) }
  public func entries(of folder: RawPath) throws(SystemError) -> [RawPath] {
    try FileSystem.entries(of: folder)
  }
}
