/// Words near a typed one, as both stores forgive typos: the SymSpell keys
/// a word is found again by (its first letters, and what deleting one or
/// two of them leaves), the edit distance that measures a candidate, and
/// the abbreviations (`rdme` for `readme`) taken when no typo's reading is.
public enum NearWords {
  /// Words outside these lengths are not worth forgiving typos in.
  public static let termLengths = 3...32
  /// Words at least this long also get their two-letter deletions.
  public static let twoDeletionLength = 6
  /// The letters of a word its keys are made of.
  public static let keyLength = 7

  /// How many deletions a stored word's keys go to.
  public static func termDepth(_ length: Int) -> Int {
    length >= twoDeletionLength ? 2 : length >= 4 ? 1 : 0
  }

  /// How many edits a typed word may be from the word meant: two in words
  /// of seven letters or more (one of eight that lost a letter).
  public static func allowedEdits(_ length: Int) -> Int { length >= 7 ? 2 : 1 }

  /// The keys of a term or query word: its first `keyLength` letters and
  /// every string `depth` or fewer deletions make of them.
  public static func keys(of letters: [Character], depth: Int) -> Set<String> {
    deletions(of: Array(letters.prefix(keyLength)), depth: depth)
  }

  /// ``keys(of:depth:)`` as UTF-8 bytes, made without a string each: a
  /// crawl's typo index takes a million of them.
  public static func keyBytes(of letters: [Character], depth: Int) -> Set<[UInt8]> {
    let prefix = Array(letters.prefix(keyLength))
    if prefix.allSatisfy(\.isASCII) {
      return deletionSequences(of: prefix.map { $0.asciiValue! }, depth: depth)
    }
    return Set(deletionSequences(of: prefix, depth: depth).map { Array(String($0).utf8) })
  }

  /// The string itself and every string `depth` or fewer deletions make of it.
  public static func deletions(of letters: [Character], depth: Int) -> Set<String> {
    // ASCII on bytes: a crawl adds the terms of every name.
    if letters.allSatisfy(\.isASCII) {
      return Set(
        deletionSequences(of: letters.map { $0.asciiValue! }, depth: depth).map {
          String(decoding: $0, as: UTF8.self)
        })
    }
    return Set(deletionSequences(of: letters, depth: depth).map { String($0) })
  }

  /// The sequence itself and every one `depth` or fewer deletions make of it.
  public static func deletionSequences<Element: Hashable>(of word: [Element], depth: Int)
    -> Set<[Element]>
  {
    var result: Set<[Element]> = [word]
    var frontier: Set<[Element]> = [word]
    for _ in 0..<depth {
      var next: Set<[Element]> = []
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
    return result
  }

  /// How many edits `term` is from `word` when it is a typo's reading of
  /// it: one edit, or two when `allowed` is two and either of them has eight
  /// letters or more; nil otherwise.
  public static func nearMissEdits(_ word: [Character], _ term: [Character], allowed: Int) -> Int? {
    let edits = distance(word, term, limit: allowed)
    return edits <= 1 || (allowed == 2 && edits == 2 && max(word.count, term.count) >= 8)
      ? edits : nil
  }

  /// Whether `word` abbreviates `term`: same first letter, the word's letters in
  /// order, at most two left out ("rdme" for "readme").
  public static func abbreviates(_ word: [Character], _ term: [Character]) -> Bool {
    guard let first = word.first, term.first == first, term.count > word.count,
      term.count - word.count <= 2
    else { return false }
    var rest = word.dropFirst()[...]
    for ch in term.dropFirst() where ch == rest.first { rest = rest.dropFirst() }
    return rest.isEmpty
  }

  /// What the words of names sharing a key with `word` (`candidates`)
  /// say it stands for, with how many names hold each: the typos' readings
  /// fewest edits away (two edits only when no name word is one away:
  /// "virtuellne" is "virtuellen", not "virtuelles"), or, when no typo
  /// reads, the words it abbreviates. `counts` gives how many names hold
  /// each of some words, leaving out those none holds any longer.
  public static func nameReadings<E: Error>(
    of word: String, among candidates: some Sequence<String>,
    counts: ([String]) throws(E) -> [String: Int]
  ) throws(E) -> [String: Int] {
    let letters = Array(word)
    let allowed = allowedEdits(letters.count)
    var close: [String: Int] = [:]
    var abbreviated: [String] = []
    for candidate in candidates where candidate != word {
      let term = Array(candidate)
      if let edits = nearMissEdits(letters, term, allowed: allowed) {
        close[candidate] = edits
      } else if abbreviates(letters, term) {
        abbreviated.append(candidate)
      }
    }
    // A typo is the likelier reading; abbreviations only when there is none.
    var found = try counts(Array(close.keys))
    if let nearest = found.keys.compactMap({ close[$0] }).min() {
      found = found.filter { close[$0.key] == nearest }
    }
    return found.isEmpty ? try counts(abbreviated) : found
  }

  /// The words found, those most items hold first (then by spelling), at
  /// most `limit`.
  public static func likeliest(_ found: [String: Int], limit: Int) -> [String] {
    found.sorted { $0.value != $1.value ? $0.value > $1.value : $0.key < $1.key }
      .prefix(limit).map(\.key)
  }

  /// Damerau–Levenshtein distance (insertions, deletions, substitutions and
  /// transpositions, which may combine: "iwosspace" is two edits from
  /// "iswspace"), or `limit + 1` when it is more than `limit`.
  public static func distance(_ a: [Character], _ b: [Character], limit: Int) -> Int {
    if abs(a.count - b.count) > limit { return limit + 1 }
    if a.isEmpty || b.isEmpty { return min(max(a.count, b.count), limit + 1) }
    let infinity = a.count + b.count
    var lastRow: [Character: Int] = [:]
    // d[i + 1][j + 1] is the distance between a.prefix(i) and b.prefix(j).
    var d = Array(repeating: Array(repeating: 0, count: b.count + 2), count: a.count + 2)
    d[0][0] = infinity
    for i in 0...a.count {
      d[i + 1][0] = infinity
      d[i + 1][1] = i
    }
    for j in 0...b.count {
      d[0][j + 1] = infinity
      d[1][j + 1] = j
    }
    for i in 1...a.count {
      var lastColumn = 0
      for j in 1...b.count {
        let i1 = lastRow[b[j - 1]] ?? 0
        let j1 = lastColumn
        var cost = 1
        if a[i - 1] == b[j - 1] {
          cost = 0
          lastColumn = j
        }
        d[i + 1][j + 1] = min(
          d[i][j] + cost, d[i + 1][j] + 1, d[i][j + 1] + 1,
          d[i1][j1] + (i - i1 - 1) + 1 + (j - j1 - 1))
      }
      lastRow[a[i - 1]] = i
    }
    return min(d[a.count + 1][b.count + 1], limit + 1)
  }
}
