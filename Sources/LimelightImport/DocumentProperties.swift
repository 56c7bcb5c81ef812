import Foundation

/// What a document's own properties are worth. Producers fill fields the
/// writer left empty with words of their own (reportlab: title "untitled",
/// author "anonymous", subject "unspecified"; LibreOffice's EPUB: "Unknown
/// Title", "Unknown Author"); such a value names nothing,
/// and an item titled "untitled" would hide its file's name.
public enum DocumentProperties {
  static let placeholders: Set<String> = [
    "untitled", "unspecified", "anonymous", "unknown", "none", "(untitled)", "(anonymous)",
    "(unspecified)", "(none)", "n/a", "unknown title", "unknown author",
  ]

  /// The value trimmed, or nil when it is empty or a producer's placeholder.
  public static func meaningful(_ value: String?) -> String? {
    guard let trimmed = value?.trimmingCharacters(in: .whitespacesAndNewlines), !trimmed.isEmpty,
      !placeholders.contains(trimmed.lowercased())
    else { return nil }
    return trimmed
  }

  /// The keywords of a list as documents write one: apart by commas or
  /// semicolons, trimmed, none empty.
  public static func keywords(in list: String) -> [String] {
    list.split(whereSeparator: { $0 == "," || $0 == ";" })
      .map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
  }
}
