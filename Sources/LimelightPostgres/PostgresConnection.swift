import CPostgres
import Foundation

/// What a PostgreSQL store answers when it cannot do what was asked: the
/// server unreachable, a statement refused (with the server's SQLSTATE).
public struct PostgresError: Error, CustomStringConvertible, Sendable, Equatable {
  /// The server's five-character SQLSTATE, when the server answered.
  public var state: String?
  /// The reason in libpq's or the server's words, on one line.
  public var message: String
  /// Whether the store could not be reached at all (a front end's exit 2).
  public var unreachable: Bool

  public init(state: String? = nil, message: String, unreachable: Bool = false) {
    self.state = state
    self.message = message
    self.unreachable = unreachable
  }

  public var description: String {
    unreachable ? "the PostgreSQL store cannot be reached: \(message)" : message
  }

  /// Whether the server is gone: never reached, the connection broken, or
  /// the server shutting down (SQLSTATE classes 08 and 57P).
  public var isConnectionLost: Bool {
    unreachable || state.map { $0.hasPrefix("08") || $0.hasPrefix("57P") } ?? false
  }

  /// The first line of libpq's message, without its "ERROR:" label.
  static func oneLine(_ text: UnsafePointer<CChar>?) -> String {
    let whole = text.map { String(cString: $0) } ?? ""
    let first = whole.split(separator: "\n").first.map(String.init) ?? "no reason given"
    return first.hasPrefix("ERROR:  ") ? String(first.dropFirst(8)) : first
  }
}

/// The rows a statement returned, as text (PostgreSQL's text format; NULL
/// as nil): the store's queries read a few columns of a few rows.
public struct PostgresRows: Sendable {
  public var columns: [String]
  public var rows: [[String?]]
}

/// One connection to the server, used by one thread at a time.
///
/// The store is named as libpq names it: a URL
/// (`postgresql://user@host/db?sslmode=require`), `key=value` pairs, or
/// `service=NAME` from pg_service.conf; a password comes from `~/.pgpass`
/// or `PGPASSFILE`, never from the command line. A server that does not
/// answer within 2 seconds (unless the name sets `connect_timeout`) is
/// reported unreachable.
public final class PostgresConnection {
  private let connection: OpaquePointer
  /// The seconds a connection is given unless its name sets its own.
  public static let connectSeconds = 2
  /// The seconds a statement is given to answer: a server that stops
  /// answering after the connection was made (its host frozen, the
  /// network cut without a word) would otherwise keep a search, or the
  /// watcher's sending, waiting for good. Nil while the store's tables are
  /// upgraded, which may take minutes on a large store.
  /// `LIMELIGHT_STORE_ANSWER_SECONDS` sets another.
  public static let answerSeconds =
    getenv("LIMELIGHT_STORE_ANSWER_SECONDS").flatMap { Double(String(cString: $0)) }
    .flatMap { $0 > 0 ? $0 : nil } ?? 60
  var answerSeconds: Double? = PostgresConnection.answerSeconds
  /// Set once a statement got no answer in time: what the connection is
  /// in the middle of is unknown, and it is used no more.
  private var abandoned: String?

  public init(_ name: String) throws(PostgresError) {
    if let failure = limelight_pq_load() {
      throw PostgresError(message: String(cString: failure), unreachable: true)
    }
    // Earlier pairs are defaults: the name (expanded, as `dbname` is when
    // it holds a URL or pairs) overrides them.
    let keys = ["connect_timeout", "application_name", "dbname"]
    let values = ["\(Self.connectSeconds)", "limelight", name]
    let made = withCStrings(keys) { keys in
      withCStrings(values) { values in limelight_PQconnectdbParams(keys, values, 1) }
    }
    guard let made else {
      throw PostgresError(message: "no memory for a connection", unreachable: true)
    }
    guard limelight_PQstatus(made) == CONNECTION_OK else {
      let reason = PostgresError.oneLine(limelight_PQerrorMessage(made))
      limelight_PQfinish(made)
      throw PostgresError(message: reason, unreachable: true)
    }
    connection = made
    // Every search reads an index: a word most texts hold made the planner
    // read the whole table instead, making every text's words again
    // (4 s against 90 ms for 100,000 entries); and the text index's
    // function is declared dear, which would make every query worth
    // compiling.
    _ = try? execute("SET enable_seqscan = off")
    _ = try? execute("SET jit = off")
    // Notices (a table already there) are the store's own business.
    limelight_PQsetNoticeProcessor(made, { _, _ in }, nil)
  }

  deinit { limelight_PQfinish(connection) }

