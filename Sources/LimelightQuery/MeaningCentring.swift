/// Similarity with each text's language taken out: the model places texts
/// of one language near each other whatever they are about, so that a
/// description in Spanish came nearer Spanish manual pages than the English
/// page it described. A document's vector less the mean of its language's
/// documents, and a query's less the mean of all documents, are compared
/// instead (their cosine): what is left is what each is about.
///
/// A document's language is the one whose mean it is nearest: told from
/// its vector, so that neither store keeps anything more.
public struct MeaningCentring: Sendable {
  /// The mean of all documents' unit vectors.
  public let centre: [Float]
  /// The mean of each language's documents' unit vectors.
  public let languages: [[Float]]
  /// Each language mean's length, for telling a document's language by
  /// cosine; and its product with the centre.
  let languageLengths: [Float]
  @usableFromInline let centreProducts: [Float]
  let squaredLengths: [Float]
  /// The centre's own squared length.
  let centreSquares: Float

  public init(centre: [Float], languages: [[Float]]) {
    self.centre = centre
    self.languages = languages.filter { $0.count == centre.count }
    squaredLengths = self.languages.map { mean in mean.reduce(0) { $0 + $1 * $1 } }
    languageLengths = squaredLengths.map { $0.squareRoot() }
    centreProducts = self.languages.map { mean in zip(mean, centre).reduce(0) { $0 + $1.0 * $1.1 } }
    centreSquares = centre.reduce(0) { $0 + $1 * $1 }
  }

  /// What a stored vector needs beside its product with a query: its
  /// language, its product with the centre, and its length once its
  /// language's mean is taken out (all of its unit vector).
  public struct Placed: Sendable {
    public var language: Int32
    public var centreProduct: Float
    public var length: Float
  }

  /// A stored vector's place (its bytes as signed numbers).
  public func place(_ vector: UnsafeBufferPointer<Int8>) -> Placed {
    var squares = Float(0)
    for value in vector { squares += Float(value) * Float(value) }
    let length = squares.squareRoot()
    guard length > 0, vector.count == centre.count else { return Self.unplaced }
    func product(_ mean: [Float]) -> Float {
      mean.withUnsafeBufferPointer { mean in
        var product = Float(0)
        for index in 0..<vector.count { product += Float(vector[index]) * mean[index] }
        return product / length
      }
    }
    return place(languageProducts: languages.map(product), centreProduct: product(centre))
  }

  /// A vector placed nowhere: compared as alike to nothing.
  public static let unplaced = Placed(language: -1, centreProduct: 0, length: 0)

  /// A stored vector's place from its unit vector's products with each
  /// language's mean and with the centre (a scan of many vectors computes
  /// them together).
  public func place(languageProducts products: [Float], centreProduct: Float) -> Placed {
    guard let nearest = nearestLanguage(products) else { return Self.unplaced }
    // |d - m|² = 1 - 2 d·m + |m|² for a unit d.
    let centred = max(1 - 2 * products[nearest] + squaredLengths[nearest], 0).squareRoot()
    return Placed(language: Int32(nearest), centreProduct: centreProduct, length: centred)
  }

  /// ``place(_:)`` of a stored vector's bytes.
  public func place(_ vector: [UInt8]) -> Placed {
    vector.withUnsafeBytes { place($0.bindMemory(to: Int8.self)) }
  }

  /// What a query needs: its products with each language's mean, and the
  /// length of its unit vector less the centre.
  public struct Asked: Sendable {
    public var languageProducts: [Float]
    public var centreProduct: Float
    public var length: Float
  }

  /// A query's (its bytes as signed numbers, as stored vectors are).
  public func asked(_ query: [UInt8]) -> Asked {
    let values = query.map { Float(Int8(bitPattern: $0)) }
    let length = values.reduce(0) { $0 + $1 * $1 }.squareRoot()
    guard length > 0, values.count == centre.count else {
      return Asked(languageProducts: [], centreProduct: 0, length: 0)
    }
    let unit = values.map { $0 / length }
    let centreProduct = zip(unit, centre).reduce(0) { $0 + $1.0 * $1.1 }
    return Asked(
      languageProducts: languages.map { mean in zip(unit, mean).reduce(0) { $0 + $1.0 * $1.1 } },
      centreProduct: centreProduct,
      length: max(1 - 2 * centreProduct + centreSquares, 0).squareRoot())
  }

  /// The language a query is asked in, told as a document's is; nil when
  /// none is known.
  public func language(of query: Asked) -> Int32? {
    nearestLanguage(query.languageProducts).map { Int32($0) }
  }

  /// The language whose mean is nearest by cosine, of a unit vector's
  /// products with each; nil without languages.
  private func nearestLanguage(_ products: [Float]) -> Int? {
    guard products.count == languages.count, !languages.isEmpty else { return nil }
    var (best, nearest) = (-Float.infinity, 0)
    for number in products.indices {
      let cosine = products[number] / max(languageLengths[number], .leastNonzeroMagnitude)
      if cosine > best { (best, nearest) = (cosine, number) }
    }
    return nearest
  }

  /// The cosine of a query less the centre and a document less its
  /// language's mean, from their cosine (`raw`) and what each needs:
  /// (q - c)·(d - m) = q·d - q·m - c·d + c·m.
  @inlinable
  public func similarity(raw: Float, _ document: Placed, _ query: Asked) -> Float {
    let language = Int(document.language)
    guard language >= 0, language < query.languageProducts.count, document.length > 0,
      query.length > 0
    else { return 0 }
    let product =
      raw - query.languageProducts[language] - document.centreProduct
      + centreProducts[language]
    return product / (document.length * query.length)
  }
}
