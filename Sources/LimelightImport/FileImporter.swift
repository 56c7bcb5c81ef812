import CLinux
import Foundation
import LimelightModel
import LimelightPlatform
import LimelightThumbnails

#if canImport(Glibc)
  import Glibc
#endif

/// Turns one file into a ``FileRecord``: content type from libmagic checked
/// against the name, a human kind, tags, and text for text-like files.
///
/// Not thread-safe (its helper is one process): use one per worker.
public final class FileImporter {
  private let magic: Magic
  private let mime: MIMEDatabase
  private let limits: ImportLimits
  private let registry: ImporterRegistry
  private let thumbnails: ThumbnailCache?

  /// `contained` are the importers of ``HelperFormats`` when this process is
  /// the helper itself; otherwise those formats go to the helper program.
  /// `thumbnails`: the shared cache whose current thumbnails items take.
  /// `magic`: the libmagic handle, which importers on several threads may share.
  public init(
    mime: MIMEDatabase, maxTextBytes: Int, contained: [any ContentImporter]? = nil,
    programs: [ProgramImporter] = [], thumbnails: ThumbnailCache? = nil, magic: Magic = Magic()
  ) {
    self.thumbnails = thumbnails
    self.magic = magic
    self.mime = mime
    self.limits = ImportLimits(maxTextBytes: maxTextBytes)
    let helper: [any ContentImporter] = contained ?? [HelperImporter()]
    // The most specific importer wins: web pages and mail are text too, and
    // office documents are ZIP archives. A third party's program for a type
    // comes before a built-in importer of the same type.
    self.registry = ImporterRegistry(
      [
        TextImporter(magic: magic), HTMLImporter(), MailImporter(), OfficeImporter(),
        ImageImporter(), DesktopEntryImporter(),
      ] + helper + programs)
  }

  /// The record of `path` as it is now. Never throws: what cannot be read is
  /// indexed by name and metadata, with the reason kept in `extractionError`.
  /// `contentType` (a type and its ancestors), when given, is taken instead of
  /// typing the file again.
  public func record(
    for path: RawPath, status: FileStatus, hidden: Bool, contentType given: [String]? = nil
  ) -> FileRecord {
    let name = path.lastComponent.string
    var attributes = Self.fileAttributes(path, status: status)
    var failure: String?
    // The head serves both typing and, for a small file, the text: read it
    // once. A file that cannot be opened is named, and says why.
    var head: [UInt8]?
    if status.kind == .regular {
      do {
        head = try FileSystem.readPrefix(path, limit: Self.headSize)
      } catch {
        if error.code == ENOENT || error.code == ENOTDIR {
          var record = FileRecord(
            path: path, status: status, attributes: attributes, hidden: hidden)
          record.vanished = true
          return record
        }
        failure = "\(error)"
      }
    }
    let type = given?.first ?? contentType(of: path, status: status, name: name, head: head)
    attributes.contentType = type
    attributes.contentTypeTree = given ?? mime.ancestors(of: type)
    attributes.kind = mime.comment(for: type)
    // An empty file holds nothing to read and nothing to be damaged.
    if status.kind == .regular, let head, !head.isEmpty,
      let importer = registry.importer(for: attributes.contentTypeTree)
    {
      let request = ImportRequest(
        path: path, contentTypeTree: attributes.contentTypeTree, head: head, size: status.size,
        limits: limits)
      do {
        try importer.importContent(request, into: &attributes)
      } catch {
        failure = "\(error)"
      }
    }
    if status.kind == .regular, attributes.thumbnailPath == nil, let thumbnails {
      attributes.thumbnailPath =
        thumbnails.existing(
          for: FileURI.uri(for: path), modified: status.modified / 1_000_000_000)?.string
    }
    return FileRecord(
      path: path, status: status, attributes: attributes, hidden: hidden, extractionError: failure)
  }

  /// What the name, `lstat` and the tags tell of any file.
  static func fileAttributes(_ path: RawPath, status: FileStatus) -> AttributeSet {
    var attributes = AttributeSet(displayName: path.lastComponent.string)
    attributes.size = status.keptSize
    attributes.modified = Date(timeIntervalSince1970: Double(status.modified) / 1e9)
    attributes.created = status.created.map { Date(timeIntervalSince1970: Double($0) / 1e9) }
    attributes.keywords = Self.tags(of: path)
    return attributes
  }

  /// The record of `path` from its name and `lstat` alone, for the first
  /// pass: the type the name says, sizes and dates, tags; a regular file's
  /// content (and the type it tells) waits for ``record(for:status:hidden:contentType:)``.
  public func nameRecord(for path: RawPath, status: FileStatus, hidden: Bool) -> FileRecord {
    let name = path.lastComponent.string
    var attributes = Self.fileAttributes(path, status: status)
    let type =
      status.kind == .regular
      ? mime.type(forFileName: name).map(mime.canonical) ?? "application/octet-stream"
      : contentType(of: path, status: status, name: name, head: nil)
    attributes.contentType = type
    attributes.contentTypeTree = mime.ancestors(of: type)
    attributes.kind = mime.comment(for: type)
    return FileRecord(
      path: path, status: status, attributes: attributes, hidden: hidden,
      contentPending: status.kind == .regular)
  }

