import Foundation

/// Whether a name someone typed (`author:miles`, "from anna") is one of an
/// item's people, the way the words of a name match: each typed word
/// begins a word of one person's name, or is a typo of one (one edit, two
/// in words of eight letters or more); case and accents ignored.
public enum PersonNames {
  public static func matches(_ name: String, among people: [String]) -> Bool {
    let typed = words(name)
    guard !typed.isEmpty else { return false }
    return people.contains { person in
      let known = words(person)
      return typed.allSatisfy { word in
        known.contains { candidate in
          candidate.hasPrefix(word)
            || word.count >= 4
              && NearWords.nearMissEdits(
                Array(word), Array(candidate), allowed: NearWords.allowedEdits(word.count)) != nil
        }
      }
    }
  }

  /// The words of a name, folded as the index folds them.
  static func words(_ text: String) -> [String] {
    SearchText.caseAndAccentFolded(SearchText.fold(text))
      .split { !($0.isLetter || $0.isNumber) }.map(String.init)
  }
}
