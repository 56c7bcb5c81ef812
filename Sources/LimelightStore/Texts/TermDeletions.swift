import GRDB
import LimelightModel
import Synchronization

/// The SymSpell deletion index over name terms: each term is stored under its
/// first seven letters and under every string one deleted letter makes of
/// them (two for terms of six letters or more). A query word within two edits
/// of a term, or an abbreviation that drops up to two of its letters, shares
/// one of these keys with it (the query word's own keys are made the same
/// way), and the candidates a key gives are then measured whole. Keys of
/// whole terms took 750,000 rows for the 27,000 name terms of a home of real
/// files, 196 bytes an entry; of their first seven letters, 460,000.
public struct TermDeletions {
  let db: Database
  /// Terms this transaction has looked up or added already: a crawl meets
  /// the same words (`txt`, `readme`) in name after name.
  let seen: SeenTerms

  /// Terms outside these lengths are not worth forgiving typos in.
  public static let termLengths = NearWords.termLengths

  init(db: Database, seen: SeenTerms = SeenTerms()) {
    self.db = db
    self.seen = seen
  }

  /// Records a term (and its deletions) unless it is known already.
  func add(term: String) throws {
    guard seen.terms.insert(term).inserted, !seen.committed.holds(term) else { return }
    // A first crawl's terms are added once it ends (``addAll()``).
    if seen.committed.isDeferring { return }
    try insert(term)
  }

  /// Records a term's deletions unless the index has them.
  private func insert(_ term: String) throws {
    guard let keys = Self.keys(of: term) else { return }
    if try Bool.fetchOne(
      db.cachedStatement(
        sql: "SELECT EXISTS (SELECT 1 FROM term_deletion WHERE key = ? AND term = ?)"),
      arguments: [keys.first, term]) == true
    {
      return
    }
    let insert = try db.cachedStatement(
      sql: "INSERT OR IGNORE INTO term_deletion (key, term) VALUES (?, ?)")
    for key in keys.all { try insert.execute(arguments: [key, term]) }
  }

  /// Whether a term is worth forgiving typos in: letters only, of a length
  /// that typos are told apart in.
  static func isWorthKeys(_ letters: [Character]) -> Bool {
    termLengths.contains(letters.count) && letters.allSatisfy(\.isLetter)
  }

  /// A term's keys, its first letters first; nil for a term not worth
  /// forgiving typos in.
  static func keys(of term: String) -> (first: String, all: Set<String>)? {
    let letters = Array(term)
    guard isWorthKeys(letters) else { return nil }
    return (
      String(letters.prefix(NearWords.keyLength)),
      NearWords.keys(of: letters, depth: NearWords.termDepth(letters.count))
    )
  }

  /// Adds the terms of a name-like text (already folded).
  func add(text: String) throws {
    for word in SearchText.terms(of: text) { try add(term: word) }
  }

  /// The terms of every item's names and keywords worth keys, sorted: what
  /// a first crawl that went without the typo index adds to it once it ends
  /// (a few seconds for a home, against a look-up for each term of each
  /// name while the crawl writes), a part at a time (``add(sortedTerms:)``).
  static func nameTerms(_ db: Database) throws -> [String] {
    var terms: Set<String> = []
    let rows = try Row.fetchCursor(db, sql: "SELECT name, keywords FROM item_words_stored")
    while let row = try rows.next() {
      for column in ["name", "keywords"] {
        guard let text: String = row[column] else { continue }
        terms.formUnion(SearchText.terms(of: text))
      }
    }
    return terms.filter { isWorthKeys(Array($0)) }.sorted()
  }

  /// Adds the keys of `terms` (from ``nameTerms(_:)``), in the index's
  /// order: a million keys in random order took 20 s of B-tree descents.
  func add(sortedTerms terms: some Collection<String>) throws {
    var rows: [(key: [UInt8], term: [UInt8])] = []
    for term in terms {
      let letters = Array(term)
      let termBytes = Array(term.utf8)
      for key in NearWords.keyBytes(of: letters, depth: NearWords.termDepth(letters.count)) {
        rows.append((key, termBytes))
      }
    }
    rows.sort {
      $0.key != $1.key
        ? $0.key.lexicographicallyPrecedes($1.key) : $0.term.lexicographicallyPrecedes($1.term)
    }
    let insert = try db.cachedStatement(
      sql: "INSERT OR IGNORE INTO term_deletion (key, term) VALUES (?, ?)")
    for row in rows { try insert.run(texts: [row.key, row.term]) }
  }
}

/// The terms one transaction has handled (see ``TermDeletions/seen``), and
/// the rows of the content types it has written (``IndexWriter/typeColumn(_:)``),
/// beside those earlier transactions committed.
public final class SeenTerms {
  var terms: Set<String> = []
  var contentTypes: [[String]: Int64?] = [:]
  /// Whether `failure` may hold a row, once asked: a first crawl found it
  /// empty and cleared each file's row all the same.
  var failuresMayExist: Bool?
  let committed: CommittedTerms
  init(committed: CommittedTerms = CommittedTerms()) { self.committed = committed }
}

/// The terms and content types whose rows committed transactions hold, kept
/// by the store from one transaction to the next: a crawl writes a batch a
/// transaction and meets `txt` and `readme` in every one. Rows of either
/// are never deleted, so what a committed transaction wrote stays true; a
/// transaction that rolls back adds nothing. Bounded: past `limit` terms
/// it starts again.
final class CommittedTerms: Sendable {
  private struct Known {
    var terms: Set<String> = []
    var contentTypes: [[String]: Int64] = [:]
    var deferring = false
  }
  private let known = Mutex(Known())
  /// About 6 MB of short words.
  static let limit = 100_000

  func holds(_ term: String) -> Bool { known.withLock { $0.terms.contains(term) } }

  /// Whether name terms wait for the end of a first crawl (``TermDeletions/addAll()``).
  var isDeferring: Bool {
    get { known.withLock { $0.deferring } }
    set { known.withLock { $0.deferring = newValue } }
  }

  func contentType(_ pair: [String]) -> Int64? { known.withLock { $0.contentTypes[pair] } }

  /// Keeps what a transaction that has just committed handled.
  func add(_ seen: SeenTerms) {
    known.withLock { known in
      if known.terms.count + seen.terms.count > Self.limit { known.terms.removeAll() }
      known.terms.formUnion(seen.terms)
      for (pair, id) in seen.contentTypes { if let id { known.contentTypes[pair] = id } }
    }
  }
}
