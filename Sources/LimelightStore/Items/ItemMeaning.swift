import CTextRank
import Foundation
import GRDB
import LimelightModel
import LimelightQuery
import Synchronization

/// Meaning search's side of the index: which items are worth a meaning
/// vector, the text each is embedded from, the vectors (`item_meaning`), and
/// the items nearest a query's vector.
extension IndexStore {
  /// An item waiting for its meaning: its row, the generation its text was
  /// read at (a vector is kept only if the item did not change meanwhile),
  /// and what it is embedded from: its heading (title, or name), its
  /// description, and the opening of its text.
  public struct MeaningWork: Sendable {
    public var rowID: Int64
    public var generation: Int64
    public var heading: String
    public var description: String?
    public var opening: String
    /// The vector of another item embedded from the same heading,
    /// description and text (a copy of the document, or the same file
    /// under another root): what the model would make of it again. Nil
    /// when no such item has one.
    public var copied: [UInt8]?
  }

  /// Items worth a meaning: text people write or read (documents, PDFs,
  /// office files, e-books, notes, e-mails, web pages, manual pages), read
  /// by the second pass (manual pages and documentation compressed with
  /// gzip too), and application items with a description; not code, not
  /// hidden, not the plain text programs write (``plainTextToRead``) nor
  /// translation catalogs. As SQL on `item`, with `w` its
  /// `item_words_stored`.
  static let meaningWorth = "item.contentPending = 0 AND \(worthOnceRead)"

  /// ``meaningWorth`` but for the text being read: whether an item's
  /// vector, if it has one, is still of use.
  static let worthOnceRead = """
    item.hidden = 0 AND item.isFolder = 0
      AND instr(' ' || item.kindClasses || ' ', ' code ') = 0
      AND (item.contentType IS NOT 'text/plain' OR \(plainTextToRead))
      AND item.contentType IS NOT 'text/x-gettext-translation'
      AND (
        (w.textID IS NOT NULL AND (
          instr(' ' || item.kindClasses || ' ', ' text ') OR instr(' ' || item.kindClasses || ' ', ' pdf ')
          OR instr(' ' || item.kindClasses || ' ', ' document ')
          OR instr(' ' || item.kindClasses || ' ', ' spreadsheet ')
          OR instr(' ' || item.kindClasses || ' ', ' presentation ')
          OR instr(' ' || item.kindClasses || ' ', ' email ')))
        OR (w.textID IS NOT NULL AND item.contentType = 'application/gzip'
          AND (\(compressedTexts)))
        OR (item.domain != '\(fileDomain)' AND item.contentDescription IS NOT NULL))
    """

  /// Plain text files that people read: named without an extension
  /// (`README`, `notes`), `.txt` or `.text`, or in capital letters alone
  /// before their last dot (`NEWS.Debian`, `LICENSE.python`). A plain
  /// text file with another extension is what a program wrote or reads:
  /// test output (`.stderr`, `.golden`), lock files, certificates, data.
  /// On the benchmark corpus these were a fifth of the documents the third
  /// pass embedded (10,600 of 62,300: 8,400 compiler test outputs alone),
  /// at a third of a second each. A name that only began with two capitals
  /// let in 35 certificates there (`GLOBALTRUST_2020.crt`, base64 the
  /// model finds near any query), 18 graphs (`DOT-fe8cb898….dot`) and 13
  /// other files of data or code (`AMD64splitload.rules`, `GM1_bonds.r3d`).
  static let plainTextToRead = """
    (instr(item.displayName, '.') = 0 OR item.displayName GLOB '*.[tT][xX][tT]'
      OR item.displayName GLOB '*.text'
      OR (\(nameBeforeExtension) GLOB '[A-Z][A-Z]*'
        AND \(nameBeforeExtension) NOT GLOB '*[^A-Z]*'))
    """

  /// An item's name before its last dot, as SQL: trimmed from the right
  /// of every character but the dot, then of the dot.
  static let nameBeforeExtension =
    "rtrim(rtrim(item.displayName, replace(item.displayName, '.', '')), '.')"

  /// Files compressed with gzip that are texts to read: manual pages
  /// (`crontab.5.gz`) and documentation (`howto.rst.gz`), whose kind is
  /// the compression's, as SQL on `item`.
  static let compressedTexts = [
    "*.[1-9].gz", "*.[1-9][a-z]*.gz", "*.rst.gz", "*.txt.gz", "*.md.gz",
  ]
  .map { "item.displayName GLOB '\($0)'" }.joined(separator: " OR ")

