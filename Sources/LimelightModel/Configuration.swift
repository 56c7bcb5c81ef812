import LimelightPlatform

#if canImport(Glibc)
  import Glibc
#endif

/// What the watcher indexes and how, from `limelight.conf`.
///
/// The built-in defaults equal the shipped `etc/limelight/limelight.conf`. A system
/// file, then the user's `$XDG_CONFIG_HOME/limelight/limelight.conf`, are read over
/// them: `root` lines in a file replace the roots from before it, `exclude` lines
/// add patterns, `unexclude` lines remove them.
public struct Configuration: Equatable, Sendable {
  /// Folders to index; `~` stands for the home folder.
  public var roots: [String]
  /// Glob patterns of names (or of trailing paths, when they hold a "/") never indexed.
  public var excludes: [String]
  /// Whether dot-named files and folders are indexed (they then rank last).
  public var indexHidden: Bool
  /// The most text read from one file, in bytes.
  public var maxTextBytes: Int
  /// How long a file that is still being written must stay quiet before it is indexed, in seconds.
  public var settleSeconds: Double
  /// How often folders that could not be watched are rescanned, in seconds.
  public var rescanSeconds: Double
  /// The most folders watched with inotify (0: as many as the kernel allows).
  public var maxWatches: Int
  /// Whether installed applications (`.desktop` launchers) are indexed as
  /// their own domain, ``applicationsDomain``.
  public var indexApplications: Bool = true
  /// Where launchers are read from; empty: the `applications` folders of
  /// `$XDG_DATA_HOME` and `$XDG_DATA_DIRS`.
  public var applicationFolders: [String] = []
  /// The PostgreSQL store the watcher also writes its roots to and the
  /// front ends search, as libpq names it (a URL, `key=value` pairs or
  /// `service=NAME`); nil: the local index alone.
  public var store: String?
  /// A hot standby of `store` (PostgreSQL streaming replication) that the
  /// front ends read instead of its primary, which the watcher still
  /// writes; nil: the primary is read too.
  public var storeRead: String?
  /// The name this host's entries carry in a shared store (`file://HOST/…`);
  /// nil: the system's host name.
  public var hostName: String?
  /// Whether documents are found by what they are about (meaning search:
  /// the watcher embeds them with a local model, when one is installed).
  public var meaning: Bool = true

  /// Names of the markers that keep a folder and all below it out of the index.
  public static let markerFiles = [".noindex", ".metadata_never_index"]

  public static let defaults = Configuration(
    roots: ["~"],
    excludes: [
      ".cache", ".ccache", ".Trash", ".Trash-*", "Trash", ".local/share/Trash", ".thumbnails",
      ".git", ".hg", ".svn", ".bzr", "_darcs", "CVS", "node_modules", "bower_components",
      "__pycache__", ".mypy_cache", ".pytest_cache", ".tox", ".venv", ".gradle", ".build",
      ".build-*", ".cargo/registry", ".rustup", ".npm", ".m2/repository", "*.o", "*.pyc",
      "*.class", "*.swp", "*~", "*.part", "*.crdownload",
    ],
    indexHidden: false, maxTextBytes: 1 << 20, settleSeconds: 1.0, rescanSeconds: 300,
    maxWatches: 0)

  /// A mistake in a configuration file, with where it is.
  public struct ParseError: Error, CustomStringConvertible, Sendable {
    public var file: String
    public var line: Int
    public var message: String
    public var description: String { "\(file):\(line): \(message)" }
  }

  /// The configuration for an index location: defaults, then system, then user files.
  public static func load(for location: IndexLocation) throws -> Configuration {
    var config = defaults
    var files: [RawPath] = location.systemConfigDirectories.reversed().map {
      $0.appending("limelight.conf")
    }
    files.append(location.userConfigFile)
    var seen: Set<RawPath> = []
    for file in files where !seen.contains(file) {
      seen.insert(file)
      guard FileSystem.status(file) != nil else { continue }
      guard let text = FileSystem.readText(file) else {
        throw ParseError(file: file.string, line: 0, message: "cannot be read")
      }
      try config.apply(text, file: file.string)
    }
    return config
  }

