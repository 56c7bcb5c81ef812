import Foundation
import LimelightModel
import LimelightPlatform
import LimelightStore

/// Records of files that exist only in the index, for tests of the store and
/// the search engine.
enum Fixtures {
  static let mime = MIMEDatabase()

  /// A new folder's path inside this test run's own temporary folder, which
  /// goes when the run ends (suites are structs: nothing else would remove
  /// what they made).
  static func newFolder() -> String {
    runFolder + "/\(UUID())"
  }

  static let runFolder: String = {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
      "limelight-tests-\(getpid())"
    ).path
    atexit { try? FileManager.default.removeItem(atPath: Fixtures.runFolder) }
    return folder
  }()

  /// The index location of a new temporary home folder (`home`).
  static func newLocation() -> IndexLocation {
    let base = newFolder()
    var location = IndexLocation.fromEnvironment(["HOME": base])
    location.runtimeDirectory = RawPath(base + "/run")
    return location
  }

  /// A new, empty index in a temporary folder of its own.
  static func newStore() throws -> IndexStore {
    try IndexStore.open(newLocation(), create: true)
  }

  /// A regular file's record: its type from its name, `text` as its content.
  static func record(_ path: String, text: String?, title: String? = nil, pending: Bool = false)
    -> FileRecord
  {
    var attributes = AttributeSet(displayName: RawPath(path).lastComponent.string)
    attributes.textContent = text
    attributes.title = title
    attributes.modified = Date(timeIntervalSince1970: 0)
    let type = mime.type(forFileName: attributes.displayName) ?? "text/plain"
    attributes.contentType = type
    attributes.contentTypeTree = mime.ancestors(of: type)
    let status = FileStatus(
      kind: .regular, device: 1, inode: UInt64(path.count), size: 10, modified: 0, changed: 0,
      created: nil, mode: 0o100644)
    return FileRecord(
      path: RawPath(path), status: status, attributes: attributes, hidden: false,
      contentPending: pending)
  }
}