  /// Up to `limit` items waiting for their meaning, newest first, each with
  /// its title (or name), description and the first `opening` characters
  /// of its text, and the vector of a copy of it that has one.
  public func meaningWork(limit: Int, opening: Int) throws -> [MeaningWork] {
    try read { db in
      try Row.fetchAll(
        db,
        sql: """
          SELECT item.rowid, item.generation, \(Self.heading) AS heading,
            item.contentDescription, substr(limelight_inflate(b.text), 1, ?) AS opening,
            w.textID
          FROM item
            LEFT JOIN item_words_stored AS w ON w.rowid = item.rowid
            LEFT JOIN text_body AS b ON b.id = w.textID
          WHERE \(Self.meaningWorth)
            AND NOT EXISTS (SELECT 1 FROM item_meaning AS m WHERE m.rowid = item.rowid)
          ORDER BY item.modified DESC LIMIT ?
          """, arguments: [opening, limit]
      ).map { row in
        var work = MeaningWork(
          rowID: row[ItemTable.rowID], generation: row[ItemTable.generation],
          heading: row["heading"], description: row[ItemTable.contentDescription],
          opening: row["opening"] ?? "")
        if let text: Int64 = row["textID"] {
          work.copied = try Self.copiedVector(of: work, text: text, in: db)
        }
        return work
      }
    }
  }

  /// An item's heading, which it is embedded under, as SQL on `item`: its
  /// title, or its name when it has none.
  static let heading = "coalesce(nullif(item.title, ''), item.displayName)"

  /// The vector of an item other than `work`'s that holds the same text
  /// (`text`, its body's id) under the same heading and description: the
  /// same passage, which the model makes the same vector of. Copies of a
  /// document are embedded once: the benchmark corpus holds 49,853
  /// documents worth a vector, 48,979 of them distinct; with a copy of it
  /// hard-linked under a second root, 99,706, which the pass embedded one
  /// by one.
  static func copiedVector(of work: MeaningWork, text: Int64, in db: Database) throws -> [UInt8]? {
    let vector = try Data.fetchOne(
      db.cachedStatement(
        sql: """
          SELECT m.vector FROM item_words_stored AS w
            JOIN item_meaning AS m ON m.rowid = w.rowid
            JOIN item ON item.rowid = w.rowid
          WHERE w.textID = ? AND w.rowid != ?
            AND \(Self.heading) = ?
            AND item.contentDescription IS ?
          LIMIT 1
          """), arguments: [text, work.rowID, work.heading, work.description])
    return vector.map { [UInt8]($0) }
  }

  /// Keeps the vectors of items that did not change since their text was
  /// read (an empty vector: the model failed on the text, not to be tried
  /// again until it changes). Returns how many it kept.
  @discardableResult
  public func keepMeaning(_ vectors: [(work: MeaningWork, vector: [UInt8])]) throws -> Int {
    try write { writer in
      var kept = 0
      for (work, vector) in vectors {
        try writer.db.cachedStatement(
          sql: """
            INSERT OR REPLACE INTO item_meaning (rowid, vector, change)
              SELECT rowid, ?, (SELECT value + 1 FROM meta WHERE key = 'meaningChanges')
              FROM item WHERE rowid = ? AND generation = ?
            """
        ).execute(arguments: [Data(vector), work.rowID, work.generation])
        kept += writer.db.changesCount
      }
      return kept
    }
  }

  /// Drops the vectors of items no longer worth one (hidden since, or
  /// of a kind the pass no longer embeds); returns how many.
  @discardableResult
  public func pruneMeaning() throws -> Int {
    try write { writer in
      try writer.db.execute(
        sql: """
          DELETE FROM item_meaning WHERE rowid IN (
            SELECT item.rowid FROM item_meaning AS m
              JOIN item ON item.rowid = m.rowid
              LEFT JOIN item_words_stored AS w ON w.rowid = item.rowid
            WHERE NOT coalesce((\(Self.worthOnceRead)), 0))
          """)
      return writer.db.changesCount
    }
  }

  /// How many items the third pass read, and how many are worth it.
  static func meaningCounts(_ db: Database) throws -> (embedded: Int, worth: Int) {
    let worth =
      try Int.fetchOne(
        db,
        sql: """
          SELECT count(*) FROM item LEFT JOIN item_words_stored AS w ON w.rowid = item.rowid
            WHERE \(Self.meaningWorth)
          """) ?? 0
    let embedded = try Int.fetchOne(db, sql: "SELECT count(*) FROM item_meaning") ?? 0
    return (min(embedded, worth), worth)
  }

