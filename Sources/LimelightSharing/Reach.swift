import LimelightModel
import LimelightPlatform

/// Who may find an entry in a shared store (``SharedItem/reach``): its
/// folder's owner, group and mode, then those of each folder above it
/// that others may not pass, read from the disk as the entries are sent.
/// The folders above are read once for all the entries of a page.
struct Reach {
  /// For a folder: the folders above it (itself left out) others may not pass.
  private var closedAbove: [RawPath: [Ownership]] = [:]

  /// Who may find the entry at `path`; nil when its folder is gone (the
  /// entry's removal follows).
  mutating func of(_ path: RawPath) -> [Ownership]? {
    let folder = path.parent
    guard folder != path, let own = FileSystem.ownership(folder) else { return nil }
    return [own] + closed(above: folder)
  }

  private mutating func closed(above folder: RawPath) -> [Ownership] {
    let parent = folder.parent
    guard parent != folder else { return [] }
    if let known = closedAbove[folder] { return known }
    var found = closed(above: parent)
    // Others may not search it: only its owner and group pass.
    if let own = FileSystem.ownership(parent), own.mode & 0o001 == 0 { found.append(own) }
    closedAbove[folder] = found
    return found
  }
}
