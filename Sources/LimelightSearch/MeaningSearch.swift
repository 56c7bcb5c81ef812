import Foundation
import LimelightMeaning
import LimelightModel
import LimelightQuery
import LimelightStore
import Synchronization

/// Meaning search beside words: the documents nearest what a query is
/// about, in any language the model knows, for queries that read as a
/// person's words. Words keep their place: an item they match fully comes
/// before anything found by meaning alone, which follows them, or leads
/// when the words matched nothing or only in part.
enum MeaningSearch {
  /// How alike a document must be to be shown at all; how much more
  /// alike than the model's ordinary passages (texts about nothing in
  /// particular), and than the average of the index's documents; and how
  /// far below the nearest it may be. The model finds any two texts
  /// somewhat alike (0.72 to 0.84 between unrelated ones), and a query
  /// about nothing the index holds comes as near its nearest documents,
  /// above their average, as a query does to the document it describes:
  /// what tells them apart is how near the query is to ordinary text.
  /// Measured with `benchmarks/meaning.py`'s 65 descriptions and 14
  /// queries about nothing in its pool of 1,772 documents: 0.05 above the
  /// average, as before, showed the intended document for 24 and 17
  /// results for the 14; 0.07 above ordinary text and 0.03 above the
  /// average, 41 and 12; 0.08 above ordinary text, 39 and 1.
  static let floor = 0.80
  static let ordinaryMargin = 0.07
  static let averageMargin = 0.03
  /// A word alone says less than a description: the documents it is not
  /// about come nearer (up to 0.056 above the ordinary, an image editor's
  /// name to a web browser), those it names in another language stay
  /// 0.07 or more above.
  static let wordMargin = 0.07
  static let band = 0.04
  /// The most results meaning adds to those of the words.
  static let most = 10

  /// Whether the typed words read as a description worth a meaning search:
  /// not a file name (`report.pdf`), a path, a pattern, or a word of
  /// fewer than four letters alone.
  static func readsAsDescription(_ words: [String]) -> Bool {
    guard !words.isEmpty else { return false }
    for word in words {
      if word.contains("/") || word.contains("*") || word.contains("?") { return false }
      if let dot = word.lastIndex(of: "."), dot != word.startIndex {
        let ending = word[word.index(after: dot)...]
        if (1...5).contains(ending.count) && ending.allSatisfy({ $0.isLetter || $0.isNumber }) {
          return false
        }
      }
    }
    return words.count > 1 || words[0].count >= 4
  }

  /// Whether a query's words and what they found ask for meaning too: a
  /// description or a question (two words or more), or a word that found
  /// nothing in full (a word of another language than the documents').
  /// A word the index holds is what the person meant.
  static func isAsked(words: [String], found: [SearchResult]) -> Bool {
    guard readsAsDescription(words) else { return false }
    return words.count > 1 || !(found.first.map { $0.unmatched.isEmpty } ?? false)
  }

  /// Whether meaning is asked for whatever the words find: a description
  /// or a question of two words or more.
  static func isAskedWhateverFound(words: [String]) -> Bool {
    words.count > 1 && readsAsDescription(words)
  }

  /// A result as found by meaning alone.
  static func markedAsMeaning(_ result: SearchResult) -> SearchResult {
    var result = result
    result.byMeaning = true
    return result
  }

  /// The query's vector, its words (``WordEvidence``) and which documents
  /// near it are shown (a word alone is held to higher floors than a
  /// description); nil when the model fails on it.
  static func asked(about text: String, words: [String], model: MeaningEngine) -> MeaningQuery? {
    guard let vector = model.embed(text, asQuery: true),
      let ordinary = model.ordinarySimilarity(of: vector)
    else { return nil }
    let (aboveOrdinary, aboveAverage) =
      isOneWord(text) ? (wordMargin, wordMargin) : (ordinaryMargin, averageMargin)
    return MeaningQuery(
      vector: MeaningVector.quantized(vector), words: words,
      ordinary: model.ordinaryMeans() ?? [],
      selection: MeaningSelection(
        floor: max(floor, ordinary + aboveOrdinary), margin: aboveAverage, band: band,
        centred: centred),
      centring: centring)
  }

  /// How documents are chosen with their languages taken out
  /// (``MeaningSelection/Centred``).
  static let centred = MeaningSelection.Centred(floor: 0.22, scale: 3, slack: 0.02)

  /// The model's centre and its languages' means (``MeaningCentring``).
  static let centring = MeaningCentring(
    centre: MeaningVector.centre, languages: MeaningVector.languageMeans.map(\.mean))

  /// Whether `text` is one word: no space in it, and not a phrase of a
  /// script written without spaces ("日付と時刻を扱う", to handle dates and
  /// times, is four words; it was held to a word's margins, and its
  /// document, second nearest of 5,268, was not shown).
  static func isOneWord(_ text: String) -> Bool {
    text.split(whereSeparator: \.isWhitespace).count == 1
      && text.unicodeScalars.count(where: SearchText.isCJK) < Self.phraseIdeographs
  }
  /// Characters of a script written without spaces that make a phrase.
  static let phraseIdeographs = 5

  /// What a query's meaning is read from: what was typed, but for the
  /// filters typed as such (`kind:pdf`).
  static func text(of query: ReadQuery) -> String {
    query.typed.split(whereSeparator: \.isWhitespace).filter { !$0.contains(":") }
      .joined(separator: " ")
  }

