import Foundation
import GRDB
import LimelightModel
import LimelightPlatform

/// A durable request to the watcher. It is stored in the index, so one made
/// while the watcher is down is carried out when it starts.
public struct IndexRequest: Sendable, Equatable {
  public enum Kind: String, Sendable {
    /// Re-read the listed paths (and everything below folders among them).
    case paths
    /// Re-read every file under every root.
    case all
    case pause, resume
    /// Forget every item and crawl again; extensions reindex their domains.
    case erase
    /// Have a domain's reindex extension reindex all of it, or the listed ids.
    case domain
    /// Forget the items of a domain (and below), then have its extension reindex it.
    case eraseDomain
  }

  public var id: Int64
  public var kind: Kind
  public var paths: [RawPath]
  /// The domain of a `domain` or `eraseDomain` request.
  public var domain: String?
  /// The ids of a `domain` request (none: all of them).
  public var ids: [String] = []
  public var created: Date
  /// The generation that carried it out, once it has been.
  public var doneGeneration: Int64?
  public var outcome: RequestOutcome?
}

extension IndexStore {
  /// Stores a request and wakes the watcher. Returns the request's id.
  @discardableResult
  public func submit(
    _ kind: IndexRequest.Kind, paths: [RawPath] = [], domain: String? = nil, ids: [String] = []
  ) throws -> Int64 {
    let payload =
      try domain.map { try JSONSerialization.data(withJSONObject: ["domain": $0, "ids": ids]) }
      ?? JSONSerialization.data(withJSONObject: paths.map { $0.bytes.map(Int.init) })
    let id = try pool.write { db -> Int64 in
      try db.execute(
        sql: "INSERT INTO request (kind, payload, created) VALUES (?, ?, ?)",
        arguments: [
          kind.rawValue, String(decoding: payload, as: UTF8.self), Date().timeIntervalSince1970,
        ])
      return db.lastInsertedRowID
    }
    wakeWatcher()
    return id
  }

  /// Touches the wake-up file the watcher listens to.
  public func wakeWatcher() {
    try? FileSystem.makeDirectories(location.runtimeDirectory, mode: 0o700)
    FileSystem.touch(location.wakePath)
  }

  /// Requests not yet carried out, oldest first.
  public func pendingRequests() throws -> [IndexRequest] {
    try read { db in
      try Row.fetchAll(db, sql: "SELECT * FROM request WHERE doneGeneration IS NULL ORDER BY id")
        .compactMap(Self.request)
    }
  }

  /// One request by id.
  public func request(id: Int64) throws -> IndexRequest? {
    try read { db in
      try Row.fetchOne(db, sql: "SELECT * FROM request WHERE id = ?", arguments: [id]).flatMap(
        Self.request)
    }
  }

  static func request(_ row: Row) -> IndexRequest? {
    guard let kind = IndexRequest.Kind(rawValue: row["kind"]) else { return nil }
    var paths: [RawPath] = []
    var domain: String?
    var ids: [String] = []
    if let text: String = row["payload"], let data = text.data(using: .utf8) {
      let payload = try? JSONSerialization.jsonObject(with: data)
      if let arrays = payload as? [[Int]] {
        paths = arrays.map { RawPath(bytes: $0.map { UInt8(truncatingIfNeeded: $0) }) }
      } else if let object = payload as? [String: Any] {
        domain = object["domain"] as? String
        ids = object["ids"] as? [String] ?? []
      }
    }
    return IndexRequest(
      id: row["id"], kind: kind, paths: paths, domain: domain, ids: ids,
      created: Date(timeIntervalSince1970: row["created"]), doneGeneration: row["doneGeneration"],
      outcome: RequestOutcome.stored(row["outcome"]))
  }

  /// Forgets requests carried out more than a day ago.
  public func pruneRequests() throws {
    try pool.write { db in
      try db.execute(
        sql: "DELETE FROM request WHERE doneGeneration IS NOT NULL AND created < ?",
        arguments: [Date().timeIntervalSince1970 - 86_400])
    }
  }
}