  /// How many items have a vector (not those too short to be about anything).
  static func meaningVectors(_ db: Database) throws -> Int {
    try Int.fetchOne(db, sql: "SELECT count(*) FROM item_meaning WHERE length(vector) > 0") ?? 0
  }

  /// Drops every vector (`meaning = no`); returns whether there were any.
  @discardableResult
  public func dropMeaning() throws -> Bool {
    let any = try read { db in
      try Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM item_meaning)") ?? false
    }
    guard any else { return false }
    try write { writer in try writer.db.execute(sql: "DELETE FROM item_meaning") }
    return true
  }
}

/// The meaning vectors of an index held in memory, one copy a process for
/// each index file: a meaning search reads them from the index only when
/// they changed (``Schema``'s `meaningChanges` count), and scans them in
/// memory (a few milliseconds for 50,000 documents, where reading them
/// through SQL took 200). While the third pass writes, only the vectors
/// written since are read (by their `change` numbers): reading every one
/// again for each query made a served description 10 ms slower at 27,000.
final class MeaningVectors: Sendable {
  private struct Held {
    var changes: Int64 = -1
    /// The highest `change` number read.
    var lastChange: Int64 = 0
    var rowIDs: [Int64] = []
    var positions: [Int64: Int] = [:]
    var bytes: [Int8] = []
    /// Each vector's length.
    var lengths: [Float] = []
    /// Each vector's place for a centred comparison (``MeaningCentring``),
    /// made at the first search that asks for one (those beyond its end
    /// are not placed yet); and the positions written again since, placed
    /// again at the next.
    var placed: [MeaningCentring.Placed] = []
    var placedAgain: [Int] = []

    /// Keeps `vector` (of `dimensions` bytes) as the one of `rowID`.
    mutating func keep(_ rowID: Int64, _ vector: UnsafeRawBufferPointer, dimensions: Int) {
      let values = vector.bindMemory(to: Int8.self)
      let length = Float(values.reduce(Int32(0)) { $0 + Int32($1) * Int32($1) }).squareRoot()
      if let position = positions[rowID] {
        bytes.replaceSubrange(
          (position * dimensions)..<((position + 1) * dimensions), with: values)
        lengths[position] = length
        if position < placed.count { placedAgain.append(position) }
      } else {
        positions[rowID] = rowIDs.count
        rowIDs.append(rowID)
        bytes.append(contentsOf: values)
        lengths.append(length)
      }
    }
  }
  private let held = Mutex(Held())
  private static let byIndex = Mutex<[String: MeaningVectors]>([:])

  /// How many times a vector was written or removed (`meaningChanges`).
  static func changes(_ db: Database) throws -> Int64 {
    try Int64.fetchOne(db, sql: "SELECT value FROM meta WHERE key = 'meaningChanges'") ?? 0
  }

  /// The vectors of the index at `path`.
  static func of(_ path: String) -> MeaningVectors {
    byIndex.withLock { known in
      if let vectors = known[path] { return vectors }
      let made = MeaningVectors()
      known[path] = made
      return made
    }
  }

  /// Reads the vectors written after `held`'s last change number into it,
  /// with the vectors it holds when `held` is empty; false when some were
  /// removed or written again meanwhile (`changes`, counting every
  /// insertion and removal, moved by more than the vectors read), which
  /// only reading them all tells apart.
  private static func read(
    into held: inout Held, changes: Int64, dimensions: Int, in db: Database
  ) throws -> Bool {
    let rows = try Row.fetchCursor(
      db, sql: "SELECT rowid, vector, change FROM item_meaning WHERE change > ?",
      arguments: [held.lastChange])
    var read: Int64 = 0
    while let row = try rows.next() {
      read += 1
      let (rowID, change): (Int64, Int64) = (row[0], row[2])
      held.lastChange = max(held.lastChange, change)
      try row.withUnsafeData(atIndex: 1) { data in
        guard let data, data.count == dimensions else { return }
        data.withUnsafeBytes { held.keep(rowID, $0, dimensions: dimensions) }
      }
    }
    return held.changes < 0 || changes - held.changes == read
  }

