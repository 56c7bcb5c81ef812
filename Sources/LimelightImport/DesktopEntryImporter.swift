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
    let file = KeyFile(text: text)
    if let entry = file.groups["Desktop Entry"], entry["Type"] != nil || entry["Name"] != nil {
      reader.read(entry, into: &attributes)
      return
    }
    // Key files that share the type but describe something else: an icon
    // or sound theme's `index.theme` ([Icon Theme], [Sound Theme]), a
    // cursor theme, a folder's `.directory`. Valid, and found by their name.
    let named = file.groups.keys.sorted().compactMap { file.groups[$0] }.first { $0["Name"] != nil }
    if let named { Self.readNamed(named, into: &attributes) }
  }

  /// The name and comment of a key file's group.
  static func readNamed(_ group: KeyFile.Group, into attributes: inout AttributeSet) {
    attributes.title = group["Name"].map { String($0.prefix(AttributeSet.descriptionLimit)) }
    attributes.contentDescription = group["Comment"].flatMap(AttributeSet.summary)
    attributes.textContent = [attributes.title, attributes.contentDescription].compactMap { $0 }
      .joined(separator: "\n")
  }
}
