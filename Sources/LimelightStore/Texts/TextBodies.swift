import CInflate
import Foundation
import GRDB

/// The extracted texts of items, each distinct text stored once in
/// `text_body` and counted by the items that hold it (`item_words.textID`).
///
/// The same text comes back again and again in a home: hard links, copies
/// and backups of a folder, a download saved twice, the same licence or
/// changelog in every package. On a tree of documentation and sources half
/// the bytes of stored text were such copies. A text is found again by its
/// key (its length and CRC-32) and compared whole before it is shared, so
/// two texts that only share a key are never confused.
///
/// The full-text indexes read an item's text through `item_text_source`,
/// which joins its body: a body is released only after the indexes have
/// removed the item's words.
struct TextBodies {
  let db: Database

  /// The key a text (folded, as stored) is looked up by: its length in
  /// UTF-8 bytes and their CRC-32, in one integer.
  static func key(of text: String) -> Int64 {
    var text = text
    return text.withUTF8 { bytes in key(of: UnsafeRawBufferPointer(bytes)) }
  }

  static func key(of bytes: UnsafeRawBufferPointer) -> Int64 {
    // zlib's crc32 takes at most 4 GiB a call; texts are far smaller.
    let crc = crc32(0, bytes.baseAddress?.assumingMemoryBound(to: Bytef.self), uInt(bytes.count))
    return Int64(min(bytes.count, Int(Int32.max))) << 32 | Int64(crc & 0xFFFF_FFFF)
  }

  /// The body holding `text`, with one more item counted on it: one
  /// already stored when its text is the same, else a new one with the
  /// text as `packed`. nil for no text.
  func hold(_ text: String, packed: @autoclosure () -> Data, key: Int64?) throws -> Int64? {
    if text.isEmpty { return nil }
    let key = key ?? Self.key(of: text)
    var packedText: Data?
    let candidates = try Row.fetchAll(
      db.cachedStatement(sql: "SELECT id, text FROM text_body WHERE key = ?"), arguments: [key])
    for candidate in candidates {
      let packed = packedText ?? packed()
      packedText = packed
      if Self.holds(candidate["text"], text, packed: packed) {
        let id: Int64 = candidate["id"]
        try db.cachedStatement(sql: "UPDATE text_body SET refs = refs + 1 WHERE id = ?")
          .execute(arguments: [id])
        return id
      }
    }
    try db.cachedStatement(sql: "INSERT INTO text_body (key, refs, text) VALUES (?, 1, ?)")
      .execute(arguments: [key, packedText ?? packed()])
    return db.lastInsertedRowID
  }

  /// Whether body `id` (nil: none) holds `text` ('': none), without
  /// counting anything on it.
  func isBody(_ id: Int64?, of text: String, packed: @autoclosure () -> Data, key: Int64?) throws
    -> Bool
  {
    guard let id, !text.isEmpty else { return id == nil && text.isEmpty }
    guard
      let row = try Row.fetchOne(
        db.cachedStatement(sql: "SELECT key, text FROM text_body WHERE id = ?"), arguments: [id])
    else { return false }
    return row["key"] == (key ?? Self.key(of: text))
      && Self.holds(row["text"], text, packed: packed())
  }

  /// Whether a stored body is `text`: packed alike (the same dictionary)
  /// or, packed otherwise, the same once unpacked.
  private static func holds(_ stored: Data, _ text: String, packed: Data) -> Bool {
    stored == packed || TextPacker.unpackUTF8(stored).map { $0 == Array(text.utf8) } == true
  }

  /// One item fewer on body `id` (nil: none); the body goes with its last.
  func release(_ id: Int64?) throws {
    guard let id else { return }
    try db.cachedStatement(sql: "UPDATE text_body SET refs = refs - 1 WHERE id = ?")
      .execute(arguments: [id])
    try db.cachedStatement(sql: "DELETE FROM text_body WHERE id = ? AND refs <= 0")
      .execute(arguments: [id])
  }

  /// Releases the bodies of the items whose rows `itemCondition` selects
  /// in `item_words` (a condition on `rowid`), before those rows go.
  func releaseAll(ofItems itemCondition: String, arguments: StatementArguments) throws {
    try db.execute(sql: "CREATE TEMP TABLE released (id INTEGER PRIMARY KEY, items INTEGER)")
    defer { try? db.execute(sql: "DROP TABLE temp.released") }
    try db.execute(
      sql: """
        INSERT INTO released (id, items)
          SELECT textID, count(*) FROM item_words_stored
          WHERE textID IS NOT NULL AND \(itemCondition) GROUP BY textID
        """, arguments: arguments)
    try db.execute(
      sql: """
        UPDATE text_body SET refs = refs - (SELECT items FROM released WHERE released.id = text_body.id)
          WHERE id IN (SELECT id FROM released)
        """)
    try db.execute(sql: "DELETE FROM text_body WHERE id IN (SELECT id FROM released) AND refs <= 0")
  }
}
