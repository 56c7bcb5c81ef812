import Foundation
import GRDB
import LimelightModel
import LimelightPlatform
import Synchronization

/// An item's words: stored once in `item_words`, its text's body shared
/// (``TextBodies``), and indexed by the name and text indexes; replaced
/// only where they changed.
extension IndexWriter {
  /// Indexes an item's words and facets (``ItemFacets``): stored once in
  /// `item_words` (the text in its shared body, ``TextBodies``), the
  /// name-like fields and facets in `item_name`, all but the facets in
  /// `item_text`, and new name terms in the deletion index.
  func insertText(_ rowID: Int64, _ text: IndexedText, facets: String, path: RawPath?) throws {
    try storeWords(rowID, text, body: try holdBody(text), facets: facets, path: path)
    try insertNames(rowID, text, facets: facets)
    try insertContent(rowID, text, facets: facets)
  }

  /// Replaces an item's words and facets. When its name, keywords, path and
  /// facets stay (the second pass reading a file the first named), the name
  /// index is left alone: only the text changes; when its text stays too
  /// (a restart that finds a file's status changed, not its content),
  /// neither index is touched.
  func replaceText(_ rowID: Int64, with text: IndexedText, facets: String, path: RawPath?) throws {
    let old = try Row.fetchOne(
      db.cachedStatement(
        sql: "SELECT name, keywords, path, facets, textID FROM item_words WHERE rowid = ?"),
      arguments: [rowID])
    let sameNames =
      old?["name"] == text.name && old?["keywords"] == text.keywords
      && old?["path"] == text.path && old?["facets"] == facets
    let oldBody: Int64? = old?["textID"]
    let bodies = TextBodies(db: db)
    if sameNames, old != nil,
      try bodies.isBody(oldBody, of: text.content, packed: packed(text), key: text.contentKey)
    {
      return
    }
    let body = try holdBody(text)
    // Its meaning is that of the text it had: made again by the third pass.
    try db.cachedStatement(sql: "DELETE FROM item_meaning WHERE rowid = ?").execute(arguments: [
      rowID
    ])
    // The full-text indexes first: they read the words to remove through
    // item_words, which still names the old body.
    if let old {
      try forgetWords(rowID, old: old, namesToo: !sameNames)
    } else {
      try deleteRow(rowID, from: sameNames ? ["item_text"] : ["item_text", "item_name"])
    }
    try storeWords(rowID, text, body: body, facets: facets, path: path)
    try bodies.release(oldBody)
    if !sameNames { try insertNames(rowID, text, facets: facets) }
    try insertContent(rowID, text, facets: facets)
  }

  /// Writes an item's words, new or in place of those it had, with its
  /// text's body, its facets and the path they keep (``keptPath(_:of:)``).
  /// An upsert, never `REPLACE`: a `REPLACE` into a table with an index
  /// opens a statement journal, at which FTS5 writes the words it gathered
  /// in memory as a segment of its own (with the items indexed by their
  /// text, the content pass of the benchmark corpus wrote 115 s of them).
  private func storeWords(
    _ rowID: Int64, _ text: IndexedText, body: Int64?, facets: String, path: RawPath?
  ) throws {
    try db.cachedStatement(
      sql: """
        INSERT INTO item_words_stored (rowid, name, keywords, path, textID, facets)
          VALUES (?, ?, ?, ?, ?, ?)
          ON CONFLICT (rowid) DO UPDATE SET name = excluded.name, keywords = excluded.keywords,
            path = excluded.path, textID = excluded.textID, facets = excluded.facets
        """
    ).run([rowID, text.name, text.keywords, Self.keptPath(text.path, of: path), body, facets])
  }

  private func insertNames(_ rowID: Int64, _ text: IndexedText, facets: String) throws {
    try db.cachedStatement(
      sql: "INSERT INTO item_name (rowid, name, keywords, path, facets) VALUES (?, ?, ?, ?, ?)"
    ).run([rowID, text.name, text.keywords, text.path, facets])
    let deletions = TermDeletions(db: db, seen: seenTerms)
    try deletions.add(text: text.name)
    try deletions.add(text: text.keywords)
  }

  private func insertContent(_ rowID: Int64, _ text: IndexedText, facets: String) throws {
    try db.cachedStatement(
      sql: """
        INSERT INTO item_text (rowid, name, keywords, path, content, facets)
          VALUES (?, ?, ?, ?, ?, ?)
        """
    ).run([
      rowID, text.name, text.keywords, text.path, text.content.isEmpty ? nil : text.content,
      ItemFacets.textFacets(facets, hasText: !text.content.isEmpty),
    ])
  }

  /// The body of an item's text (``TextBodies``), one more item counted on
  /// it: packed and keyed already by the thread that read it, or here.
  func holdBody(_ text: IndexedText) throws -> Int64? {
    try TextBodies(db: db).hold(text.content, packed: packed(text), key: text.contentKey)
  }

  /// An item's text packed: by the thread that read it, or here.
  private func packed(_ text: IndexedText) -> Data {
    text.packedContent ?? texts.pack(text.content)
  }

