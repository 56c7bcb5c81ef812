extension Schema {
  /// The whole schema of a new index, as the steps of ``upgrades`` leave an
  /// older one (`SchemaTests` compares them). Columns added by upgrades
  /// come last in their tables, where `ALTER TABLE` put them.
  ///
  /// - The name index keeps prefixes of one to six letters: the keystrokes
  ///   of a search are one list each (without the five- and six-letter
  ///   ones, a million entries' lookups of longer prefixes took 8 to 16 ms
  ///   each; without the one-letter one, a first keystroke with a filter or
  ///   another word merged the lists of every word starting with it, 25 ms
  ///   each time; it costs 80 bytes an entry).
  /// - The text index keeps three-letter prefixes: one list to read;
  ///   shorter and longer ones are gathered from the terms.
  /// - `item.nameRank` and `item.boost` are ``ItemRank``'s, as SQL.
  static let current = """
    CREATE TABLE item (
      rowid INTEGER PRIMARY KEY,
      id TEXT NOT NULL UNIQUE,
      domain TEXT NOT NULL,
      storedURI TEXT NOT NULL,
      path BLOB UNIQUE,
      displayName TEXT NOT NULL,
      title TEXT,
      contentType TEXT,
      kind TEXT,
      kindClasses TEXT NOT NULL DEFAULT '',
      keywords TEXT NOT NULL DEFAULT '[]',
      contentDescription TEXT,
      thumbnailPath TEXT,
      authors TEXT NOT NULL DEFAULT '[]',
      customAttributes TEXT,
      size INTEGER,
      created REAL,
      modified REAL,
      lastUsed REAL,
      added REAL NOT NULL,
      expirationDate REAL,
      device INTEGER,
      inode INTEGER,
      mtimeNs INTEGER,
      ctimeNs INTEGER,
      isFolder INTEGER NOT NULL DEFAULT 0,
      hidden INTEGER NOT NULL DEFAULT 0,
      depth INTEGER NOT NULL DEFAULT 0,
      useCount INTEGER NOT NULL DEFAULT 0,
      generation INTEGER NOT NULL,
      extractionError TEXT,
      localID TEXT,
      contentPending INTEGER NOT NULL DEFAULT 0,
      uri TEXT GENERATED ALWAYS AS
        (CASE WHEN storedURI = '' THEN limelight_file_uri(path) ELSE storedURI END) VIRTUAL,
      recent INTEGER NOT NULL DEFAULT 0,
      nameRank REAL GENERATED ALWAYS AS (-10.0 / (1.0 + (CASE WHEN instr(displayName, '.') > 1
        THEN length(rtrim(displayName, 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789')) - 1
        ELSE length(displayName) END) / 10.0) + isFolder * 0.3 + depth * 0.05 - min(useCount, 20) * 0.5 - recent * 0.5) VIRTUAL,
      boost REAL GENERATED ALWAYS AS (depth * 0.05 - min(useCount, 20) * 0.5 - recent * 0.5) VIRTUAL,
      typeID INTEGER,
      descriptionSource INTEGER
    );
    CREATE INDEX item_identity ON item(device, inode);
    CREATE INDEX item_generation ON item(generation);
    CREATE UNIQUE INDEX item_local ON item(domain, localID) WHERE localID IS NOT NULL;
    CREATE INDEX item_local_id ON item(localID) WHERE localID IS NOT NULL;
    CREATE INDEX item_expiration ON item(expirationDate) WHERE expirationDate IS NOT NULL;
    CREATE INDEX item_content_pending ON item(modified) WHERE contentPending = 1;
    CREATE INDEX item_hidden ON item(hidden) WHERE hidden = 1;
    CREATE INDEX item_size ON item(size) WHERE size IS NOT NULL;
    CREATE INDEX item_order ON item(hidden, boost, modified DESC, displayName, kindClasses);
    CREATE INDEX item_domain ON item(domain, isFolder, contentPending);

    CREATE TABLE meta (key TEXT PRIMARY KEY, value) WITHOUT ROWID;
    CREATE TABLE request (
      id INTEGER PRIMARY KEY AUTOINCREMENT,
      kind TEXT NOT NULL,
      payload TEXT NOT NULL DEFAULT '[]',
      created REAL NOT NULL,
      doneGeneration INTEGER,
      outcome TEXT
    );
    CREATE TABLE removal (
      generation INTEGER NOT NULL,
      id TEXT NOT NULL,
      domain TEXT NOT NULL,
      uri TEXT NOT NULL
    );
    CREATE INDEX removal_generation ON removal(generation);
    CREATE TABLE failure (
      path BLOB PRIMARY KEY,
      message TEXT NOT NULL,
      time REAL NOT NULL
    );
    CREATE TABLE term_deletion (
      key TEXT NOT NULL,
      term TEXT NOT NULL,
      PRIMARY KEY (key, term)
    ) WITHOUT ROWID;
    CREATE TABLE client_state (
      name TEXT PRIMARY KEY,
      state BLOB NOT NULL,
      generation INTEGER NOT NULL
    ) WITHOUT ROWID;
    CREATE TABLE extension_run (
      domain TEXT PRIMARY KEY,
      descriptor TEXT NOT NULL,
      lastRun REAL,
      lastOutcome TEXT,
      lastSuccess REAL,
      failures INTEGER NOT NULL DEFAULT 0,
      nextAttempt REAL,
      pendingAll INTEGER NOT NULL DEFAULT 0,
      pendingIDs TEXT NOT NULL DEFAULT '[]'
    ) WITHOUT ROWID;

    CREATE TABLE item_words_stored (
      rowid INTEGER PRIMARY KEY,
      name TEXT NOT NULL,
      keywords TEXT NOT NULL,
      path TEXT NOT NULL,
      facets TEXT NOT NULL DEFAULT '',
      textID INTEGER
    );
    CREATE TABLE text_dictionary (id INTEGER PRIMARY KEY, dictionary BLOB NOT NULL);
    CREATE TABLE content_type (
      id INTEGER PRIMARY KEY, type TEXT NOT NULL, tree TEXT NOT NULL, UNIQUE (type, tree));
    CREATE TABLE text_body (
      id INTEGER PRIMARY KEY, key INTEGER NOT NULL, refs INTEGER NOT NULL, text BLOB NOT NULL);
    CREATE INDEX text_body_key ON text_body(key);

    CREATE VIEW item_words AS
      SELECT w.rowid AS rowid, w.name AS name, w.keywords AS keywords,
        CASE WHEN w.path = '' THEN COALESCE(CAST(item.path AS TEXT), '') ELSE w.path END AS path,
        w.facets AS facets, w.textID AS textID
      FROM item_words_stored AS w LEFT JOIN item ON item.rowid = w.rowid;
    CREATE VIRTUAL TABLE item_name USING fts5(
      name, keywords, path, facets,
      content = 'item_words', content_rowid = 'rowid',
      tokenize = 'limelight_words remove_diacritics 2',
      detail = column,
      prefix = '1 2 3 4 5 6'
    );
    CREATE VIRTUAL TABLE item_name_vocab USING fts5vocab(item_name, 'row');
    CREATE VIEW item_text_source AS
      SELECT w.rowid AS rowid, w.name AS name, w.keywords AS keywords, w.path AS path,
        limelight_inflate(b.text) AS content, limelight_text_facets(w.facets, w.textID) AS facets
      FROM item_words AS w LEFT JOIN text_body AS b ON b.id = w.textID;
    CREATE VIRTUAL TABLE item_text USING fts5(
      name, keywords, path, content, facets,
      content = 'item_text_source', content_rowid = 'rowid',
      tokenize = 'limelight_pairs remove_diacritics 2',
      detail = none,
      prefix = '3 4'
    );
    CREATE VIRTUAL TABLE item_vocab USING fts5vocab(item_text, 'row');

    CREATE TABLE item_meaning (rowid INTEGER PRIMARY KEY, vector BLOB NOT NULL,
      change INTEGER NOT NULL DEFAULT 1);
    CREATE INDEX item_meaning_change ON item_meaning (change);
    CREATE TRIGGER item_meaning_gone AFTER DELETE ON item BEGIN
      DELETE FROM item_meaning WHERE rowid = old.rowid;
    END;
    CREATE TRIGGER item_meaning_added AFTER INSERT ON item_meaning BEGIN
      UPDATE meta SET value = value + 1 WHERE key = 'meaningChanges';
    END;
    CREATE TRIGGER item_meaning_removed AFTER DELETE ON item_meaning BEGIN
      UPDATE meta SET value = value + 1 WHERE key = 'meaningChanges';
    END;
    CREATE INDEX item_words_text ON item_words_stored (textID) WHERE textID IS NOT NULL;
    """

  /// The rows a new index starts with: its generation, the count of
  /// meaning changes, and how many segments of a level each full-text
  /// index gathers before merging them (FTS5's most; its default is 4: a
  /// crawl commits often, and merging at every fourth commit rewrote the
  /// index again and again, a third of the second pass's time). Such a
  /// merge goes a little with each commit; at `crisismerge` segments a
  /// level is merged whole in the commit that reaches it, and at FTS5's
  /// 16, the same as `automerge`, every merge was whole: a commit of the
  /// second pass took 2 to 3 s, and a file the user saved waited for it.
  static let currentRows = """
    INSERT INTO meta (key, value) VALUES ('generation', 0), ('meaningChanges', 0);
    INSERT INTO item_name (item_name, rank) VALUES ('automerge', 16);
    INSERT INTO item_text (item_text, rank) VALUES ('automerge', 16);
    INSERT INTO item_name (item_name, rank) VALUES ('crisismerge', 64);
    INSERT INTO item_text (item_text, rank) VALUES ('crisismerge', 64);
    """
}
