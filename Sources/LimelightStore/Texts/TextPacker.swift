import CZstd
import Foundation
import GRDB
import Synchronization

/// How an index packs the texts it stores: with zstd and a dictionary
/// trained on the user's own texts once enough of them have been read
/// (a sixth smaller than deflate, and read back several times faster),
/// deflated before that.
///
/// The dictionary is trained once per index, from the beginnings of texts
/// picked at random among the first ones the index stores (the first few
/// hundred alone, often one folder's, made a dictionary that packed the
/// rest 8 % worse), and kept in `text_dictionary` for as long as the index:
/// every text packed with it names it (zstd's dictionary id, which its
/// content decides), and any process that reads the index loads it from
/// there (``refresh(_:)``). Packing the index packs the texts deflated
/// before it with it too (``IndexStore/compact(afterRewriting:minimum:)``).
public final class TextPacker: Sendable {
  /// The dictionary's size in bytes: zstd's advice is about a
  /// hundredth of the samples it is trained on.
  static let dictionaryBytes = 64 * 1024
  /// The samples a dictionary is trained on: the beginning of each text
  /// (where the words each kind of file shares are), this many of them at
  /// most, picked evenly among the first `trainingTexts` texts.
  /// (Training holds the samples, 2.5 MB at most, and a few megabytes of
  /// tables for a moment.)
  static let sampleCount = 500
  static let sampleLimit = 5 * 1024
  static let trainingTexts = 10_000
  /// Fewer samples than this teach a dictionary too little.
  static let leastSampleBytes = 256 * 1024
  /// zstd's level: as fast as deflate's 6, and smaller.
  static let level: Int32 = 9

  private struct State {
    /// The index's dictionary, and what packs with it, made at the first
    /// text packed (a query that only reads never needs it).
    var dictionary: [UInt8]?
    var packer: Packer?
    /// A uniform sample of the texts packed so far (reservoir sampling).
    var samples: [[UInt8]] = []
    var seen = 0
    var random = SystemRandomNumberGenerator()
    var trained = false
  }

  private let state = Mutex(State())

  public init() {}

  /// The stored form of a text (its beginning perhaps kept as a training
  /// sample while the index has no dictionary).
  public func pack(_ text: String) -> Data {
    let bytes = Array(text.utf8)
    let packer = state.withLock { state -> Packer? in
      if let dictionary = state.dictionary {
        if state.packer == nil { state.packer = Packer(dictionary: dictionary, level: Self.level) }
      } else if !state.trained {
        state.seen += 1
        // Reservoir sampling: the text replaces a kept sample, if any, at
        // random; its beginning is copied only when kept.
        let slot =
          state.samples.count < Self.sampleCount
          ? state.samples.count : Int.random(in: 0..<state.seen, using: &state.random)
        if slot < Self.sampleCount {
          let sample = Array(bytes.prefix(Self.sampleLimit))
          if slot == state.samples.count {
            state.samples.append(sample)
          } else {
            state.samples[slot] = sample
          }
        }
      }
      return state.packer
    }
    return packer?.pack(bytes) ?? StoredText.deflate(bytes)
  }

  /// Lets go of the contexts kept for packing (a pass is over: the next
  /// text may be days away).
  public func releaseMemory() {
    state.withLock { $0.packer }?.releaseContexts()
  }

