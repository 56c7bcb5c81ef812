import LimelightPlatform

#if canImport(Glibc)
  import Glibc
#endif

/// Decides which paths stay out of the index.
///
/// This runs for every entry a crawl meets and every event inotify sends, so
/// the patterns are told apart once: most are a name (`node_modules`), a
/// name's start (`.Trash-*`) or its end (`*.o`), matched as bytes; only the
/// rest go to `fnmatch(3)`, with their C strings made once.
public struct ExclusionRules: Sendable {
  public let patterns: [String]
  public var indexHidden: Bool
  /// Folders never indexed whatever the patterns say (the index's own files).
  public var alwaysExcluded: [RawPath]

  private let names: NameMatcher
  /// Patterns of trailing paths (with a "/"): a literal one is matched as
  /// the path's last bytes, any other by `fnmatch` over as many components.
  private var literalTails: [[UInt8]] = []
  private var globTails: [(pattern: [CChar], depth: Int)] = []

  public init(configuration: Configuration, alwaysExcluded: [RawPath]) {
    self.patterns = configuration.excludes
    var namePatterns: [String] = []
    for pattern in patterns {
      if pattern.utf8.contains(UInt8(ascii: "/")) {
        let trimmed = pattern.split(separator: "/").joined(separator: "/")
        if NameMatcher.isLiteral(trimmed.utf8) {
          literalTails.append(Array(("/" + trimmed).utf8))
        } else {
          globTails.append((Array(trimmed.utf8CString), trimmed.split(separator: "/").count))
        }
      } else {
        namePatterns.append(pattern)
      }
    }
    names = NameMatcher(namePatterns)
    self.indexHidden = configuration.indexHidden
    self.alwaysExcluded = alwaysExcluded
  }

  /// Whether `path` (inside `root`) is left out, judged on its own name and
  /// trailing components; the caller walks top-down, so a left-out folder takes
  /// everything below it along.
  public func excludes(_ path: RawPath, root: RawPath) -> Bool {
    if path == root { return alwaysExcluded.contains { root.isInside($0) } }
    if alwaysExcluded.contains(where: { path.isInside($0) }) { return true }
    let bytes = path.bytes
    let start = (bytes.lastIndex(of: UInt8(ascii: "/")) ?? -1) + 1
    let name = bytes[start...]
    if !indexHidden && name.first == UInt8(ascii: ".") { return true }
    if names.matches(name) { return true }
    // A tail must lie below the root, not reach up into it.
    let below = root.bytes == [UInt8(ascii: "/")] ? 0 : root.bytes.count
    for tail in literalTails
    where bytes.count - tail.count >= below && bytes.reversed().starts(with: tail.reversed()) {
      return true
    }
    guard !globTails.isEmpty else { return false }
    let components = path.relative(to: root).string.split(
      separator: "/", omittingEmptySubsequences: true)
    for (pattern, depth) in globTails {
      let tail = components.suffix(depth).joined(separator: "/")
      if fnmatch(pattern, tail, FNM_PATHNAME | FNM_PERIOD) == 0 { return true }
    }
    return false
  }

  /// Whether a folder holds one of the markers that keep it out of the index.
  public static func hasNoIndexMarker(
    _ folder: RawPath, in files: any FileTree = LocalFileTree()
  ) -> Bool {
    Configuration.markerFiles.contains { files.status(folder.appending($0)) != nil }
  }
}

/// Name patterns (`fnmatch(3)` without flags) sorted by shape.
struct NameMatcher: Sendable {
  private var exact: [[UInt8]] = []
  private var prefixes: [[UInt8]] = []
  private var suffixes: [[UInt8]] = []
  private var globs: [[CChar]] = []

  init(_ patterns: [String]) {
    for pattern in patterns {
      let bytes = Array(pattern.utf8)
      if Self.isLiteral(bytes) {
        exact.append(bytes)
      } else if bytes.last == UInt8(ascii: "*"), Self.isLiteral(bytes.dropLast()) {
        prefixes.append(Array(bytes.dropLast()))
      } else if bytes.first == UInt8(ascii: "*"), Self.isLiteral(bytes.dropFirst()) {
        suffixes.append(Array(bytes.dropFirst()))
      } else {
        globs.append(Array(pattern.utf8CString))
      }
    }
  }

  /// Whether a pattern has none of `fnmatch`'s special characters.
  static func isLiteral<Bytes: Sequence<UInt8>>(_ bytes: Bytes) -> Bool {
    !bytes.contains { Self.special.contains($0) }
  }

  private static let special: [UInt8] = Array("*?[\\".utf8)

  func matches(_ name: ArraySlice<UInt8>) -> Bool {
    for literal in exact where literal.count == name.count && literal.elementsEqual(name) {
      return true
    }
    for prefix in prefixes where name.starts(with: prefix) { return true }
    for suffix in suffixes
    where name.count >= suffix.count && name.reversed().starts(with: suffix.reversed()) {
      return true
    }
    guard !globs.isEmpty else { return false }
    return RawPath(bytes: Array(name)).withCString { cName in
      globs.contains { fnmatch($0, cName, 0) == 0 }
    }
  }
}
