#if canImport(Glibc)
  import Glibc
#endif

/// The folders of the XDG Base Directory specification, read from one
/// environment by the one set of rules every part of Limelight uses: a
/// variable that is unset, empty or not an absolute path takes the
/// specification's default; in a list, entries that are not absolute paths are
/// ignored, and a list left empty takes the default.
///
/// No Foundation, so that the query client (which starts in well under a
/// millisecond) reads the same rules as the watcher.
public struct BaseDirectories: Equatable, Sendable {
  /// `$HOME`, else the password database's home folder, else `/`.
  public var home: String
  /// `$XDG_DATA_HOME`, by default `~/.local/share`.
  public var dataHome: String
  /// `$XDG_CONFIG_HOME`, by default `~/.config`.
  public var configHome: String
  /// `$XDG_CACHE_HOME`, by default `~/.cache`.
  public var cacheHome: String
  /// `$XDG_RUNTIME_DIR`; it has no default (the specification leaves the
  /// fallback to the program).
  public var runtimeDirectory: String?
  /// `$XDG_DATA_DIRS`, by default `/usr/local/share:/usr/share`, the most
  /// important first.
  public var dataDirectories: [String]
  /// `$XDG_CONFIG_DIRS`, by default `/etc/xdg`, the most important first.
  public var configDirectories: [String]

  /// The data folders in order of importance: the user's, then the system's.
  public var everyDataDirectory: [String] { [dataHome] + dataDirectories }

  /// The folders a lookup of variables describes; `passwordHome` gives the
  /// home folder when `HOME` does not.
  public init(
    lookup: (String) -> String?, passwordHome: () -> String? = BaseDirectories.passwordHome
  ) {
    func absolute(_ name: String) -> String? {
      guard let value = lookup(name), value.hasPrefix("/") else { return nil }
      return Self.trimmed(value)
    }
    func list(_ name: String, default fallback: [String]) -> [String] {
      let entries = (lookup(name) ?? "").split(separator: ":")
        .filter { $0.hasPrefix("/") }.map { Self.trimmed(String($0)) }
      return entries.isEmpty ? fallback : entries
    }
    home = absolute("HOME") ?? passwordHome().map(Self.trimmed) ?? "/"
    let base = home == "/" ? "" : home
    dataHome = absolute("XDG_DATA_HOME") ?? base + "/.local/share"
    configHome = absolute("XDG_CONFIG_HOME") ?? base + "/.config"
    cacheHome = absolute("XDG_CACHE_HOME") ?? base + "/.cache"
    runtimeDirectory = absolute("XDG_RUNTIME_DIR")
    dataDirectories = list("XDG_DATA_DIRS", default: ["/usr/local/share", "/usr/share"])
    configDirectories = list("XDG_CONFIG_DIRS", default: ["/etc/xdg"])
  }

  /// The folders of an environment given as a dictionary.
  public init(
    environment: [String: String], passwordHome: () -> String? = BaseDirectories.passwordHome
  ) {
    self.init(lookup: { environment[$0] }, passwordHome: passwordHome)
  }

  /// The user's home folder in the password database.
  public static func passwordHome() -> String? {
    guard let entry = getpwuid(getuid()), let dir = entry.pointee.pw_dir else { return nil }
    let home = String(cString: dir)
    return home.hasPrefix("/") ? home : nil
  }

  /// A path without trailing slashes (but `/` stays `/`).
  static func trimmed(_ path: String) -> String {
    var path = Substring(path)
    while path.count > 1 && path.hasSuffix("/") { path = path.dropLast() }
    return String(path)
  }
}
