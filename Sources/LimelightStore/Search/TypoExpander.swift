import Foundation
import GRDB
import LimelightModel
import LimelightQuery
import Synchronization

/// Forgives typos: a word that starts no term of the index is replaced by the
/// terms within one edit of it (two for words of 8 letters or more), or that it
/// abbreviates, taken from the index's own vocabulary. Words that do match are left alone, so typo
/// matches never push exact or prefix matches down, and never add noise to them.
struct TypoExpander {
  let db: Database

  /// The most variants one word expands to (the most frequent are kept).
  static let maxVariants = 8

  /// Words longer than this are not names anyone mistypes: they are left alone,
  /// which also bounds the work a hostile query can cause.
  static let longestWord = 32
  /// The most text terms read when looking for two-edit typos of a text word.
  static let textTermsScanned = 20_000
  /// The most words of one query looked at for typos.
  static let maxWords = 6

  func expand(_ node: QueryNode) throws -> QueryNode {
    var budget = Self.maxWords
    // Which index, in which state of its words: the full-text indexes'
    // structure records (FTS5's row 10), which every write of words
    // changes; and its last row, as an index made anew at the same path
    // has other rows by then. Not the generation: a thumbnail drawn or a
    // file read again with the same text moves it, and for the first hour
    // after a crawl every search looked for its typos again.
    let state = try Row.fetchOne(
      db,
      sql: """
        SELECT (SELECT file FROM pragma_database_list WHERE name = 'main'),
          (SELECT block FROM item_name_data WHERE id = 10),
          (SELECT block FROM item_text_data WHERE id = 10), (SELECT max(rowid) FROM item)
        """)
    let index = IndexState(
      file: state?[0], names: state?[1], texts: state?[2], lastRow: state?[3])
    return try expand(node, budget: &budget, index: index)
  }

  /// An index in one state of its words, which a word's expansion holds for.
  private struct IndexState: Equatable, Sendable {
    var file: String?
    var names: Data?
    var texts: Data?
    var lastRow: Int64?
  }

  /// A word as a query asks for it, and what it was made.
  private struct Asked: Hashable, Sendable {
    var text: String
    var prefix: Bool
    var column: String
  }
  private struct Expansion: Sendable {
    var node: QueryNode
    /// Whether it took one of the query's words looked at.
    var counted: Bool
  }
  /// The words' expansions made in this process, for one index in one
  /// state of its words: a query nothing holds every word of searches the subsets
  /// of its words, and each search looked for the same typos again (13
  /// times for a description of six words: 93 ms of its 100).
  private static let made = Mutex<(index: IndexState?, known: [Asked: Expansion])>((nil, [:]))
  /// The most expansions kept.
  static let mostKept = 2_000

  private func expand(_ node: QueryNode, budget: inout Int, index: IndexState) throws
    -> QueryNode
  {
    switch node {
    case .text(let text, let prefix, let column):
      guard budget > 0 else { return node }
      let asked = Asked(text: text, prefix: prefix, column: String(describing: column))
      let known = Self.made.withLock { $0.index == index ? $0.known[asked] : nil }
      let expansion = try known ?? expandWord(text, prefix: prefix, column: column)
      if known == nil {
        Self.made.withLock { made in
          if made.index != index || made.known.count >= Self.mostKept { made = (index, [:]) }
          made.known[asked] = expansion
        }
      }
      if expansion.counted { budget -= 1 }
      return expansion.node
    case .and(let parts):
      let expanded = try parts.map { try expand($0, budget: &budget, index: index) }
      return expanded.contains(.nothing) ? .nothing : .and(expanded)
    case .or(let parts):
      let expanded = try parts.map { try expand($0, budget: &budget, index: index) }.filter {
        $0 != .nothing
      }
      return expanded.isEmpty ? .nothing : .or(expanded)
    case .not: return node  // Excluding near misses would surprise.
    default: return node
    }
  }

  /// One word's expansion: itself, or it and the terms it may be a typo
  /// of, or nothing.
  private func expandWord(_ text: String, prefix: Bool, column: TextColumn?) throws -> Expansion {
    func taken(_ node: QueryNode) -> Expansion { Expansion(node: node, counted: true) }
    let node = QueryNode.text(text, prefix: prefix, column: column)
    guard let word = Self.singleWord(text), (4...Self.longestWord).contains(word.count),
      try !hasPrefixMatch(word, in: "item_name")
    else { return Expansion(node: node, counted: false) }
    // A word that only starts words of texts may still be a typo of a
    // name's word, which is the likelier meaning (a name says what the
    // item is): those are looked for too, never a text's near misses. A
    // text's whole word is taken as typed. Asked first: a whole term's
    // list is read only as far as its first item, where a prefix's merges
    // every term it starts (`include*` over a million entries: 30 ms).
    if try isTextTerm(word) { return taken(node) }
    let inTexts = try hasPrefixMatch(word, in: "item_text")
    let variants = try self.variants(of: word, namesOnly: inTexts)
    if variants.isEmpty {
      // A word that no item holds, nor anything near it, matches nothing:
      // the query needs no text index merge to learn that.
      return taken(inTexts ? node : .nothing)
    }
    return taken(
      .or([node] + variants.map { .text($0, prefix: prefix && $0.count >= 6, column: column) }))
  }

