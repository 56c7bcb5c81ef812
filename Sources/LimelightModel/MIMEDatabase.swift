import Foundation
import LimelightPlatform

#if canImport(Glibc)
  import Glibc
#endif

/// The freedesktop shared-mime-info database: file-name globs, aliases, the
/// subclass hierarchy and human descriptions ("PNG image").
public final class MIMEDatabase: @unchecked Sendable {
  struct Glob {
    var weight: Int
    var type: String
    var pattern: String
    var caseSensitive: Bool
  }

  /// `*.ext` globs by lower-cased extension (with the dot), for the common case.
  private var suffixGlobs: [String: [Glob]] = [:]
  private var literalGlobs: [String: Glob] = [:]
  private var otherGlobs: [Glob] = []
  private var aliases: [String: String] = [:]
  private var parents: [String: [String]] = [:]
  private var icons: [String: String] = [:]
  private var genericIcons: [String: String] = [:]
  private let directories: [String]
  private let commentLock = NSLock()
  private var comments: [String: String] = [:]

  /// Loads the database from `$XDG_DATA_HOME/mime`, `$XDG_DATA_DIRS/mime` and
  /// `/usr/share/mime`; a missing database leaves names unrecognised, not an error.
  public convenience init(environment: [String: String] = ProcessEnvironment.current) {
    self.init(base: BaseDirectories(environment: environment))
  }

  /// Loads the database from the `mime` folders of the XDG data folders.
  public convenience init(base: BaseDirectories) {
    var dirs = base.everyDataDirectory.map { $0 + "/mime" }
    if !dirs.contains("/usr/share/mime") { dirs.append("/usr/share/mime") }
    self.init(directories: dirs)
  }

  public init(directories: [String]) {
    self.directories = directories
    // Lower-priority folders first, so that earlier ones override.
    for dir in directories.reversed() {
      if let text = FileSystem.readText(RawPath(dir + "/globs2")) { loadGlobs(text) }
      if let text = FileSystem.readText(RawPath(dir + "/aliases")) {
        for line in text.split(separator: "\n") where !line.hasPrefix("#") {
          let parts = line.split(separator: " ")
          if parts.count == 2 { aliases[String(parts[0])] = String(parts[1]) }
        }
      }
      for (file, table) in [("/icons", \MIMEDatabase.icons), ("/generic-icons", \.genericIcons)] {
        guard let text = FileSystem.readText(RawPath(dir + file)) else { continue }
        for line in text.split(separator: "\n") where !line.hasPrefix("#") {
          let parts = line.split(separator: ":", maxSplits: 1)
          if parts.count == 2 { self[keyPath: table][String(parts[0])] = String(parts[1]) }
        }
      }
      if let text = FileSystem.readText(RawPath(dir + "/subclasses")) {
        for line in text.split(separator: "\n") where !line.hasPrefix("#") {
          let parts = line.split(separator: " ")
          if parts.count == 2 { parents[String(parts[0]), default: []].append(String(parts[1])) }
        }
      }
    }
  }

  private func loadGlobs(_ text: String) {
    for line in text.split(separator: "\n") where !line.hasPrefix("#") {
      let fields = line.split(separator: ":", omittingEmptySubsequences: false)
      guard fields.count >= 3, let weight = Int(fields[0]) else { continue }
      let type = String(fields[1])
      let pattern = String(fields[2])
      let caseSensitive = fields.count > 3 && fields[3].split(separator: ",").contains("cs")
      let glob = Glob(weight: weight, type: type, pattern: pattern, caseSensitive: caseSensitive)
      if pattern.hasPrefix("*."), !pattern.dropFirst().contains(where: { "*?[".contains($0) }) {
        suffixGlobs[String(pattern.dropFirst()).lowercased(), default: []].append(glob)
      } else if !pattern.contains(where: { "*?[".contains($0) }) {
        literalGlobs[caseSensitive ? pattern : pattern.lowercased()] = glob
      } else {
        otherGlobs.append(glob)
      }
    }
  }

  /// The themed icon names for a type, the most specific first, as the
  /// shared-mime-info specification orders them: the type's own icon, its name
  /// with "/" as "-", its generic icon, and the generic icon of its media type.
  public func iconNames(for type: String) -> [String] {
    let type = canonical(type)
    var names: [String] = []
    if let icon = icons[type] { names.append(icon) }
    names.append(type.replacingOccurrences(of: "/", with: "-"))
    let media = type.split(separator: "/").first.map(String.init) ?? "application"
    names.append(genericIcons[type] ?? media + "-x-generic")
    if media != "application" && !names.contains(media + "-x-generic") {
      names.append(media + "-x-generic")
    }
    return names
  }

  /// The canonical name of a type (aliases resolved).
  public func canonical(_ type: String) -> String {
    let lower = type.lowercased()
    return aliases[lower] ?? lower
  }

