import Foundation

/// What reading from a hot standby (PostgreSQL streaming replication) asks
/// of the store: where the primary's log stands, whether a standby has
/// replayed that far, and how far behind it is.
extension PostgresIndex {
  /// Connects to read the store `name` from its hot standby `standby`,
  /// when one is named and answers; else from `name` itself, after telling
  /// `away` why the standby was passed over (a sentence for a person).
  /// Whether it reads the standby comes back too.
  public static func reading(
    _ name: String, standby: String?, away: (String) -> Void
  ) throws(PostgresError) -> (index: PostgresIndex, onStandby: Bool) {
    if let standby, standby != name {
      do {
        return (try PostgresIndex(reading: standby), true)
      } catch {
        away("the store's standby cannot be read (\(error)); reading its primary")
      }
    }
    return (try PostgresIndex(reading: name), false)
  }

  /// The primary's last change and where its log stood when it was read:
  /// a standby that has replayed that far holds every entry up to it. The
  /// change is read under the writers' lock, as ``lastChange()`` reads it
  /// (a standby's copy of the counter runs ahead of its commits: sequences
  /// are logged before they are used).
  public func lastChangeAndPosition() throws(PostgresError) -> (change: Int64, position: String) {
    try connection.transaction { () throws(PostgresError) in
      try connection.execute("SELECT pg_advisory_xact_lock_shared(\(Self.writeLock))")
      let row = try connection.execute(
        """
        SELECT CASE WHEN is_called THEN last_value ELSE 0 END, pg_current_wal_lsn()::text
        FROM store_change
        """
      ).rows.first
      guard let change = row?[0].flatMap({ Int64($0) }), let position = row?[1] ?? nil else {
        throw PostgresError(message: "the store's primary told no position of its log")
      }
      return (change, position)
    }
  }

  /// Waits at most `timeout` seconds for this standby to replay the log up
  /// to `position` (a primary's, ``lastChangeAndPosition()``); true when it
  /// has. A primary holds its own log: true at once.
  public func waitForReplay(of position: String, timeout: Double) throws(PostgresError) -> Bool {
    let deadline = Date().addingTimeInterval(timeout)
    while true {
      let replayed =
        try connection.execute(
          """
          SELECT NOT pg_is_in_recovery()
            OR coalesce(pg_last_wal_replay_lsn() >= $1::pg_lsn, false)
          """, [position]
        ).rows.first?.first ?? nil
      if replayed == "t" { return true }
      if Date() >= deadline { return false }
      Thread.sleep(forTimeInterval: 0.005)
    }
  }

  /// How a server a store is read from stands.
  public struct Replication: Equatable, Sendable {
    /// A hot standby (in recovery), not a primary.
    public var isStandby: Bool
    /// Whether it has replayed all the log it received.
    public var caughtUp: Bool
    /// Seconds since the last transaction it replayed was committed on the
    /// primary, while it has log still to replay; nil when caught up or
    /// when it has replayed none.
    public var lagSeconds: Double?
  }

  /// How this server stands: a primary, or a standby and how far behind.
  public func replication() throws(PostgresError) -> Replication {
    let row = try connection.execute(
      """
      SELECT pg_is_in_recovery(),
        coalesce(pg_last_wal_receive_lsn() <= pg_last_wal_replay_lsn(), true),
        extract(epoch FROM now() - pg_last_xact_replay_timestamp())
      """
    ).rows.first
    let isStandby = row?[0] == "t"
    let caughtUp = !isStandby || row?[1] == "t"
    return Replication(
      isStandby: isStandby, caughtUp: caughtUp,
      lagSeconds: caughtUp ? nil : row?[2].flatMap { $0 }.flatMap { Double($0) })
  }
}
