import Foundation
import GRDB
import LimelightModel

/// Where an item's short description (`contentDescription`) is kept. Most
/// descriptions repeat what the index holds already: a manual page's is its
/// title, a source file's or a text's the beginning of its text (174 bytes
/// an entry on a home of documentation and sources, 5 % of the index).
/// Those are not stored but made again when read, from the title or the
/// stored text, by the very summary that made them; any other description
/// is stored as it is. A description is derived only when it reads the
/// same, so nothing is lost.
enum ItemDescription {
  /// `item.descriptionSource`: NULL when `item.contentDescription` holds it.
  enum Source: Int64 {
    /// The summary of the item's title.
    case title = 1
    /// The summary of the item's stored text.
    case text = 2
  }

  /// Where `description` can be made from, if anywhere: the title's
  /// summary, or the summary of the text the index stores for the item.
  static func source(of description: String?, title: String?, text: IndexedText) -> Source? {
    guard let description else { return nil }
    if let title, AttributeSet.summary(of: title) == description { return .title }
    if !text.content.isEmpty, summary(of: text) == description { return .text }
    return nil
  }

  /// The summary of an item's stored text: made by the thread that read it
  /// (``IndexWriter/prepare(_:texts:)``), or here.
  static func summary(of text: IndexedText) -> String? {
    text.contentSummary ?? AttributeSet.summary(of: text.content)
  }

  /// An item's description from its row: stored, or made from its title
  /// or its stored text (`text`, unpacked), as ``expression(_:)`` makes it.
  static func description(stored: String?, source: Source?, title: String?, text: String?)
    -> String?
  {
    switch source {
    case .title: title.flatMap(AttributeSet.summary(of:))
    case .text: text.flatMap(AttributeSet.summary(of:))
    case nil: stored
    }
  }

  /// The description and its source, as the columns of an item's row.
  static func columns(_ attributes: AttributeSet, text: IndexedText) -> [IndexWriter.ItemColumn] {
    let source = Self.source(of: attributes.contentDescription, title: attributes.title, text: text)
    return [
      (ItemTable.contentDescription, source == nil ? attributes.contentDescription : nil),
      (ItemTable.descriptionSource, source?.rawValue),
    ]
  }

  /// An item's description as SQL, `item` naming its row: stored, or made
  /// from the title or the stored text (which is unpacked for it).
  static func expression(_ item: String = "item") -> String {
    expression(item, source: "\(item).descriptionSource")
  }

  /// An item's description had its source been `source` (SQL).
  private static func expression(_ item: String, source: String) -> String {
    """
    CASE \(source)
      WHEN \(Source.title.rawValue) THEN limelight_summary(\(item).title)
      WHEN \(Source.text.rawValue) THEN
        \(StoredText.ofWords("limelight_summary(\(StoredText.bodyOfWords))", row: "\(item).rowid"))
      ELSE \(item).contentDescription END
    """
  }

  /// The text index's expression for the words every text holds whose
  /// summary matches a wildcard pattern (``WildcardMatcher``, `==` on
  /// `contentDescription`), nil when the pattern names none. A summary is
  /// the text's beginning with its white space folded, so each word the
  /// pattern spells between two separators is a word of the text; one
  /// next to a `*` may be part of a longer one (the last may also be cut
  /// by the summary's end) and is looked for as a prefix, one behind a `*`
  /// not at all. Words beyond ASCII are left to the comparison (the index
  /// splits Chinese and Japanese differently), and so is every word with
  /// `w`, which matches one word of the description anywhere.
  static func textWords(ofPattern pattern: String, flags: String) -> String? {
    guard !flags.contains("w") else { return nil }
    let pieces = pattern.split(separator: "*", omittingEmptySubsequences: false)
    var terms: [String] = []
    for (index, piece) in pieces.enumerated() {
      let piece = String(piece)
      let tokens = SQLCompiler.tokens(of: piece)
      for (position, token) in tokens.enumerated() {
        guard token.utf8.allSatisfy({ $0 < 0x80 }) else { continue }
        // Behind a `*`, a word may end a longer one.
        if position == 0 && index > 0 && piece.hasPrefix(token) { continue }
        let last = position == tokens.count - 1 && piece.hasSuffix(token)
        if last {
          // Prefixes of one or two letters gather too many words.
          if token.count >= 3 { terms.append(SQLCompiler.quoted(token) + " *") }
        } else {
          terms.append(SQLCompiler.quoted(token))
        }
      }
    }
    return terms.isEmpty ? nil : terms.joined(separator: " AND ")
  }

  /// `limelight_summary(text)`: a description drawn from a text
  /// (``AttributeSet/summary(of:)``), or from a stored text's packed bytes;
  /// NULL for NULL or nothing to draw.
  static let summaryFunction = DatabaseFunction("limelight_summary", argumentCount: 1, pure: true) {
    values in
    switch values[0].storage {
    case .string(let text): return AttributeSet.summary(of: text)
    case .blob(let packed):
      return TextPacker.unpackUTF8(packed).flatMap(AttributeSet.summary(ofUTF8:))
    default: return nil
    }
  }
}
