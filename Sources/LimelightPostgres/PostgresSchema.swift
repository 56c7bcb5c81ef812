/// The PostgreSQL store's tables, made and upgraded by whichever watcher
/// connects first, versioned as the SQLite index's are: migrations run in
/// order, each once, recorded by name.
enum PostgresSchema {
  /// Migrations in the order they run; never edit one that has shipped.
  static let migrations = whatIsKept + howItIsSearched + howItIsKeptSmall

  /// Who finds a row: a file, the readers whose Unix user could list its
  /// folder; an application item, the role that wrote it.
  static let readable = """
    CASE WHEN domain IS NULL THEN limelight_may_read(host, reach, current_user)
      ELSE writer = current_user END
    """

  /// Brings the database's tables to this version's. Several watchers
  /// starting at once take turns (a transaction-wide advisory lock), and a
  /// database a newer version upgraded is refused rather than misread.
  /// `before`: the migrations before that one alone (a store an older
  /// version made, for the tests of upgrading it).
  static func migrate(_ connection: PostgresConnection, before: String? = nil)
    throws(PostgresError)
  {
    // A step over every row of a large store takes what it takes.
    connection.answerSeconds = nil
    defer { connection.answerSeconds = PostgresConnection.answerSeconds }
    try connection.transaction { () throws(PostgresError) in
      try connection.execute("SELECT pg_advisory_xact_lock(\(lockKey))")
      try connection.execute(
        """
        CREATE TABLE IF NOT EXISTS limelight_migration (
          name text PRIMARY KEY, applied timestamptz NOT NULL DEFAULT now())
        """)
      let applied = Set(
        try connection.execute("SELECT name FROM limelight_migration").rows.compactMap { $0[0] })
      let known = Set(migrations.map(\.name))
      if let newer = applied.subtracting(known).sorted().first {
        throw PostgresError(
          message:
            "the PostgreSQL store was upgraded by a newer version of Limelight (\(newer)): "
            + "upgrade this one")
      }
      for migration in migrations.prefix(while: { $0.name != before })
      where !applied.contains(migration.name) {
        for statement in migration.sql { try connection.execute(statement) }
        try connection.execute(
          "INSERT INTO limelight_migration (name) VALUES ($1)", [migration.name])
      }
    }
  }

  /// Checks, without changing anything, that the database holds a store
  /// this version reads: made, at this version's migrations.
  static func check(_ connection: PostgresConnection) throws(PostgresError) {
    let made = try connection.execute("SELECT to_regclass('limelight_migration') IS NOT NULL")
    let applied =
      made.rows.first?.first == "t"
      ? try connection.execute("SELECT name FROM limelight_migration").rows.compactMap { $0[0] }
      : []
    let known = Set(migrations.map(\.name))
    if Set(applied).subtracting(known).first != nil {
      throw PostgresError(
        message:
          "the PostgreSQL store was upgraded by a newer version of Limelight: upgrade this one")
    }
    if !known.isSubset(of: applied) {
      throw PostgresError(
        message: beingUpgraded(connection)
          ? "the PostgreSQL store is being upgraded by a watcher (minutes at a large store): "
            + "search again when it is done"
          : "the PostgreSQL store holds no Limelight index of this version yet: "
            + "start limelightd with it, which makes and upgrades it")
    }
  }

  /// Whether a watcher holds the migrations' lock (``migrate(_:)``): one
  /// that upgrades a large store holds it for minutes, and what it has
  /// done is not seen until it is done. False when it cannot be told (a
  /// standby, whose primary holds the lock).
  static func beingUpgraded(_ connection: PostgresConnection) -> Bool {
    let held = try? connection.execute("SELECT pg_try_advisory_lock_shared(\(lockKey))").rows
      .first?.first
    if held == "t" { _ = try? connection.execute("SELECT pg_advisory_unlock_shared(\(lockKey))") }
    return held == "f"
  }

  /// The advisory lock's key: "LIMELIGH" in ASCII, so that no other
  /// program's lock is taken by chance.
  static let lockKey: Int64 = 0x4C49_4D45_4C49_4748
}
