/// Which documents a meaning search shows, of those compared with the
/// query: the same rule for the local index and the shared store.
public struct MeaningSelection: Sendable {
  /// How alike a document must be at all.
  public var floor: Double
  /// How much more alike than the average document.
  public var margin: Double
  /// How far below the nearest it may be.
  public var band: Double

  public init(floor: Double, margin: Double, band: Double) {
    (self.floor, self.margin, self.band) = (floor, margin, band)
  }

  /// The nearest documents first, at most `most`, of `similarities`: those
  /// at least ``floor`` alike, ``margin`` more alike than `average`, and
  /// within ``band`` of the nearest.
  public func near<Key>(_ similarities: [(key: Key, similarity: Float)], average: Double, most: Int)
    -> [(key: Key, similarity: Float)]
  {
    guard let top = similarities.map(\.similarity).max() else { return [] }
    let least = max(floor, average + margin, Double(top) - band)
    return Array(
      similarities.filter { Double($0.similarity) >= least }
        .sorted { $0.similarity > $1.similarity }.prefix(most))
  }
}
