/// The words inside a file name that a tokenizer splitting on punctuation would
/// miss: camelCase humps and letter–digit changes ("fooBar2Baz" → "foo Bar 2 Baz").
public enum NameWords {
  /// The name, followed by its hump-split words when they differ from what
  /// splitting on punctuation gives.
  public static func searchableName(_ name: String) -> String {
    let split = humps(name)
    var text = split == name ? name : name + " " + split
    if let initials = initials(name) { text += " " + initials }
    if let letters = initials(name, skippingNumbers: true), letters != initials(name) {
      text += " " + letters
    }
    return text
  }

  /// The first letters of the words of a name without its extension, when it
  /// has at least two ("Natural Bridges State Park.jpg" → "nbsp"), so that
  /// typing the initials finds it.
  /// With `skippingNumbers`, words that are numbers are left out
  /// ("e2fsck.conf" → "efc" as well as "e2fc").
  public static func initials(_ name: String, skippingNumbers: Bool = false) -> String? {
    var stem = Substring(name)
    if let dot = stem.lastIndex(of: "."), dot != stem.startIndex,
      stem.distance(from: dot, to: stem.endIndex) <= 6
    {
      stem = stem[..<dot]
    }
    let words = humps(String(stem)).split { !$0.isLetter && !$0.isNumber }
      .filter { !skippingNumbers || !$0.allSatisfy(\.isNumber) }
    guard words.count >= 2 else { return nil }
    return String(words.compactMap(\.first)).lowercased()
  }

  /// `name` with a space inserted at each lower-to-upper or letter–digit change.
  public static func humps(_ name: String) -> String {
    var out = ""
    var previous: Character?
    for ch in name {
      if let p = previous {
        let lowerToUpper = p.isLowercase && ch.isUppercase
        let digitChange = (p.isNumber && ch.isLetter) || (p.isLetter && ch.isNumber)
        if lowerToUpper || digitChange { out.append(" ") }
      }
      out.append(ch)
      previous = ch
    }
    return out
  }
}