  /// Trains the index's dictionary from the samples gathered, stores it and
  /// packs with it from now on, when the index has none yet and
  /// `trainingTexts` texts have been packed (or, `early`, when samples
  /// enough to learn from wait). Called by the one connection that writes.
  func trainIfReady(_ db: Database, early: Bool = false) throws {
    let samples = state.withLock { state -> [[UInt8]]? in
      guard state.dictionary == nil, !state.trained else { return nil }
      let enough =
        state.seen >= Self.trainingTexts
        || early && state.samples.reduce(0) { $0 + $1.count } >= Self.leastSampleBytes
      guard enough else { return nil }
      state.trained = true
      defer { state.samples = [] }
      return state.samples
    }
    guard let samples else { return }
    let joined = samples.flatMap { $0 }
    let sizes = samples.map(\.count)
    var dictionary = [UInt8](repeating: 0, count: Self.dictionaryBytes)
    // zstd's own choices but for the table of segment counts: 2^18 entries
    // instead of 2^20 (training's peak 12 → 4 MB; the dictionary packs the
    // same, 0.02 % apart, on the texts of a home).
    var parameters = ZDICT_fastCover_params_t()
    parameters.d = 8
    parameters.f = 18
    parameters.steps = 4
    parameters.accel = 1
    parameters.zParams.compressionLevel = Self.level
    let length = dictionary.withUnsafeMutableBytes { out in
      ZDICT_optimizeTrainFromBuffer_fastCover(
        out.baseAddress, out.count, joined, sizes, UInt32(sizes.count), &parameters)
    }
    // Texts too alike or too few to learn from: deflate goes on.
    guard ZDICT_isError(length) == 0 else { return }
    let trained = Array(dictionary.prefix(length))
    try db.execute(
      sql: "INSERT OR IGNORE INTO text_dictionary (id, dictionary) VALUES (?, ?)",
      arguments: [Int64(ZDICT_getDictID(trained, trained.count)), Data(trained)])
    use(trained)
  }

  /// Packs with `dictionary` from now on, and reads what it packed.
  private func use(_ dictionary: [UInt8]) {
    Self.register(dictionary)
    state.withLock { state in
      state.dictionary = dictionary
      state.packer = nil
      state.trained = true
      state.samples = []
    }
  }

  /// Makes the dictionaries of an index known to this process, so that the
  /// texts they packed can be read, and packs with the index's own.
  /// Cheap when nothing is new: every read of the index calls it, since
  /// another process may have trained the dictionary meanwhile.
  func refresh(_ db: Database) throws {
    let ids = try Int64.fetchAll(db.cachedStatement(sql: "SELECT id FROM text_dictionary"))
    if ids.isEmpty { return }
    let known = Self.unpackers.withLock { Set($0.keys) }
    for id in ids where !known.contains(UInt32(truncatingIfNeeded: id)) || !hasDictionary {
      guard
        let data = try Data.fetchOne(
          db, sql: "SELECT dictionary FROM text_dictionary WHERE id = ?", arguments: [id])
      else { continue }
      use(Array(data))
    }
  }

  /// Whether texts are packed with a dictionary.
  var hasDictionary: Bool { state.withLock { $0.dictionary != nil } }

  /// The dictionaries this process has met, by zstd's id (which their
  /// content decides: one id, one dictionary, whichever index it is from).
  private static let unpackers = Mutex<[UInt32: Unpacker]>([:])

  /// Forgets the dictionaries of an index, as a process that has not met
  /// them (tests: only that index's, since tests running beside it read
  /// their own).
  static func forgetDictionaries(of db: Database) throws {
    let ids = try Int64.fetchAll(db.cachedStatement(sql: "SELECT id FROM text_dictionary"))
    unpackers.withLock { known in
      for id in ids { known[UInt32(truncatingIfNeeded: id)] = nil }
    }
  }

  private static func register(_ dictionary: [UInt8]) {
    let id = ZDICT_getDictID(dictionary, dictionary.count)
    unpackers.withLock { known in
      if known[id] == nil { known[id] = Unpacker(dictionary: dictionary) }
    }
  }

  /// The text of a stored form; nil when it is neither zstd nor zlib data,
  /// or names a dictionary this process has not met.
  public static func unpack(_ data: Data) -> String? {
    // Deflated (before the dictionary): a string already.
    guard data.starts(with: zstdMagic) else { return StoredText.inflate([UInt8](data)) }
    return unpackUTF8(data).map { String(decoding: $0, as: UTF8.self) }
  }

  /// The first bytes of a zstd frame.
  static let zstdMagic: [UInt8] = [0x28, 0xB5, 0x2F, 0xFD]

  /// The text of a stored form as UTF-8, not made a string (checking a
  /// large text's every character took a fifth of a phrase search).
  public static func unpackUTF8(_ data: Data) -> [UInt8]? {
    var text: [UInt8] = []
    return unpackUTF8(data, into: &text) ? text : nil
  }

