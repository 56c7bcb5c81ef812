/// The migrations that made searching fast: the ranks kept with each
/// entry, the indexes of types, extensions, short texts, sizes, paths'
/// words, the names' order and the changes' times, and each text kept
/// once (v9 on).
extension PostgresSchema {
  static let howItIsSearched: [(name: String, sql: [String])] = [
    (
      "v9-ranks",
      [
        // What ranks an entry whatever the query, kept with it as the local
        // index keeps `item.nameRank`: its folders' depth, and its name's
        // rank apart from a recent change. A query ordered a broad match
        // by the rank computed for each row (numeric arithmetic on the
        // name's length: two thirds of `gz` at 100,000 entries, 83,000
        // names).
        """
        ALTER TABLE item
          ADD COLUMN depth integer GENERATED ALWAYS AS (\(depthInV9)) STORED,
          ADD COLUMN name_rank float8 GENERATED ALWAYS AS ((\(PostgresIndex.staticNameRank(depth: depthInV9)))::float8) STORED
        """,
        // What changed this week, listed by its order (``PostgresIndex/byRecency(_:_:)``).
        "CREATE INDEX item_order ON item (depth, modified DESC NULLS LAST)",
      ]
    ),
    (
      "v10-type-groups",
      [
        // The groups of an entry's types (`image/*` for `image/png`), for
        // `type:image/*`: its index answers what a LIKE over every row's
        // types read the whole table for (150 ms at 100,000 entries for
        // 217 images).
        """
        CREATE FUNCTION limelight_type_groups(types text[]) RETURNS text[]
        LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
        AS $$ SELECT coalesce(array_agg(DISTINCT split_part(t, '/', 1) || '/*'), '{}')
          FROM unnest(types) AS t $$
        """,
        "CREATE INDEX item_type_groups ON item USING gin (limelight_type_groups(content_types))",
      ]
    ),
    (
      "v11-name-rank",
      [
        // Names of the best rank for a word many hold, read in their order
        // (``PostgresIndex/walk(_:severalWords:_:keep:best:rank:limit:_:passing:)``).
        "CREATE INDEX item_name_rank ON item (name_rank)"
      ]
    ),
    (
      "v12-extensions",
      [
        // What follows a name's last dot, in lower case (nil without a
        // dot), for `ext:`: its index answers what a LIKE over every row's
        // name read the whole table for (`ext:pdf`: 60-130 ms at 100,000
        // entries).
        """
        CREATE FUNCTION limelight_extension(name text) RETURNS text
        LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
        AS $$ SELECT lower(substring(name FROM '\\.([^.]*)$')) $$
        """,
        "CREATE INDEX item_extension ON item (limelight_extension(name))",
      ]
    ),
    (
      "v13-short-texts",
      // The words of short texts, which rank first among the texts that
      // hold a word (``PostgresIndex/shortTextSlices``; these two then).
      slicesOfV13.map { words in
        """
        CREATE INDEX item_words_\(words) ON item USING gin (\(allWordsInTheRow))
          WHERE \(PostgresIndex.inShortTexts(words))
        """
      }
    ),
    (
      "v14-sizes",
      [
        // `size:>1M`: the few files over a size read from their index (an
        // index of the order, filtered row by row, read 25,000 entries to
        // find 58 of 100,000).
        "CREATE INDEX item_size ON item (size)"
      ]
    ),
    (
      "v15-path-words",
      [
        // The words of a path (as its host folded them, one space apart),
        // each a lexeme as it is: a word typed begins one when the
        // lexeme begins with it.
        """
        CREATE FUNCTION limelight_path_words(words text) RETURNS tsvector
        LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
        AS $$ SELECT array_to_tsvector(array_remove(string_to_array(words, ' '), '')) $$
        """,
        // A typed word in the path (each word of a query read into
        // filters: "photos from last week"), found by its index.
        "CREATE INDEX item_path_words ON item USING gin (limelight_path_words(path_words))",
      ]
    ),
    (
      "v16-names-order",
      [
        // Names alike in rank, the newest first, as a walk reads them: the
        // index of the rank alone left the walk to sort every name of the
        // rank it stopped in (a tenth of the names were of one length and
        // depth: 17,000 rows read for 155 of a prefix).
        "CREATE INDEX item_names_order ON item (name_rank, modified DESC NULLS LAST)",
        "DROP INDEX item_name_rank",
      ]
    ),
    (
      "v17-texts-once",
      [
        // Each distinct text, with its pairs of common words, kept once
        // under its SHA-256, which entries name: a team's hosts hold many
        // of the same files (three hosts of one pool held 268,000 texts,
        // 51,000 of them distinct: 4,400 bytes an entry of 8,700).
        """
        CREATE TABLE item_text (
          hash bytea PRIMARY KEY,
          content text NOT NULL,
          pair_words text NOT NULL)
        """,
        """
        DO $$ BEGIN
          EXECUTE 'ALTER TABLE item_text ALTER COLUMN content SET COMPRESSION lz4';
        EXCEPTION WHEN others THEN NULL;
        END $$
        """,
        """
        CREATE FUNCTION limelight_text_hash(content text, pair_words text) RETURNS bytea
        LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
        AS $$ SELECT sha256(convert_to(content, 'UTF8') || decode('00', 'hex')
          || convert_to(pair_words, 'UTF8')) $$
        """,
        // A text by its hash, and its words with its pairs (what the words'
        // index holds of it). Immutable though they read a table: a hash
        // names one text for ever, and a text goes only when no entry
        // names it. Run as the store's owner, so that a reader needs no
        // grant of the table: it reads the texts of the entries it may
        // see, by their hashes.
        """
        CREATE FUNCTION limelight_text(hash bytea) RETURNS text
        LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE SECURITY DEFINER
        SET search_path = pg_catalog, public
        AS $$ SELECT t.content FROM item_text AS t WHERE t.hash = limelight_text.hash $$
        """,
        """
        CREATE FUNCTION limelight_text_words(hash bytea) RETURNS text
        LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE SECURITY DEFINER
        SET search_path = pg_catalog, public
        AS $$ SELECT t.content || ' ' || t.pair_words FROM item_text AS t
          WHERE t.hash = limelight_text_words.hash $$
        """,
        """
        INSERT INTO item_text
        SELECT DISTINCT ON (hash) limelight_text_hash(text_content, pair_words) AS hash,
          text_content, pair_words
        FROM item WHERE text_content IS NOT NULL
        """,
        // The indexes and the policy made of the texts in the rows, made
        // again of the texts by hash.
        "DROP INDEX item_words",
      ]
        + slicesOfV13.map { "DROP INDEX item_words_\($0)" } + [
          "DROP POLICY readers ON text_word",
          "ALTER TABLE item ADD COLUMN text_hash bytea REFERENCES item_text (hash)",
          """
          UPDATE item SET text_hash = limelight_text_hash(text_content, pair_words)
          WHERE text_content IS NOT NULL
          """,
          "ALTER TABLE item DROP COLUMN text_content, DROP COLUMN pair_words",
          "CREATE INDEX item_text_hash ON item (text_hash)",
          "CREATE INDEX item_words ON item USING gin (\(entriesWordsInV17))",
        ]
        + slicesOfV13.map { words in
          """
          CREATE INDEX item_words_\(words) ON item USING gin (\(entriesWordsInV17))
            WHERE \(PostgresIndex.inShortTexts(words))
          """
        } + [
          """
          CREATE POLICY readers ON text_word FOR SELECT
            USING (EXISTS (SELECT FROM item
              WHERE \(entriesWordsInV17) @@ quote_literal(word)::tsquery))
          """,
          // A text no entry names any more goes with the last that did:
          // the entries' writes are one at a time (``PostgresIndex/lockWrites()``),
          // so none names it again meanwhile.
          """
          CREATE FUNCTION limelight_forget_texts() RETURNS trigger
          LANGUAGE plpgsql AS $$ BEGIN
            DELETE FROM item_text AS t
            WHERE t.hash IN (SELECT text_hash FROM gone)
              AND NOT EXISTS (SELECT FROM item WHERE item.text_hash = t.hash);
            RETURN NULL;
          END $$
          """,
          """
          CREATE TRIGGER item_texts_replaced AFTER UPDATE ON item
          REFERENCING OLD TABLE AS gone FOR EACH STATEMENT
          EXECUTE FUNCTION limelight_forget_texts()
          """,
          """
          CREATE TRIGGER item_texts_removed AFTER DELETE ON item
          REFERENCING OLD TABLE AS gone FOR EACH STATEMENT
          EXECUTE FUNCTION limelight_forget_texts()
          """,
        ]
    ),
    (
      "v18-descriptions-with-texts",
      [
        // An entry's description kept with its text (most are the text's
        // opening, which the same text gives alike: 211 bytes an entry at
        // three hosts), the hash then made of both; a text without one
        // keeps the hash it had. An entry without a text keeps its own.
        "ALTER TABLE item_text ADD COLUMN description text",
        """
        CREATE FUNCTION limelight_text_hash(content text, pair_words text, description text)
        RETURNS bytea LANGUAGE sql IMMUTABLE PARALLEL SAFE
        AS $$ SELECT CASE WHEN description IS NULL THEN limelight_text_hash(content, pair_words)
          ELSE sha256(convert_to(content, 'UTF8') || decode('00', 'hex')
            || convert_to(pair_words, 'UTF8') || decode('00', 'hex')
            || convert_to(description, 'UTF8')) END $$
        """,
        """
        CREATE FUNCTION limelight_text_description(hash bytea) RETURNS text
        LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE SECURITY DEFINER
        SET search_path = pg_catalog, public
        AS $$ SELECT t.description FROM item_text AS t
          WHERE t.hash = limelight_text_description.hash $$
        """,
      ]
    ),
    (
      "v19-modified",
      [
        // The names of a word read in their order come in two kinds,
        // changed this week and changed before, each asked apart
        // (``PostgresIndex/walk(_:severalWords:_:keep:best:rank:limit:_:passing:)``):
        // the index of the changes' times finds the smaller kind (the
        // week's in a home, the rest in the benchmark's new trees) without
        // reading every name of the word. At 892,000 entries: `nebul summ`
        // 282-338 -> under 186 ms, the 90 queries' p90 127-146 -> 99-103
        // ms; 8.7 bytes an entry.
        "CREATE INDEX item_modified ON item (modified)"
      ]
    ),
    (
      "v20-texts-of-128-words",
      [
        // A slice between the two of v13: a phrase of common words that
        // no text of 64 words holds read 48,750 entries of at most 256 (at
        // 892,000 entries, `"the following"`: 290 ms) for the six shortest,
        // and 7,983 of at most 128 (35 ms). 28 bytes an entry there.
        """
        CREATE INDEX item_words_128 ON item USING gin (\(entriesWordsInV17))
          WHERE \(PostgresIndex.inShortTexts(128))
        """
      ]
    ),
  ]

  /// The slices of short texts whose words' indexes migration
  /// `v13-short-texts` made, and `v17-texts-once` made again.
  static let slicesOfV13 = [64, 256]

  /// An entry's depth as migration `v9-ranks` counted it, from the path's
  /// text, which `v21-slimmer-rows` keeps only where it is not the path's
  /// bytes.
  static let depthInV9 = "length(path_text) - length(replace(path_text, '/', ''))"

  /// The words' index of the entries as migration `v17-texts-once` made
  /// it, each entry's text's words read from the texts kept once, which
  /// `v22-text-words-once` leaves for an index of the texts' own.
  static let entriesWordsInV17 =
    "limelight_words(name_words || ' ' || coalesce(limelight_text_words(text_hash), ''))"

  /// The words' index of the rows as migrations before `v17-texts-once`
  /// made it, each text in its entry's row.
  static let allWordsInTheRow =
    "limelight_words(name_words || ' ' || coalesce(text_content, '') || ' ' || pair_words)"
}
