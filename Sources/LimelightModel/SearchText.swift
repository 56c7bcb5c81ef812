import Foundation

/// The one folding that both the index and queries apply, so that what the user
/// types meets what was stored: compatibility composition (full-width letters
/// become ASCII, decomposed accents compose), before the FTS tokenizer folds
/// case and strips diacritics.
public enum SearchText {
  public static func fold(_ text: String) -> String {
    if text.utf8.allSatisfy({ $0 < 0x80 }) { return text }
    return text.precomposedStringWithCompatibilityMapping
  }

  /// Whether a string holds anything a tokenizer would keep (a letter or digit).
  public static func hasWordCharacters(_ text: String) -> Bool {
    text.unicodeScalars.contains { $0.properties.isAlphabetic || $0.properties.numericType != nil }
  }
}
