/// The migrations that made what the store keeps: the entries, what a
/// host's rows reflect, who may read them, the items applications give,
/// the importers' details, the words of texts and paths, pairs of common
/// words and meaning vectors (v1 to v8).
extension PostgresSchema {
  static let whatIsKept: [(name: String, sql: [String])] = [
    (
      "v1-items",
      [
        // Both are trusted extensions: a database's owner may create them.
        "CREATE EXTENSION IF NOT EXISTS pg_trgm",
        "CREATE EXTENSION IF NOT EXISTS unaccent",
        // Words as the SQLite index splits them (punctuation, spaces), with
        // case and accents folded: `simple` after `unaccent`.
        "CREATE TEXT SEARCH CONFIGURATION limelight (COPY = simple)",
        """
        ALTER TEXT SEARCH CONFIGURATION limelight ALTER MAPPING FOR
          asciiword, asciihword, hword_asciipart, word, hword, hword_part, numword,
          numhword, hword_numpart
        WITH unaccent, simple
        """,
        // One row per entry of a host's roots, keyed by host and path (the
        // path's bytes: a name need not be UTF-8). `name_words` is the
        // name with its humps and initials (`NameWords`), folded
        // (`SearchText`), weighted above the text in `words`.
        """
        CREATE TABLE item (
          host text NOT NULL,
          path bytea NOT NULL,
          path_text text NOT NULL,
          name text NOT NULL,
          name_words text NOT NULL,
          folder boolean NOT NULL,
          content_types text[] NOT NULL DEFAULT '{}',
          kinds text[] NOT NULL DEFAULT '{}',
          size bigint,
          modified timestamptz,
          owner_id integer,
          group_id integer,
          mode integer,
          text_content text,
          words tsvector GENERATED ALWAYS AS (
            setweight(to_tsvector('limelight', name_words), 'A')
            || setweight(to_tsvector('limelight', coalesce(text_content, '')), 'D')
          ) STORED,
          PRIMARY KEY (host, path)
        )
        """,
        "CREATE INDEX item_words ON item USING gin (words)",
        "CREATE INDEX item_name_trigrams ON item USING gin (lower(name) gin_trgm_ops)",
        // Every word of every name, for typos: a word typed that no name
        // holds is looked up here by trigrams, and the close words found
        // are searched instead (the SQLite index's typo expansion).
        "CREATE TABLE name_word (word text PRIMARY KEY)",
        "CREATE INDEX name_word_trigrams ON name_word USING gin (word gin_trgm_ops)",
        // The hosts that write, and when each last did.
        "CREATE TABLE host (name text PRIMARY KEY, last_contact timestamptz NOT NULL)",
      ]
    ),
    (
      "v2-following",
      [
        // What a host's rows reflect: its local index (by identity) up to
        // a generation, so that a watcher restarting sends only what
        // changed since; a whole resend marks its rows with a new `sweep`
        // and removes the rows it did not mark.
        """
        ALTER TABLE host ADD COLUMN index_id text, ADD COLUMN generation bigint,
          ADD COLUMN sweep bigint NOT NULL DEFAULT 0
        """,
        // Every write of any host takes the next number of one sequence:
        // a follower (`find-in --live`) asks for the rows changed after the
        // last it saw, and for the removals (kept a day).
        "CREATE SEQUENCE store_change",
        """
        ALTER TABLE item ADD COLUMN sweep bigint NOT NULL DEFAULT 0,
          ADD COLUMN change bigint NOT NULL DEFAULT nextval('store_change')
        """,
        "CREATE INDEX item_change ON item (change)",
        // The words come made by each host (`PostgresWords`): a name's
        // with their positions, stored; a text's as the text's words, one
        // space between; one index holds the distinct words of each
        // entry's name, keywords and text (no parser reads them, and no
        // vector is stored beside them), so that the words of a query are
        // one condition it answers alone.
        // The server's own parser (the generated `words`) is not used.
        "ALTER TABLE item DROP COLUMN words",
        "ALTER TABLE item ADD COLUMN name_vector tsvector NOT NULL DEFAULT ''",
        "CREATE INDEX item_name_vector ON item USING gin (name_vector)",
        // A function the planner is told is dear (and cannot inline): a
        // word most texts hold is then still read from the index, not
        // made again from every text (8 s for 100,000 entries).
        """
        CREATE FUNCTION limelight_words(words text) RETURNS tsvector
        LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE COST 100000
        AS $$ BEGIN
          RETURN array_to_tsvector(array_remove(string_to_array(words, ' '), ''));
        END $$
        """,
        "CREATE INDEX item_words ON item USING gin (limelight_words(name_words || ' ' || coalesce(text_content, '')))",
        // Texts packed with lz4 where the server has it (pglz took a
        // third of the server's time).
        """
        DO $$ BEGIN
          EXECUTE 'ALTER TABLE item ALTER COLUMN text_content SET COMPRESSION lz4';
        EXCEPTION WHEN others THEN NULL;
        END $$
        """,
        // Typos are forgiven as the SQLite index forgives them
        // (`NearWords`): each word of a name under its deletion keys,
        // instead of trigrams (which missed most typos of short words).
        "DROP INDEX item_name_trigrams",
        "DROP INDEX name_word_trigrams",
        """
        CREATE TABLE name_word_key (key text NOT NULL, word text NOT NULL,
          PRIMARY KEY (key, word))
        """,
        // `in:` reads a folder's subtree on every host.
        "CREATE INDEX item_path ON item (path)",
        """
        CREATE TABLE removal (
          change bigint NOT NULL DEFAULT nextval('store_change'),
          host text NOT NULL,
          path bytea NOT NULL,
          time timestamptz NOT NULL DEFAULT now())
        """,
        "CREATE INDEX removal_change ON removal (change)",
        // Nobody finds what they could not list (row-level security): each
        // entry's reach (`SharedItem.reach`, owner, group and mode of its
        // folder and of the folders above it others may not pass) is
        // checked against the Unix user a reading role stands for on that
        // host. The store's owner (the watchers' role) reads everything;
        // a role with no row in `limelight_reader` for a host, nothing of it.
        // (The function runs as its owner, to read that table: the reader
        // is the policy's `current_user`, given to it.)
        "ALTER TABLE item ADD COLUMN reach integer[]",
        "ALTER TABLE removal ADD COLUMN reach integer[]",
        """
        CREATE TABLE limelight_reader (
          role name NOT NULL, host text NOT NULL, uid integer NOT NULL,
          gids integer[] NOT NULL DEFAULT '{}', PRIMARY KEY (role, host))
        """,
        """
        CREATE FUNCTION limelight_may_read(item_host text, reach integer[], reader name)
        RETURNS boolean
        LANGUAGE sql STABLE SECURITY DEFINER SET search_path = pg_catalog, public
        AS $$
          SELECT reach IS NOT NULL AND EXISTS (
            SELECT FROM limelight_reader AS r
            WHERE r.role = reader AND r.host = item_host
              AND NOT EXISTS (
                SELECT FROM generate_series(1, array_length(reach, 1), 3) AS i,
                  LATERAL (SELECT CASE WHEN i = 1 THEN 5 ELSE 1 END AS need) AS n
                WHERE NOT (CASE
                  WHEN reach[i] = r.uid THEN (reach[i + 2] >> 6) & n.need = n.need
                  WHEN reach[i + 1] = ANY (r.gids) THEN (reach[i + 2] >> 3) & n.need = n.need
                  ELSE reach[i + 2] & n.need = n.need END)))
        $$
        """,
        "ALTER TABLE item ENABLE ROW LEVEL SECURITY",
        "CREATE POLICY readers ON item FOR SELECT USING (limelight_may_read(host, reach, current_user))",
        "ALTER TABLE removal ENABLE ROW LEVEL SECURITY",
        "CREATE POLICY readers ON removal FOR SELECT USING (limelight_may_read(host, reach, current_user))",
      ]
    ),
    (
      "v3-application-items",
      [
        // The items applications give a watcher's index are sent too,
        // keyed by their URI (as `path`'s bytes), with their domain; only
        // the role that wrote one finds it (and the store's owner, which
        // row-level security does not bind).
        """
        ALTER TABLE item ADD COLUMN domain text,
          ADD COLUMN writer name NOT NULL DEFAULT current_user
        """,
        """
        ALTER TABLE removal ADD COLUMN domain text,
          ADD COLUMN writer name NOT NULL DEFAULT current_user
        """,
        "DROP POLICY readers ON item",
        "CREATE POLICY readers ON item FOR SELECT USING (\(readable))",
        "DROP POLICY readers ON removal",
        "CREATE POLICY readers ON removal FOR SELECT USING (\(readable))",
      ]
    ),
    (
      "v4-item-details",
      [
        // What the predicate language, `created:`, `used:` and `limelight
        // show` read besides the name: each host sends its entries again
        // (its rows no longer reflect its index) to fill them in.
        """
        ALTER TABLE item ADD COLUMN title text, ADD COLUMN kind text,
          ADD COLUMN authors text[], ADD COLUMN keywords text[],
          ADD COLUMN description text, ADD COLUMN created timestamptz,
          ADD COLUMN last_used timestamptz
        """,
        "UPDATE host SET index_id = NULL, generation = NULL",
        // `kind:` and `type:` read these (a seq scan of every row before:
        // 50 ms at 100,000 entries for a kind none holds, 0.5 ms now).
        "CREATE INDEX item_kinds ON item USING gin (kinds)",
        "CREATE INDEX item_types ON item USING gin (content_types)",
        // Bytes as `FileURI` writes them: the unreserved characters (and
        // slashes, with `slashes`) as they are, the rest percent-encoded.
        """
        CREATE FUNCTION limelight_encoded(bytes bytea, slashes boolean) RETURNS text
        LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE AS $$
          SELECT coalesce(string_agg(CASE
              WHEN b BETWEEN 97 AND 122 OR b BETWEEN 65 AND 90 OR b BETWEEN 48 AND 57
                OR b IN (45, 46, 95, 126) OR (slashes AND b = 47) THEN chr(b)
              ELSE '%' || upper(lpad(to_hex(b), 2, '0')) END, '' ORDER BY i), '')
          FROM generate_series(0, length(bytes) - 1) AS i,
            LATERAL (SELECT get_byte(bytes, i) AS b) AS x
        $$
        """,
        // The words of names kept for typos: a reader sees those that a
        // name it may see holds (the item's own row-level security
        // applies inside the policy), never another's private ones. The
        // watchers' role owns the tables and sees every word.
        "ALTER TABLE name_word ENABLE ROW LEVEL SECURITY",
        """
        CREATE POLICY readers ON name_word FOR SELECT
          USING (EXISTS (SELECT FROM item WHERE name_vector @@ quote_literal(word)::tsquery))
        """,
        "ALTER TABLE name_word_key ENABLE ROW LEVEL SECURITY",
        """
        CREATE POLICY readers ON name_word_key FOR SELECT
          USING (EXISTS (SELECT FROM item WHERE name_vector @@ quote_literal(word)::tsquery))
        """,
        // An entry's URI as searches print it (`PostgresIndex.uri`).
        """
        CREATE FUNCTION limelight_uri(host text, path bytea, path_text text, domain text)
        RETURNS text LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
          SELECT CASE WHEN domain IS NULL
            THEN 'file://' || limelight_encoded(convert_to(host, 'UTF8'), false)
              || limelight_encoded(path, true)
            ELSE path_text END
        $$
        """,
      ]
    ),
    (
      "v5-text-words",
      [
        // The words of texts, kept for typos: a word of a text that no
        // name holds (`zorblatpgalhpa` for a note holding "zorblatpgalpha")
        // is looked up here by trigrams, then read as the SQLite index
        // reads a typo (`NearWords`). Deletion keys for every word of every
        // text would cost more than the texts' own index.
        "CREATE TABLE text_word (word text PRIMARY KEY)",
        "CREATE INDEX text_word_trigrams ON text_word USING gin (word gin_trgm_ops)",
        """
        INSERT INTO text_word
        SELECT DISTINCT w FROM item, unnest(string_to_array(text_content, ' ')) AS w
        WHERE length(w) BETWEEN 3 AND 32 AND w !~ '[0-9_]' ON CONFLICT DO NOTHING
        """,
        // A reader sees the words of texts it may read, as for names.
        "ALTER TABLE text_word ENABLE ROW LEVEL SECURITY",
        """
        CREATE POLICY readers ON text_word FOR SELECT
          USING (EXISTS (SELECT FROM item
            WHERE limelight_words(name_words || ' ' || coalesce(text_content, ''))
              @@ quote_literal(word)::tsquery))
        """,
      ]
    ),
    (
      "v6-path-words",
      [
        // A path's words, folded as the local index folds its paths (each
        // host sends them): a word typed is looked for among them as the
        // local index looks in its paths, not in the path as written,
        // accents and all ('répertoire' missed repertoiremap.5). And the
        // words of the text and path counted, which texts are ranked by as
        // the local index's BM25 ranks them (counting them in a query read
        // every matching text whole). Every host sends its entries again to
        // fill them.
        "ALTER TABLE item ADD COLUMN path_words text NOT NULL DEFAULT ''",
        "ALTER TABLE item ADD COLUMN word_count integer NOT NULL DEFAULT 0",
        "UPDATE host SET index_id = NULL",
      ]
    ),
    (
      "v7-word-pairs",
      [
        // A common word and the word after it in a text, as one word of
        // the words' index (`the+quick`, each host sends them): a phrase
        // of common words finds the entries holding its pairs, not every
        // entry holding its words, whose texts were then read whole
        // (`"the quick"`: 340 ms at 10,000 entries). Every host sends its
        // entries again to fill them.
        "ALTER TABLE item ADD COLUMN pair_words text NOT NULL DEFAULT ''",
        "DROP INDEX item_words",
        "CREATE INDEX item_words ON item USING gin (\(allWordsInTheRow))",
        "UPDATE host SET index_id = NULL",
      ]
    ),
    (
      "v8-meaning",
      [
        // Each entry's meaning vector, as its host's third pass made it (a
        // signed byte a dimension), and its side of the model's centre in
        // each dimension (`MeaningVector.bits(of:)`): a meaning search
        // orders the entries by how many sides differ from the query's,
        // then compares the nearest whole. The sides in a narrow table of
        // their own, which the search reads whole (21 MB at 165,000
        // vectors: 40 ms, against 61 with the vectors beside them), and the
        // vectors in another, read by key for the nearest.
        """
        CREATE TABLE item_meaning (
          host text NOT NULL,
          path bytea NOT NULL,
          bits bit(384) NOT NULL,
          PRIMARY KEY (host, path),
          FOREIGN KEY (host, path) REFERENCES item (host, path) ON DELETE CASCADE)
        """,
        """
        CREATE TABLE item_meaning_vector (
          host text NOT NULL,
          path bytea NOT NULL,
          vector bytea NOT NULL,
          PRIMARY KEY (host, path),
          FOREIGN KEY (host, path) REFERENCES item (host, path) ON DELETE CASCADE)
        """,
        // A reader finds the vectors of the entries it may see.
        "ALTER TABLE item_meaning ENABLE ROW LEVEL SECURITY",
        """
        CREATE POLICY readers ON item_meaning FOR SELECT
          USING (EXISTS (SELECT FROM item
            WHERE item.host = item_meaning.host AND item.path = item_meaning.path))
        """,
        "ALTER TABLE item_meaning_vector ENABLE ROW LEVEL SECURITY",
        """
        CREATE POLICY readers ON item_meaning_vector FOR SELECT
          USING (EXISTS (SELECT FROM item
            WHERE item.host = item_meaning_vector.host AND item.path = item_meaning_vector.path))
        """,
        // The last of its vectors (by its index's numbering) a host sent.
        "ALTER TABLE host ADD COLUMN meaning_through bigint NOT NULL DEFAULT 0",
      ]
    ),
  ]
}
