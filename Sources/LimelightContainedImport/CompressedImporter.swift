import CArchive
import Foundation
import LimelightImport
import LimelightModel
import LimelightPlatform

/// A single compressed file (`changelog.gz`, `README.bz2`, `notes.txt.xz`,
/// `ls.1.gz`) read as what it holds, when that is text: its type from the
/// name without the compression's extension, or else from the bytes, and its
/// text as the text importer reads it (a manual page as it reads). At most
/// the text limit is expanded, and never more than an archive member may
/// expand to, so a bomb costs no more than a text file.
public struct CompressedImporter: ContentImporter {
  public let contentTypes = HelperFormats.compressed
  let mime: MIMEDatabase
  let magic: Magic

  public init(mime: MIMEDatabase, magic: Magic = Magic()) {
    self.mime = mime
    self.magic = magic
  }

  /// Extensions that name a compression, dropped to learn what a file holds.
  static let compressionExtensions: Set<String> = [
    "gz", "bz2", "bz", "xz", "zst", "lzma", "lz", "z",
  ]

  public func importContent(_ request: ImportRequest, into attributes: inout AttributeSet) throws {
    let limit = min(request.limits.maxTextBytes, request.limits.maxExpandedBytes)
    let bytes = try Self.expand(request.path, limit: limit + 1)
    let inner = Self.innerName(request.path.lastComponent.string)
    let named = inner.flatMap { mime.type(forFileName: $0) }.map(mime.canonical)
    // libmagic only when the name says nothing, or the bytes look binary.
    func sniffed() -> String? { magic.mimeType(of: bytes.prefix(65_536)).map(mime.canonical) }
    // The name says what was compressed; the bytes when it says nothing.
    let sniffedFirst = named == nil ? sniffed() : nil
    guard let type = named ?? sniffedFirst else { return }
    attributes.extra["compressedContentType"] = .string(type)
    let types = mime.ancestors(of: type)
    guard types.contains("text/plain") else { return }
    if TextDecoder.looksBinary(bytes) {
      guard let sniff = sniffedFirst ?? sniffed(), mime.isSubclass(sniff, of: "text/plain") else {
        return
      }
    }
    TextImporter(magic: magic).describe(bytes, limit: limit, types: types, into: &attributes)
  }

  /// The name of what was compressed: `ls.1.gz` → `ls.1`; nil when the name
  /// has no compression's extension.
  static func innerName(_ name: String) -> String? {
    guard let dot = name.lastIndex(of: "."), dot > name.startIndex,
      compressionExtensions.contains(name[name.index(after: dot)...].lowercased())
    else { return nil }
    return String(name[..<dot])
  }

  /// At most `limit` bytes of what the file expands to.
  static func expand(_ path: RawPath, limit: Int) throws -> [UInt8] {
    guard let archive = archive_read_new() else { throw ImportFailure.malformed("no memory") }
    defer { archive_read_free(archive) }
    archive_read_support_filter_all(archive)
    archive_read_support_format_raw(archive)
    // The raw reader wants a byte; the empty one takes a stream of none.
    archive_read_support_format_empty(archive)
    var entry: OpaquePointer?
    guard path.withCString({ archive_read_open_filename(archive, $0, 1 << 16) }) == ARCHIVE_OK
    else { throw ImportFailure.malformed(ArchiveImporter.message(archive)) }
    switch archive_read_next_header(archive, &entry) {
    case ARCHIVE_OK: break
    // A compression around nothing (`gzip < /dev/null`): empty, not damaged.
    case ARCHIVE_EOF: return []
    default: throw ImportFailure.malformed(ArchiveImporter.message(archive))
    }
    var bytes: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 1 << 16)
    while bytes.count < limit {
      let read = buffer.withUnsafeMutableBytes {
        archive_read_data(archive, $0.baseAddress, min($0.count, limit - bytes.count))
      }
      if read == 0 { break }
      guard read > 0 else {
        // What came before the damage is kept.
        if bytes.isEmpty { throw ImportFailure.malformed(ArchiveImporter.message(archive)) }
        break
      }
      bytes += buffer.prefix(read)
    }
    return bytes
  }
}

/// The importers that run contained, in the helper process.
public enum ContainedImporters {
  public static func all(mime: MIMEDatabase) -> [any ContentImporter] {
    [
      PDFImporter(), AudioImporter(), ArchiveImporter(), VideoImporter(),
      CompressedImporter(mime: mime), LegacyOfficeImporter(),
    ]
  }
}
