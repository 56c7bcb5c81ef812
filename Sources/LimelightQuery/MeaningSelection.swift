import Foundation
import LimelightModel

/// Which documents a meaning search shows, of those compared with the
/// query: the same rule for the local index and the shared store.
///
/// A document is chosen by its nearness to the query and, beside it, by
/// how much of the query's words it holds (``WordEvidence``): of two pages
/// about the same thing, the one holding "coroutines" is what "running many
/// network jobs at once with coroutines" describes; and by how particular it
/// is (``ordinaryWeight``).
public struct MeaningSelection: Sendable {
  /// How alike a document must be at all.
  public var floor: Double
  /// How much more alike than the average document.
  public var margin: Double
  /// How far below the best a document may be (its score: its similarity
  /// with its words' evidence, less its ordinariness).
  public var band: Double

  /// How documents are chosen when their language is taken out
  /// (``MeaningCentring``): how alike they must be so (a floor of their
  /// own: a query about nothing the documents are is near none of them
  /// once their languages are out), how much wider those similarities
  /// spread than plain cosines (``band`` and the words' weight are
  /// measured in plain cosines), and how far below the plain cosines'
  /// floors a document may be (a document in another language than the
  /// query's is less alike by them). Measured with `benchmarks/meaning.py`'s
  /// 65 descriptions and 14 queries about nothing over its pools of 1,770
  /// and 5,265 documents (the intended document first, in the first ten;
  /// results for the 14): plain cosines, 24 and 43, 13; 13 and 38, 29.
  /// Centred, a scale of 3, a slack of 0.02, a floor of 0.22: 24 and 43, 8;
  /// 18 and 37, 30. A floor of 0.20: 24 and 46, 10; 18 and 37, 42 (the
  /// larger pool's queries about nothing came nearer); 0.24: 35 in the
  /// first ten and 2; 31 and 20. Over the smaller pool, without
  /// ordinariness: a floor of 0.17, 49 in the first ten and 21; 0.20, 46
  /// and 12. A floor of 0.20 and no slack, 41 and 4; 0.01, 42 and 9; 0.03
  /// to any, 46 and 15. A scale of 4, the same as 3; 4.5 (how much wider
  /// they spread) and no floor of their own, 44 and 13.
  public struct Centred: Sendable {
    public var floor: Double
    public var scale: Double
    public var slack: Double
    public init(floor: Double, scale: Double, slack: Double) {
      (self.floor, self.scale, self.slack) = (floor, scale, slack)
    }
  }
  /// nil: plain cosines.
  public var centred: Centred?

  public init(floor: Double, margin: Double, band: Double, centred: Centred? = nil) {
    (self.floor, self.margin, self.band, self.centred) = (floor, margin, band, centred)
  }

  /// This selection with documents compared by `centring` when it can
  /// compare vectors of `dimensions`, and by plain cosines otherwise: the
  /// centring to use (nil for plain cosines) and the selection for it.
  public func comparing(
    by centring: MeaningCentring?, dimensions: Int
  ) -> (centring: MeaningCentring?, selection: MeaningSelection) {
    guard centred != nil, let centring, centring.centre.count == dimensions else {
      var plain = self
      plain.centred = nil
      return (nil, plain)
    }
    return (centring, self)
  }

  /// The lowest plain cosine a candidate may have.
  public var lowestCosine: Double { floor - (centred?.slack ?? 0) }

  /// The band and the words' weight in the similarities compared.
  @usableFromInline var weights: (band: Double, words: Double) {
    let scale = centred?.scale ?? 1
    return (band * scale, WordEvidence.weight * scale)
  }

  /// How far below the nearest a document is read for its words: one that
  /// holds them all may come within ``band`` of the best.
  public var reach: Double { band + WordEvidence.weight }

