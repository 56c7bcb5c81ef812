import Foundation
import GRDB
import GRDBSQLite

/// Runs a prepared statement with its values bound straight to SQLite.
/// GRDB's arguments box every value, check it and copy it again: a cost
/// paid for each of the million statements a first crawl runs (its items'
/// rows and words, the typo index's keys), for nothing these statements
/// need.
extension Statement {
  /// Runs the statement once with `texts` bound to its parameters, in order.
  func run(texts: [some Collection<UInt8>]) throws {
    let handle = sqliteStatement
    sqlite3_reset(handle)
    for (index, text) in texts.enumerated() {
      let bound =
        text.withContiguousStorageIfAvailable { bind(text: $0, at: index + 1) }
        ?? Array(text).withUnsafeBufferPointer { bind(text: $0, at: index + 1) }
      guard bound == SQLITE_OK else { throw error(bound) }
    }
    try step()
  }

  /// Runs the statement once with `values` bound to its parameters, in order.
  func run(_ values: [(any DatabaseValueConvertible)?]) throws {
    try bind(values)
    try step()
  }

  /// The first row the statement reads with `values` bound to its
  /// parameters, a value a column; nil when it reads none.
  func firstRow(_ values: [(any DatabaseValueConvertible)?]) throws -> [DatabaseValue]? {
    let handle = sqliteStatement
    try bind(values)
    defer { sqlite3_reset(handle) }
    switch sqlite3_step(handle) {
    case SQLITE_DONE: return nil
    case SQLITE_ROW:
      return (0..<sqlite3_column_count(handle)).map { column in
        switch sqlite3_column_type(handle, column) {
        case SQLITE_INTEGER: return sqlite3_column_int64(handle, column).databaseValue
        case SQLITE_FLOAT: return sqlite3_column_double(handle, column).databaseValue
        case SQLITE_TEXT:
          let count = Int(sqlite3_column_bytes(handle, column))
          return String(
            decoding: UnsafeBufferPointer(start: sqlite3_column_text(handle, column), count: count),
            as: UTF8.self
          ).databaseValue
        case SQLITE_BLOB:
          let count = Int(sqlite3_column_bytes(handle, column))
          guard let bytes = sqlite3_column_blob(handle, column) else { return Data().databaseValue }
          return Data(bytes: bytes, count: count).databaseValue
        default: return .null
        }
      }
    case let code: throw error(code)
    }
  }

  private func bind(_ values: [(any DatabaseValueConvertible)?]) throws {
    let handle = sqliteStatement
    sqlite3_reset(handle)
    for (offset, value) in values.enumerated() {
      let index = Int32(offset + 1)
      let bound: Int32
      switch value?.databaseValue.storage ?? .null {
      case .null: bound = sqlite3_bind_null(handle, index)
      case .int64(let number): bound = sqlite3_bind_int64(handle, index, number)
      case .double(let number): bound = sqlite3_bind_double(handle, index, number)
      case .string(var text):
        bound = text.withUTF8 { bind(text: $0, at: offset + 1) }
      case .blob(let data):
        bound = data.withUnsafeBytes { bytes in
          sqlite3_bind_blob(handle, index, bytes.baseAddress, Int32(bytes.count), sqliteTransient)
        }
      }
      guard bound == SQLITE_OK else { throw error(bound) }
    }
  }

  private func bind(text: UnsafeBufferPointer<UInt8>, at index: Int) -> Int32 {
    sqlite3_bind_text(
      sqliteStatement, Int32(index),
      UnsafeRawPointer(text.baseAddress ?? UnsafePointer(bitPattern: 1)!)
        .assumingMemoryBound(to: CChar.self), Int32(text.count), sqliteTransient)
  }

  private func step() throws {
    let stepped = sqlite3_step(sqliteStatement)
    sqlite3_reset(sqliteStatement)
    guard stepped == SQLITE_DONE else { throw error(stepped) }
  }

  private func error(_ code: Int32) -> DatabaseError {
    DatabaseError(
      resultCode: ResultCode(rawValue: code),
      message: String(cString: sqlite3_errmsg(sqlite3_db_handle(sqliteStatement))), sql: sql)
  }
}

/// SQLite copies what is bound with it before the call returns.
let sqliteTransient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)
