import Foundation
import GRDB

@testable import LimelightStore

/// Indexes as older versions left them, schema only, taken from the
/// migrations that made them (frozen here: the migrations are gone).
enum OldIndexes {
  /// As `v27-code-pairs`, the oldest index upgraded, left it (listing
  /// the one migration of its version, `schema-v27`). `v26-one-folding`
  /// left the same tables, with fewer pairs in the text index.
  static let v27 = """
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
      prefix = '3'
    );
    CREATE VIRTUAL TABLE item_vocab USING fts5vocab(item_text, 'row');

    CREATE TABLE item_meaning (rowid INTEGER PRIMARY KEY, vector BLOB NOT NULL);
    CREATE TRIGGER item_meaning_gone AFTER DELETE ON item BEGIN
      DELETE FROM item_meaning WHERE rowid = old.rowid;
    END;
    CREATE TRIGGER item_meaning_added AFTER INSERT ON item_meaning BEGIN
      UPDATE meta SET value = value + 1 WHERE key = 'meaningChanges';
    END;
    CREATE TRIGGER item_meaning_removed AFTER DELETE ON item_meaning BEGIN
      UPDATE meta SET value = value + 1 WHERE key = 'meaningChanges';
    END;
    CREATE TABLE IF NOT EXISTS grdb_migrations (identifier TEXT NOT NULL PRIMARY KEY);
    INSERT INTO grdb_migrations (identifier) VALUES ('schema-v27');
    INSERT INTO meta (key, value) VALUES ('generation', 0), ('meaningChanges', 0);
    INSERT INTO item_name (item_name, rank) VALUES ('automerge', 16);
    INSERT INTO item_text (item_text, rank) VALUES ('automerge', 16);
    """

  /// As `v22-word-pairs-and-facets` left an index: older than the oldest
  /// upgraded now.

