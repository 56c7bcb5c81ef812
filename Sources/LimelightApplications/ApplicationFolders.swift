import LimelightModel
import LimelightPlatform

#if canImport(Glibc)
  import Glibc
#endif

/// Where installed applications' launchers (`.desktop` files) live: the
/// `applications` folders of `$XDG_DATA_HOME` and `$XDG_DATA_DIRS`, or the
/// folders the configuration names. A launcher's id is its path below its
/// folder with `/` turned into `-` (the Desktop Entry specification's desktop
/// file id); the first folder that has an id wins, so a user's copy hides the
/// system's. Its URI, `application:ID`, names it in the index.
public struct ApplicationFolders: Sendable {
  /// The folders, the most important first.
  public let folders: [RawPath]

  public init(_ folders: [RawPath]) { self.folders = folders }

  /// The launcher folders of a configuration: the ones it names, or the XDG ones.
  public init(configuration: Configuration, location: IndexLocation) {
    if !configuration.applicationFolders.isEmpty {
      folders = configuration.applicationFolders.map { folder in
        folder.hasPrefix("~/")
          ? location.home.appending(String(folder.dropFirst(2))) : RawPath(folder)
      }
    } else {
      folders = location.base.everyDataDirectory.map { RawPath($0).appending("applications") }
    }
  }

  /// The URI of a launcher id.
  public static func uri(forID id: String) -> String {
    "application:" + FileURI.percentEncoded(id)
  }

  /// The launcher id a URI names, if it is an application URI.
  public static func id(fromURI uri: String) -> String? {
    guard uri.hasPrefix("application:") else { return nil }
    return FileURI.percentDecoded(String(uri.dropFirst("application:".count)))
  }

  /// Calls `body` with the id, file and status of every launcher, folder by
  /// folder (an id may come more than once: the first is the one in force).
  public func forEachLauncher(_ body: (String, RawPath, FileStatus) -> Void) {
    for folder in folders { visit(folder, prefix: "", depth: 0, body) }
  }

  /// The launcher file of an id, the first folder's.
  public func file(forID id: String) -> RawPath? {
    var result: RawPath?
    forEachLauncher { found, file, _ in
      if result == nil && found == id { result = file }
    }
    return result
  }

  func visit(
    _ folder: RawPath, prefix: String, depth: Int, _ body: (String, RawPath, FileStatus) -> Void
  ) {
    guard depth < 8, let names = try? FileSystem.entries(of: folder) else { return }
    for name in names.sorted(by: { $0.bytes.lexicographicallyPrecedes($1.bytes) }) {
      let path = folder.appending(name.string)
      guard let status = FileSystem.status(path) else { continue }
      let resolved = status.kind == .symlink ? FileSystem.followedStatus(path) : status
      guard let resolved else { continue }
      if resolved.isDirectory {
        visit(path, prefix: prefix + name.string + "-", depth: depth + 1, body)
      } else if name.string.hasSuffix(".desktop") && resolved.kind == .regular {
        body(prefix + name.string, path, resolved)
      }
    }
  }

  /// The path of an executable: itself when absolute, else found in `PATH`.
  public static func executable(
    named name: String, environment: [String: String] = ProcessEnvironment.current
  ) -> RawPath? {
    if name.hasPrefix("/") { return access(name, X_OK) == 0 ? RawPath(name) : nil }
    for folder in (environment["PATH"] ?? "/usr/local/bin:/usr/bin:/bin").split(separator: ":") {
      let path = String(folder) + "/" + name
      if access(path, X_OK) == 0 { return RawPath(path) }
    }
    return nil
  }
}
