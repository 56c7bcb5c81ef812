import Foundation
import LimelightModel
import LimelightPlatform

/// What a launcher (`.desktop` file, the freedesktop Desktop Entry format)
/// says of its application: the name in the user's language, generic name,
/// comment, keywords and icon, so that typing part of an application's name
/// finds it.
public struct DesktopEntryReader: Sendable {
  /// The user's languages, most preferred first ("de_DE", "de").
  let languages: [String]

  public init(environment: [String: String] = ProcessInfo.processInfo.environment) {
    let value =
      environment["LC_ALL"].flatMap { $0.isEmpty ? nil : $0 }
      ?? environment["LC_MESSAGES"].flatMap { $0.isEmpty ? nil : $0 } ?? environment["LANG"] ?? ""
    let locale = value.split(separator: ".").first.map(String.init) ?? ""
    var languages: [String] = []
    if !locale.isEmpty && locale != "C" && locale != "POSIX" {
      languages.append(locale)
      if let language = locale.split(separator: "_").first, String(language) != locale {
        languages.append(String(language))
      }
    }
    self.languages = languages
  }

  /// The attributes of a `[Desktop Entry]` group, in the user's language.
  public func read(_ entry: KeyFile.Group, into attributes: inout AttributeSet) {
    /// The key in the user's language, if the entry has one, else the key itself.
    func localizedKey(_ key: String) -> String {
      languages.lazy.map { "\(key)[\($0)]" }.first { entry.raw[$0] != nil } ?? key
    }
    func localized(_ key: String) -> String? { entry[localizedKey(key)] }
    attributes.title = localized("Name").map { String($0.prefix(AttributeSet.descriptionLimit)) }
    attributes.contentDescription = localized("Comment").flatMap(AttributeSet.summary)
    var keywords: [String] = []
    if let generic = localized("GenericName") { keywords.append(generic) }
    if let name = entry["Name"], name != attributes.title { keywords.append(name) }
    keywords += entry.list(localizedKey("Keywords"))
    attributes.keywords += keywords.prefix(50)
    if let icon = entry["Icon"] { attributes.extra["icon"] = .string(icon) }
    if let exec = entry["Exec"] { attributes.extra["exec"] = .string(exec) }
    attributes.textContent = [attributes.title, attributes.contentDescription].compactMap { $0 }
      .joined(separator: "\n")
  }
}
