import Foundation
import LimelightModel
import LimelightPlatform

/// The applications installed for the user: the `.desktop` launchers of the
/// `applications` folders (`$XDG_DATA_HOME` first, then `$XDG_DATA_DIRS`), as
/// items of ``applicationsDomain`` whose URI names the launcher
/// (`application:firefox.desktop`) and opens the application.
///
/// A launcher's id is its path below its folder with `/` turned into `-`
/// (the Desktop Entry specification's desktop file id); the first folder
/// that has an id wins, so a user's copy hides the system's.
public struct InstalledApplications: Sendable {
  public let folders: ApplicationFolders
  /// Where icon themes and pixmaps are looked up.
  let dataDirectories: [RawPath]
  let reader: DesktopEntryReader

  /// One launcher found.
  public struct Launcher: Sendable {
    public var id: String
    public var file: RawPath
    /// The launcher's modification time in nanoseconds (to skip unchanged ones).
    public var modifiedNs: Int64
    public var item: IndexItem
  }

  public init(
    folders: ApplicationFolders, dataDirectories: [RawPath],
    environment: [String: String] = ProcessEnvironment.current
  ) {
    self.folders = folders
    self.dataDirectories = dataDirectories
    self.reader = DesktopEntryReader(environment: environment)
  }

  /// Every launcher of an application shown in menus, by id.
  public func scan() -> [Launcher] {
    var found: [String: Launcher] = [:]
    var hidden: Set<String> = []
    folders.forEachLauncher { id, file, status in
      guard found[id] == nil, !hidden.contains(id) else { return }
      switch launcher(id: id, file: file, status: status) {
      case .some(let launcher): found[id] = launcher
      case .none: hidden.insert(id)
      }
    }
    return found.keys.sorted().map { found[$0]! }
  }

  /// The item of one launcher; nil for a launcher that is not shown
  /// (`Hidden`, `NoDisplay`, not an application, or its `TryExec` missing).
  func launcher(id: String, file: RawPath, status: FileStatus) -> Launcher? {
    guard let text = FileSystem.readText(file, limit: 1 << 20) else { return nil }
    let entry = KeyFile(text: text).groups["Desktop Entry"] ?? KeyFile.Group()
    guard entry["Type"] == "Application", entry["Hidden"] != "true",
      entry["NoDisplay"] != "true", let name = entry["Name"], !name.isEmpty
    else { return nil }
    if let tryExec = entry["TryExec"], !tryExec.isEmpty,
      ApplicationFolders.executable(named: tryExec) == nil
    {
      return nil
    }
    var attributes = AttributeSet(displayName: name)
    reader.read(entry, into: &attributes)
    attributes.displayName = attributes.title ?? name
    attributes.contentType = "application/x-desktop"
    attributes.contentTypeTree = ["application/x-desktop", "application/*"]
    attributes.kind = "application"
    attributes.modified = Date(timeIntervalSince1970: Double(status.modified) / 1e9)
    attributes.extra["launcher"] = .string(file.string)
    let categories = entry.list("Categories")
    if !categories.isEmpty { attributes.extra["categories"] = .strings(categories) }
    if let icon = entry["Icon"], let path = iconPath(icon) {
      attributes.thumbnailPath = path.string
    }
    let item = IndexItem(
      id: id, domain: applicationsDomain, uri: ApplicationFolders.uri(forID: id),
      attributes: attributes)
    return Launcher(id: id, file: file, modifiedNs: status.modified, item: item)
  }

  /// The file of an icon: an absolute path, or the largest bitmap (or the
  /// scalable one) of the hicolor theme, or a pixmap.
  func iconPath(_ icon: String) -> RawPath? {
    if icon.hasPrefix("/") { return FileSystem.status(RawPath(icon)) != nil ? RawPath(icon) : nil }
    guard !icon.contains("/") else { return nil }
    let sizes = ["256x256", "128x128", "scalable", "96x96", "64x64", "48x48", "32x32"]
    for directory in dataDirectories {
      for size in sizes {
        for suffix in [".png", ".svg"] {
          let path = directory.appending("icons/hicolor/\(size)/apps/\(icon)\(suffix)")
          if FileSystem.status(path) != nil { return path }
        }
      }
      for suffix in [".png", ".svg", ".xpm"] {
        let path = directory.appending("pixmaps/\(icon)\(suffix)")
        if FileSystem.status(path) != nil { return path }
      }
    }
    return nil
  }

}
