import CInflate
import LimelightModel
import LimelightPlatform
import LimelightSubprocess

#if canImport(Glibc)
  import Glibc
#endif

/// A thumbnailer the system has installed (`/usr/share/thumbnailers/*.thumbnailer`,
/// the same ones file managers run): the types it draws and its command.
public struct Thumbnailer: Sendable {
  public var contentTypes: [String]
  /// `Exec`, with `%i` (input path), `%u` (input URI), `%o` (output path) and
  /// `%s` (size in pixels) still in it.
  public var command: [String]

  /// The thumbnailers of the `thumbnailers` folders under these data folders
  /// (the user's last, overriding by file name), whose `TryExec` exists.
  public static func installed(dataDirectories: [RawPath]) -> [Thumbnailer] {
    KeyFile.files(
      endingIn: ".thumbnailer", in: dataDirectories.map { $0.appending("thumbnailers") }
    ).compactMap { _, file in
      let group = "Thumbnailer Entry"
      guard let exec = file[group, "Exec"], let command = KeyFile.arguments(of: exec),
        !command.isEmpty
      else { return nil }
      if let tryExec = file[group, "TryExec"], !Self.isExecutable(tryExec) { return nil }
      let types = file.list(group, "MimeType")
      return types.isEmpty ? nil : Thumbnailer(contentTypes: types, command: command)
    }
  }

  /// The types the built-in thumbnailer draws: the images gdk-pixbuf
  /// decodes on every Debian system, and PDF's first page.
  public static let builtInTypes = [
    "image/png", "image/jpeg", "image/gif", "image/bmp", "image/x-bmp", "image/tiff",
    "image/x-icon", "image/vnd.microsoft.icon", "image/x-portable-anymap",
    "image/x-portable-bitmap", "image/x-portable-graymap", "image/x-portable-pixmap",
    "image/x-tga", "image/svg+xml", "image/webp", "application/pdf",
  ]

  /// The built-in thumbnailer: the `limelight-import` helper (`helper`, the
  /// command before its arguments), for the types no thumbnailer of the
  /// system draws.
  public static func builtIn(helper: [String]) -> Thumbnailer {
    Thumbnailer(
      contentTypes: builtInTypes, command: helper + ["--thumbnail", "%s", "--output", "%o", "%i"])
  }

  static func isExecutable(_ program: String) -> Bool {
    let candidates =
      program.hasPrefix("/")
      ? [program] : ["/usr/local/bin", "/usr/bin", "/bin"].map { $0 + "/" + program }
    return candidates.contains { access($0, X_OK) == 0 }
  }
}

/// Makes thumbnails into the shared cache with the system's thumbnailers, as
/// the Thumbnail Managing Standard says: a PNG named by the MD5 of the URI,
/// with `Thumb::URI` and `Thumb::MTime`, written whole or not at all; a
/// failure leaves a record under `fail/limelight/`, so that the file is not
/// tried again until it changes.
public struct ThumbnailMaker: Sendable {
  public let cache: ThumbnailCache
  let byType: [String: Thumbnailer]
  /// The size made: `large` (256 pixels), which result lists scale down.
  static let size = ("large", 256)
  static let timeLimit = 30.0

  public init(cache: ThumbnailCache, thumbnailers: [Thumbnailer]) {
    self.cache = cache
    var byType: [String: Thumbnailer] = [:]
    for thumbnailer in thumbnailers {
      for type in thumbnailer.contentTypes where byType[type] == nil { byType[type] = thumbnailer }
    }
    self.byType = byType
  }

  /// Whether a thumbnailer draws this type (its most specific name first).
  public func canDraw(_ contentTypeTree: [String]) -> Bool {
    contentTypeTree.contains { byType[$0] != nil }
  }

  /// Where the failure record of a URI goes.
  func failurePath(_ name: String) -> RawPath {
    cache.root.appending("fail").appending("limelight").appending(name)
  }

  /// Makes the thumbnail of a file (unless a current one or a current failure
  /// record exists) and returns its path, or nil when none could be made.
  public func make(path: RawPath, contentTypeTree: [String], modified: Int64) -> RawPath? {
    let uri = FileURI.uri(for: path)
    if let existing = cache.existing(for: uri, modified: modified) { return existing }
    let name = ThumbnailCache.fileName(for: uri)
    if let record = try? FileSystem.readPrefix(failurePath(name), limit: 64 << 10),
      ThumbnailCache.isCurrent(png: record, uri: uri, modified: modified)
    {
      return nil
    }
    guard let thumbnailer = contentTypeTree.lazy.compactMap({ self.byType[$0] }).first else {
      return nil
    }
    let folder = cache.root.appending(Self.size.0)
    try? FileSystem.makeDirectories(folder, mode: 0o700)
    let temporary = Self.temporary(in: folder, for: name)
    defer { _ = temporary.withCString { unlink($0) } }
    let arguments: [[UInt8]] = thumbnailer.command.map { argument in
      switch argument {
      case "%i": return path.bytes
      case "%u": return Array(uri.utf8)
      case "%o": return temporary.bytes
      case "%s": return Array(String(Self.size.1).utf8)
      default: return Array(argument.utf8)
      }
    }
    let outcome = try? ChildProcess(
      arguments: arguments, timeLimit: Self.timeLimit, outputLimit: 1 << 20,
      memoryLimit: 2 << 30
    ).run()
    guard outcome?.ending == .exited(0),
      let drawn = try? FileSystem.readPrefix(temporary, limit: 16 << 20),
      let tagged = Self.tagged(png: drawn, uri: uri, modified: modified)
    else {
      recordFailure(name: name, uri: uri, modified: modified)
      return nil
    }
    let target = folder.appending(name)
    return Self.replace(target, with: tagged, through: temporary) ? target : nil
  }

