import GRDB
import GRDBSQLite

/// Runs a prepared statement with texts bound straight from their bytes.
/// GRDB's arguments box every value, check it and copy it: a cost paid for
/// each of the million rows a crawl's typo index takes, for nothing a
/// statement of texts needs.
extension Statement {
  /// Runs the statement once with `texts` bound to its parameters, in order.
  func run(texts: [some Collection<UInt8>]) throws {
    let handle = sqliteStatement
    sqlite3_reset(handle)
    for (index, text) in texts.enumerated() {
      let bound =
        text.withContiguousStorageIfAvailable { bytes in
          sqlite3_bind_text(
            handle, Int32(index + 1),
            UnsafeRawPointer(bytes.baseAddress)?
              .assumingMemoryBound(to: CChar.self), Int32(bytes.count), sqliteTransient)
        }
        ?? Array(text).withUnsafeBufferPointer { bytes in
          sqlite3_bind_text(
            handle, Int32(index + 1),
            UnsafeRawPointer(bytes.baseAddress)?
              .assumingMemoryBound(to: CChar.self), Int32(bytes.count), sqliteTransient)
        }
      guard bound == SQLITE_OK else { throw error(bound) }
    }
    let stepped = sqlite3_step(handle)
    sqlite3_reset(handle)
    guard stepped == SQLITE_DONE else { throw error(stepped) }
  }

  private func error(_ code: Int32) -> DatabaseError {
    DatabaseError(
      resultCode: ResultCode(rawValue: code),
      message: String(cString: sqlite3_errmsg(sqlite3_db_handle(sqliteStatement))), sql: sql)
  }
}

/// SQLite copies what is bound with it before the call returns.
private let sqliteTransient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)
