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
      // took 1,510 bytes an entry, 4,058 in all; the texts' takes 510).
      // An entry holds a word when its name (`name_vector`) or its text
      // does (``PostgresQuery/textsHolding(_:longest:)``).
      [
        // What read the entries' words: the index and its slices, the
        // policy of the texts' words, and the function that gave an
        // entry's text's words; the name's words as text (its vector
        // holds them) and the pairs kept beside each text, which only
        // that index read.
        "DROP POLICY readers ON text_word",
        "DROP INDEX item_words",
      ] + [64, 128, 256].map { "DROP INDEX item_words_\($0)" } + [
        "DROP FUNCTION limelight_text_words(bytea)",
        "ALTER TABLE item DROP COLUMN name_words",
        "ALTER TABLE item_text DROP COLUMN pair_words",
        // A text's words, counted as its host counts them into its
        // entries' (which add their names' and paths' words): the slices
        // of short texts are asked of the texts of at most as many.
        // (Adding it writes the texts again, without their pairs.)
        """
        ALTER TABLE item_text ADD COLUMN word_count integer
          GENERATED ALWAYS AS (cardinality(string_to_array(content, ' '))) STORED
        """,
        // The entries written again without their names' words (a column
        // dropped keeps its bytes in each row until then), in their keys'
        // order: 9 s for 300,000 entries.
        "CLUSTER item USING item_pkey",
        // The pairs of common words a text holds (`the+quick`), made by
        // the server from its words as a phrase asks for them
        // (``PostgresWords/pairs(of:)``) rather than kept beside them (142
        // bytes an entry): the index holds them, no phrase reads them.
        // Those that end in a common word (`of+the`) are left out, as the
        // local text index leaves them out: 1.2 of 6.1 million pairs. What
        // the hosts send of them still goes into the text's hash.
        """
        CREATE FUNCTION limelight_pair_words(content text) RETURNS text
        LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
        AS $$ SELECT coalesce(string_agg(DISTINCT w || '+' || n, ' '), '')
          FROM (SELECT string_to_array(content, ' ') AS a) AS s, unnest(a, a[2:]) AS t(w, n)
          WHERE w = ANY ('\(PostgresQuery.array(PostgresWords.commonWords.sorted()))'::text[])
            AND NOT n = ANY ('\(PostgresQuery.array(PostgresWords.commonWords.sorted()))'::text[])
            AND octet_length(n) = length(n) $$
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
          """
          CREATE POLICY readers ON text_word FOR SELECT
            USING (EXISTS (SELECT FROM item WHERE name_vector @@ quote_literal(word)::tsquery)
              OR EXISTS (SELECT FROM item WHERE text_hash IN (
                SELECT limelight_texts_holding(quote_literal(word)::tsquery, NULL))))
          """,
        ]
    ),
    (
      "v23-name-words-by-their-keys",
      [
        // Which words of names the store holds is read from their keys
        // for typos, each word kept under its own first letters
        // (``PostgresIndex/write(_:removing:sweep:following:)``): the list
        // of the words beside them took 54 bytes an entry.
        "DROP TABLE name_word"
      ]
    ),
    (
      "v24-type-chains",
      [
        // Each distinct chain of types an entry's type conforms to, with
        // the kinds its host made of it, kept once (a few hundred in a
        // team's store), each entry naming its own: every row kept both
        // whole (111 bytes an entry) and three indexes of them.
        """
        CREATE TABLE type_chain (
          id serial PRIMARY KEY,
          types text[] NOT NULL,
          kinds text[] NOT NULL,
          UNIQUE (types, kinds))
        """,
        "INSERT INTO type_chain (types, kinds) SELECT DISTINCT content_types, kinds FROM item",
        // The chain of `types` and `kinds`, as the writers name it.
        """
        CREATE FUNCTION limelight_type_chain(types text[], kinds text[]) RETURNS integer
        LANGUAGE sql STABLE STRICT PARALLEL SAFE
        AS $$ SELECT c.id FROM type_chain AS c
          WHERE c.types = limelight_type_chain.types AND c.kinds = limelight_type_chain.kinds $$
        """,
        "DROP INDEX item_types",
        "DROP INDEX item_kinds",
        "DROP INDEX item_type_groups",
        // The kinds' column made the chain's, in one writing of the table
        // (an update of every row, then the table written again in the
        // same transaction, kept both versions of each); and the writer's
        // role kept only by an application's item, which only its writer
        // finds (a file is found by who may list its folder).
        "DROP POLICY readers ON item",
        """
        ALTER TABLE item ALTER COLUMN kinds DROP DEFAULT,
          ALTER COLUMN kinds TYPE integer USING limelight_type_chain(content_types, kinds),
          DROP COLUMN content_types,
          ALTER COLUMN writer DROP NOT NULL, ALTER COLUMN writer DROP DEFAULT,
          ALTER COLUMN writer TYPE text USING (CASE WHEN domain IS NULL THEN NULL ELSE writer END)
        """,
        "ALTER TABLE item RENAME COLUMN kinds TO type_chain",
        "CREATE POLICY readers ON item FOR SELECT USING (\(readable))",
        // `kind:` and `type:` read the entries of the chains that match
        // (few rows each: the index keeps each chain's entries once).
        "CREATE INDEX item_type_chain ON item (type_chain)",
        // The chains whose types hold all of `with_types`, whose kinds
        // hold all of `with_kinds`, whose groups of types (`image/*`)
        // hold all of `in_groups`, or of whose types one is LIKE
        // `types_like` (each NULL: any), read as the store's owner: a
        // reader is granted the entries alone.
        """
        CREATE FUNCTION limelight_type_chains(
          with_types text[], with_kinds text[], in_groups text[], types_like text)
        RETURNS integer[]
        LANGUAGE sql STABLE PARALLEL SAFE SECURITY DEFINER
        SET search_path = pg_catalog, public
        AS $$ SELECT coalesce(array_agg(c.id), '{}') FROM type_chain AS c
          WHERE (with_types IS NULL OR c.types @> with_types)
            AND (with_kinds IS NULL OR c.kinds @> with_kinds)
            AND (in_groups IS NULL OR limelight_type_groups(c.types) @> in_groups)
            AND (types_like IS NULL
              OR EXISTS (SELECT FROM unnest(c.types) AS t WHERE t LIKE types_like)) $$
        """,
        // A chain's types (the entry's own first) and kinds.
        """
        CREATE FUNCTION limelight_chain_types(chain integer) RETURNS text[]
        LANGUAGE sql STABLE STRICT PARALLEL SAFE SECURITY DEFINER
        SET search_path = pg_catalog, public
        AS $$ SELECT c.types FROM type_chain AS c WHERE c.id = chain $$
        """,
        """
        CREATE FUNCTION limelight_chain_kinds(chain integer) RETURNS text[]
        LANGUAGE sql STABLE STRICT PARALLEL SAFE SECURITY DEFINER
        SET search_path = pg_catalog, public
        AS $$ SELECT c.kinds FROM type_chain AS c WHERE c.id = chain $$
        """,
      ]
    ),
    (
      "v25-path-words-from-paths",
      [
        // A path's words where they are its bytes' words (a path of
        // ASCII, lower-cased and split at all but letters and digits:
        // most paths) read from the path (``PostgresQuery/pathWordsText``)
        // and not kept beside it: 76 bytes an entry.
        """
        CREATE FUNCTION limelight_ascii_path_words(path bytea) RETURNS text
        LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
        AS $$ SELECT btrim(regexp_replace(translate(encode(path, 'escape'),
          'ABCDEFGHIJKLMNOPQRSTUVWXYZ', 'abcdefghijklmnopqrstuvwxyz'), '[^a-z0-9]+', ' ', 'g'), ' ') $$
        """,
        // Made again on the words' new expression, once the table is.
        "DROP INDEX item_path_words",
        """
        ALTER TABLE item ALTER COLUMN path_words DROP NOT NULL,
          ALTER COLUMN path_words DROP DEFAULT,
          ALTER COLUMN path_words TYPE text
            USING (\(PostgresQuery.pathWordsKept(words: "path_words", path: "path")))
        """,
        "CREATE INDEX item_path_words ON item USING gin (\(PostgresQuery.pathWords))",
      ]
    ),
  ]

  /// The words of a text kept once, with its pairs of common words, as
  /// migration `v22-text-words-once` indexed them.
  static let textWordsInV22 = "limelight_words(content || ' ' || limelight_pair_words(content))"
}