  /// Runs one statement with `$1`, `$2`… bound to `parameters` (text; nil
  /// for NULL) and returns its rows.
  @discardableResult
  public func execute(_ sql: String, _ parameters: [String?] = []) throws(PostgresError)
    -> PostgresRows
  {
    let result = try answer(sql, parameters)
    defer { limelight_PQclear(result) }
    switch limelight_PQresultStatus(result) {
    case PGRES_COMMAND_OK, PGRES_TUPLES_OK:
      let columnCount = limelight_PQnfields(result)
      let columns = (0..<columnCount).map { String(cString: limelight_PQfname(result, $0)) }
      let rows = (0..<limelight_PQntuples(result)).map { row in
        (0..<columnCount).map { column -> String? in
          limelight_PQgetisnull(result, row, column) == 1
            ? nil : String(cString: limelight_PQgetvalue(result, row, column))
        }
      }
      return PostgresRows(columns: columns, rows: rows)
    default:
      let state = limelight_PQresultErrorField(result, Int32(UInt8(ascii: "C"))).map {
        String(cString: $0)
      }
      let lost = limelight_PQstatus(connection) != CONNECTION_OK
      throw PostgresError(
        state: state,
        message: PostgresError.oneLine(
          result.map { limelight_PQresultErrorMessage($0) } ?? limelight_PQerrorMessage(connection)),
        unreachable: lost)
    }
  }

  /// The result of one statement, waited for at most ``answerSeconds``
  /// (libpq's `PQexecParams`, in the steps it takes itself, with a
  /// deadline on the wait): the last result the server sent.
  private func answer(_ sql: String, _ parameters: [String?]) throws(PostgresError)
    -> OpaquePointer?
  {
    if let abandoned { throw PostgresError(message: abandoned, unreachable: true) }
    let sent = withOptionalCStrings(parameters) { values in
      limelight_PQsendQueryParams(
        connection, sql, Int32(parameters.count), nil, values, nil, nil, 0)
    }
    guard sent == 1 else {
      throw PostgresError(
        message: PostgresError.oneLine(limelight_PQerrorMessage(connection)), unreachable: true)
    }
    let deadline = answerSeconds.map { Date().addingTimeInterval($0) }
    var last: OpaquePointer?
    while true {
      while limelight_PQisBusy(connection) == 1 {
        let left = deadline?.timeIntervalSinceNow ?? 60
        guard left > 0 else {
          limelight_PQclear(last)
          let reason = "the server did not answer within \(Int(answerSeconds ?? 0)) s"
          abandoned = reason
          throw PostgresError(message: reason, unreachable: true)
        }
        waitForSocket(seconds: left)
        guard limelight_PQconsumeInput(connection) == 1 else { break }
      }
      guard let next = limelight_PQgetResult(connection) else { break }
      limelight_PQclear(last)
      last = next
    }
    return last
  }

  /// Asks the server for the notifications of `channel` on this
  /// connection (``waitForNotification(timeout:)``).
  public func listen(_ channel: String) throws(PostgresError) {
    try execute("LISTEN \(channel)")
  }

  /// Waits at most `timeout` seconds for a notification of a channel this
  /// connection listens to (or one already received while a statement
  /// ran); true when one came. Throws when the connection is lost.
  public func waitForNotification(timeout: Double) throws(PostgresError) -> Bool {
    let deadline = Date().addingTimeInterval(timeout)
    while true {
      guard limelight_PQconsumeInput(connection) == 1 else {
        throw PostgresError(
          message: PostgresError.oneLine(limelight_PQerrorMessage(connection)), unreachable: true)
      }
      var came = false
      while let notice = limelight_PQnotifies(connection) {
        came = true
        limelight_PQfreemem(notice)
      }
      if came { return true }
      let left = deadline.timeIntervalSinceNow
      guard left > 0 else { return false }
      waitForSocket(seconds: left)
    }
  }

  /// Waits at most `seconds` (a minute at a time) for the server to send
  /// something on the connection's socket.
  private func waitForSocket(seconds: Double) {
    var entry = pollfd(fd: limelight_PQsocket(connection), events: Int16(POLLIN), revents: 0)
    _ = poll(&entry, 1, Int32(min(seconds, 60) * 1000) + 1)
  }

  /// Runs `body` in one transaction: committed if it returns, rolled back
  /// if it throws.
  public func transaction<T>(_ body: () throws(PostgresError) -> T) throws(PostgresError) -> T {
    try execute("BEGIN")
    do {
      let value = try body()
      try execute("COMMIT")
      return value
    } catch {
      _ = try? execute("ROLLBACK")
      throw error
    }
  }
}

/// `strings` as a C array of C strings, ending with NULL as libpq's lists
/// of keys and values do, for the length of `body`.
private func withCStrings<T>(
  _ strings: [String], _ body: (UnsafePointer<UnsafePointer<CChar>?>) -> T
) -> T {
  withOptionalCStrings(strings.map { $0 }) { body($0) }
}

private func withOptionalCStrings<T>(
  _ strings: [String?], _ body: (UnsafePointer<UnsafePointer<CChar>?>) -> T
) -> T {
  let copies = strings.map { $0.flatMap { strdup($0) } }
  defer { for copy in copies { free(copy) } }
  let pointers = copies.map { $0.map { UnsafePointer($0) } } + [nil]
  return pointers.withUnsafeBufferPointer { body($0.baseAddress!) }
}
