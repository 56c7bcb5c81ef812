import Foundation
import GRDB
import LimelightModel
import LimelightPlatform

/// What changed in the index between two generations, for a shared store
/// that follows it: the items written since (as they are now) and those
/// removed since. A page of them at a time, by row. Files and the items
/// applications gave (not the installed applications, each host's own).
public struct SharedChanges: Sendable {
  public var items: [SharedItem]
  /// Files' paths, and application items' URIs (as their bytes).
  public var removed: [RawPath]
  /// The row to read the next page after; nil when this page was the last.
  public var nextRow: Int64?
}

extension IndexStore {
  /// This index's identity, made when first asked and kept: a store that
  /// follows it tells it from a new index built in its place (whose
  /// generations start again from zero).
  public func identity() throws -> String {
    if let known = try read({ db in
      try String.fetchOne(db, sql: "SELECT value FROM meta WHERE key = 'identity'")
    }) {
      return known
    }
    let made = UUID().uuidString.lowercased()
    try pool.write { db in
      try db.execute(
        sql: "INSERT OR IGNORE INTO meta (key, value) VALUES ('identity', ?)", arguments: [made])
    }
    return try read { db in
      try String.fetchOne(db, sql: "SELECT value FROM meta WHERE key = 'identity'") ?? made
    }
  }

  /// The index's generation and, when `counting`, how many entries a
  /// shared store receives of it then (one snapshot): what a shared store
  /// holds of this host once it is sent everything through that generation.
  public func sharedEntries(counting: Bool) throws -> (generation: Int64, count: Int?) {
    try read { db in
      (
        try Int64.fetchOne(db, sql: "SELECT value FROM meta WHERE key = 'generation'") ?? 0,
        counting
          ? try Int.fetchOne(
            db, sql: "SELECT count(*) FROM item WHERE \(Self.sharedCondition)",
            arguments: Self.sharedArguments) ?? 0 : nil
      )
    }
  }

  /// How many changes are few enough to be read from the index of
  /// generations and sorted (``sharedChanges(after:through:afterRow:limit:)``).
  static let fewChanges = 2_000

  /// The items a shared store receives: files, and what applications gave.
  static let sharedCondition =
    "(item.domain = ? AND item.path IS NOT NULL OR item.domain NOT IN (?, ?))"
  static var sharedArguments: StatementArguments {
    [fileDomain, fileDomain, applicationsDomain]
  }

  /// The oldest generation whose removals are all still known: changes
  /// after an earlier one cannot be told, only the whole index.
  public func removalsKeptFrom() throws -> Int64 {
    try read { db in
      try Int64.fetchOne(db, sql: "SELECT value FROM meta WHERE key = 'removalsKeptFrom'") ?? 0
    }
  }

