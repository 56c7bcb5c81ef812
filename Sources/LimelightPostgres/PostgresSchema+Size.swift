/// The migrations that made the store smaller without changing what it
/// answers (v21 on).
extension PostgresSchema {
  static let howItIsKeptSmall: [(name: String, sql: [String])] = [
    (
      "v21-slimmer-rows",
      [
        // Who may read a row reads the writer's name, whose type changes.
        "DROP POLICY readers ON item",
        "DROP POLICY readers ON removal",
        // `in:` reads each host's range of the primary key instead
        // (``PostgresQuery/pathOnEveryHost``): the index of paths alone
        // took about 150 bytes an entry.
        "DROP INDEX item_path",
        // The writer's role as text, not as a `name` (64 bytes a row
        // whatever it holds); the path's text only where it is not the
        // path's bytes as UTF-8 (``PostgresQuery/pathText``), about 70
        // bytes a row; the depth, and the rank made of it, counted from
        // the path's bytes. One rewrite of the table.
        """
        ALTER TABLE item DROP COLUMN name_rank, DROP COLUMN depth,
          ALTER COLUMN writer TYPE text,
          ALTER COLUMN path_text DROP NOT NULL,
          ALTER COLUMN path_text TYPE text
            USING (\(PostgresQuery.pathTextKept(text: "path_text", path: "path"))),
          ADD COLUMN depth integer GENERATED ALWAYS AS (\(PostgresIndex.depthOfPath)) STORED,
          ADD COLUMN name_rank float8
            GENERATED ALWAYS AS ((\(PostgresIndex.staticNameRank()))::float8) STORED
        """,
        "ALTER TABLE removal ALTER COLUMN writer TYPE text",
        "CREATE POLICY readers ON item FOR SELECT USING (\(readable))",
        "CREATE POLICY readers ON removal FOR SELECT USING (\(readable))",
        // Those of v9 and v16, gone with the columns they ordered by.
        "CREATE INDEX item_order ON item (depth, modified DESC NULLS LAST)",
        "CREATE INDEX item_names_order ON item (name_rank, modified DESC NULLS LAST)",
      ]
    )
  ]
}
