import Foundation
import GRDB
import LimelightModel
import LimelightQuery

/// Meaning search's side of the index: which items are worth a meaning
/// vector, the text each is embedded from, the vectors (`item_meaning`), and
/// the items nearest a query's vector.
extension IndexStore {
  /// An item waiting for its meaning: its row, the generation its text was
  /// read at (a vector is kept only if the item did not change meanwhile),
  /// and what is embedded.
  public struct MeaningWork: Sendable {
    public var rowID: Int64
    public var generation: Int64
    public var passage: String
    /// Characters of text and description beside the title: a document of
    /// a few words says too little to be found by what it is about.
    public var substance: Int
  }

  /// Items worth a meaning: text people write or read (documents, PDFs,
  /// office files, e-books, notes, e-mails, web pages, manual pages), read
  /// by the second pass, and application items with a description; not
  /// code, not hidden. As SQL on `item`, with `w` its `item_words_stored`.
  static let meaningWorth = """
    item.hidden = 0 AND item.isFolder = 0 AND item.contentPending = 0
      AND instr(' ' || item.kindClasses || ' ', ' code ') = 0
      AND (
        (w.textID IS NOT NULL AND (
          instr(' ' || item.kindClasses || ' ', ' text ') OR instr(' ' || item.kindClasses || ' ', ' pdf ')
          OR instr(' ' || item.kindClasses || ' ', ' document ')
          OR instr(' ' || item.kindClasses || ' ', ' spreadsheet ')
          OR instr(' ' || item.kindClasses || ' ', ' presentation ')
          OR instr(' ' || item.kindClasses || ' ', ' email ')))
        OR (item.domain != '\(fileDomain)' AND item.contentDescription IS NOT NULL))
    """

  /// Up to `limit` items waiting for their meaning, newest first, each with
  /// its title (or name), description and the first `opening` characters
  /// of its text.
  public func meaningWork(limit: Int, opening: Int) throws -> [MeaningWork] {
    try read { db in
      try Row.fetchAll(
        db,
        sql: """
          SELECT item.rowid, item.generation, item.displayName, item.title,
            item.contentDescription, substr(limelight_inflate(b.text), 1, ?) AS opening
          FROM item
            LEFT JOIN item_words_stored AS w ON w.rowid = item.rowid
            LEFT JOIN text_body AS b ON b.id = w.textID
          WHERE \(Self.meaningWorth)
            AND NOT EXISTS (SELECT 1 FROM item_meaning AS m WHERE m.rowid = item.rowid)
          ORDER BY item.modified DESC LIMIT ?
          """, arguments: [opening, limit]
      ).map { row in
        let title: String? = row["title"]
        let name: String = row["displayName"]
        var parts = [title.flatMap { $0.isEmpty ? nil : $0 } ?? name]
        if let description: String = row["contentDescription"], !description.isEmpty,
          !((row["opening"] as String?)?.hasPrefix(description) ?? false)
        {
          parts.append(description)
        }
        if let opening: String = row["opening"] { parts.append(opening) }
        let substance = parts.dropFirst().reduce(0) {
          $0 + $1.filter { !$0.isWhitespace }.count
        }
        let passage = parts.joined(separator: "\n").split(whereSeparator: \.isWhitespace)
          .joined(separator: " ")
        return MeaningWork(
          rowID: row["rowid"], generation: row["generation"], passage: passage,
          substance: substance)
      }
    }
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
            INSERT OR REPLACE INTO item_meaning (rowid, vector)
              SELECT rowid, ? FROM item WHERE rowid = ? AND generation = ?
            """
        ).execute(arguments: [Data(vector), work.rowID, work.generation])
        kept += writer.db.changesCount
      }
      return kept
    }
  }

  /// How many items the third pass read, and how many are worth it.
  public func meaningCounts() throws -> (embedded: Int, worth: Int) {
    try read { db in try Self.meaningCounts(db) }
  }

  static func meaningCounts(_ db: Database) throws -> (embedded: Int, worth: Int) {
    do {
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

extension SearchEngine {
  /// The nearest items a meaning search reads before its filters: the
  /// rest are read only by their vectors.
  static let meaningCandidates = 500

  /// The items whose meaning is nearest `query` (a unit vector, as
  /// ``LimelightMeaning`` makes it) that pass the filters of `filters` (its
  /// text is left out: meaning stands for it), the nearest first, scored by
  /// distance (lower is better, as every result's score). An item is near
  /// when it is at least `floor` alike, `margin` more alike than the
  /// average of the items but the nearest (the model finds any two texts
  /// somewhat alike), and within `band` of the nearest.
  public func meaningMatches(
    _ query: [UInt8], floor: Double, margin: Double, band: Double, filters: QueryNode, limit: Int
  ) throws -> [SearchResult] {
    let (conditions, arguments) = Self.filterConditions(
      filters, now: Date().timeIntervalSince1970)
    return try store.read { db in
      try Row.fetchAll(
        db,
        sql: """
          WITH near AS MATERIALIZED (
            SELECT rowid, limelight_similarity(vector, ?) AS similarity FROM item_meaning
              WHERE length(vector) > 0),
          overall AS MATERIALIZED (
            SELECT max(similarity) AS top,
              CASE WHEN count(*) > 1 THEN (sum(similarity) - max(similarity)) / (count(*) - 1)
                ELSE 0 END AS others
            FROM near),
          chosen AS MATERIALIZED (
            SELECT near.rowid, near.similarity FROM near, overall
              WHERE near.similarity >= max(?, overall.others + ?, overall.top - ?)
              ORDER BY near.similarity DESC LIMIT \(Self.meaningCandidates))
          SELECT \(Self.columns), 1.0 - chosen.similarity AS score
          FROM chosen JOIN item ON item.rowid = chosen.rowid
          WHERE item.hidden = 0\(conditions)
          ORDER BY chosen.similarity DESC LIMIT ?
          """,
        arguments: StatementArguments([Data(query), floor, margin, band] + arguments + [limit])
      ).map(Self.result)
    }
  }
}
