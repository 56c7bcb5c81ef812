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
    guard !bytes.contains(0), let text = String(validating: bytes, as: UTF8.self) else {
      throw ImportFailure.malformed("not a key file (binary or not UTF-8)")
    }
    let groups = KeyFile(text: text).groups
    // Key files that share the type but describe something else (an icon or
    // sound theme's `index.theme`, a cursor theme, a folder's `.directory`)
    // are valid too, and found by the name of their first named group.
    let launcher = groups["Desktop Entry"].flatMap {
      $0["Type"] != nil || $0["Name"] != nil ? $0 : nil
    }
    let entry =
      launcher ?? groups.keys.sorted().lazy.compactMap { groups[$0] }.first { $0["Name"] != nil }
    if let entry { reader.read(entry, into: &attributes) }
  }
}
