import GRDB
import LimelightModel

/// The SymSpell deletion index over name terms: each term is stored under itself
/// and under every string one deleted letter makes of it (two for terms of six
/// letters or more). A query word within two edits of a term, or an abbreviation
/// that drops up to two of its letters, shares one of these keys with it.
public struct TermDeletions {
  let db: Database
  /// Terms this transaction has looked up or added already: a crawl meets
  /// the same words (`txt`, `readme`) in name after name.
  let seen: SeenTerms

  /// Terms outside these lengths are not worth forgiving typos in.
  public static let termLengths = 3...32
  /// Terms at least this long also get their two-letter deletions.
  public static let twoDeletionLength = 6

  public init(db: Database, seen: SeenTerms = SeenTerms()) {
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
      arguments: [term, term]) == true
    {
      return
    }
    let insert = try db.cachedStatement(
      sql: "INSERT OR IGNORE INTO term_deletion (key, term) VALUES (?, ?)")
    let depth = letters.count >= Self.twoDeletionLength ? 2 : letters.count >= 4 ? 1 : 0
    for key in Self.deletions(of: letters, depth: depth) {
      try insert.execute(arguments: [key, term])
    }
  }

  /// Adds the terms of a name-like text (already folded).
  func add(text: String) throws {
    for word in SearchText.terms(of: text) { try add(term: word) }
  }

  /// The string itself and every string `depth` or fewer deletions make of it.
  public static func deletions(of letters: [Character], depth: Int) -> Set<String> {
    if letters.allSatisfy(\.isASCII) { return asciiDeletions(of: letters, depth: depth) }
    var result: Set<String> = [String(letters)]
    var frontier: Set<[Character]> = [letters]
    for _ in 0..<depth {
      var next: Set<[Character]> = []
      for word in frontier where word.count > 1 {
        for i in word.indices {
          var shorter = word
          shorter.remove(at: i)
          next.insert(shorter)
        }
      }
      for word in next { result.insert(String(word)) }
      frontier = next
    }
    return result
  }

  /// ``deletions(of:depth:)`` of an ASCII term, on bytes: a crawl adds the
  /// terms of every name.
  static func asciiDeletions(of letters: [Character], depth: Int) -> Set<String> {
    let bytes = letters.map { $0.asciiValue! }
    var result: Set<[UInt8]> = [bytes]
    var frontier: Set<[UInt8]> = [bytes]
    for _ in 0..<depth {
      var next: Set<[UInt8]> = []
      for word in frontier where word.count > 1 {
        for i in word.indices {
          var shorter = word
          shorter.remove(at: i)
          next.insert(shorter)
        }
      }
      result.formUnion(next)
      frontier = next
    }
    return Set(result.map { String(decoding: $0, as: UTF8.self) })
  }
}

/// The terms one transaction has handled (see ``TermDeletions/seen``).
public final class SeenTerms {
  var terms: Set<String> = []
  public init() {}
}
