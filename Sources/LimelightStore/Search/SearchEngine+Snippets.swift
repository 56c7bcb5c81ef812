import Foundation
import GRDB
import LimelightModel
import LimelightPlatform
import LimelightQuery

/// The words around a match in an item's text, for a person at a terminal.
extension SearchEngine {
  /// A fragment of the item's text around the match, the matched words between
  /// `open` and `close`, or nil when the match is not in the text.
  public func snippet(for result: SearchResult, query: QueryNode, open: String, close: String)
    -> String?
  {
    guard let text = Self.positiveText(query) else { return nil }
    let snippet = try? store.read { db -> String? in
      // The item's own words complete the words typed as prefixes.
      guard
        let content = try String.fetchOne(
          db, sql: "SELECT content FROM item_text_source WHERE rowid = ?",
          arguments: [result.rowID]), !content.isEmpty
      else { return nil }
      let completions = Self.completions(in: content)
      guard let match = SQLCompiler.textMatch(text, completions: completions) else { return nil }
      return try String.fetchOne(
        db,
        sql: """
          SELECT snippet(item_text, 3, ?, ?, '…', 16) FROM item_text
          WHERE item_text MATCH ? AND rowid = ?
          """, arguments: [open, close, match.match, result.rowID])
    }
    guard let snippet, snippet.contains(open) else { return nil }
    return snippet.split(whereSeparator: \.isNewline).joined(separator: " ")
  }

  /// The words of a text that begin with a prefix, the first few found
  /// (a snippet shows 16 words).
  static func completions(in content: String) -> (String) -> [String] {
    // Split only when a prefix asks: a query of whole words needs none.
    var words: [String]?
    return { prefix in
      if words == nil { words = PhraseCheck.words(of: content) }
      var found: [String] = []
      var seen: Set<String> = []
      for word in words ?? [] where word.hasPrefix(prefix) && seen.insert(word).inserted {
        found.append(word)
        if found.count == 16 { break }
      }
      return found
    }
  }
}
