import Foundation
import LimelightApplications
import LimelightModel
import LimelightPlatform

/// Launchers (`.desktop` files) met among the user's files, read as the
/// installed applications' are (``DesktopEntryReader``).
public struct DesktopEntryImporter: ContentImporter, Sendable {
  public var contentTypes: [String] { ["application/x-desktop"] }

  let reader: DesktopEntryReader

  public init(environment: [String: String] = ProcessInfo.processInfo.environment) {
    reader = DesktopEntryReader(environment: environment)
  }

  public func importContent(_ request: ImportRequest, into attributes: inout AttributeSet) throws {
    let bytes = try request.contents(limit: 1 << 20)
    let entry =
      KeyFile(text: String(decoding: bytes, as: UTF8.self)).groups["Desktop Entry"]
      ?? KeyFile.Group()
    guard entry["Type"] != nil || entry["Name"] != nil else {
      throw ImportFailure.malformed("no [Desktop Entry] group")
    }
    reader.read(entry, into: &attributes)
  }
}