  /// A private name in `folder` to write the thumbnail `name` under before
  /// it is renamed into place (hidden, and not ending in `.png`).
  static func temporary(in folder: RawPath, for name: String) -> RawPath {
    folder.appending(".\(name).limelight-\(getpid())-\(UInt32.random(in: 0...UInt32.max))")
  }

  /// Writes `contents` to `target` whole or not at all: into `temporary`,
  /// then renamed over it, so that no reader sees half a thumbnail.
  static func replace(_ target: RawPath, with contents: [UInt8], through temporary: RawPath)
    -> Bool
  {
    do {
      try FileSystem.writeFile(temporary, contents: contents, mode: 0o600)
    } catch { return false }
    return temporary.withCString { from in target.withCString { rename(from, $0) } } == 0
  }

  /// Moves the thumbnails of a file renamed from `old` to `new` (current for
  /// a file last modified at `modified`, in seconds) to the names of its new
  /// URI, retagged, as the standard asks of whoever moves a file: nothing is
  /// drawn again. Returns the largest moved, nil when none was current.
  public func move(from old: RawPath, to new: RawPath, modified: Int64) -> RawPath? {
    let (oldURI, newURI) = (FileURI.uri(for: old), FileURI.uri(for: new))
    let (oldName, newName) = (
      ThumbnailCache.fileName(for: oldURI), ThumbnailCache.fileName(for: newURI)
    )
    var largest: RawPath?
    for size in ThumbnailCache.sizes {
      let folder = cache.root.appending(size)
      let source = folder.appending(oldName)
      guard let png = try? FileSystem.readPrefix(source, limit: Self.movedLimit),
        ThumbnailCache.isCurrent(png: png, uri: oldURI, modified: modified),
        let retagged = Self.tagged(png: png, uri: newURI, modified: modified, software: nil)
      else { continue }
      let target = folder.appending(newName)
      let temporary = Self.temporary(in: folder, for: newName)
      defer { _ = temporary.withCString { unlink($0) } }
      guard Self.replace(target, with: retagged, through: temporary) else { continue }
      _ = source.withCString { unlink($0) }
      largest = largest ?? target
    }
    // A failure record follows its file, so that it is not tried again.
    if let record = try? FileSystem.readPrefix(failurePath(oldName), limit: 64 << 10),
      ThumbnailCache.isCurrent(png: record, uri: oldURI, modified: modified)
    {
      recordFailure(name: newName, uri: newURI, modified: modified)
    }
    _ = failurePath(oldName).withCString { unlink($0) }
    return largest
  }

  /// Removes the thumbnails and failure record of a file that is gone (the
  /// standard asks it of whoever deletes a file); a file still there keeps them.
  public func forget(_ path: RawPath) {
    guard FileSystem.status(path) == nil else { return }
    let name = ThumbnailCache.fileName(for: FileURI.uri(for: path))
    for size in ThumbnailCache.sizes {
      _ = cache.root.appending(size).appending(name).withCString { unlink($0) }
    }
    _ = failurePath(name).withCString { unlink($0) }
  }

  /// The largest thumbnail read to be moved (an xx-large PNG is a few MiB).
  static let movedLimit = 32 << 20

  func recordFailure(name: String, uri: String, modified: Int64) {
    let folder = failurePath(name).parent
    try? FileSystem.makeDirectories(folder, mode: 0o700)
    // An empty 1×1 PNG that carries the URI and time, as the standard asks.
    let empty: [UInt8] =
      PNGChunks.signature
      + Self.chunk("IHDR", [0, 0, 0, 1, 0, 0, 0, 1, 8, 6, 0, 0, 0])
      + Self.chunk("IDAT", [0x78, 0x9C, 0x63, 0x60, 0x00, 0x02, 0x00, 0x00, 0x05, 0x00, 0x01])
      + Self.chunk("IEND", [])
    if let record = Self.tagged(png: empty, uri: uri, modified: modified) {
      try? FileSystem.writeFile(failurePath(name), contents: record, mode: 0o600)
    }
  }

  /// The PNG with `Thumb::URI`, `Thumb::MTime` and (unless nil: a moved
  /// thumbnail keeps its maker's) `Software` text chunks after its header
  /// (any the thumbnailer wrote are replaced); nil if it is no PNG.
  static func tagged(png: [UInt8], uri: String, modified: Int64, software: String? = "Limelight")
    -> [UInt8]?
  {
    let ours =
      [("Thumb::URI", uri), ("Thumb::MTime", String(modified))]
      + (software.map { [("Software", $0)] } ?? [])
    guard let (chunks, complete) = PNGChunks.read(png), complete, chunks.first?.type == "IHDR"
    else { return nil }
    var out = PNGChunks.signature + png[chunks[0].whole]
    for (key, value) in ours { out += chunk("tEXt", Array(key.utf8) + [0] + Array(value.utf8)) }
    for chunk in chunks.dropFirst() {
      let key = String(decoding: png[chunk.data].prefix { $0 != 0 }, as: UTF8.self)
      if chunk.type == "tEXt" && ours.contains(where: { $0.0 == key }) { continue }
      out += png[chunk.whole]
    }
    return out
  }

  /// A PNG chunk: length, type, data and CRC-32 of type and data.
  static func chunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
    let typed = Array(type.utf8) + data
    let crc = typed.withUnsafeBufferPointer { UInt32(crc32(0, $0.baseAddress, UInt32($0.count))) }
    func be(_ v: UInt32) -> [UInt8] { (0..<4).reversed().map { UInt8((v >> ($0 * 8)) & 0xFF) } }
    return be(UInt32(data.count)) + typed + be(crc)
  }
}
