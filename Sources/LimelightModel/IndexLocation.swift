import LimelightPlatform

#if canImport(Glibc)
  import Glibc
#endif

/// Where one Limelight instance keeps its files, from the XDG base directory
/// variables. Pointing `XDG_*` at a temporary folder gives an isolated instance.
public struct IndexLocation: Sendable {
  /// `$XDG_DATA_HOME/limelight`: the index database and the watcher's lock.
  public var dataDirectory: RawPath
  /// `$XDG_CONFIG_HOME/limelight`: the user's configuration.
  public var configDirectory: RawPath
  /// `$XDG_RUNTIME_DIR/limelight` (or a private folder in the data directory when
  /// the variable is unset): the wake-up file that requests touch.
  public var runtimeDirectory: RawPath
  /// `$XDG_CACHE_HOME`: its `thumbnails/` folder is the shared freedesktop cache.
  public var cacheHome: RawPath
  /// The user's home folder, the default root.
  public var home: RawPath
  /// System configuration folders searched before the user's (`$XDG_CONFIG_DIRS`, then /etc).
  public var systemConfigDirectories: [RawPath]
  /// The XDG folders this location was found from.
  public var base: BaseDirectories

  public var databasePath: RawPath { dataDirectory.appending("index.sqlite") }
  public var lockPath: RawPath { dataDirectory.appending("limelightd.lock") }
  public var wakePath: RawPath { runtimeDirectory.appending("wake") }
  public var userConfigFile: RawPath { configDirectory.appending("limelight.conf") }

  /// The location the environment describes.
  public static func fromEnvironment(_ environment: [String: String] = ProcessEnvironment.current)
    -> IndexLocation
  {
    let base = BaseDirectories(environment: environment)
    let home = RawPath(base.home).lexicallyNormalized
    let data = RawPath(base.dataHome).lexicallyNormalized.appending("limelight")
    let config = RawPath(base.configHome).lexicallyNormalized.appending("limelight")
    let cache = RawPath(base.cacheHome).lexicallyNormalized
    let runtime =
      base.runtimeDirectory.map { RawPath($0).lexicallyNormalized.appending("limelight") }
      ?? data.appending("run")
    let system =
      base.configDirectories.map { RawPath($0).appending("limelight") }
      + [RawPath("/etc/limelight")]
    return IndexLocation(
      dataDirectory: data, configDirectory: config, runtimeDirectory: runtime, cacheHome: cache,
      home: home, systemConfigDirectories: system, base: base)
  }

  /// The folders of descriptors named `name` (`importers.d`): the system's
  /// first, the user's last, so that a later one overrides by file name.
  public func descriptorFolders(_ name: String) -> [RawPath] {
    (systemConfigDirectories.reversed() + [configDirectory]).map { $0.appending(name) }
  }

  /// The process id of the watcher holding this index's lock, or nil when none runs.
  public func watcherPID() -> Int? {
    let fd = lockPath.withCString { open($0, O_RDONLY | O_CLOEXEC) }
    guard fd >= 0 else { return nil }
    defer { close(fd) }
    if flock(fd, LOCK_SH | LOCK_NB) == 0 {
      _ = flock(fd, LOCK_UN)
      return nil
    }
    let text = FileSystem.readText(lockPath, limit: 32) ?? ""
    return Int(text.filter(\.isNumber)) ?? 0
  }

  /// Creates the private folders (mode 0700) this instance writes to.
  public func createPrivateDirectories() throws(SystemError) {
    try FileSystem.makeDirectories(dataDirectory, mode: 0o700)
    try FileSystem.makeDirectories(runtimeDirectory, mode: 0o700)
  }
}
