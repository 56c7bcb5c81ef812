/// What a document is embedded from: its heading (title, or name) and the
/// prose of its opening, not the table of contents, navigation and
/// synopsis a page of documentation begins with (Python's library pages
/// open with a hundred lines of their contents' names; a manual page with
/// its macros' leftovers and synopsis).
///
/// Measured with `benchmarks/meaning.py`'s queries over a pool of 1,761 of
/// the benchmark corpus's documents (plain cosine, top 10): the opening as
/// it came, 28 of 65 (before manual pages were embedded); its prose lines,
/// 37 of 65 with manual pages; the heading's vector blended in at 0.3, 41;
/// the passage cut at 112 tokens, so that the pass fits its budget, 39.
public enum MeaningPassage {
  /// Characters of prose looked for after the heading.
  public static let proseCharacters = 600
  /// Tokens of a passage embedded at most, its heading's included. Its
  /// cost grows with its tokens, about 1.75 ms each on one core: a
  /// passage of 600 characters was 174 tokens and 323 ms with its
  /// heading's vector, and the pass over the benchmark corpus's 49,800
  /// documents would take 4.5 hours, over its budget of 3. Cut at 112
  /// tokens, it is 105 on average (a text in ideographs reaches them in
  /// 200 characters, one in Latin letters in 400): 182 ms, 2.5 hours.
  public static let passageTokens = 112
  /// Characters of a document's text read to find that prose in.
  public static let searchedCharacters = 8_000
  /// The weight of the heading's own vector in a document's (the rest is
  /// the passage's): a title says what a page is about more plainly than
  /// its first paragraph, which the passage holds too.
  public static let headingWeight: Float = 0.3

  /// A line of prose has this many words at least, or (in scripts written
  /// without spaces) this many characters of them: the lines of a table of
  /// contents, a menu or a synopsis have fewer.
  static let proseWords = 8
  static let proseIdeographs = 20
  /// What ends a sentence.
  static let sentenceEnds: Set<Character> = [".", "!", "?", ":", ";", "。", "！", "？"]

  /// The passage of a document: its heading, its description when the text
  /// does not begin with it, and the prose lines of `opening` (the opening
  /// as it is when it has none), whitespace made single spaces; and its
  /// substance, the letters beside the heading (a document of a few words
  /// is found by its words, not embedded).
  public static func of(heading: String, description: String?, opening: String)
    -> (passage: String, substance: Int)
  {
    var parts = [heading]
    if let description, !description.isEmpty,
      !squeezed(opening.prefix(description.utf8.count * 2)).hasPrefix(squeezed(description))
    {
      parts.append(description)
    }
    let body = prose(of: opening)
    parts.append(body.isEmpty ? String(opening.prefix(proseCharacters)) : body)
    let substance = parts.dropFirst().reduce(0) { $0 + $1.filter { !$0.isWhitespace }.count }
    return (squeezed(parts.joined(separator: "\n")), substance)
  }

  /// `text` with its whitespace made single spaces.
  static func squeezed(_ text: some StringProtocol) -> String {
    text.split(whereSeparator: \.isWhitespace).joined(separator: " ")
  }

  /// The lines of `text` that read as prose, in order, up to
  /// ``proseCharacters``; a line that ends a sentence a line of prose
  /// began (text wrapped at a width, as manual pages are) is prose too.
  static func prose(of text: String) -> String {
    var picked: [Substring] = []
    var size = 0
    var continues = false
    for line in text.split(whereSeparator: \.isNewline) {
      let words = line.split(whereSeparator: \.isWhitespace).count
      let ideographs = line.unicodeScalars.count { $0.value >= 0x2E80 }
      let isProse = words >= proseWords || ideographs >= proseIdeographs
      guard isProse || (continues && words > 0) else {
        continues = false
        continue
      }
      continues = isProse && !(line.last.map(sentenceEnds.contains) ?? true)
      picked.append(line)
      size += line.count + 1
      if size >= proseCharacters { break }
    }
    return String(picked.joined(separator: " ").prefix(proseCharacters))
  }
}

extension MeaningEngine {
  /// A document's vector: its passage's, with its heading's blended in
  /// (``MeaningPassage/headingWeight``), of unit length; the passage's
  /// alone when the engine fails on the heading, nil when on the passage.
  public func embedDocument(heading: String, passage: String) -> [Float]? {
    let read = prefix(of: passage, tokens: MeaningPassage.passageTokens)
    guard let body = embed(read, asQuery: false) else { return nil }
    guard let title = embed(heading, asQuery: false) else { return body }
    let weight = MeaningPassage.headingWeight
    let blended = zip(body, title).map { (1 - weight) * $0 + weight * $1 }
    let length = blended.reduce(Float(0)) { $0 + $1 * $1 }.squareRoot()
    return length > 0 ? blended.map { $0 / length } : body
  }
}
