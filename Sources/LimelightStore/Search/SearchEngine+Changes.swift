import Foundation
import GRDB
import LimelightModel
import LimelightPlatform
import LimelightQuery

/// What front ends ask of items they showed: one by its URI, and what
/// changed or went away since a generation (`find-in --live`).
extension SearchEngine {
  /// The item a URI names, as a result (for front ends that hand out URIs as
  /// ids and act on them later); nil when the index no longer holds it.
  public func result(uri: String) throws -> SearchResult? {
    try store.read { db in
      if let path = FileURI.path(from: uri),
        let row = try Row.fetchOne(
          db, sql: "SELECT \(Self.columns), 0.0 AS score FROM item WHERE path = ?",
          arguments: [Data(path.bytes)])
      {
        return Self.result(row)
      }
      return try Row.fetchOne(
        db, sql: "SELECT \(Self.columns), 0.0 AS score FROM item WHERE storedURI = ?",
        arguments: [uri]
      ).map(Self.result)
    }
  }

  /// Items removed after a generation: (id, uri) pairs, for `--live` followers.
  public func removals(after generation: Int64) throws -> [(id: String, uri: String)] {
    try store.read { db in
      try Row.fetchAll(
        db, sql: "SELECT id, uri FROM removal WHERE generation > ? ORDER BY generation",
        arguments: [generation]
      ).map { (id: $0["id"], uri: $0["uri"]) }
    }
  }

  /// The ids of the items written after a generation.
  public func changedIDs(after generation: Int64) throws -> [String] {
    try store.read { db in
      try String.fetchAll(
        db, sql: "SELECT id FROM item WHERE generation > ?", arguments: [generation])
    }
  }

  /// Of these ids, the ones whose items still exist.
  public func existing(ids: [String]) throws -> Set<String> {
    guard !ids.isEmpty else { return [] }
    return try store.read { db in
      var found: Set<String> = []
      try forEachParameterSlice(of: ids) { slice, marks in
        found.formUnion(
          try String.fetchAll(
            db, sql: "SELECT id FROM item WHERE id IN (\(marks))",
            arguments: StatementArguments(slice)))
      }
      return found
    }
  }
}