  /// How ordinary the vectors of `rowIDs` are
  /// (``MeaningSelection/ordinariness(of:means:)``), by row. Read as held:
  /// a search reads them after ``scan(_:floor:centring:in:)``.
  func ordinariness(of rowIDs: [Int64], means: [[Float]]) -> [Int64: Double] {
    guard let dimensions = means.first?.count else { return [:] }
    return held.withLock { held in
      var found: [Int64: Double] = [:]
      for rowID in rowIDs {
        guard let position = held.positions[rowID],
          held.bytes.count >= (position + 1) * dimensions
        else { continue }
        found[rowID] = held.bytes.withUnsafeBufferPointer { bytes in
          MeaningSelection.ordinariness(
            of: UnsafeBufferPointer(
              rebasing: bytes[(position * dimensions)..<((position + 1) * dimensions)]),
            means: means)
        }
      }
      return found
    }
  }

  /// What a scan of every vector tells of a query: how many were
  /// compared, the highest similarity and their sum, and those at or above
  /// a floor, with their rows (and with a ``MeaningCentring``, their
  /// centred similarity).
  struct Scan {
    var count = 0
    var top: Float?
    var sum = 0.0
    var near: [(key: Int64, raw: Float, similarity: Float)] = []
    /// The language each of those was placed in, and the query's, with a
    /// ``MeaningCentring``.
    var languages: [Int64: Int32] = [:]
    var queryLanguage: Int32?
  }

  /// Each vector's similarity to `query`, read from `db` again if it
  /// changed: those at least `floor`, with their rows, and what all of
  /// them add up to. One pass over the products: a list of every vector's
  /// similarity, then its maximum, sum and filter, each a pass of its own,
  /// took a millisecond more at 100,000.
  func scan(
    _ query: [UInt8], floor: Double, centring: MeaningCentring? = nil, in db: Database
  ) throws -> Scan {
    let changes = try Self.changes(db)
    return try held.withLock { held in
      if held.changes != changes {
        if try !Self.read(into: &held, changes: changes, dimensions: query.count, in: db) {
          held = Held()
          _ = try Self.read(into: &held, changes: changes, dimensions: query.count, in: db)
        }
        held.changes = changes
      }
      var dots = [Int32](repeating: 0, count: held.rowIDs.count)
      let queryLength = Float(
        query.reduce(Int32(0)) { $0 + Int32(Int8(bitPattern: $1)) * Int32(Int8(bitPattern: $1)) }
      ).squareRoot()
      // One thread: the scan reads every vector (38 MB at 100,000, 3 ms),
      // as fast as memory gives them; split over two it took as long.
      held.bytes.withUnsafeBufferPointer { vectors in
        query.withUnsafeBytes { q in
          dots.withUnsafeMutableBufferPointer { out in
            limelight_dot_products(
              vectors.baseAddress, held.rowIDs.count, Int32(query.count),
              q.bindMemory(to: Int8.self).baseAddress, out.baseAddress)
          }
        }
      }
      let least = Float(floor)
      var (top, sum) = (-Float.infinity, 0.0)
      var near: [(key: Int64, raw: Float, similarity: Float)] = []
      var languages: [Int64: Int32] = [:]
      let asked = centring.map { $0.asked(query) }
      if let centring { Self.place(&held, centring, dimensions: query.count) }
      held.lengths.withUnsafeBufferPointer { lengths in
        dots.withUnsafeBufferPointer { dots in
          for row in 0..<dots.count {
            let product = lengths[row] * queryLength
            let similarity = product > 0 ? Float(dots[row]) / product : 0
            sum += Double(similarity)
            top = max(top, similarity)
            guard similarity >= least else { continue }
            var centred = similarity
            if let centring, let asked {
              centred = centring.similarity(raw: similarity, held.placed[row], asked)
              languages[held.rowIDs[row]] = held.placed[row].language
            }
            near.append((held.rowIDs[row], similarity, centred))
          }
        }
      }
      return Scan(
        count: dots.count, top: dots.isEmpty ? nil : top, sum: sum, near: near,
        languages: languages,
        queryLanguage: centring.flatMap { centring in asked.flatMap(centring.language(of:)) })
    }
  }