  static let v22 = """
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
      extractionError TEXT
    , localID TEXT, contentPending INTEGER NOT NULL DEFAULT 0, uri TEXT GENERATED ALWAYS AS
      (CASE WHEN storedURI = '' THEN limelight_file_uri(path) ELSE storedURI END) VIRTUAL, recent INTEGER NOT NULL DEFAULT 0, nameRank REAL GENERATED ALWAYS AS (-10.0 / (1.0 + (CASE WHEN instr(displayName, '.') > 1
      THEN length(rtrim(displayName, 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789')) - 1
      ELSE length(displayName) END) / 10.0) + isFolder * 0.3 + depth * 0.05 - min(useCount, 20) * 0.5 - recent * 0.5) VIRTUAL, boost REAL GENERATED ALWAYS AS (depth * 0.05 - min(useCount, 20) * 0.5 - recent * 0.5) VIRTUAL, typeID INTEGER, descriptionSource INTEGER);
    CREATE INDEX item_domain ON item(domain);
    CREATE INDEX item_identity ON item(device, inode);
    CREATE INDEX item_generation ON item(generation);
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
    CREATE UNIQUE INDEX item_local ON item(domain, localID) WHERE localID IS NOT NULL;
    CREATE INDEX item_local_id ON item(localID) WHERE localID IS NOT NULL;
    CREATE INDEX item_expiration ON item(expirationDate) WHERE expirationDate IS NOT NULL;
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
    CREATE TABLE "item_words_stored" (
      rowid INTEGER PRIMARY KEY,
      name TEXT NOT NULL,
      keywords TEXT NOT NULL,
      path TEXT NOT NULL,
      facets TEXT NOT NULL DEFAULT '', textID INTEGER);
    CREATE INDEX item_content_pending ON item(modified) WHERE contentPending = 1;
    CREATE TABLE text_dictionary (id INTEGER PRIMARY KEY, dictionary BLOB NOT NULL);
    CREATE INDEX item_hidden ON item(hidden) WHERE hidden = 1;
    CREATE INDEX item_size ON item(size) WHERE size IS NOT NULL;
    CREATE INDEX item_order ON item(hidden, boost, modified DESC, displayName, kindClasses);
    CREATE TABLE content_type (
      id INTEGER PRIMARY KEY, type TEXT NOT NULL, tree TEXT NOT NULL, UNIQUE (type, tree));
    CREATE TABLE text_body (
      id INTEGER PRIMARY KEY, key INTEGER NOT NULL, refs INTEGER NOT NULL, text BLOB NOT NULL);
    CREATE INDEX text_body_key ON text_body(key);
    CREATE VIRTUAL TABLE item_name USING fts5(
      name, keywords, path, facets,
      content = 'item_words', content_rowid = 'rowid',
      tokenize = 'unicode61 remove_diacritics 2',
      detail = column,
      prefix = '1 2 3 4 5 6'
    );
    CREATE VIRTUAL TABLE item_name_vocab USING fts5vocab(item_name, 'row');
    CREATE VIEW item_words AS
      SELECT w.rowid AS rowid, w.name AS name, w.keywords AS keywords,
        CASE WHEN w.path = '' THEN COALESCE(CAST(item.path AS TEXT), '') ELSE w.path END AS path,
        w.facets AS facets, w.textID AS textID
      FROM item_words_stored AS w LEFT JOIN item ON item.rowid = w.rowid;
    CREATE VIEW item_text_source AS
      SELECT w.rowid AS rowid, w.name AS name, w.keywords AS keywords, w.path AS path,
        limelight_inflate(b.text) AS content, limelight_text_facets(w.facets, w.textID) AS facets
      FROM item_words AS w LEFT JOIN text_body AS b ON b.id = w.textID;
    CREATE VIRTUAL TABLE item_text USING fts5(
      name, keywords, path, content, facets,
      content = 'item_text_source', content_rowid = 'rowid',
      tokenize = 'limelight_pairs remove_diacritics 2',
      detail = none,
      prefix = '3'
    );
    CREATE VIRTUAL TABLE item_vocab USING fts5vocab(item_text, 'row');
    CREATE TABLE grdb_migrations (identifier TEXT NOT NULL PRIMARY KEY);
    INSERT INTO grdb_migrations (identifier) VALUES
      ('v1'),
      ('v2-vocabulary'),
      ('v3-names'),
      ('v4-text-prefixes'),
      ('v5-applications'),
      ('v6-small-text'),
      ('v7-name-rank'),
      ('v8-facets'),
      ('v9-text-rows'),
      ('v10-text-dictionary'),
      ('v11-short-typo-keys'),
      ('v12-hidden-items'),
      ('v13-cjk-pairs'),
      ('v14-watcher-report'),
      ('v15-item-order'),
      ('v16-item-order-kinds'),
      ('v17-text-bodies'),
      ('v18-derived-descriptions'),
      ('v19-type-trees'),
      ('v20-name-columns'),
      ('v21-paths-once'),
      ('v22-word-pairs-and-facets');
    INSERT INTO meta (key, value) VALUES ('generation', 0);
    INSERT INTO item_name (item_name, rank) VALUES ('automerge', 16);
    INSERT INTO item_text (item_text, rank) VALUES ('automerge', 16);
    """

  /// As the first version left an index.
  static let v1 = """
    CREATE TABLE item (
      rowid INTEGER PRIMARY KEY,
      id TEXT NOT NULL UNIQUE,
      domain TEXT NOT NULL,
      uri TEXT NOT NULL,
      path BLOB UNIQUE,
      displayName TEXT NOT NULL,
      title TEXT,
      contentType TEXT,
      contentTypeTree TEXT NOT NULL DEFAULT '',
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
      extractionError TEXT
    );
    CREATE INDEX item_domain ON item(domain);
    CREATE INDEX item_identity ON item(device, inode);
    CREATE INDEX item_generation ON item(generation);
    CREATE VIRTUAL TABLE item_text USING fts5(
      name, keywords, path, content,
      tokenize = 'unicode61 remove_diacritics 2',
      prefix = '2 3'
    );
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
    CREATE TABLE grdb_migrations (identifier TEXT NOT NULL PRIMARY KEY);
    INSERT INTO grdb_migrations (identifier) VALUES ('v1');
    INSERT INTO meta (key, value) VALUES ('generation', 0);
    """

  /// A file at `path` holding `sql`, made with the functions the schema names.
  static func make(_ sql: String, at path: String) throws {
    var configuration = Configuration()
    configuration.prepareDatabase { db in try IndexStore.addFunctions(db, texts: TextPacker()) }
    let queue = try DatabaseQueue(path: path, configuration: configuration)
    try queue.write { db in try db.execute(sql: sql) }
  }
}
