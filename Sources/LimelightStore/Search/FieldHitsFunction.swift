import GRDB
import GRDBSQLite

/// `limelight_field_hits(name, keywords, path, words)`: which of an item's
/// name, keywords and path hold each of a text match's words
/// (``PhraseCheck/FieldHits``), for `limelight_rank`.
///
/// Registered through SQLite's own interface: the ranking asks it of every
/// candidate of a text match (2,400 for `yaml thes` on the corpus), and a
/// GRDB function copied the three texts into strings and looked the parsed
/// words up by their encoding for each. Here the texts are read where
/// SQLite holds them, and the words are parsed once per statement, kept as
/// SQLite's auxiliary data of the bound fourth argument.
enum FieldHitsFunction {
  static func register(_ db: Database) throws {
    let code = sqlite3_create_function_v2(
      db.sqliteConnection, "limelight_field_hits", 4, SQLITE_UTF8 | SQLITE_DETERMINISTIC, nil,
      call, nil, nil, nil)
    if code != SQLITE_OK { throw DatabaseError(resultCode: ResultCode(rawValue: code)) }
  }

  /// The words of a match, parsed: nil when they do not parse.
  private final class Parsed {
    let hits: PhraseCheck.FieldHits?
    init(_ hits: PhraseCheck.FieldHits?) { self.hits = hits }
  }

  private static let call:
    @convention(c) (OpaquePointer?, Int32, UnsafeMutablePointer<OpaquePointer?>?) -> Void = {
      context, count, values in
      guard let context, let values, count == 4 else { return }
      let parsed: Parsed
      if let kept = sqlite3_get_auxdata(context, 3) {
        parsed = Unmanaged<Parsed>.fromOpaque(kept).takeUnretainedValue()
      } else {
        guard let encoded = sqlite3_value_text(values[3]) else {
          sqlite3_result_null(context)
          return
        }
        parsed = Parsed(
          PhraseCheck(encoded: String(cString: encoded)).map(PhraseCheck.FieldHits.init))
        // SQLite releases it when the statement is done with the value (at
        // once, should it fail to keep it).
        sqlite3_set_auxdata(context, 3, Unmanaged.passRetained(parsed).toOpaque()) { kept in
          if let kept { Unmanaged<Parsed>.fromOpaque(kept).release() }
        }
      }
      guard let fieldHits = parsed.hits else {
        sqlite3_result_null(context)
        return
      }
      let texts = (0..<3).map { index -> UnsafeBufferPointer<UInt8> in
        let value = values[index]
        guard sqlite3_value_type(value) != SQLITE_NULL, let text = sqlite3_value_text(value) else {
          return UnsafeBufferPointer(start: nil, count: 0)
        }
        return UnsafeBufferPointer(start: text, count: Int(sqlite3_value_bytes(value)))
      }
      let hits = fieldHits.hits(in: texts)
      // None when the match is no `.and`: "".
      guard !hits.isEmpty else { return sqlite3_result_text(context, "", 0, sqliteTransient) }
      hits.withUnsafeBufferPointer { bytes in
        bytes.withMemoryRebound(to: CChar.self) {
          sqlite3_result_text(context, $0.baseAddress, Int32($0.count), sqliteTransient)
        }
      }
    }
}