  /// One page of the file items changed after generation `after` up to
  /// `through` (all of them when `after` is nil), rows after `afterRow`;
  /// the first page (`afterRow` 0) also holds the paths removed in those
  /// generations.
  public func sharedChanges(
    after: Int64?, through: Int64, afterRow: Int64, limit: Int
  ) throws -> SharedChanges {
    try read { db in
      var removed: [RawPath] = []
      if let after, afterRow == 0 {
        removed = try Row.fetchAll(
          db,
          sql: """
            SELECT domain, uri FROM removal WHERE generation > ? AND generation <= ?
              AND domain <> ? ORDER BY generation
            """, arguments: [after, through, applicationsDomain]
        ).compactMap { row in
          let uri: String = row[ItemTable.uri]
          return row[ItemTable.domain] == fileDomain
            ? FileURI.path(from: uri) : RawPath(bytes: Array(uri.utf8))
        }
      }
      // A few changes (a save) are read from the index of generations,
      // and sorted: the planner, asked for the first rows in the order of
      // rows, read every row before them (at 300,000 entries, 100-130 ms
      // between a save and its sending). Many are read in that order:
      // the whole send then reads the table once.
      let few =
        try after.map { after in
          try Int.fetchOne(
            db,
            sql: """
              SELECT count(*) FROM (SELECT 1 FROM item
                WHERE generation > ? AND generation <= ? LIMIT ?)
              """, arguments: [after, through, Self.fewChanges]) ?? 0 < Self.fewChanges
        } ?? false
      var arguments: StatementArguments = [afterRow]
      arguments += Self.sharedArguments
      arguments += [after ?? -1, through, limit]
      let rows = try Row.fetchAll(
        db,
        sql: """
          SELECT item.rowid AS rowid, item.path AS path, item.domain AS domain,
            item.uri AS uri, item.displayName AS displayName, item.isFolder AS isFolder,
            item.size AS size, coalesce(item.mtimeNs, CAST(item.modified * 1e9 AS INTEGER))
              AS mtimeNs, item.keywords AS keywords,
            \(IndexWriter.typeTree) AS contentTypeTree, limelight_inflate(b.text) AS text,
            w.name AS nameWords, w.keywords AS keywordWords, item.title AS title, item.kind AS kind,
            item.authors AS authors, item.contentDescription AS contentDescription,
            item.descriptionSource AS descriptionSource, item.created AS created,
            item.lastUsed AS lastUsed, m.vector AS meaning
          FROM item \(few ? "INDEXED BY item_generation" : "")
            LEFT JOIN item_words_stored AS w ON w.rowid = item.rowid
            LEFT JOIN text_body AS b ON b.id = w.textID
            LEFT JOIN item_meaning AS m ON m.rowid = item.rowid AND length(m.vector) > 0
          WHERE item.rowid > ? AND \(Self.sharedCondition)
            AND item.generation > ? AND item.generation <= ?
          ORDER BY item.rowid LIMIT ?
          """, arguments: arguments)
      let items = rows.map { row in
        let domain: String = row[ItemTable.domain]
        let file = domain == fileDomain
        let text: String? = row["text"]
        let title: String? = row[ItemTable.title]
        var item = SharedItem(
          path: Self.sharedPath(row),
          isFolder: row[ItemTable.isFolder], size: row[ItemTable.size],
          modifiedNs: row[ItemTable.mtimeNs],
          contentTypeTree: (row["contentTypeTree"] as String? ?? "").split(separator: " ").map(
            String.init),
          keywords: IndexWriter.strings(inJSON: row[ItemTable.keywords]), text: text,
          nameWords: row["nameWords"], keywordWords: row["keywordWords"],
          domain: file ? nil : domain,
          displayName: file ? nil : row[ItemTable.displayName])
        let date = { (column: String) in
          (row[column] as Double?).map { Date(timeIntervalSince1970: $0) }
        }
        item.details = SharedItemDetails(
          title: title, kind: row[ItemTable.kind],
          authors: IndexWriter.strings(inJSON: row[ItemTable.authors]),
          contentDescription: ItemDescription.description(
            stored: row[ItemTable.contentDescription],
            source: (row[ItemTable.descriptionSource] as Int64?).flatMap(
              ItemDescription.Source.init),
            title: title, text: text),
          created: date("created"), lastUsed: date("lastUsed"))
        item.meaning = (row["meaning"] as Data?).map(Array.init)
        return item
      }
      return SharedChanges(
        items: items, removed: removed,
        nextRow: rows.count < limit ? nil : rows.last.map { $0["rowid"] })
    }
  }

  /// What a store keys an item of a row by (its `domain`, `path` and
  /// `uri`): a file's path, an application item's URI.
  static func sharedPath(_ row: Row) -> RawPath {
    (row[ItemTable.domain] as String) == fileDomain
      ? RawPath(bytes: Array(row[ItemTable.path] as Data))
      : RawPath(bytes: Array((row[ItemTable.uri] as String).utf8))
  }

  /// The number of the last meaning vector written or removed: a store is
  /// sent the vectors numbered after the last it received.
  public func meaningChange() throws -> Int64 {
    try read(MeaningVectors.changes)
  }

  /// Whether the index holds any meaning vector (none after `meaning =
  /// no`: a store then drops this host's).
  public func hasMeaning() throws -> Bool {
    try read { db in
      try Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM item_meaning)") ?? false
    }
  }

  /// How many meaning vectors of the items a store receives were written
  /// after vector number `after` (what a send of them has to send).
  public func sharedMeaningCount(after: Int64) throws -> Int {
    try read { db in
      var arguments: StatementArguments = [after]
      arguments += Self.sharedArguments
      return try Int.fetchOne(
        db,
        sql: """
          SELECT count(*) FROM item_meaning AS m JOIN item ON item.rowid = m.rowid
          WHERE m.change > ? AND length(m.vector) > 0 AND \(Self.sharedCondition)
          """, arguments: arguments) ?? 0
    }
  }

  /// Up to `limit` meaning vectors of the items a store receives, written
  /// after vector number `after`, in the order they were written, each
  /// with its item's path (an application item's URI) and number.
  public func sharedMeaning(after: Int64, limit: Int) throws -> [(
    path: RawPath, vector: [UInt8], change: Int64
  )] {
    try read { db in
      var arguments: StatementArguments = [after]
      arguments += Self.sharedArguments
      arguments += [limit]
      return try Row.fetchAll(
        db,
        sql: """
          SELECT item.domain, item.path, item.uri, m.vector, m.change
          FROM item_meaning AS m JOIN item ON item.rowid = m.rowid
          WHERE m.change > ? AND length(m.vector) > 0 AND \(Self.sharedCondition)
          ORDER BY m.change LIMIT ?
          """, arguments: arguments
      ).map { row in (Self.sharedPath(row), Array(row["vector"] as Data), row["change"]) }
    }
  }
}