  /// Places the vectors not placed yet, or written again since: many at
  /// once by each mean's products with every vector, by the scan's own
  /// function (the means in signed bytes as the vectors are), a scan a
  /// mean (100,000 vectors placed one by one took 230 ms of a first
  /// search, 7 scans take 20); a few (those the third pass wrote since the
  /// last search) one by one.
  private static func place(_ held: inout Held, _ centring: MeaningCentring, dimensions: Int) {
    let count = held.rowIDs.count
    let waiting = held.placedAgain + Array(held.placed.count..<count)
    guard !waiting.isEmpty else { return }
    held.placedAgain = []
    held.placed.append(
      contentsOf: repeatElement(MeaningCentring.unplaced, count: count - held.placed.count))
    if waiting.count * 8 < count {
      held.bytes.withUnsafeBufferPointer { bytes in
        for position in waiting {
          held.placed[position] = centring.place(
            UnsafeBufferPointer(
              rebasing: bytes[(position * dimensions)..<((position + 1) * dimensions)]))
        }
      }
      return
    }
    let means = centring.languages + [centring.centre]
    var products = [[Int32]](repeating: [], count: means.count)
    var scales = [Float](repeating: 0, count: means.count)
    held.bytes.withUnsafeBufferPointer { vectors in
      for (number, mean) in means.enumerated() {
        let largest = mean.map(abs).max() ?? 0
        scales[number] = largest > 0 ? 127 / largest : 0
        let bytes = mean.map { Int8(($0 * scales[number]).rounded()) }
        var out = [Int32](repeating: 0, count: count)
        bytes.withUnsafeBufferPointer { mean in
          out.withUnsafeMutableBufferPointer { out in
            limelight_dot_products(
              vectors.baseAddress, count, Int32(dimensions), mean.baseAddress, out.baseAddress)
          }
        }
        products[number] = out
      }
    }
    for position in waiting {
      let length = held.lengths[position]
      guard length > 0 else {
        held.placed[position] = MeaningCentring.unplaced
        continue
      }
      let unit = means.indices.map { number in
        scales[number] > 0 ? Float(products[number][position]) / (scales[number] * length) : 0
      }
      held.placed[position] = centring.place(
        languageProducts: Array(unit.dropLast()), centreProduct: unit.last ?? 0)
    }
  }
}

extension SearchEngine {
  /// The nearest items a meaning search reads for their words, and then
  /// before its filters: the rest are read only by their vectors.
  public static let meaningCandidates = 300
  /// How many vectors make an average worth comparing with: fewer are
  /// whatever documents happen to be there.
  public static let meaningAverageOf = 100
  /// The rows of the text index a meaning search reads for its words'
  /// evidence, after which it looks for no further stem: about 200 ns each
  /// (the terms of "writ", 20,705 rows at 177,000 items, in 3.6 to 4.1 ms).
  static let evidenceRows = 60_000

  /// The items whose meaning is nearest `query` (a unit vector, as
  /// ``LimelightMeaning`` makes it) that `selection` shows and that pass
  /// the filters of `filters` (its text is left out: meaning stands for
  /// it), the best first, scored by distance (lower is better, as every
  /// result's score): with the query's `words` as evidence
  /// (``WordEvidence``), and each item's ordinariness (its largest product
  /// with one of `ordinary`, the means of the model's ordinary passages,
  /// one a language) against it. The average `selection` compares with is
  /// of the items but the nearest, when there are enough of them. With
  /// `centring`, and `selection` for it, each is compared with its
  /// language taken out (``MeaningCentring``).
  public func meaningMatches(
    _ query: [UInt8], words: [String], ordinary: [[Float]] = [], selection: MeaningSelection,
    centring: MeaningCentring? = nil, filters: QueryNode, limit: Int, readAhead: StemRows? = nil
  ) throws -> [SearchResult] {
    let (conditions, arguments) = Self.filterConditions(
      filters, now: Date().timeIntervalSince1970)
    let vectors = MeaningVectors.of(store.location.databasePath.string)
    return try store.read { db in
      let compared = Date()
      let (centring, selection) = selection.comparing(by: centring, dimensions: query.count)
      // Those below the lowest floor are never candidates: left out before
      // they are sorted (the nearest is among those kept when any is).
      let scan = try vectors.scan(query, floor: selection.lowestCosine, centring: centring, in: db)
      if Self.trace { Self.traceLine(since: compared, "\(scan.count) vectors", "meaning compared") }
      guard let top = scan.top else { return [] }
      let others =
        scan.count > Self.meaningAverageOf
        ? (scan.sum - Double(top)) / Double(scan.count - 1) : 0
      let candidates = selection.candidates(
        near: scan.near, average: others, most: Self.meaningCandidates)
      guard !candidates.isEmpty else { return [] }
      let stems = WordEvidence.stems(of: words)
      let started = Date()
      let stemRows =
        try readAhead.flatMap { $0.stems == stems ? $0 : nil } ?? Self.stemRows(stems, in: db)
      let keys = candidates.map(\.key)
      let held = stemRows.held(by: keys)
      let looked = stemRows.looked
      if Self.trace {
        Self.traceLine(
          since: started, "\(held.count) of \(candidates.count) hold some",
          "stems \(looked) of \(stems) in the nearest\(readAhead == nil ? "" : ", read ahead")")
      }
      let near = selection.chosen(
        candidates,
        shares: WordEvidence.shares(held: held, stems: looked, documents: candidates.count),
        ordinariness: vectors.ordinariness(of: keys, means: ordinary),
        inQueryLanguage: MeaningSelection.inQueryLanguage(
          keys, languages: scan.languages, query: scan.queryLanguage,
          everyStemLooked: !stems.isEmpty && looked.count == stems.count))
      let score = Dictionary(near.map { ($0.key, $0.score) }, uniquingKeysWith: { a, _ in a })
      // By their rows, never by an index: for `hidden = 0` the planner
      // walked `item_order` over every item of the index (about 10 ms a
      // query at 155,000 items, more at a million).
      let rows = try Row.fetchAll(
        db,
        sql: """
          SELECT \(Self.columns), 0.0 AS score FROM item NOT INDEXED
          WHERE item.rowid IN (\(near.map { String($0.key) }.joined(separator: ",")))
            AND item.hidden = 0\(conditions)
          """,
        arguments: StatementArguments(arguments))
      return rows.map(Self.result).map { result in
        var result = result
        result.score = 1 - (score[result.rowID] ?? 0)
        return result
      }.sorted { ($0.score, $0.rowID) < ($1.score, $1.rowID) }.prefix(limit).map { $0 }
    }
  }