  /// Folds and packs the text of a record that is about to be written, so
  /// that the thread that read it does the work rather than the one that
  /// writes, and lets the text as read go (the folded text is what is
  /// written: a slice waiting to be written held every text three times).
  public static func prepare(_ record: inout FileRecord, texts: TextPacker) {
    var text = record.indexedText ?? IndexedText(record.attributes, path: record.path)
    if !text.content.isEmpty && text.packedContent == nil {
      text.packedContent = texts.pack(text.content)
      text.contentKey = TextBodies.key(of: text.content)
      if record.attributes.contentDescription != nil {
        text.contentSummary = AttributeSet.summary(of: text.content)
      }
    }
    record.indexedText = text
    record.attributes.textContent = nil
  }

  /// Removes an item's words. The full-text indexes go first: they read the
  /// words to remove through `item_words`, and its body goes last.
  func deleteText(_ rowID: Int64) throws {
    let body = try Int64.fetchOne(
      db.cachedStatement(sql: "SELECT textID FROM item_words_stored WHERE rowid = ?"),
      arguments: [rowID])
    try deleteRow(rowID, from: ["item_text", "item_name", "item_words_stored"])
    try TextBodies(db: db).release(body)
  }

  /// The path `item_words_stored` keeps for an item whose words hold
  /// `text` as its path: an empty one when that is the item's own path as
  /// text (every ASCII path, 79 bytes an entry), which the view
  /// `item_words` reads from `item` instead (no file's path is empty). So
  /// an item's path changes, and its row goes, only after its words left
  /// both full-text indexes, which read the words to remove there.
  static func keptPath(_ text: String, of path: RawPath?) -> String {
    guard let path, text.utf8.elementsEqual(path.bytes) else { return text }
    return ""
  }

  /// Takes an item's words out of the full-text indexes, given its row of
  /// `item_words` as read now. The indexes are told the words (FTS5's
  /// `delete` command) rather than left to read them through their
  /// content views, which they did twice a row: reading the words of the
  /// files a first crawl named took a fifth of the content pass's
  /// writing. A stored text is still read back by the view, which
  /// unpacks it.
  private func forgetWords(_ rowID: Int64, old: Row, namesToo: Bool) throws {
    let name: String? = old["name"]
    let keywords: String? = old["keywords"]
    let path: String? = old["path"]
    let facets: String? = old["facets"]
    let body: Int64? = old["textID"]
    if body == nil {
      try db.cachedStatement(
        sql: """
          INSERT INTO item_text (item_text, rowid, name, keywords, path, content, facets)
            VALUES ('delete', ?, ?, ?, ?, NULL, limelight_text_facets(?, NULL))
          """
      ).execute(arguments: [rowID, name, keywords, path, facets])
    } else {
      try deleteRow(rowID, from: ["item_text"])
    }
    if namesToo {
      try db.cachedStatement(
        sql: """
          INSERT INTO item_name (item_name, rowid, name, keywords, path, facets)
            VALUES ('delete', ?, ?, ?, ?, ?)
          """
      ).execute(arguments: [rowID, name, keywords, path, facets])
    }
  }

  /// Deletes an item's row from each of `tables`, in that order.
  private func deleteRow(_ rowID: Int64, from tables: [String]) throws {
    for table in tables {
      try db.cachedStatement(sql: "DELETE FROM \(table) WHERE rowid = ?").execute(arguments: [
        rowID
      ])
    }
  }

  /// Changes an item's name-like texts in `item_words` (`change`), keeping
  /// its stored text, and indexes its words again. With `textToo` false
  /// (only its rank's facet changes, which the text index does not hold),
  /// its text is not split into words again.
  func replaceNameTexts(_ rowID: Int64, textToo: Bool = true, change: () throws -> Void) throws {
    // The text index's row, read once: told to FTS5 to take out (its own
    // delete read it through the view twice, and a folder renamed spent
    // two thirds of its time there), and its text indexed again as it is.
    let text =
      textToo
      ? try db.cachedStatement(
        sql: "SELECT name, keywords, path, content, facets FROM item_text_source WHERE rowid = ?"
      ).firstRow([rowID]) : nil
    if let text {
      try db.cachedStatement(
        sql: """
          INSERT INTO item_text (item_text, rowid, name, keywords, path, content, facets)
            VALUES ('delete', ?, ?, ?, ?, ?, ?)
          """
      ).run([rowID.databaseValue] + text)
    }
    try deleteRow(rowID, from: ["item_name"])
    try change()
    // Read, then inserted as values: an `INSERT … SELECT` into a full-text
    // table opens a statement journal, and FTS5 writes what it gathered as
    // a segment of its own at each (a folder of 99,000 entries renamed took
    // 3 minutes, and grew the index by a quarter).
    guard
      let names = try db.cachedStatement(
        sql: "SELECT name, keywords, path, facets FROM item_words WHERE rowid = ?"
      ).firstRow([rowID])
    else { return }
    try db.cachedStatement(
      sql: "INSERT INTO item_name (rowid, name, keywords, path, facets) VALUES (?, ?, ?, ?, ?)"
    ).run([rowID.databaseValue] + names)
    guard let text else { return }
    // The text index's facets, as its view makes them (`limelight_text_facets`).
    let facets = ItemFacets.textFacets(String.fromDatabaseValue(names[3]), hasText: !text[3].isNull)
    try db.cachedStatement(
      sql: """
        INSERT INTO item_text (rowid, name, keywords, path, content, facets)
          VALUES (?, ?, ?, ?, ?, ?)
        """
    ).run([rowID.databaseValue] + names.prefix(3) + [text[3], facets?.databaseValue ?? .null])
  }
}