  /// The content type: libmagic's reading of the content, unless the name says
  /// something more specific that agrees with it (a `.md` file that libmagic calls
  /// text/plain is Markdown; a `.docx` it calls application/zip is a Word document).
  /// How much of a file is read to type it.
  static let headSize = 8192
  static let goObject = Array("go object ".utf8)

  func contentType(of path: RawPath, status: FileStatus, name: String, head: [UInt8]?) -> String {
    switch status.kind {
    case .directory: return "inode/directory"
    case .symlink: return "inode/symlink"
    case .other:
      // File type bits of st_mode (S_IFMT and friends).
      switch status.mode & 0o170000 {
      case 0o010000: return "inode/fifo"
      case 0o140000: return "inode/socket"
      case 0o020000: return "inode/chardevice"
      case 0o060000: return "inode/blockdevice"
      default: return "application/octet-stream"
      }
    case .regular: break
    }
    let glob = mime.type(forFileName: name).map(mime.canonical)
    if status.size == 0 { return glob ?? "application/x-zerosize" }
    // Go's compiler writes objects that start with this line and names
    // them `.a` like archives; libmagic sees only data.
    if let head, head.starts(with: Self.goObject) { return "application/x-object" }
    // libmagic's text checks cost milliseconds a file: when the name says text,
    // checking that the content is not binary is enough to trust it.
    var nameClaimsText = false
    if let glob, let head {
      if mime.isSubclass(glob, of: "text/plain") {
        if !TextDecoder.looksBinary(head) { return glob }
        nameClaimsText = true  // …but the content is binary: the name is wrong.
      } else if let signed = Signatures.type(of: head), mime.isSubclass(glob, of: signed) {
        return glob
      }
    }
    guard let found = magic.mimeType(of: path).map(mime.canonical) else {
      return nameClaimsText ? "application/octet-stream" : glob ?? "application/octet-stream"
    }
    if nameClaimsText { return found == "text/plain" ? "application/octet-stream" : found }
    return Self.reconcile(magic: found, glob: glob, mime: mime)
  }

  /// Chooses between what the content and the name say.
  static func reconcile(magic found: String, glob: String?, mime: MIMEDatabase) -> String {
    guard let glob, glob != found else { return found }
    let vague: Set<String> = [
      "application/octet-stream", "inode/x-empty", "application/x-zerosize",
    ]
    if vague.contains(found) { return glob }
    if mime.isSubclass(glob, of: found) { return glob }
    // A damaged Excel or PowerPoint file is only "OLE storage" to libmagic
    // (shared-mime-info makes Word alone a kind of it): its name knows better.
    if found == "application/x-ole-storage" && HelperFormats.legacyOffice.contains(glob) {
      return glob
    }
    if found == "text/plain" {
      // Text content whose name claims a non-text type is text; otherwise trust the name.
      return mime.isSubclass(glob, of: "text/plain") ? glob : found
    }
    // Close relatives: libmagic often names the generic form (application/xml
    // for an SVG), or a specific one the name knows better: C source it
    // guesses is C++ (it cannot tell them apart), a text file that looks like
    // a program. For text the name is right; otherwise the content (an
    // OpenDocument file named .zip).
    if mime.isSubclass(found, of: glob) {
      return mime.isSubclass(glob, of: "text/plain") ? glob : found
    }
    if found.hasPrefix("text/") && mime.isSubclass(glob, of: "text/plain") { return glob }
    return found
  }

  /// The tags in the `user.xdg.tags` extended attribute (comma-separated).
  public static func tags(of path: RawPath) -> [String] {
    var buffer = [UInt8](repeating: 0, count: 4096)
    let length = path.withCString { p in
      buffer.withUnsafeMutableBytes { lgetxattr(p, "user.xdg.tags", $0.baseAddress, $0.count) }
    }
    guard length > 0 else { return [] }
    let text = String(decoding: buffer.prefix(length).prefix { $0 != 0 }, as: UTF8.self)
    return text.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
      .filter { !$0.isEmpty }
  }

  /// The text of the first ATX heading in the opening lines of a Markdown document.
  static func markdownTitle(_ text: String) -> String? {
    for line in text.split(separator: "\n", maxSplits: 40, omittingEmptySubsequences: true).prefix(
      40)
    where line.hasPrefix("# ") {
      let title = line.dropFirst(2).trimmingCharacters(in: .whitespaces)
      return title.isEmpty ? nil : String(title.prefix(AttributeSet.descriptionLimit))
    }
    return nil
  }
}
