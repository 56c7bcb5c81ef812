import LimelightModel
import LimelightPlatform
import LimelightStore
import LimelightThumbnails

#if canImport(Glibc)
  import Glibc
#endif

/// Follows the shared thumbnail cache: a thumbnail that a file manager (or
/// any other program) writes for an indexed file becomes the item's
/// thumbnail as soon as it lands, if it is current and no larger one is
/// already the item's; one deleted (a cache cleaned up) leaves its items,
/// which are drawn again.
public final class ThumbnailWatch {
  let cache: ThumbnailCache
  let store: IndexStore
  let queue: ThumbnailQueue?
  public let inotify: Inotify
  var folders: [Int32: RawPath] = [:]

  public init?(cache: ThumbnailCache, store: IndexStore, queue: ThumbnailQueue?) {
    guard let inotify = try? Inotify() else { return nil }
    self.cache = cache
    self.store = store
    self.queue = queue
    self.inotify = inotify
    // The standard asks for private folders; made here so that they can be
    // watched before any program writes the first thumbnail.
    for size in ThumbnailCache.sizes {
      let folder = cache.root.appending(size)
      try? FileSystem.makeDirectories(folder, mode: 0o700)
      // Thumbnails are written elsewhere and renamed in, or written in place.
      if case .success(let wd) = inotify.addWatch(
        folder,
        mask: UInt32(IN_MOVED_TO) | UInt32(IN_CLOSE_WRITE) | UInt32(IN_DELETE)
          | UInt32(IN_MOVED_FROM) | UInt32(IN_ONLYDIR))
      {
        folders[wd] = folder
      }
    }
  }

  /// Takes the thumbnails that arrived; returns a problem, if any.
  public func handleEvents() -> String? {
    var arrived: Set<RawPath> = []
    var deleted: Set<RawPath> = []
    for event in inotify.readEvents() {
      guard let folder = folders[event.watch], let name = event.name,
        name.string.hasSuffix(".png")
      else { continue }
      let path = folder.appending(name)
      if event.mask & (UInt32(IN_DELETE) | UInt32(IN_MOVED_FROM)) != 0 {
        deleted.insert(path)
        arrived.remove(path)
      } else {
        arrived.insert(path)
        deleted.remove(path)
      }
    }
    // Our own moves delete the old names after writing the new ones, and the
    // items already point at the new: only thumbnails still shown matter.
    let gone = deleted.filter { FileSystem.status($0) == nil }.map(\.string)
    if !gone.isEmpty { queue?.offerDropped(gone) }
    var updates: [(file: RawPath, modifiedNs: Int64, thumbnail: RawPath)] = []
    for thumbnail in arrived {
      guard let (uri, modified) = ThumbnailCache.subject(ofThumbnail: thumbnail),
        let file = FileURI.path(from: uri)
      else { continue }
      do {
        guard let stored = try store.thumbnailState(path: file),
          stored.modifiedNs / 1_000_000_000 == modified, stored.thumbnail != thumbnail.string
        else { continue }
        if let current = stored.thumbnail,
          FileSystem.status(RawPath(current)) != nil,
          cache.rank(of: RawPath(current)) >= cache.rank(of: thumbnail)
        {
          continue
        }
        updates.append((file, stored.modifiedNs, thumbnail))
      } catch {
        return "cannot read the index: \(error)"
      }
    }
    guard !updates.isEmpty else { return nil }
    // A file manager filling a folder's thumbnails: one transaction for them all.
    do {
      try store.write { writer in
        for update in updates {
          try writer.setThumbnail(
            path: update.file, modifiedNs: update.modifiedNs, thumbnail: update.thumbnail)
        }
      }
    } catch {
      return "cannot record thumbnails: \(error)"
    }
    return nil
  }
}