  /// The word as the tokenizer stores it (lower case, no accents), if it is one token.
  static func singleWord(_ text: String) -> String? {
    let folded = SearchText.caseAndAccentFolded(SearchText.fold(text))
    guard !folded.isEmpty, folded.allSatisfy({ $0.isLetter || $0.isNumber }) else { return nil }
    return folded
  }

  /// Whether any item holds a word starting with `word` in a full-text
  /// `index`: an FTS lookup that stops at the first match (the vocabulary
  /// table would total every segment). The names' index holds prefixes of
  /// up to six letters, one list each, where the text's gathers every term.
  func hasPrefixMatch(_ word: String, in index: String) throws -> Bool {
    try Bool.fetchOne(
      db.cachedStatement(sql: "SELECT EXISTS (SELECT 1 FROM \(index) WHERE \(index) MATCH ?)"),
      arguments: ["\"" + word + "\" *"]) == true
  }

  /// Whether some text holds `word` whole.
  func isTextTerm(_ word: String) throws -> Bool {
    try Bool.fetchOne(
      db.cachedStatement(sql: "SELECT EXISTS (SELECT 1 FROM item_text WHERE item_text MATCH ?)"),
      arguments: ["\"" + word + "\""]) == true
  }

  /// Terms within the allowed distance (or abbreviated by the word), most
  /// frequent first: name terms from the deletion index, then, when no name term
  /// is close and not `namesOnly`, text terms one edit away looked up one
  /// candidate at a time.
  func variants(of word: String, namesOnly: Bool = false) throws -> [String] {
    let letters = Array(word)
    // Two edits in words of eight letters or more: a typed word of seven may
    // be one of eight that lost a letter.
    let keys = Array(NearWords.keys(of: letters, depth: NearWords.allowedEdits(letters.count)))
    var candidates: [String] = []
    try forEachParameterSlice(of: keys) { slice, marks in
      candidates += try String.fetchAll(
        db, sql: "SELECT DISTINCT term FROM term_deletion WHERE key IN (\(marks))",
        arguments: StatementArguments(slice))
    }
    var found = try Self.traced("names near \(word)") {
      try NearWords.nameReadings(of: word, among: Set(candidates)) { terms in
        try documentCounts(terms, table: "item_name_vocab")
      }
    }
    if found.isEmpty && !namesOnly {
      found = try Self.traced("text terms one edit from \(word)") {
        try documentCounts(Self.oneEditCandidates(letters), table: "item_vocab")
      }
      if letters.count >= 7 {
        try found.merge(
          Self.traced("text terms two edits from \(word)") { try twoEditTextTerms(letters) }
        ) { a, _ in a }
      }
    }
    found[word] = nil
    return NearWords.likeliest(found, limit: Self.maxVariants)
  }

  /// Runs `body`, with its time on standard error under `LIMELIGHT_TRACE_SQL`.
  static func traced<T>(_ what: String, _ body: () throws -> T) rethrows -> T {
    guard SearchEngine.trace else { return try body() }
    let started = Date()
    let result = try body()
    SearchEngine.traceLine(since: started, "typos", what)
    return result
  }

  /// Text terms two edits away from a long word: those sharing its first three
  /// letters and about its length, a bounded range of the vocabulary.
  func twoEditTextTerms(_ letters: [Character]) throws -> [String: Int] {
    let stem = String(letters.prefix(3))
    var found: [String: Int] = [:]
    for row in try Row.fetchAll(
      db,
      sql: """
        SELECT term, doc FROM (SELECT term, doc FROM item_vocab WHERE term >= ? AND term < ? LIMIT ?)
        WHERE length(term) BETWEEN ? AND ?
        """,
      arguments: [
        stem, stem + "\u{10FFFF}", Self.textTermsScanned, letters.count - 2, letters.count + 2,
      ])
    {
      let term: String = row["term"]
      if NearWords.nearMissEdits(letters, Array(term), allowed: 2) != nil {
        found[term] = row["doc"]
      }
    }
    return found
  }

  /// How many items hold each of these terms (terms no item holds are left out).
  func documentCounts(_ terms: [String], table: String) throws -> [String: Int] {
    var counts: [String: Int] = [:]
    try forEachParameterSlice(of: terms) { slice, marks in
      for row in try Row.fetchAll(
        db, sql: "SELECT term, doc FROM \(table) WHERE term IN (\(marks))",
        arguments: StatementArguments(slice))
      {
        let doc: Int = row["doc"]
        if doc > 0 { counts[row["term"]] = doc }
      }
    }
    return counts
  }

  /// Every string one deletion, transposition, substitution or insertion away.
  static func oneEditCandidates(_ letters: [Character]) -> [String] {
    var alphabet = Set("abcdefghijklmnopqrstuvwxyz0123456789")
    alphabet.formUnion(letters)
    var out: Set<String> = []
    for i in letters.indices {
      var deletion = letters
      deletion.remove(at: i)
      out.insert(String(deletion))
      if i + 1 < letters.count {
        var swapped = letters
        swapped.swapAt(i, i + 1)
        out.insert(String(swapped))
      }
      for c in alphabet where c != letters[i] {
        var substituted = letters
        substituted[i] = c
        out.insert(String(substituted))
      }
    }
    for i in 0...letters.count {
      for c in alphabet {
        var inserted = letters
        inserted.insert(c, at: i)
        out.insert(String(inserted))
      }
    }
    return out.sorted()
  }

}
