import Foundation
import LimelightModel
import LimelightQuery

/// What one search learned of the texts it read: which of its phrases each
/// stored text holds (``PhraseCheck/PhrasesFound``), by the body its items
/// share (``TextBodies``), so that a text and its copies are read once a
/// search (ten copies of each text at a million entries of the growth tree
/// read `"the quick"` ten times over: 250 ms). Kept for the thread that
/// runs the search, while its read transaction lasts: no body changes
/// meanwhile, and none is remembered past it.
final class TextsRead {
  private var found: [Int64: PhraseCheck.PhrasesFound] = [:]
  private static let key = "limelight.texts-read"

  /// Runs `body`, a search's statements, with what they read remembered,
  /// and the words beyond ASCII its phrase checks fold
  /// (``PhraseCheck/FoldedWords``).
  static func during<T>(_ body: () throws -> T) rethrows -> T {
    let dictionary = Thread.current.threadDictionary
    let outer = dictionary[key]
    dictionary[key] = TextsRead()
    defer { dictionary[key] = outer }
    return try PhraseCheck.FoldedWords.during(body)
  }

  /// What the search running on this thread has read, if one is.
  static var current: TextsRead? { Thread.current.threadDictionary[key] as? TextsRead }

  /// The memory the texts of this search are unpacked into, one after the
  /// other (``TextPacker/unpackUTF8(_:into:)``).
  private var unpacked: [UInt8] = []

  /// A stored text's bytes, unpacked into the memory of the text before.
  /// Let the array go before asking for the next: while it is held, the
  /// next is unpacked into memory of its own (a copy, not a wrong text).
  func unpackUTF8(_ data: Data) -> [UInt8]? {
    TextPacker.unpackUTF8(data, into: &unpacked) ? unpacked : nil
  }

  /// What is known of the text of a body (the content column).
  func found(inBody id: Int64) -> PhraseCheck.PhrasesFound {
    if let known = found[id] { return known }
    // Bounded: a phrase of common words over a million texts.
    if found.count >= 200_000 { found.removeAll() }
    let made = PhraseCheck.PhrasesFound(column: TextColumn.content.position)
    found[id] = made
    return made
  }
}
