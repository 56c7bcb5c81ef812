extension Schema {
  /// The steps that bring an index from ``oldestUpgraded`` to ``current``,
  /// in order, each literal SQL, never changed once shipped; an index runs
  /// those it does not list yet. None yet: v27 changed which pairs
  /// of words the text index holds, and the indexes before it are built
  /// anew.
  static let upgrades: [(name: String, sql: String)] = []
}
