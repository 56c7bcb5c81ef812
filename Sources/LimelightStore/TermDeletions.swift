import GRDB
import LimelightModel

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
    guard seen.terms.insert(term).inserted else { return }
    let letters = Array(term)
    guard Self.termLengths.contains(letters.count), letters.allSatisfy(\.isLetter) else { return }
    if try Bool.fetchOne(
      db.cachedStatement(
        sql: "SELECT EXISTS (SELECT 1 FROM term_deletion WHERE key = ? AND term = ?)"),
      arguments: [String(letters.prefix(NearWords.keyLength)), term]) == true
    {
      return
    }
    let insert = try db.cachedStatement(
      sql: "INSERT OR IGNORE INTO term_deletion (key, term) VALUES (?, ?)")
    for key in NearWords.keys(of: letters, depth: NearWords.termDepth(letters.count)) {
      try insert.execute(arguments: [key, term])
    }
  }

  /// Adds the terms of a name-like text (already folded).
  func add(text: String) throws {
    for word in SearchText.terms(of: text) { try add(term: word) }
  }

}

/// The terms one transaction has handled (see ``TermDeletions/seen``), and
/// the rows of the content types it has written (``IndexWriter/typeColumn(_:)``).
public final class SeenTerms {
  var terms: Set<String> = []
  var contentTypes: [[String]: Int64?] = [:]
  public init() {}
}