  /// The same, into `text`, whose memory is used again when it is large
  /// enough: a phrase search unpacks hundreds of texts, megabytes each at
  /// times, and memory fresh from the system for each (its pages faulted
  /// in, then given back) was a fifth of its time. False when the bytes
  /// are no stored form (``unpack(_:)``).
  public static func unpackUTF8(_ data: Data, into text: inout [UInt8]) -> Bool {
    guard data.starts(with: zstdMagic) else {
      guard let inflated = StoredText.inflate([UInt8](data)) else { return false }
      text.removeAll(keepingCapacity: true)
      text.append(contentsOf: inflated.utf8)
      return true
    }
    return data.withUnsafeBytes { frame in
      let id = ZSTD_getDictID_fromFrame(frame.baseAddress, frame.count)
      let unpacker = unpackers.withLock { $0[id] }
      if id != 0 && unpacker == nil { return false }
      return (unpacker ?? Unpacker.plain).unpack(frame, into: &text)
    }
  }
}

/// A zstd dictionary ready to pack with (zstd's compression dictionaries
/// may be shared by threads).
private final class Packer: @unchecked Sendable {
  private let dictionary: OpaquePointer
  /// One large text packed at a time: a context's tables grow with its
  /// text, and the second pass's workers packing large texts together
  /// raised its peak by tens of megabytes.
  private let turn = Mutex(())
  /// Contexts kept for the next small text, with the dictionary and the
  /// settings in place: a context made for each text (its tables
  /// allocated, mapped and faulted in) and the one text at a time both
  /// workers waited for were most of what packing cost.
  private let kept = Mutex<[UnsafeContext]>([])
  /// A context is used by one thread at a time: `kept` hands it out.
  private struct UnsafeContext: @unchecked Sendable { let pointer: OpaquePointer }
  /// Contexts kept at most (one for each worker reading).
  static let mostKept = 4
  /// Texts up to this many bytes are small: packed at once, on a kept
  /// context, whose tables zstd sizes to the text (about a megabyte).
  static let smallText = 128 * 1024

  init?(dictionary: [UInt8], level: Int32) {
    guard let made = ZSTD_createCDict(dictionary, dictionary.count, level) else { return nil }
    self.dictionary = made
  }

  deinit {
    releaseContexts()
    ZSTD_freeCDict(dictionary)
  }

  /// Frees the contexts kept (the next text makes one again).
  func releaseContexts() {
    let contexts = kept.withLock { kept in
      defer { kept = [] }
      return kept
    }
    for context in contexts { ZSTD_freeCCtx(context.pointer) }
  }

  func pack(_ bytes: [UInt8]) -> Data? {
    guard bytes.count <= Self.smallText else {
      // A context for each large text, let go after: contexts kept for
      // later held the largest text each worker had met.
      return turn.withLock { _ in
        guard let context = makeContext() else { return nil }
        defer { ZSTD_freeCCtx(context) }
        return pack(bytes, with: context)
      }
    }
    guard let context = kept.withLock({ $0.popLast()?.pointer }) ?? makeContext() else {
      return nil
    }
    let packed = pack(bytes, with: context)
    let keep = kept.withLock { kept -> Bool in
      guard kept.count < Self.mostKept else { return false }
      kept.append(UnsafeContext(pointer: context))
      return true
    }
    if !keep { ZSTD_freeCCtx(context) }
    return packed
  }

  /// The window and the match tables' sizes (powers of two) for texts
  /// longer than the ones the dictionary's own settings serve: zstd's
  /// level 9 sizes them for a text of unknown length (a 4 MB window, 12
  /// MB of tables for a text of a megabyte). A 1 MB window with half-size
  /// tables packs the texts of a home as small (0.01 % larger on 69 MB of
  /// them) in 3.5 MB.
  static let windowLog: Int32 = 20
  static let tableLog: Int32 = 19

  /// A context that packs with the dictionary and these settings.
  private func makeContext() -> OpaquePointer? {
    guard let context = ZSTD_createCCtx() else { return nil }
    guard ZSTD_isError(ZSTD_CCtx_refCDict(context, dictionary)) == 0,
      ZSTD_isError(ZSTD_CCtx_setParameter(context, ZSTD_c_windowLog, Self.windowLog)) == 0,
      ZSTD_isError(ZSTD_CCtx_setParameter(context, ZSTD_c_hashLog, Self.tableLog)) == 0,
      ZSTD_isError(ZSTD_CCtx_setParameter(context, ZSTD_c_chainLog, Self.tableLog)) == 0
    else {
      ZSTD_freeCCtx(context)
      return nil
    }
    return context
  }