  /// The documents worth reading for their words, nearest first, at most
  /// `most`, of `similarities`: those at least ``floor`` alike,
  /// ``margin`` more alike than `average`, and within ``reach`` of the
  /// nearest. None when the nearest is below the floors: the query is
  /// about nothing the documents are, whatever words they share.
  /// Alike ones in the order of their keys: copies of a document have the
  /// same vector, and which of them the `most` kept had been left to the
  /// order they came in (in the shared store, a dictionary's: the same
  /// query chose other documents from one search to the next).
  /// Inlinable, to be specialized where it is called: as generic code it
  /// took a fifth of a query over 100,000 vectors.
  @inlinable
  public func candidates<Key: Comparable>(
    _ similarities: [(key: Key, similarity: Float)], average: Double, most: Int
  ) -> [(key: Key, similarity: Float)] {
    guard let top = similarities.map(\.similarity).max() else { return [] }
    let least = max(floor, average + margin, Double(top) - reach)
    return Array(
      similarities.filter { Double($0.similarity) >= least }
        .sorted { $0.similarity != $1.similarity ? $0.similarity > $1.similarity : $0.key < $1.key }
        .prefix(most))
  }

  /// ``candidates(_:average:most:)`` with the documents' language taken
  /// out (``MeaningCentring``): none unless a document's plain cosine
  /// (`raw`) is at least ``floor`` alike and ``margin`` more than
  /// `average`, as without it; then those within the slack of that, at
  /// least the centred floor alike by their centred `similarity`, nearest
  /// so and within ``reach`` of the nearest (in its scale), at most `most`.
  @inlinable
  public func candidates<Key: Comparable>(
    centred near: [(key: Key, raw: Float, similarity: Float)], average: Double, most: Int
  ) -> [(key: Key, similarity: Float)] {
    let least = max(floor, average + margin)
    guard let centred, near.contains(where: { Double($0.raw) >= least }) else { return [] }
    let kept = near.filter {
      Double($0.raw) >= least - centred.slack && Double($0.similarity) >= centred.floor
    }
    guard let top = kept.map(\.similarity).max() else { return [] }
    let lowest = Double(top) - weights.band - weights.words
    return Array(
      kept.filter { Double($0.similarity) >= lowest }
        .sorted { $0.similarity != $1.similarity ? $0.similarity > $1.similarity : $0.key < $1.key }
        .prefix(most).map { (key: $0.key, similarity: $0.similarity) })
  }

  /// The candidates of documents compared as this selection compares
  /// them: with ``centred``, ``candidates(centred:average:most:)``; else
  /// ``candidates(_:average:most:)`` of their plain cosines (`raw`).
  @inlinable
  public func candidates<Key: Comparable>(
    near: [(key: Key, raw: Float, similarity: Float)], average: Double, most: Int
  ) -> [(key: Key, similarity: Float)] {
    centred != nil
      ? candidates(centred: near, average: average, most: most)
      : candidates(
        near.map { (key: $0.key, similarity: $0.raw) }, average: average, most: most)
  }

  /// How much a document's ordinariness (its mean similarity to the
  /// model's ordinary passages of the language it is nearest) takes from
  /// its similarity to a query. A short or general text is near any query
  /// (the same two Spanish notes of a line each were nearest four Spanish
  /// descriptions of pages of documentation): what counts is how much
  /// nearer the query a document is than to ordinary text of its language.
  /// Measured with `benchmarks/meaning.py`'s 65 descriptions over its pool
  /// of 1,770 documents, ranked again by a script from the pool's vectors
  /// (with the words' evidence): the intended document
  /// first for 15 of them, 23 at 1.0, 24 at 1.5; in the first ten for 42,
  /// 44 at 1.0, 43 at 1.5. The mean over all the ordinary passages, most
  /// of them English, favoured documents in other languages: at 1.0, 22
  /// first, 43 in the first ten, and 3 fewer of the 25 descriptions not
  /// written in English.
  public static let ordinaryWeight = 1.0

