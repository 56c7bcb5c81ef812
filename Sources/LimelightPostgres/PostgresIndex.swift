import Foundation
import LimelightModel
import LimelightPlatform
import LimelightQuery

/// An index kept in a PostgreSQL database that several hosts share: each
/// host writes the entries of its own roots, keyed by host and path, and
/// finds everyone's.
///
/// The store made by the first watcher that connects (see
/// ``PostgresSchema``); one host's erase leaves the others' items.
public final class PostgresIndex {
  let connection: PostgresConnection
  /// The host this process writes as (its name, unless given).
  public let host: String
  /// Words of texts this connection has sent for typos (``SentBatch``):
  /// not sent again, so the server checks each word once, not once a text.
  var textWordsSent: Set<String> = []
  /// The most words remembered; past it the memory starts again.
  static let textWordsRemembered = 500_000
  /// How many pages the names of the best rank, read in their order,
  /// answered (``walk(_:severalWords:_:keep:best:rank:limit:_:passing:)``).
  var pagesInNameOrder = 0
  /// How every tier of names is read, whatever the planner expects (a
  /// test takes each way).
  var forcedWay: WayToRead?
  /// Whether the names a query with filters finds are read from the rows
  /// its filters find, whatever the planner expects (a test takes each way).
  var forcedFiltersFirst: Bool?
  /// How many typed words' close words were read (``closeWords(_:)``).
  var closeWordsAsked = 0
  /// How many times names were read from the rows their filters find
  /// (``readsFiltersFirst(anyWord:filters:_:)``).
  var namesReadFromFilters = 0
  /// The planner's count of the store's entries, and when it was asked
  /// (``expectedEntries()``).
  var entriesExpected: (Double, Date)?
  /// How many pages of texts a slice of short texts answered
  /// (``textsShortFirst(rank:limit:_:_:)``).
  var pagesOfShortTexts = 0
  /// The type each chain of types names first (the entry's own, nil for
  /// none), by the chain's number (store migration `v24-type-chains`):
  /// read once, as a chain never changes (``hits(ofRows:)``).
  var chainTypes: [Int: String?] = [:]

  /// Connects to the store `name` (a URL, `key=value` pairs or
  /// `service=NAME`, as libpq reads them) and brings its tables to this
  /// version's.
  public init(_ name: String, host: String) throws(PostgresError) {
    connection = try PostgresConnection(name)
    self.host = host
    try PostgresSchema.migrate(connection)
  }

  /// Connects to the store `name` to search it, changing nothing: a store
  /// no watcher made yet, or one a newer version upgraded, is refused.
  public init(reading name: String) throws(PostgresError) {
    connection = try PostgresConnection(name)
    host = HostName.system
    try PostgresSchema.check(connection)
  }

  /// An entry as found: where it is, what it is called and what it is.
  public struct Hit: Equatable, Sendable {
    public var host: String
    public var path: RawPath
    public var name: String
    public var isFolder: Bool = false
    public var contentType: String?
    /// Its kind as people read it ("PDF document"), when its host's
    /// importers named one.
    public var kind: String?
    public var size: Int64?
    public var modified: Date?
    /// Higher is better: how well its name holds the words (0 for a text
    /// match alone).
    public var rank: Double = 0
    /// An application item's domain (its `path` then holds its URI); nil
    /// for a file.
    public var domain: String?
    /// A file's `file://HOST/path` (RFC 8089): the host that holds it
    /// names it; an application item's own URI.
    public var uri: String { PostgresIndex.uri(host: host, path: path, domain: domain) }
  }

  /// A file's `file://HOST/path`, an application item's own URI (the
  /// store keeps it as its `path`).
  static func uri(host: String, path: RawPath, domain: String?) -> String {
    domain == nil ? uri(host: host, path: path) : path.string
  }

  /// `file://HOST/path` (RFC 8089).
  public static func uri(host: String, path: RawPath) -> String {
    "file://" + FileURI.percentEncoded(host) + FileURI.uri(for: path).dropFirst("file://".count)
  }

  /// What this host's rows reflect: its local index (by identity) up to
  /// a generation, and the mark of its last whole resend.
  public struct Following: Equatable, Sendable {
    public var indexID: String
    public var generation: Int64
    public init(indexID: String, generation: Int64) {
      (self.indexID, self.generation) = (indexID, generation)
    }
  }

  /// What this host's rows reflect (nil before a whole resend recorded
  /// it), and the mark its rows carry.
  public func following() throws(PostgresError) -> (following: Following?, sweep: Int64) {
    let row = try connection.execute(
      "SELECT index_id, generation, sweep FROM host WHERE name = $1", [host]
    ).rows.first
    let sweep = row.flatMap { $0[2] }.flatMap { Int64($0) } ?? 0
    guard let row, let id = row[0], let generation = row[1].flatMap({ Int64($0) }) else {
      return (nil, sweep)
    }
    return (Following(indexID: id, generation: generation), sweep)
  }

  /// The hosts that have written, by name.
  public func hosts() throws(PostgresError) -> [SharedStoreHost] {
    try connection.execute(
      """
      SELECT h.name, (SELECT count(*) FROM item i WHERE i.host = h.name),
        extract(epoch FROM h.last_contact)
      FROM host h ORDER BY h.name
      """
    ).rows.map {
      SharedStoreHost(
        name: $0[0] ?? "", entries: Int($0[1] ?? "") ?? 0,
        lastContact: $0[2].flatMap { Double($0) }.map { Date(timeIntervalSince1970: $0) })
    }
  }

  /// The bytes of `encode(…, 'hex')`'s text (a meaning search reads a
  /// thousand vectors of them).
  static func bytes(fromHex hex: String) -> [UInt8] {
    let digits = Array(hex.utf8)
    let value = { (digit: UInt8) -> UInt8 in
      switch digit {
      case UInt8(ascii: "0")...UInt8(ascii: "9"): digit - UInt8(ascii: "0")
      case UInt8(ascii: "a")...UInt8(ascii: "f"): digit - UInt8(ascii: "a") + 10
      case UInt8(ascii: "A")...UInt8(ascii: "F"): digit - UInt8(ascii: "A") + 10
      default: 0
      }
    }
    return stride(from: 0, to: digits.count - 1, by: 2).map {
      value(digits[$0]) << 4 | value(digits[$0 + 1])
    }
  }
}

extension PostgresIndex.Hit {
  /// The entry a host wrote at `path` (an application item's URI, with
  /// its `domain`), as a search would find it.
  public init(host: String, path: RawPath, name: String, domain: String?) {
    self.init(host: host, path: path, name: name, isFolder: false, domain: domain)
  }
}
