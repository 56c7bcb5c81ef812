import CArchive
import Foundation
import LimelightImport
import LimelightModel

/// Archives through libarchive (zip, tar and its compressed forms, 7z, rar,
/// cpio, ISO images, Debian and RPM packages): the names of their members,
/// read as a stream and never extracted to disk.
public struct ArchiveImporter: ContentImporter {
  public let contentTypes = HelperFormats.archives

  public init() {}

  public func importContent(_ request: ImportRequest, into attributes: inout AttributeSet) throws {
    guard let archive = archive_read_new() else { throw ImportFailure.malformed("no memory") }
    defer { archive_read_free(archive) }
    archive_read_support_filter_all(archive)
    archive_read_support_format_all(archive)
    guard
      request.path.withCString({ archive_read_open_filename(archive, $0, 1 << 16) })
        == ARCHIVE_OK
    else { throw ImportFailure.malformed(Self.message(archive)) }
    var names: [String] = []
    var textBytes = 0
    var entry: OpaquePointer?
    var count = 0
    while true {
      let status = archive_read_next_header(archive, &entry)
      if status == ARCHIVE_EOF { break }
      guard status == ARCHIVE_OK || status == ARCHIVE_WARN, let entry else {
        // What was listed before the damage is kept.
        if names.isEmpty { throw ImportFailure.malformed(Self.message(archive)) }
        break
      }
      count += 1
      if let name = archive_entry_pathname_utf8(entry) ?? archive_entry_pathname(entry) {
        let text = String(cString: name)
        if textBytes < request.limits.maxTextBytes {
          names.append(text)
          textBytes += text.utf8.count + 1
        }
      }
      // The next header's offset is found by reading past the data, which is
      // decompressed but never kept: bounded by the member limit and the time limit.
      if count >= request.limits.maxMembers { break }
      if archive_read_data_skip(archive) != ARCHIVE_OK { break }
    }
    attributes.extra["memberCount"] = .number(Double(count))
    if !names.isEmpty {
      attributes.textContent = names.joined(separator: "\n")
      attributes.contentDescription = AttributeSet.summary(
        of: names.prefix(20).joined(separator: ", "))
    }
  }

  static func message(_ archive: OpaquePointer) -> String {
    archive_error_string(archive).map { String(cString: $0) } ?? "not an archive libarchive reads"
  }
}
