import Foundation
import LimelightModel
import LimelightPlatform
import LimelightQuery

/// What a follower (`find-in --live`) asks of the store: its last change,
/// a wait for the next, and what changed since one.
extension PostgresIndex {
  /// The store's last change (any host's write or removal): a follower
  /// asks for what came after it.
  public func lastChange() throws(PostgresError) -> Int64 {
    // Writers number their rows under the lock: once it is had, every
    // number up to the last is committed, and no later read misses one.
    try connection.transaction { () throws(PostgresError) in
      try connection.execute("SELECT pg_advisory_xact_lock_shared(\(Self.writeLock))")
      return try connection.execute(
        "SELECT CASE WHEN is_called THEN last_value ELSE 0 END FROM store_change"
      ).rows.first?.first.flatMap { $0 }.flatMap { Int64($0) } ?? 0
    }
  }

  /// The lock each write transaction holds, shared by followers while they
  /// read the last change: "LIMELIGW" in ASCII.
  static let writeLock: Int64 = 0x4C49_4D45_4C49_4757

  /// Takes the writers' lock for the rest of the transaction, and tells
  /// followers (``waitForChange(timeout:)``) when it commits: PostgreSQL
  /// delivers a notification at its transaction's commit, and never one of
  /// a transaction rolled back.
  func lockWrites() throws(PostgresError) {
    try connection.execute(
      "SELECT pg_advisory_xact_lock(\(Self.writeLock)), pg_notify('\(Self.changeChannel)', '')")
  }

  /// The channel a write's commit is told on.
  static let changeChannel = "limelight_change"

  /// Listens for the store's writes (any host's), which
  /// ``waitForChange(timeout:)`` then waits for.
  public func listenForChanges() throws(PostgresError) {
    try connection.listen(Self.changeChannel)
  }

  /// Waits at most `timeout` seconds for a write to the store to commit;
  /// true when one did. A writer of an older version tells nothing: the
  /// timeout bounds how late its writes are seen.
  public func waitForChange(timeout: Double) throws(PostgresError) -> Bool {
    try connection.waitForNotification(timeout: timeout)
  }

  /// The entries written after change `change` that `query` finds, and
  /// the URIs of those written or removed after it, matching or not.
  public func changes(
    after change: Int64, matching query: QueryNode
  ) throws(PostgresError) -> (matching: [Hit], touched: [String]) {
    let matching = try search(
      .and([query, .filter(.changedAfter(generation: change))]), limit: nil)
    let touched = try connection.execute(
      """
      SELECT host, encode(path, 'hex'), domain FROM item WHERE change > $1::bigint
      UNION ALL SELECT host, encode(path, 'hex'), domain FROM removal WHERE change > $1::bigint
      """, [String(change)]
    ).rows.map {
      Self.uri(
        host: $0[0] ?? "", path: RawPath(bytes: Self.bytes(fromHex: $0[1] ?? "")), domain: $0[2])
    }
    return (matching, touched)
  }
}
