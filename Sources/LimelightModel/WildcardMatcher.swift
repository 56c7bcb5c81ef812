import Foundation

/// The string comparison of the Core Spotlight / `mdfind` predicate language:
/// `*` matches any run of characters, and the modifiers `c` (ignore case),
/// `d` (ignore diacritics) and `w` (match whole words) change how.
public struct WildcardMatcher: Sendable {
  public var pattern: String
  public var ignoreCase: Bool
  public var ignoreDiacritics: Bool
  public var words: Bool
  private let parts: [String]

  public init(pattern: String, modifiers: String) {
    self.pattern = pattern
    ignoreCase = modifiers.contains("c")
    ignoreDiacritics = modifiers.contains("d")
    words = modifiers.contains("w")
    let folded = Self.fold(pattern, ignoreCase: ignoreCase, ignoreDiacritics: ignoreDiacritics)
    parts = folded.split(separator: "*", omittingEmptySubsequences: false).map(String.init)
  }

  /// The flags as the SQL function receives them.
  public var flags: String {
    (ignoreCase ? "c" : "") + (ignoreDiacritics ? "d" : "") + (words ? "w" : "")
  }

  public static func fold(_ text: String, ignoreCase: Bool, ignoreDiacritics: Bool) -> String {
    // ASCII has no accents and one case mapping: spare the Unicode machinery.
    if text.utf8.allSatisfy({ $0 < 0x80 }) { return ignoreCase ? text.lowercased() : text }
    var options: String.CompareOptions = []
    if ignoreCase { options.insert(.caseInsensitive) }
    if ignoreDiacritics { options.insert(.diacriticInsensitive) }
    let composed = text.precomposedStringWithCanonicalMapping
    return options.isEmpty ? composed : composed.folding(options: options, locale: nil)
  }

  /// Whether `text` (or, with `w`, one of its words) matches.
  public func matches(_ text: String) -> Bool {
    let folded = Self.fold(text, ignoreCase: ignoreCase, ignoreDiacritics: ignoreDiacritics)
    if words {
      return folded.split { !$0.isLetter && !$0.isNumber }.contains { matchWhole(String($0)) }
    }
    return matchWhole(folded)
  }

  private func matchWhole(_ text: String) -> Bool {
    guard parts.count > 1 else { return text == parts[0] }
    var rest = Substring(text)
    guard rest.hasPrefix(parts[0]) else { return false }
    rest = rest.dropFirst(parts[0].count)
    for part in parts.dropFirst().dropLast() where !part.isEmpty {
      guard let found = rest.range(of: part) else { return false }
      rest = rest[found.upperBound...]
    }
    return rest.hasSuffix(parts.last!)
  }
}
