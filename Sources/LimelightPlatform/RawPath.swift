#if canImport(Glibc)
  import Glibc
#endif

/// A file system path kept as the exact bytes the kernel uses.
///
/// Linux file names are byte strings: they need not be valid UTF-8 and may hold
/// newlines. Limelight keeps the bytes so that every file can be found, opened
/// and given a URI that round-trips, and decodes them only for display.
public struct RawPath: Hashable, Comparable, Sendable, CustomStringConvertible {
  /// The path's bytes, without a terminating NUL.
  public var bytes: [UInt8]

  public init(bytes: [UInt8]) { self.bytes = bytes }

  public init(_ string: String) { self.bytes = Array(string.utf8) }

  /// The path decoded for display: invalid UTF-8 becomes U+FFFD.
  public var string: String { String(decoding: bytes, as: UTF8.self) }

  public var description: String { string }

  public var isAbsolute: Bool { bytes.first == UInt8(ascii: "/") }

  /// The last component ("" for "/").
  public var lastComponent: RawPath {
    guard let slash = bytes.lastIndex(of: UInt8(ascii: "/")) else { return self }
    return RawPath(bytes: Array(bytes[(slash + 1)...]))
  }

  /// The path as people read it: "~/Documents" inside the home folder,
  /// else the whole path.
  public func shown(home: RawPath) -> String {
    guard isInside(home), home.bytes.count > 1 else { return string }
    return "~" + String(decoding: bytes.dropFirst(home.bytes.count), as: UTF8.self)
  }

  /// The bounds, both left out, of the paths beneath this folder in byte
  /// order: `folder + "/" < path < folder + "0"` ("0" follows "/"), which
  /// an index of paths reads as one range.
  public var subtreeBounds: (low: [UInt8], high: [UInt8]) {
    var base = bytes
    if base.last == UInt8(ascii: "/") { base.removeLast() }
    return (base + [UInt8(ascii: "/")], base + [UInt8(ascii: "0")])
  }

  /// The folder holding this path ("/" for a top-level entry).
  public var parent: RawPath {
    guard let slash = bytes.lastIndex(of: UInt8(ascii: "/")) else { return RawPath(".") }
    if slash == 0 { return RawPath("/") }
    return RawPath(bytes: Array(bytes[..<slash]))
  }

  /// The path with one more component.
  public func appending(_ component: RawPath) -> RawPath {
    var result = bytes
    if result.last != UInt8(ascii: "/") { result.append(UInt8(ascii: "/")) }
    result.append(contentsOf: component.bytes)
    return RawPath(bytes: result)
  }

  public func appending(_ component: String) -> RawPath { appending(RawPath(component)) }

  /// Whether `self` is `folder` or lies below it.
  public func isInside(_ folder: RawPath) -> Bool {
    if folder.bytes == [UInt8(ascii: "/")] { return isAbsolute }
    guard bytes.count >= folder.bytes.count, bytes.starts(with: folder.bytes) else { return false }
    return bytes.count == folder.bytes.count || bytes[folder.bytes.count] == UInt8(ascii: "/")
  }

  /// `self` moved from below `old` to below `new`; `self` must be inside `old`.
  public func rebased(from old: RawPath, to new: RawPath) -> RawPath {
    RawPath(bytes: new.bytes + bytes[old.bytes.count...])
  }

  /// The part of `self` below `folder`, without a leading slash.
  public func relative(to folder: RawPath) -> RawPath {
    var rest = Array(bytes.dropFirst(folder.bytes.count))
    while rest.first == UInt8(ascii: "/") { rest.removeFirst() }
    return RawPath(bytes: rest)
  }

  /// Number of components below "/".
  public var depth: Int { bytes.reduce(0) { $0 + ($1 == UInt8(ascii: "/") ? 1 : 0) } }

  /// The path with "." and ".." resolved and repeated or trailing slashes dropped
  /// (lexically: symbolic links are not followed).
  public var lexicallyNormalized: RawPath {
    var parts: [ArraySlice<UInt8>] = []
    for part in bytes.split(separator: UInt8(ascii: "/"), omittingEmptySubsequences: true) {
      if part.elementsEqual([UInt8(ascii: ".")]) { continue }
      if part.elementsEqual([UInt8(ascii: "."), UInt8(ascii: ".")]) {
        if !parts.isEmpty { parts.removeLast() }
        continue
      }
      parts.append(part)
    }
    var out: [UInt8] = isAbsolute ? [UInt8(ascii: "/")] : []
    for (i, part) in parts.enumerated() {
      if i > 0 { out.append(UInt8(ascii: "/")) }
      out.append(contentsOf: part)
    }
    if out.isEmpty { out = [UInt8(ascii: ".")] }
    return RawPath(bytes: out)
  }

  /// Whether the last component starts with a dot.
  public var isHiddenName: Bool { lastComponent.bytes.first == UInt8(ascii: ".") }

  /// Calls `body` with a NUL-terminated copy for system calls.
  public func withCString<R>(_ body: (UnsafePointer<CChar>) throws -> R) rethrows -> R {
    // On the stack for a path of usual length: this runs for every entry a crawl meets.
    try withUnsafeTemporaryAllocation(of: CChar.self, capacity: bytes.count + 1) { copy in
      bytes.withUnsafeBytes { UnsafeMutableRawBufferPointer(copy).copyMemory(from: $0) }
      copy[bytes.count] = 0
      return try body(UnsafePointer(copy.baseAddress!))
    }
  }

  // Paths are keys of the watcher's tables, compared and hashed for every
  // change it meets: as whole buffers, not a byte at a time as an array's
  // own conformances do.
  public static func == (lhs: RawPath, rhs: RawPath) -> Bool {
    lhs.bytes.count == rhs.bytes.count && compare(lhs, rhs, count: lhs.bytes.count) == 0
  }

  public func hash(into hasher: inout Hasher) {
    bytes.withUnsafeBytes { hasher.combine(bytes: $0) }
  }

  public static func < (lhs: RawPath, rhs: RawPath) -> Bool {
    let common = compare(lhs, rhs, count: min(lhs.bytes.count, rhs.bytes.count))
    return common < 0 || (common == 0 && lhs.bytes.count < rhs.bytes.count)
  }

  /// `memcmp` of the first `count` bytes of both.
  private static func compare(_ lhs: RawPath, _ rhs: RawPath, count: Int) -> Int32 {
    guard count > 0 else { return 0 }
    return lhs.bytes.withUnsafeBytes { left in
      rhs.bytes.withUnsafeBytes { right in memcmp(left.baseAddress!, right.baseAddress!, count) }
    }
  }

  /// An absolute, normalized form of a path given on a command line.
  public static func absolute(_ argument: String) -> RawPath {
    let raw = RawPath(argument)
    if raw.isAbsolute { return raw.lexicallyNormalized }
    var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
    guard getcwd(&buffer, buffer.count) != nil else { return raw.lexicallyNormalized }
    let cwd = RawPath(bytes: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) })
    return cwd.appending(raw).lexicallyNormalized
  }
}
