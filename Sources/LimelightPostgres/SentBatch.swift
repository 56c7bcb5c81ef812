import Foundation
import LimelightModel
import LimelightQuery

/// A host's entries made ready to send
/// (``PostgresIndex/write(_:removing:sweep:following:)``): everything the
/// host computes of them (texts' words and pairs, name vectors, the words
/// for typos), made before the store's write lock is taken, and by a
/// sender while the store writes the entries before them.
///
/// Hosts take turns under that lock (``PostgresIndex/lockWrites()``), so
/// what one computed while holding it, every other waited for: with three
/// hosts sending at once, the server was idle for about two fifths of the
/// time.
public struct EntriesReady: Sendable {
  let batches: [SentBatch]

  public init(_ items: [SharedItem]) { batches = SentBatch.batches(of: items) }

  /// How many entries.
  public var count: Int { batches.reduce(0) { $0 + $1.items.count } }
}

/// A batch of entries made ready to send, written in one statement.
struct SentBatch: Sendable {
  /// The entries, for their meaning vectors.
  let items: ArraySlice<SharedItem>
  /// Each entry's text, as the words the host folded (nil without one).
  let texts: [String?]
  /// The pairs of common words of each text.
  let pairs: [String?]
  /// The description kept with each text (nil for an entry without a text,
  /// which keeps its own in its row).
  let descriptions: [String?]
  /// The columns of the rows, a list of values for each, in the order
  /// ``PostgresIndex/send(_:sweep:)`` reads them; the texts'
  /// hashes, which the store computes, are not among them.
  let columns: [[String?]]
  /// The words of the names and keywords, for typos in them.
  let nameWords: Set<String>
  /// The words of the texts for typos in them (those sent before are
  /// left out when the batch is written).
  let textWords: Set<String>

  /// The batches of at most 500 entries or 4 MB of text that `items` make,
  /// each made ready.
  static func batches(of items: [SharedItem]) -> [SentBatch] {
    var batches: [SentBatch] = []
    var start = items.startIndex
    while start < items.endIndex {
      var end = start
      var bytes = 0
      while end < items.endIndex && end - start < 500 && (bytes < 4 << 20 || end == start) {
        bytes += items[end].text?.utf8.count ?? 0
        end += 1
      }
      batches.append(SentBatch(items[start..<end]))
      start = end
    }
    return batches
  }

  /// `items` made ready.
  init(_ items: ArraySlice<SharedItem>) {
    self.items = items
    let list = { (values: [String]) in
      values.isEmpty ? nil : values.joined(separator: PostgresIndex.listSeparator)
    }
    let seconds = { (date: Date?) in date.map { String($0.timeIntervalSince1970) } }
    texts = items.map { $0.text.map { PostgresWords.textWords($0) } }
    pairs = texts.map { $0.map(PostgresWords.pairWords) }
    descriptions = items.map { $0.text == nil ? nil : $0.details.contentDescription }
    var columns: [[String?]] = []
    var nameWords: Set<String> = []
    var textWords: Set<String> = []
    for (item, text) in zip(items, texts) {
      let kinds = KindClass.classes(for: item.contentTypeTree).map(\.rawValue).sorted()
      let ownWords =
        item.nameWords.map { PostgresWords.words($0, folded: true) }
        ?? PostgresWords.words(NameWords.searchableName(item.name))
      let keywordWords =
        item.keywordWords.map { PostgresWords.words($0, folded: true) }
        ?? PostgresWords.words(item.keywords.joined(separator: " "))
      let words = ownWords + keywordWords
      nameWords.formUnion(words)
      if let text { Self.typoWords(of: text, into: &textWords) }
      let pathWords = PostgresWords.words(item.path.string)
      // As the local index counts a row's words for its BM25: its name's,
      // keywords', path's and text's.
      let wordCount =
        words.count + pathWords.count
        + (text.map { $0.utf8.reduce(1) { $0 + ($1 == 0x20 ? 1 : 0) } } ?? 0)
      let row: [String?] = [
        PostgresQuery.hex(item.path.bytes), item.path.string, item.name,
        item.isFolder ? "t" : "f",
        item.contentTypeTree.joined(separator: " "), kinds.joined(separator: " "),
        item.size.map(String.init), item.modifiedNs.map { String(Double($0) / 1_000_000_000) },
        PostgresWords.positionedVector(words, nameCount: ownWords.count),
        item.reach.map { reach in
          "{" + reach.map { "\($0.owner),\($0.group),\($0.mode)" }.joined(separator: ",") + "}"
        },
        item.domain, item.details.title, item.details.kind, list(item.details.authors),
        list(item.keywords), text == nil ? item.details.contentDescription : nil,
        seconds(item.details.created), seconds(item.details.lastUsed),
        pathWords.joined(separator: " "), String(wordCount),
      ]
      if columns.isEmpty { columns = Array(repeating: [], count: row.count) }
      for (column, value) in row.enumerated() { columns[column].append(value) }
    }
    self.columns = columns
    self.nameWords = nameWords
    self.textWords = textWords
  }

  /// The words of a text's words (folded, a space between) that typos are
  /// read in: of letters, of ``NearWords/termLengths``. Read in bytes: most
  /// are ASCII, and a text has thousands.
  static func typoWords(of words: String, into found: inout Set<String>) {
    for slice in words.utf8.split(separator: UInt8(ascii: " ")) {
      let ascii = slice.allSatisfy { $0 >= UInt8(ascii: "a") && $0 <= UInt8(ascii: "z") }
      if ascii && !NearWords.termLengths.contains(slice.count) { continue }
      let word = String(decoding: slice, as: UTF8.self)
      if !ascii && !(NearWords.termLengths.contains(word.count) && word.allSatisfy(\.isLetter)) {
        continue
      }
      found.insert(word)
    }
  }
}