  /// How ordinary a vector is (its bytes, as the stores keep them): its
  /// largest mean cosine to the model's ordinary passages of a language,
  /// given their means, one a language; 0 when there are none.
  /// Loops over a buffer, not generic code: generic over the collection,
  /// unspecialized across modules, it took 200 ms of a query over 100,000
  /// vectors (300 candidates, each element through the type's metadata).
  public static func ordinariness(of vector: UnsafeBufferPointer<Int8>, means: [[Float]])
    -> Double
  {
    var squares = Float(0)
    for value in vector { squares += Float(value) * Float(value) }
    let length = squares.squareRoot()
    guard length > 0 else { return 0 }
    var most: Double?
    for mean in means where mean.count == vector.count {
      let dot = mean.withUnsafeBufferPointer { mean in
        var dot = Float(0)
        for index in 0..<vector.count { dot += Float(vector[index]) * mean[index] }
        return dot
      }
      most = max(most ?? -.infinity, Double(dot / length))
    }
    return most ?? 0
  }

  /// ``ordinariness(of:means:)`` of a vector's bytes as signed numbers.
  public static func ordinariness(of vector: [Int8], means: [[Float]]) -> Double {
    vector.withUnsafeBufferPointer { ordinariness(of: $0, means: means) }
  }

  /// How alike, its language taken out, a document written in the
  /// language of the query must be to be shown when it holds none of the
  /// query's words (``chosen(_:shares:ordinariness:inQueryLanguage:)``).
  /// A person describing a document in its own language uses some of its
  /// words; the model alone finds any query somewhat near something, and
  /// the more documents, the nearer: over 16,866 documents of the
  /// benchmark's whole corpus, 12 of 14 queries about nothing it holds
  /// were shown 101 documents ("invoice from the plumber for the kitchen
  /// sink": ten licences). Measured with `benchmarks/meaning.py`'s 65
  /// descriptions and 14 queries about nothing over its pools of 1,770 and
  /// 5,265 documents (the intended document first, in the first ten;
  /// results for the 14): without the rule, 37 and 66 %, 8; 28 and 57 %,
  /// 30. At 0.28: 37 and 66 %, 2; 28 and 58 %, 20. At 0.30, one
  /// description lost its document ("a sandbox of its own for the
  /// libraries one project depends on", at 0.29), and 2 and 18. Any
  /// document holding none of the words left out (a script over the
  /// pools' vectors): 4 of the 65 lost theirs, most of them asked in
  /// another language than their document's, which cannot hold its words.
  /// Over the whole corpus (49,117 documents) it changed no count: 43 % in
  /// the first ten, 82 results for the 14, with the rule or without, as
  /// others holding a word, or in another language, take the places of
  /// those it leaves out.
  public static let wordlessFloor = 0.28

  /// The candidates written in the query's language (`query`, as
  /// ``MeaningCentring/language(of:)`` tells it; `languages`, each
  /// candidate's), which ``chosen(_:shares:ordinariness:inQueryLanguage:)``
  /// holds to the query's words: none unless every word's stem was looked
  /// for (one not looked for may be what a document holds).
  public static func inQueryLanguage<Key: Hashable>(
    _ keys: [Key], languages: [Key: Int32], query: Int32?, everyStemLooked: Bool
  ) -> Set<Key> {
    guard everyStemLooked, let query else { return [] }
    return Set(keys.filter { languages[$0] == query })
  }

  /// The candidates shown, best first: each scored by its similarity, less
  /// its ordinariness (``ordinaryWeight``; `ordinariness`, none: 0), and its
  /// share of the query's words (`shares`, 0 to 1; none: 0), within
  /// ``band`` of the best score. Of those `inQueryLanguage`, one that holds
  /// none of the words is left out below ``wordlessFloor``.
  @inlinable
  public func chosen<Key: Hashable>(
    _ candidates: [(key: Key, similarity: Float)], shares: [Key: Double],
    ordinariness: [Key: Double] = [:], inQueryLanguage: Set<Key> = []
  ) -> [(key: Key, score: Double)] {
    let weights = weights
    let candidates = candidates.filter { candidate in
      !inQueryLanguage.contains(candidate.key) || (shares[candidate.key] ?? 0) > 0
        || Double(candidate.similarity) >= Self.wordlessFloor
    }
    let scored = candidates.map { candidate in
      (
        key: candidate.key,
        score: Double(candidate.similarity) + weights.words * (shares[candidate.key] ?? 0)
          - Self.ordinaryWeight * (ordinariness[candidate.key] ?? 0)
      )
    }
    guard let best = scored.map(\.score).max() else { return [] }
    return scored.filter { $0.score >= best - weights.band }.sorted { $0.score > $1.score }
  }
}