  /// Packs one text; the context keeps its dictionary and settings for the
  /// next (a session's end resets only the text's own state).
  private func pack(_ bytes: [UInt8], with context: OpaquePointer) -> Data? {
    var out = [UInt8](repeating: 0, count: ZSTD_compressBound(bytes.count))
    let length = out.withUnsafeMutableBytes { out in
      ZSTD_compress2(context, out.baseAddress, out.count, bytes, bytes.count)
    }
    guard ZSTD_isError(length) == 0 else {
      ZSTD_CCtx_reset(context, ZSTD_reset_session_only)
      return nil
    }
    return Data(out.prefix(length))
  }
}

/// A zstd dictionary to unpack with, made ready at its first use.
private final class Unpacker: Sendable {
  private let bytes: [UInt8]
  private let ready = Mutex<Dictionary?>(nil)

  /// A zstd decompression dictionary (which threads may share).
  private final class Dictionary: @unchecked Sendable {
    let pointer: OpaquePointer
    init?(_ bytes: [UInt8]) {
      guard let made = ZSTD_createDDict(bytes, bytes.count) else { return nil }
      pointer = made
    }
    deinit { ZSTD_freeDDict(pointer) }
  }

  /// Frames packed without a dictionary.
  static let plain = Unpacker(dictionary: [])

  init(dictionary bytes: [UInt8]) { self.bytes = bytes }

  func unpack(_ bytes: UnsafeRawBufferPointer, into text: inout [UInt8]) -> Bool {
    var dictionary: Dictionary?
    if !self.bytes.isEmpty {
      dictionary = ready.withLock { made in
        if made == nil { made = Dictionary(self.bytes) }
        return made
      }
      if dictionary == nil { return false }
    }
    let size = ZSTD_getFrameContentSize(bytes.baseAddress, bytes.count)
    // The size is always written (one-shot packing); a frame claiming more
    // than a text may hold is damaged.
    guard size <= UInt64(64 * 1024 * 1024), let context = Self.contexts.take() else { return false }
    defer { Self.contexts.give(context) }
    // As many bytes as the text's, in the memory `text` has (only what it
    // grows by is zeroed).
    let count = Int(size)
    if text.count > count {
      text.removeLast(text.count - count)
    } else {
      text.append(contentsOf: repeatElement(0, count: count - text.count))
    }
    let length = text.withUnsafeMutableBufferPointer { out in
      if let dictionary {
        return ZSTD_decompress_usingDDict(
          context, out.baseAddress, out.count, bytes.baseAddress, bytes.count, dictionary.pointer)
      }
      return ZSTD_decompressDCtx(
        context, out.baseAddress, out.count, bytes.baseAddress, bytes.count)
    }
    if ZSTD_isError(length) != 0 {
      text.removeAll(keepingCapacity: true)
      return false
    }
    if length < count { text.removeLast(count - length) }
    return true
  }

  /// Decompression contexts kept for the next text: a phrase checks
  /// hundreds of texts a query, and making a context for each (and the
  /// pages it touches) was a tenth of its time.
  private static let contexts = Contexts()

  /// A few contexts, one for each thread unpacking at once.
  private final class Contexts: Sendable {
    private let kept = Mutex<[UnsafeContext]>([])
    /// A context is used by one thread at a time: the pool hands it out.
    private struct UnsafeContext: @unchecked Sendable { let pointer: OpaquePointer }
    /// More are let go when given back.
    static let most = 4

    func take() -> OpaquePointer? {
      kept.withLock { $0.popLast()?.pointer } ?? ZSTD_createDCtx()
    }

    func give(_ context: OpaquePointer) {
      let kept = kept.withLock { kept -> Bool in
        guard kept.count < Self.most else { return false }
        kept.append(UnsafeContext(pointer: context))
        return true
      }
      if !kept { ZSTD_freeDCtx(context) }
    }
  }
}