  /// Reads one file's settings over this configuration.
  public mutating func apply(_ text: String, file: String) throws(ParseError) {
    var rootsFromThisFile: [String] = []
    var applicationFoldersFromThisFile: [String] = []
    for (number, rawLine) in text.split(separator: "\n", omittingEmptySubsequences: false)
      .enumerated()
    {
      let line = rawLine.trimmingWhitespace()
      if line.isEmpty || line.hasPrefix("#") || line.hasPrefix(";") { continue }
      func fail(_ message: String) -> ParseError {
        ParseError(file: file, line: number + 1, message: message)
      }
      guard let eq = line.firstIndex(of: "=") else {
        throw fail("expected 'key = value', found '\(line)'")
      }
      let key = line[..<eq].trimmingWhitespace().lowercased()
      let value = line[line.index(after: eq)...].trimmingWhitespace()
      switch key {
      case "root":
        guard !value.isEmpty else { throw fail("'root' needs a folder") }
        guard value.hasPrefix("/") || value == "~" || value.hasPrefix("~/") else {
          throw fail("'root' must be an absolute path or start with ~/, found '\(value)'")
        }
        rootsFromThisFile.append(value)
      case "exclude":
        guard !value.isEmpty else { throw fail("'exclude' needs a pattern") }
        if !excludes.contains(value) { excludes.append(value) }
      case "unexclude":
        guard !value.isEmpty else { throw fail("'unexclude' needs a pattern") }
        excludes.removeAll { $0 == value }
      case "index-hidden":
        guard let flag = Self.parseFlag(value) else {
          throw fail("'index-hidden' is yes or no, found '\(value)'")
        }
        indexHidden = flag
      case "applications":
        guard let flag = Self.parseFlag(value) else {
          throw fail("'applications' is yes or no, found '\(value)'")
        }
        indexApplications = flag
      case "meaning":
        guard let flag = Self.parseFlag(value) else {
          throw fail("'meaning' is yes or no, found '\(value)'")
        }
        meaning = flag
      case "application-folder":
        guard value.hasPrefix("/") || value.hasPrefix("~/") else {
          throw fail(
            "'application-folder' must be an absolute path or start with ~/, found '\(value)'")
        }
        applicationFoldersFromThisFile.append(value)
      case "max-text-size":
        guard let bytes = Self.parseSize(value), bytes >= 0 else {
          throw fail("'max-text-size' is a size such as 1M or 512k, found '\(value)'")
        }
        maxTextBytes = bytes
      case "settle-time":
        guard let seconds = Double(value), seconds >= 0, seconds <= 3600 else {
          throw fail("'settle-time' is a number of seconds from 0 to 3600, found '\(value)'")
        }
        settleSeconds = seconds
      case "rescan-interval":
        guard let seconds = Double(value), seconds >= 1 else {
          throw fail("'rescan-interval' is a number of seconds of at least 1, found '\(value)'")
        }
        rescanSeconds = seconds
      case "max-watches":
        guard let count = Int(value), count >= 0 else {
          throw fail("'max-watches' is a whole number (0 for the kernel's limit), found '\(value)'")
        }
        maxWatches = count
      case "store":
        if value.isEmpty || value == "local" {
          store = nil
        } else {
          do throws(StoreNameError) { store = try Self.checkedStoreName(value) } catch {
            throw fail(error.description)
          }
        }
      case "store-read":
        if value.isEmpty {
          storeRead = nil
        } else {
          do throws(StoreNameError) { storeRead = try Self.checkedStoreName(value) } catch {
            throw fail(error.description)
          }
        }
      case "host-name":
        guard HostName.isValid(value) else {
          throw fail(
            "'host-name' is letters, digits, '-' and '.' (as in a URI), found '\(value)'")
        }
        hostName = value
      default:
        throw fail(
          "unknown key '\(key)' (known: root, exclude, unexclude, index-hidden, max-text-size, settle-time, rescan-interval, max-watches, applications, application-folder, store, store-read, host-name)"
        )
      }
    }
    if !rootsFromThisFile.isEmpty { roots = rootsFromThisFile }
    if !applicationFoldersFromThisFile.isEmpty {
      applicationFolders = applicationFoldersFromThisFile
    }
  }