  /// The type a file name suggests, or nil. Literal names beat suffixes, longer
  /// suffixes beat shorter ones, then weight decides (the shared-mime-info rules).
  public func type(forFileName name: String) -> String? {
    if let glob = literalGlobs[name] ?? literalGlobs[name.lowercased()] { return glob.type }
    var best: Glob?
    // Longer suffixes first, then weight, then a glob that matches the
    // name's own case: `util.c` is `*.c` (C), not `*.C` (C++), which
    // shared-mime-info also lists without its case-sensitive flag.
    var bestRank = (length: 0, weight: 0, sameCase: false)
    let lower = name.lowercased()
    var index = lower.firstIndex(of: ".")
    while let dot = index {
      let suffix = String(lower[dot...])
      if let globs = suffixGlobs[suffix] {
        for glob in globs {
          let sameCase = name.hasSuffix(String(glob.pattern.dropFirst()))
          if glob.caseSensitive && !sameCase { continue }
          let rank = (length: suffix.count, weight: glob.weight, sameCase: sameCase)
          if best == nil
            || (rank.length, rank.weight, rank.sameCase ? 1 : 0)
              > (bestRank.length, bestRank.weight, bestRank.sameCase ? 1 : 0)
          {
            best = glob
            bestRank = rank
          }
        }
        if best != nil { break }
      }
      index = lower[lower.index(after: dot)...].firstIndex(of: ".")
    }
    if let best { return best.type }
    if let dot = lower.lastIndex(of: "."),
      let type = Self.extraSuffixes[String(lower[lower.index(after: dot)...])]
    {
      return type
    }
    var other: Glob?
    for glob in otherGlobs where fnmatch(glob.pattern, glob.caseSensitive ? name : lower, 0) == 0 {
      if other == nil || glob.weight > other!.weight { other = glob }
    }
    return other?.type
  }

  /// Source and data formats common on desktops that older shared-mime-info
  /// releases do not know; used only when the database has no glob for a name.
  static let extraSuffixes: [String: String] = [
    "swift": "text/x-swift", "kt": "text/x-kotlin", "kts": "text/x-kotlin", "rs": "text/rust",
    "go": "text/x-go", "ts": "application/typescript", "tsx": "application/typescript",
    "jsx": "text/javascript", "mjs": "text/javascript", "toml": "application/toml",
    "zig": "text/x-zig", "nim": "text/x-nim", "dart": "text/x-dart", "ex": "text/x-elixir",
    "exs": "text/x-elixir", "jl": "text/x-julia", "gradle": "text/x-groovy",
    "proto": "text/x-protobuf",
    "hcl": "text/x-hcl", "tf": "text/x-hcl", "cmake": "text/x-cmake",
  ]

  /// Whether `type` is `ancestor` or descends from it.
  public func isSubclass(_ type: String, of ancestor: String) -> Bool {
    ancestors(of: type).contains(canonical(ancestor))
  }

  /// The type, then its ancestors (breadth first), then its `major/*` group.
  public func ancestors(of type: String) -> [String] {
    let start = canonical(type)
    var result = [start]
    var seen: Set<String> = [start]
    var index = 0
    while index < result.count {
      var next = parents[result[index]] ?? []
      // Implicit rules of the specification.
      if result[index].hasPrefix("text/") && result[index] != "text/plain" {
        next.append("text/plain")
      }
      if Self.extraSuffixes.values.contains(result[index]) && !result[index].hasPrefix("text/") {
        next.append("text/plain")
      }
      for parent in next where !seen.contains(parent) {
        seen.insert(parent)
        result.append(parent)
      }
      index += 1
    }
    if let slash = start.firstIndex(of: "/") {
      result.append(String(start[..<slash]) + "/*")
    }
    return result
  }

  /// The English description of a type ("PNG image"), read on first use.
  public func comment(for type: String) -> String? {
    let type = canonical(type)
    commentLock.lock()
    defer { commentLock.unlock() }
    if let cached = comments[type] { return cached.isEmpty ? nil : cached }
    var found = ""
    for dir in directories {
      guard let xml = FileSystem.readText(RawPath(dir + "/" + type + ".xml"), limit: 1 << 20) else {
        continue
      }
      if let open = xml.range(of: "<comment>"),
        let close = xml.range(of: "</comment>", range: open.upperBound..<xml.endIndex)
      {
        found = Self.unescapeXML(String(xml[open.upperBound..<close.lowerBound]))
        break
      }
    }
    if found.isEmpty { found = Self.fallbackComments[type] ?? Self.derivedComment(for: type) }
    comments[type] = found
    return found.isEmpty ? nil : found
  }

  private static let fallbackComments = [
    "inode/directory": "folder", "inode/symlink": "symbolic link", "inode/fifo": "pipe",
    "inode/socket": "socket", "inode/chardevice": "character device",
    "inode/blockdevice": "block device", "application/octet-stream": "unknown",
    "application/x-zerosize": "empty document", "text/plain": "plain text document",
  ]

  /// Programming languages the database may not describe, by their types'
  /// names after `x-`: "text/x-swift" is "Swift source code".
  private static let languageNames = [
    "swift": "Swift", "kotlin": "Kotlin", "rust": "Rust", "go": "Go", "typescript": "TypeScript",
    "zig": "Zig", "nim": "Nim", "dart": "Dart", "elixir": "Elixir", "julia": "Julia",
    "groovy": "Groovy", "protobuf": "Protocol Buffers", "hcl": "HCL", "cmake": "CMake",
    "toml": "TOML",
  ]

  /// A description for a type the database has none for, so that no item
  /// has an empty kind: "Swift source code" for a language, else the type's
  /// name ("application/x-foo-bar" is a "foo bar document").
  static func derivedComment(for type: String) -> String {
    guard let slash = type.firstIndex(of: "/") else { return type }
    var name = String(type[type.index(after: slash)...])
    for prefix in ["x-", "vnd."] where name.hasPrefix(prefix) { name.removeFirst(prefix.count) }
    if let language = languageNames[name] {
      return name == "toml" ? "\(language) document" : "\(language) source code"
    }
    let words = name.split { "-._+".contains($0) }.joined(separator: " ")
    return words.isEmpty ? type : "\(words) document"
  }

  static func unescapeXML(_ text: String) -> String {
    text.replacingOccurrences(of: "&lt;", with: "<").replacingOccurrences(of: "&gt;", with: ">")
      .replacingOccurrences(of: "&quot;", with: "\"").replacingOccurrences(of: "&apos;", with: "'")
      .replacingOccurrences(of: "&amp;", with: "&")
  }
}
