/// The words inside a file name that a tokenizer splitting on punctuation would
/// miss: camelCase humps and letter–digit changes ("fooBar2Baz" → "foo Bar 2 Baz").
public enum NameWords {
  /// The name, followed by its hump-split words when they differ from what
  /// splitting on punctuation gives.
  public static func searchableName(_ name: String) -> String {
    let split = humps(name)
    return split == name ? name : name + " " + split
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
