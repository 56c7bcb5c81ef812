extension Schema {
  /// The steps that bring an index from ``oldestUpgraded`` to ``current``,
  /// in order, each literal SQL, never changed once shipped; an index runs
  /// those it does not list yet.
  static let upgrades: [(name: String, sql: String)] = [
    // Documents are embedded from their heading and the prose of their
    // opening, and manual pages compressed with gzip too: the vectors made
    // from the opening as it came are made again by the third pass.
    ("v28-meaning-passages", "DELETE FROM item_meaning;"),
    // A passage is cut at the tokens the pass's budget allows, not at 600
    // characters (which in ideographs were three times the tokens).
    ("v29-meaning-token-cap", "DELETE FROM item_meaning;"),
    // Each vector is numbered as it is written, for the shared store to be
    // sent those written since it last heard (the vectors kept, numbered 1).
    (
      "v30-meaning-changes",
      """
      ALTER TABLE item_meaning ADD COLUMN change INTEGER NOT NULL DEFAULT 1;
      CREATE INDEX item_meaning_change ON item_meaning (change);
      """
    ),
    // Merges of the full-text indexes spread over the commits (``currentRows``).
    (
      "v31-fts-crisis-merge",
      """
      INSERT INTO item_name (item_name, rank) VALUES ('crisismerge', 64);
      INSERT INTO item_text (item_text, rank) VALUES ('crisismerge', 64);
      """
    ),
    // The text index keeps four-letter prefixes too (``SearchRun/textPrefixLengths``):
    // made again from the texts the index keeps (87 s for the 178,000
    // entries of the benchmark corpus), merged and packed by the next
    // watcher a step at a time.
    (
      "v32-text-prefixes-of-four",
      """
      DROP TABLE item_text;
      CREATE VIRTUAL TABLE item_text USING fts5(
        name, keywords, path, content, facets,
        content = 'item_text_source', content_rowid = 'rowid',
        tokenize = 'limelight_pairs remove_diacritics 2',
        detail = none,
        prefix = '3 4'
      );
      INSERT INTO item_text (item_text, rank) VALUES ('automerge', 16);
      INSERT INTO item_text (item_text, rank) VALUES ('crisismerge', 64);
      INSERT INTO item_text (item_text) VALUES ('rebuild');
      INSERT OR REPLACE INTO meta (key, value) VALUES ('mergeWanted', 1), ('packWanted', 1);
      """
    ),
    // The items that hold a text, by it: a copy of a document takes the
    // vector of the copy the third pass embedded (``IndexStore/meaningWork(limit:opening:)``).
    (
      "v33-items-by-text",
      "CREATE INDEX item_words_text ON item_words_stored (textID) WHERE textID IS NOT NULL;"
    ),
  ]
}