  /// Why a store's name was refused.
  public struct StoreNameError: Error, CustomStringConvertible, Sendable {
    public var description: String
  }

  /// A PostgreSQL store's name as libpq reads it: a `postgresql://` URL,
  /// `key=value` pairs, or `service=NAME`. A password in it is refused: it
  /// belongs in `~/.pgpass` (or `PGPASSFILE`), not in a file others may
  /// read or a command line every process may see.
  public static func checkedStoreName(_ name: String) throws(StoreNameError) -> String {
    let lower = name.lowercased()
    let isURL = lower.hasPrefix("postgresql://") || lower.hasPrefix("postgres://")
    guard isURL || lower.contains("=") else {
      throw StoreNameError(
        description:
          "a store is a postgresql:// URL, key=value pairs or service=NAME, found '\(name)'")
    }
    var hasPassword = false
    if isURL {
      // The user information of `postgresql://user:secret@host/db`.
      let authority =
        lower.split(separator: "/", maxSplits: 3, omittingEmptySubsequences: false)
        .dropFirst(2).first?.prefix { $0 != "?" } ?? ""
      if let at = authority.lastIndex(of: "@") { hasPassword = authority[..<at].contains(":") }
    }
    // `password=…` among pairs or in a URL's parameters, spaces allowed.
    var rest = Substring(lower)
    while let found = rest.firstRange(of: "password") {
      rest = rest[found.upperBound...]
      if rest.drop(while: { $0 == " " || $0 == "\t" }).first == "=" { hasPassword = true }
    }
    if hasPassword {
      throw StoreNameError(
        description: "a store's name must not hold a password: put it in ~/.pgpass (or PGPASSFILE)")
    }
    return name
  }

  /// The name this host's entries carry in a shared store: `host-name`, or
  /// the system's host name (up to its first dot).
  public var resolvedHostName: String { hostName?.lowercased() ?? HostName.system }

  static func parseFlag(_ value: String) -> Bool? {
    switch value.lowercased() {
    case "yes", "true", "on", "1": return true
    case "no", "false", "off", "0": return false
    default: return nil
    }
  }

  /// "1M", "512k", "2G" or a plain number of bytes.
  public static func parseSize(_ text: String) -> Int? {
    let lower = text.lowercased().replacingSuffix("b", with: "")
    let multipliers: [(String, Int)] = [("k", 1 << 10), ("m", 1 << 20), ("g", 1 << 30)]
    for (suffix, factor) in multipliers where lower.hasSuffix(suffix) {
      guard let number = Double(lower.dropLast()), number >= 0 else { return nil }
      return Int(number * Double(factor))
    }
    return Int(lower)
  }

  /// The roots as absolute, normalized paths.
  public func resolvedRoots(home: RawPath) -> [RawPath] {
    var result: [RawPath] = []
    for root in roots {
      let path: RawPath
      if root == "~" {
        path = home
      } else if root.hasPrefix("~/") {
        path = home.appending(String(root.dropFirst(2)))
      } else {
        path = RawPath(root)
      }
      // A root that is a link (~/Documents on another disk) is indexed where it leads.
      let normalized = FileSystem.realPath(path) ?? path.lexicallyNormalized
      if !result.contains(normalized) { result.append(normalized) }
    }
    // A root inside another root is already covered.
    return result.filter { root in !result.contains { $0 != root && root.isInside($0) } }
  }
}

extension String {
  func replacingSuffix(_ suffix: String, with replacement: String) -> String {
    hasSuffix(suffix) ? String(dropLast(suffix.count)) + replacement : self
  }
}
