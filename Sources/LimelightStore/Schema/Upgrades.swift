extension Schema {
  /// The steps that bring an index from ``oldestUpgraded`` to ``current``,
  /// in order, each literal SQL, never changed once shipped; an index runs
  /// those it does not list yet.
  static let upgrades: [(name: String, sql: String)] = [
    // `limelight status` counts files, folders and the files whose content
    // waits on an index of those columns alone (43 ms at a million entries,
    // where reading every row took 400 ms, at each refresh of its progress
    // bar), and the count of waiting files needs no index of its own while
    // a first crawl goes without it (``deferredIndexes``).
    (
      "v23-counted-kinds",
      """
      DROP INDEX item_domain;
      CREATE INDEX item_domain ON item(domain, isFolder, contentPending);
      """
    ),
    // `kind:email`: the e-mails indexed before the kind was are read again
    // by the second pass, which writes their kinds and facets anew.
    (
      "v24-email-kind",
      """
      UPDATE item SET contentPending = 1
        WHERE contentType IN ('message/rfc822', 'application/mbox', 'message/news',
          'application/vnd.ms-outlook');
      """
    ),
    // Meaning search: an embedding of each document worth one (one signed
    // byte a dimension; an empty one for a text too short or that the model
    // failed on), gone with its item; every change counted in `meta`, so
    // that a query service holding the vectors in memory knows when to read
    // them again.
    (
      "v25-meaning",
      """
      CREATE TABLE item_meaning (rowid INTEGER PRIMARY KEY, vector BLOB NOT NULL);
      CREATE TRIGGER item_meaning_gone AFTER DELETE ON item BEGIN
        DELETE FROM item_meaning WHERE rowid = old.rowid;
      END;
      INSERT OR REPLACE INTO meta (key, value) VALUES ('meaningChanges', 0);
      CREATE TRIGGER item_meaning_added AFTER INSERT ON item_meaning BEGIN
        UPDATE meta SET value = value + 1 WHERE key = 'meaningChanges';
      END;
      CREATE TRIGGER item_meaning_removed AFTER DELETE ON item_meaning BEGIN
        UPDATE meta SET value = value + 1 WHERE key = 'meaningChanges';
      END;
      """
    ),
  ]
}
