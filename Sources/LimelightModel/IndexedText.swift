import Foundation
import LimelightPlatform

/// What an item's words are indexed as: its name with its word parts,
/// initials and Latin reading; its keywords, title, authors and custom
/// attributes; its path; and its text with the reading of its first Chinese
/// or Japanese passages, all folded as queries fold. Made where the item is
/// read (the second pass's workers), so that the one thread that writes the
/// index does not fold megabytes of text itself.
public struct IndexedText: Sendable, Equatable {
  public var name: String
  public var keywords: String
  public var path: String
  public var content: String
  /// `content` as the index stores it (packed), when made already.
  public var packedContent: Data?
  /// The key the index finds `content` again by, made with `packedContent`.
  public var contentKey: Int64?
  /// The summary of `content` (``AttributeSet/summary(of:)``), made with
  /// `packedContent`: a description that reads the same is not stored.
  public var contentSummary: String?

  public init(name: String, keywords: String, path: String, content: String) {
    self.name = name
    self.keywords = keywords
    self.path = path
    self.content = content
  }

  /// The indexed text of attributes; `path` is the file's, empty for
  /// application items; `content` the text to index (the text content
  /// unless given).
  public init(_ attributes: AttributeSet, path: RawPath?, content: String? = nil) {
    self.init(
      name: Self.name(attributes.displayName),
      keywords: SearchText.fold(
        Self.keywords(
          attributes.keywords + attributes.authors
            + attributes.extra.keys.sorted().compactMap { attributes.extra[$0]?.searchableText },
          title: attributes.title)),
      path: path.map { SearchText.fold($0.string) } ?? "",
      content: Self.content(content ?? attributes.textContent ?? ""))
  }

  /// What the name column holds: the name, its word parts and initials, and the
  /// Latin reading of its Chinese or Japanese characters.
  public static func name(_ name: String) -> String {
    let text = SearchText.fold(NameWords.searchableName(name))
    return SearchText.romanized(name, fromEverySyllable: true).map { text + " " + $0 } ?? text
  }

  /// What the content column holds: the text, and the Latin reading of its
  /// first Chinese or Japanese passages.
  public static func content(_ content: String) -> String {
    let text = SearchText.fold(content)
    return SearchText.romanized(content).map { text + "\n" + $0 } ?? text
  }

  /// The keywords column before folding: the title first, then the keywords,
  /// separated so that a phrase does not run from one into the next.
  public static func keywords(_ keywords: [String], title: String?) -> String {
    ([title].compactMap { $0 } + keywords).joined(separator: " \u{1F} ")
  }
}