/// A description's words as evidence beside its meaning: how much of them
/// a document holds, each word weighed by how rare it is among the
/// documents near the query (its inverse document frequency there, as
/// BM25 weighs it): a word every near document holds says nothing of which
/// is meant. Both stores only tell which near documents hold which words.
///
/// Measured with `benchmarks/meaning.py`'s 65 descriptions over its pool of
/// 1,770 documents, the 300 nearest of each ranked again (top 10): the
/// similarity alone, 37; with the share of the words held at 0.02, 40; at
/// 0.04, 41; at 0.08, 38; with each word's stem ("coroutin" for
/// "coroutines") in place of the word, at 0.04: 43; at 0.08: 41. Weighed by
/// the whole index's frequencies instead of the near documents', the same.
/// The title's words counted once more added nothing. Through `find-in`
/// (with ``MeaningSelection/ordinaryWeight``), a stem looked for as the
/// terms it begins: top 1 / top 10 37 / 68 % of 1,770 documents, 18 / 60 %
/// of 5,265; as its forms (``forms(of:)``), 40 / 68 % and 22 / 60 %.
public enum WordEvidence {
  /// What a document holding every word of the query adds to its
  /// similarity.
  public static let weight = 0.04
  /// Letters a stem keeps at least.
  static let stemLetters = 4
  /// Endings a word is looked for without: plurals, participles and their
  /// like in the languages the readings know ("coroutines" finds
  /// "coroutine", "Aufgaben" "Aufgabe").
  static let endings = ["ing", "es", "ed", "s", "e", "en", "er", "n"]

  /// The stems a query's words are looked for by, in their forms
  /// (``forms(of:)``; folded, as the indexes fold words): each word
  /// without its first ending that leaves ``stemLetters``. A word of
  /// several (`e-mail`) or in ideographs (a phrase: "日付と時刻") is left
  /// out, as is one shorter than a stem.
  public static func stems(of words: [String]) -> [String] {
    var stems: [String] = []
    for word in words {
      let terms = SearchText.terms(of: SearchText.fold(word))
      guard terms.count == 1, let folded = terms.first, folded.count >= stemLetters,
        !folded.unicodeScalars.contains(where: SearchText.isCJK)
      else { continue }
      let stem =
        endings.first { folded.hasSuffix($0) && folded.count - $0.count >= stemLetters }
        .map { String(folded.dropLast($0.count)) } ?? folded
      if !stems.contains(stem) { stems.append(stem) }
    }
    return stems
  }

  /// The words a stem stands for: itself and itself with each ending
  /// (``stems(of:)`` makes it of each), looked for whole.
  public static func forms(of stem: String) -> [String] {
    [stem] + endings.map { stem + $0 }
  }

  /// Each document's share of the stems' weight, 0 to 1, of `documents`
  /// near the query, given which stems each holds (`held`; one not in it
  /// holds none).
  @inlinable
  public static func shares<Key: Hashable>(
    held: [Key: Set<String>], stems: [String], documents: Int
  ) -> [Key: Double] {
    let all = Double(max(documents, 1))
    var weights: [String: Double] = [:]
    for stem in stems {
      let holding = Double(held.values.count { $0.contains(stem) })
      weights[stem] = log((all - holding + 0.5) / (holding + 0.5) + 1)
    }
    let whole = weights.values.reduce(0, +)
    guard whole > 0 else { return [:] }
    return held.mapValues { stems in stems.reduce(0) { $0 + (weights[$1] ?? 0) } / whole }
  }
}
