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
    ),
    (
      "v22-text-words-once",
      // The words of each distinct text indexed once, with the text, and
      // no longer once for every entry that names it: a team's hosts hold
      // many of the same files (three hosts of one pool, 267,000 entries
      // with a text and 51,000 distinct texts: the entries' words' index
      // took 1,510 bytes an entry, 4,058 in all; the texts' takes 630).
      // An entry holds a word when its name (`name_vector`) or its text
      // does (``PostgresQuery/textsHolding(_:longest:)``).
      [
        // A text's words, counted as its host counts them into its
        // entries' (which add their names' and paths' words): the slices
        // of short texts are asked of the texts of at most as many.
        """
        ALTER TABLE item_text ADD COLUMN word_count integer
          GENERATED ALWAYS AS (cardinality(string_to_array(content, ' '))) STORED
        """,
        "CREATE INDEX item_text_words ON item_text USING gin (\(textWordsInV22))",
      ]
        + [64, 128, 256].map { words in
          """
          CREATE INDEX item_text_words_\(words) ON item_text USING gin (\(textWordsInV22))
            WHERE word_count <= \(words)
          """
        } + [
          // The texts that hold a query's words, of at most `longest`
          // words (NULL: any), read as the store's owner: a reader is
          // granted the entries, and finds those that name them that it
          // may see. A branch a slice, so that each reads its own index.
          """
          CREATE FUNCTION limelight_texts_holding(words tsquery, longest integer)
          RETURNS SETOF bytea
          LANGUAGE sql STABLE PARALLEL SAFE SECURITY DEFINER ROWS 1000
          SET search_path = pg_catalog, public
          AS $$
            SELECT hash FROM item_text WHERE longest IS NULL AND \(textWordsInV22) @@ words
            UNION ALL SELECT hash FROM item_text
              WHERE longest = 64 AND \(textWordsInV22) @@ words AND word_count <= 64
            UNION ALL SELECT hash FROM item_text
              WHERE longest = 128 AND \(textWordsInV22) @@ words AND word_count <= 128
            UNION ALL SELECT hash FROM item_text
              WHERE longest = 256 AND \(textWordsInV22) @@ words AND word_count <= 256
            UNION ALL SELECT hash FROM item_text
              WHERE longest NOT IN (64, 128, 256) AND \(textWordsInV22) @@ words
                AND word_count <= longest
          $$
          """,
          // A reader sees the words of the names and texts it may read.
          "DROP POLICY readers ON text_word",
          """
          CREATE POLICY readers ON text_word FOR SELECT
            USING (EXISTS (SELECT FROM item WHERE name_vector @@ quote_literal(word)::tsquery)
              OR EXISTS (SELECT FROM item WHERE text_hash IN (
                SELECT limelight_texts_holding(quote_literal(word)::tsquery, NULL))))
          """,
          "DROP INDEX item_words",
        ] + [64, 128, 256].map { "DROP INDEX item_words_\($0)" }
    ),
  ]

  /// The words of a text kept once, with its pairs of common words, as
  /// migration `v22-text-words-once` indexed them.
  static let textWordsInV22 = "limelight_words(content || ' ' || pair_words)"
}
