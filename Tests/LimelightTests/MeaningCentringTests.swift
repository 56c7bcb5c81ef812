import Foundation
import Testing

@testable import LimelightQuery

/// Meaning compared with each document's language taken out.
@Suite struct MeaningCentringTests {
  /// Unit vectors of `dimensions` from a few weighted axes.
  static func vector(_ parts: [(Int, Float)], dimensions: Int = 8) -> [Float] {
    var made = [Float](repeating: 0, count: dimensions)
    for (axis, weight) in parts { made[axis] += weight }
    let length = made.reduce(0) { $0 + $1 * $1 }.squareRoot()
    return made.map { $0 / length }
  }

  /// As stored: a signed byte a dimension, the largest 127.
  static func stored(_ vector: [Float]) -> [UInt8] {
    let largest = vector.map(abs).max() ?? 1
    return vector.map { UInt8(bitPattern: Int8(($0 * 127 / largest).rounded())) }
  }

  func vector(_ parts: [(Int, Float)]) -> [Float] { Self.vector(parts) }
  func stored(_ vector: [Float]) -> [UInt8] { Self.stored(vector) }

  func cosine(_ a: [UInt8], _ b: [UInt8]) -> Float {
    let values = (a.map { Float(Int8(bitPattern: $0)) }, b.map { Float(Int8(bitPattern: $0)) })
    let dot = zip(values.0, values.1).reduce(0) { $0 + $1.0 * $1.1 }
    let lengths = (values.0.reduce(0) { $0 + $1 * $1 } * values.1.reduce(0) { $0 + $1 * $1 })
    return dot / lengths.squareRoot()
  }

  /// Axis 0 is what all texts share, 1 English, 2 Spanish, 3 to 5 what a
  /// text is about. A Spanish description of dates is nearer, by plain
  /// cosine, a Spanish page about networks than the English page about
  /// dates; with each text's language out (each document told its
  /// language by its vector), the page about dates comes first.
  @Test func aDocumentInAnotherLanguageComesFirstWhenItIsAboutTheQuery() {
    let english = vector([(0, 3), (1, 1)])
    let spanish = vector([(0, 3), (2, 1)])
    let centre = zip(english, spanish).map { ($0 + $1) / 2 }
    let centring = MeaningCentring(centre: centre, languages: [english, spanish])
    let datesInEnglish = stored(vector([(0, 3), (1, 1), (3, 0.8)]))
    let networksInSpanish = stored(vector([(0, 3), (2, 1), (4, 0.8)]))
    let query = stored(vector([(0, 3), (2, 1.2), (3, 0.6)]))
    #expect(cosine(query, networksInSpanish) > cosine(query, datesInEnglish))
    #expect(centring.place(datesInEnglish).language == 0)
    #expect(centring.place(networksInSpanish).language == 1)
    let asked = centring.asked(query)
    func centred(_ document: [UInt8]) -> Float {
      centring.similarity(raw: cosine(query, document), centring.place(document), asked)
    }
    #expect(centred(datesInEnglish) > 0.5)
    #expect(centred(networksInSpanish) < 0.1)
    // The same as the cosine of the vectors less the means, computed whole.
    let unit = { (bytes: [UInt8]) -> [Float] in
      let values = bytes.map { Float(Int8(bitPattern: $0)) }
      let length = values.reduce(0) { $0 + $1 * $1 }.squareRoot()
      return values.map { $0 / length }
    }
    let q = zip(unit(query), centre).map { $0 - $1 }
    let d = zip(unit(datesInEnglish), english).map { $0 - $1 }
    let whole =
      zip(q, d).reduce(0) { $0 + $1.0 * $1.1 }
      / (q.reduce(0) { $0 + $1 * $1 } * d.reduce(0) { $0 + $1 * $1 }).squareRoot()
    #expect(abs(centred(datesInEnglish) - whole) < 0.001)
  }

  /// The candidates: none when no document passes the plain floors (a
  /// query about nothing the documents are); else those a little below
  /// them, above the centred floor, nearest by their centred similarity.
  @Test func centredCandidatesAreHeldToBothFloors() {
    let selection = MeaningSelection(
      floor: 0.8, margin: 0.03, band: 0.04,
      centred: MeaningSelection.Centred(floor: 0.2, scale: 3, slack: 0.02))
    let near: [(key: Int, raw: Float, similarity: Float)] = [
      (1, 0.85, 0.25), (2, 0.79, 0.40), (3, 0.77, 0.50), (4, 0.82, 0.15), (5, 0.81, 0.10),
    ]
    // 3 is too far below the plain floor, 4 and 5 below the centred one.
    #expect(selection.candidates(centred: near, average: 0.7, most: 10).map(\.key) == [2, 1])
    #expect(selection.candidates(centred: near, average: 0.7, most: 1).map(\.key) == [2])
    // Every document below the plain floors: nothing, however near centred.
    #expect(selection.candidates(centred: near, average: 0.84, most: 10).isEmpty)
    // Without centring, none of this is asked.
    let plain = MeaningSelection(floor: 0.8, margin: 0.03, band: 0.04)
    #expect(plain.candidates(centred: near, average: 0.7, most: 10).isEmpty)
  }
  /// A centring is used only with a selection for it and vectors of its
  /// dimensions; otherwise plain cosines, and a selection that weighs them
  /// as plain (its band and words' weight not scaled).
  @Test func aCentringOfOtherDimensionsIsNotUsed() {
    let english = vector([(0, 3), (1, 1)])
    let centring = MeaningCentring(centre: english, languages: [english])
    let centred = MeaningSelection(
      floor: 0.8, margin: 0.03, band: 0.04,
      centred: MeaningSelection.Centred(floor: 0.2, scale: 3, slack: 0.02))
    let used = centred.comparing(by: centring, dimensions: 8)
    #expect(used.centring != nil && used.selection.centred != nil)
    let other = centred.comparing(by: centring, dimensions: 384)
    #expect(other.centring == nil && other.selection.centred == nil)
    #expect(other.selection.lowestCosine == 0.8)
    let none = centred.comparing(by: nil, dimensions: 8)
    #expect(none.centring == nil && none.selection.centred == nil)
    let plain = MeaningSelection(floor: 0.8, margin: 0.03, band: 0.04)
    #expect(plain.comparing(by: centring, dimensions: 8).centring == nil)
  }
}