  /// The filters of a query that narrow meaning results: kinds, types,
  /// extensions, folders, dates, sizes, domains and hosts. Those read from
  /// words (a person: "vom Finanzamt" is read as an author; a pattern on
  /// a name) are words of the description, which its meaning holds.
  static func filters(of query: ReadQuery) -> QueryNode {
    .and(
      query.parts.filters.filter { node in
        guard case .filter(let filter) = node else { return false }
        switch filter {
        case .kind, .extensions, .inFolder, .contentType, .domain, .host, .range: return true
        default: return false
        }
      })
  }

  /// Words' results and meaning's together: the strong matches of the
  /// words first (every full match; of a sentence's, those whose name
  /// holds its words); then what meaning found, in its order, which
  /// weighs the words each holds (``WordEvidence``), each the words found
  /// too kept as theirs (what it lacks, not marked as meaning's); then
  /// the words' other matches. Meaning leads when the words matched
  /// nothing fully, or a sentence's in texts alone.
  static func merged(words: [SearchResult], meaning: [SearchResult], typed: [String] = [])
    -> [SearchResult]
  {
    let full = words.prefix { $0.unmatched.isEmpty }
    let sentence = typed.map(SearchText.fold)
    // A sentence's words are in any long text ("putting a list in order by
    // a key function" in a hundred pages of documentation).
    let strong =
      typed.count >= ReadQuery.sentenceWords
      ? full.filter { result in
        let name = SearchText.fold(result.displayName)
        return sentence.allSatisfy(name.contains)
      } : Array(full)
    let strongIDs = Set(strong.map(\.id))
    let weak = words.filter { !strongIDs.contains($0.id) }
    let weakByID = Dictionary(weak.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
    // The words' matches were moved before meaning's others when meaning
    // found them too: with the words weighed in meaning's order, that
    // counted them twice (over 5,265 documents, a page of asyncio holding
    // "events", "running" and "application" came before the logging how-to
    // for "writing down the events of a running application").
    let found = meaning.filter { !strongIDs.contains($0.id) }.map { weakByID[$0.id] ?? $0 }
    let foundIDs = Set(found.map(\.id))
    return strong + found + weak.filter { !foundIDs.contains($0.id) }
  }
}

/// A meaning search's question: the query's vector, as the index keeps
/// vectors, its words, which weigh for the documents that hold them
/// (``WordEvidence``), what ordinary text is, which weighs against the
/// documents near it, and which documents near it are shown.
public struct MeaningQuery: Sendable {
  public var vector: [UInt8]
  public var words: [String]
  /// The means of the model's ordinary passages, one a language, which a
  /// document's ordinariness is its largest product with
  /// (``MeaningSelection/ordinaryWeight``); none when unknown.
  public var ordinary: [[Float]]
  public var selection: MeaningSelection
  /// How each document's language is taken out before it is compared
  /// (``MeaningCentring``); nil: plain cosines.
  public var centring: MeaningCentring?
  /// The rows holding its words' stems, read while its vector was made
  /// (``SearchBackend/readAheadForMeaning(of:)``); nil: read with the
  /// near documents.
  public var readAhead: StemRows?
}

/// A query's meaning made on a thread of its own while its words are
/// searched: the model's time (15 ms or more on one core) and the words'
/// overlap on a second core.
final class MeaningInAdvance: Sendable {
  private let made = Mutex<MeaningQuery??>(nil)
  private let done = DispatchSemaphore(value: 0)

  init(about text: String, words: [String], model: MeaningEngine) {
    let thread = Thread { [self] in
      let query = MeaningSearch.asked(about: text, words: words, model: model)
      made.withLock { $0 = .some(query) }
      done.signal()
    }
    thread.start()
  }

  /// The query's meaning, once made.
  var query: MeaningQuery? {
    done.wait()
    done.signal()
    return made.withLock { $0 ?? nil }
  }
}

extension SearchBackend {
  /// The documents nearest a description, narrowed by `filters`; none
  /// when the model fails on it. Its words weigh as evidence as a
  /// query's do.
  func nearest(
    about text: String, filteredBy filters: QueryNode, limit: Int, model: MeaningEngine
  ) throws -> [SearchResult] {
    let words = text.split(whereSeparator: \.isWhitespace).map(String.init)
    guard let query = MeaningSearch.asked(about: text, words: words, model: model) else {
      return []
    }
    return try nearest(to: query, filteredBy: filters, limit: limit)
  }

  /// A read query's results as `find-in` shows them, for every front end:
  /// the words' results, with the documents near what they describe
  /// merged in (``MeaningSearch/merged(words:meaning:typed:)``) when a
  /// model is at hand and the words read as a description or matched only
  /// in part. A description of several words asks for meaning whatever
  /// its words find: its meaning is made while they are searched.
  func searchWithMeaning(_ query: ReadQuery, limit: Int?, model: MeaningEngine?) throws
    -> FoundResults
  {
    let words = query.parts.words.map(\.text)
    let text = MeaningSearch.text(of: query)
    let inAdvance = model.flatMap { model in
      MeaningSearch.isAskedWhateverFound(words: words)
        ? MeaningInAdvance(about: text, words: words, model: model) : nil
    }
    var found = try search(query, limit: limit)
    // While the meaning is still being made: its words' part.
    let readAhead = inAdvance != nil ? try readAheadForMeaning(of: words) : nil
    guard let model, MeaningSearch.isAsked(words: words, found: found.results),
      var meaningQuery = inAdvance?.query
        ?? MeaningSearch.asked(about: text, words: words, model: model)
    else { return found }
    meaningQuery.readAhead = readAhead
    let meaning = try nearest(
      to: meaningQuery, filteredBy: MeaningSearch.filters(of: query), limit: MeaningSearch.most)
    found.results = MeaningSearch.merged(words: found.results, meaning: meaning, typed: words)
    return found
  }
}