  /// The rows of the text index holding each of `words`' stems
  /// (``WordEvidence/stems(of:)``), read while the query's meaning is made:
  /// ``meaningMatches(_:words:ordinary:selection:centring:filters:limit:readAhead:)``
  /// takes them.
  public func stemRows(of words: [String]) throws -> StemRows {
    try store.read { db in try Self.stemRows(WordEvidence.stems(of: words), in: db) }
  }

  /// Every row of the text index holding a stem's forms
  /// (``WordEvidence/forms(of:)``) in its name, keywords, path or text,
  /// stem after stem, until ``evidenceRows`` are read: the stems looked for
  /// are kept, the others say nothing.
  static func stemRows(_ stems: [String], in db: Database) throws -> StemRows {
    var found = StemRows(stems: stems)
    var read = 0
    for stem in stems where read < Self.evidenceRows {
      // Any column: the text index keeps none apart (detail=none). Each
      // row holding the forms is read: asking for each near row in turn
      // (`rowid IN`) parsed the match again for each, 50 µs a row; the
      // terms a stem begins, from the vocabulary, cost as much again.
      let match = WordEvidence.forms(of: stem).map(SQLCompiler.quoted).joined(separator: " OR ")
      let holding = try Int64.fetchCursor(
        db, sql: "SELECT rowid FROM item_text WHERE item_text MATCH ?", arguments: [match])
      var rows: [Int64] = []
      while let row = try holding.next() { rows.append(row) }
      // FTS5 gives them rising; the look-ups need them so.
      if zip(rows, rows.dropFirst()).contains(where: { $0 > $1 }) { rows.sort() }
      read += rows.count
      found.looked.append(stem)
      found.rows.append(rows)
    }
    return found
  }
}

/// The rows of the text index holding each stem of a query's words, for
/// the words' evidence of a meaning search (``WordEvidence``).
public struct StemRows: Sendable, Equatable {
  /// The stems asked for.
  public var stems: [String]
  /// Those looked for (the first ones, until enough rows were read), each
  /// with its rows, rising.
  var looked: [String] = []
  var rows: [[Int64]] = []

  /// Which of the stems looked for each of `candidates` holds; those
  /// holding none are left out.
  func held(by candidates: [Int64]) -> [Int64: Set<String>] {
    var held: [Int64: Set<String>] = [:]
    for (stem, rows) in zip(looked, rows) {
      for candidate in candidates where Self.contains(rows, candidate) {
        held[candidate, default: []].insert(stem)
      }
    }
    return held
  }

  /// Whether rising `rows` hold `row`.
  static func contains(_ rows: [Int64], _ row: Int64) -> Bool {
    var (low, high) = (0, rows.count)
    while low < high {
      let middle = (low + high) / 2
      if rows[middle] < row { low = middle + 1 } else { high = middle }
    }
    return low < rows.count && rows[low] == row
  }
}
