import Foundation
import GRDB
import LimelightModel

/// Writes of application items: what `limelight index`, the Swift library and
/// reindex extensions hand the index. An application item is known by its
/// domain and the id its application gave it (`localID`); its row id is the
/// index's own, so two applications may use the same ids.
extension IndexWriter {
  /// How long an application item lives after its last update when it sets
  /// no expiration date of its own (Core Spotlight's 30 days).
  public static let defaultLifetime: TimeInterval = 30 * 86_400

  /// Adds an application item, or replaces the one of the same id and domain
  /// (keeping when it was added and how often it was opened).
  @discardableResult
  public func upsert(applicationItem item: IndexItem, now: Date = Date()) throws
    -> UpsertOutcome
  {
    precondition(item.domain != fileDomain, "files are written with upsert(_: FileRecord)")
    let existing = try Row.fetchOne(
      db, sql: "SELECT rowid, id, added FROM item WHERE domain = ? AND localID = ?",
      arguments: [item.domain, item.id])
    let attributes = item.attributes
    // Limelight's own items (installed applications) live as long as their source.
    let expiration =
      item.expirationDate
      ?? (Self.isReserved(item.domain) ? nil : now.addingTimeInterval(Self.defaultLifetime))
    let added =
      attributes.added?.timeIntervalSince1970 ?? existing?["added"] ?? now.timeIntervalSince1970
    let modified = (attributes.modified ?? now).timeIntervalSince1970
    let text = IndexedText(
      attributes, path: nil,
      content: [attributes.contentDescription, attributes.textContent].compactMap { $0 }.joined(
        separator: "\n"))
    let columns: [ItemColumn] =
      [(ItemTable.domain, item.domain), (ItemTable.storedURI, item.uri)]
      + Self.attributeColumns(attributes, text: text)
      + [
        try typeColumn(attributes),
        (ItemTable.modified, modified), (ItemTable.added, added),
        (ItemTable.expirationDate, expiration?.timeIntervalSince1970),
        (ItemTable.generation, generation),
        (ItemTable.recent, ItemRank.isRecent(modified, now: now.timeIntervalSince1970)),
        (ItemTable.localID, item.id),
      ]
    let (rowID, outcome) = try writeItemRow(
      .applicationItem, columns, existing: existing?["rowid"],
      insertedOnly: [(ItemTable.id, Self.newApplicationItemID()), (ItemTable.depth, 0)])
    let facets = try facets(ofRow: rowID)
    if outcome == .updated {
      try replaceText(rowID, with: text, facets: facets, path: nil)
    } else {
      try insertText(rowID, text, facets: facets, path: nil)
    }
    return outcome
  }

  /// Removes the items of these ids in `domain`. Returns how many went.
  @discardableResult
  public func deleteApplicationItems(ids: [String], domain: String) throws -> Int {
    var removed = 0
    for id in ids {
      if let row = try Row.fetchOne(
        db, sql: "SELECT rowid, id, domain, uri FROM item WHERE domain = ? AND localID = ?",
        arguments: [domain, id])
      {
        try removeRow(row)
        removed += 1
      }
    }
    return removed
  }

  /// Removes the application items of these ids in any domain but Limelight's own.
  @discardableResult
  public func deleteApplicationItems(ids: [String]) throws -> Int {
    var removed = 0
    for id in ids {
      for row in try Row.fetchAll(
        db, sql: "SELECT rowid, id, domain, uri FROM item WHERE localID = ?", arguments: [id])
      where !Self.isReserved(row["domain"]) {
        try removeRow(row)
        removed += 1
      }
    }
    return removed
  }

  /// Removes every item of `domain` and of the domains under it. Returns how many went.
  @discardableResult
  public func deleteDomain(_ domain: String) throws -> Int {
    precondition(domain != fileDomain, "files are removed by the watcher")
    let rows = try Row.fetchAll(
      db,
      sql: """
        SELECT rowid, id, domain, uri FROM item
        WHERE domain = ? OR (domain > ? AND domain < ?)
        """, arguments: [domain, domain + ".", domain + "/"])
    for row in rows { try removeRow(row) }
    return rows.count
  }

  /// Removes every application item but Limelight's own. Returns how many went.
  @discardableResult
  public func deleteAllApplicationItems() throws -> Int {
    let rows = try Row.fetchAll(
      db, sql: "SELECT rowid, id, domain, uri FROM item WHERE localID IS NOT NULL")
    var removed = 0
    for row in rows where !Self.isReserved(row["domain"]) {
      try removeRow(row)
      removed += 1
    }
    return removed
  }

  /// Removes the items whose expiration date has passed. Returns how many went.
  @discardableResult
  public func purgeExpired(now: Date = Date()) throws -> Int {
    let rows = try Row.fetchAll(
      db,
      sql: """
        SELECT rowid, id, domain, uri FROM item
        WHERE expirationDate IS NOT NULL AND expirationDate <= ?
        """, arguments: [now.timeIntervalSince1970])
    for row in rows { try removeRow(row) }
    return rows.count
  }

  /// Stores the client state of a batch under an index name.
  public func setClientState(_ state: Data, name: String) throws {
    try db.execute(
      sql: "INSERT OR REPLACE INTO client_state (name, state, generation) VALUES (?, ?, ?)",
      arguments: [name, state, generation])
  }

  /// The client state last stored under an index name.
  public func clientState(name: String) throws -> Data? {
    try Data.fetchOne(db, sql: "SELECT state FROM client_state WHERE name = ?", arguments: [name])
  }

  /// Whether a domain is Limelight's own (`limelight` and below).
  static func isReserved(_ domain: String) -> Bool {
    domain == "limelight" || domain.hasPrefix("limelight.")
  }

  static func newApplicationItemID() -> String {
    "a" + String(newFileID().dropFirst())
  }
}

extension IndexStore {
  /// When the next item expires, if any does.
  public func nextExpiration() throws -> Date? {
    try read { db in
      try Double.fetchOne(
        db, sql: "SELECT min(expirationDate) FROM item WHERE expirationDate IS NOT NULL"
      ).map(Date.init(timeIntervalSince1970:))
    }
  }

  /// The client state last stored under an index name, if any.
  public func clientState(name: String) throws -> Data? {
    try read { db in
      try Data.fetchOne(db, sql: "SELECT state FROM client_state WHERE name = ?", arguments: [name])
    }
  }
}
