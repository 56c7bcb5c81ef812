import Foundation
import GRDB

/// The index's tables, created and upgraded by migrations.
///
/// - `item`: one row per searchable item, files and application items alike; file
///   identity (device, inode, size, times) lets a restart skip unchanged files and
///   recognise moves.
/// - `item_text`: the FTS5 index over name, keywords, path and content, keyed by
///   `item.rowid`. Its name column also carries the name split at case and digit
///   changes, so later fuzzy matching has words to work on. It keeps no copy of
///   what it indexes (external content: `item_text_source`) and records which
///   items hold a word, not where nor in which column (`detail=none`): phrases
///   and words confined to a column are checked on the item's words
///   (`limelight_phrases`). Two Chinese, Japanese or Korean characters side
///   by side are also a term of their own (the `limelight_pairs` tokenizer),
///   so that a run is looked up by its pairs rather than its characters, and
///   so is a word among the commonest with the word after it (a
///   phrase of common words finds the texts holding its pairs). An item with
///   a text has its kinds, type and month there too (`facets`, as in
///   ``ItemFacets``).
/// - `item_words`: what both full-text indexes index, stored once: the name
///   (with its word parts, initials and reading), keywords, path, the
///   extracted text's body (`textID`), and the item's facets (``ItemFacets``).
///   A view of `item_words_stored`, which keeps an empty path where it is
///   the item's own as text: that one is read from `item`.
/// - `text_body`: each distinct extracted text once, packed, with the count
///   of the items that hold it (``TextBodies``).
/// - `item_text_source`: `item_words` with the text unpacked, as `item_text`
///   reads it.
/// - `text_dictionary`: the zstd dictionary the stored texts are packed with
///   (``TextPacker``).
/// - `meta`: the index generation and the watcher's status.
/// - `request`: durable requests (reindex, pause, erase); `doneGeneration` is set in
///   the transaction that carries one out.
/// - `removal`: which items went away at which generation, for `--live` followers.
/// - `failure`: files or folders that could not be read, and why.
/// - `item_vocab`: the terms of `item_text` with their document counts (fts5vocab).
/// - `item_name`: name, keywords, path and facets, without the text: a small
///   index that answers "did it match the name?", ranks name matches cheaply
///   and narrows them by kind and month before any item row is read. It
///   records which columns hold a word, not where (`detail=column`): a
///   phrase of several words is checked on the item's names.
/// - `item_name_vocab`: the terms of `item_name` with their document counts.
/// - `client_state`: the opaque state an application stored with the end of a
///   batch, by index name, so an interrupted import resumes where it stopped.
/// - `extension_run`: each reindex extension's domain, pending work, last run
///   and back-off.
/// - `item.descriptionSource`: where a description that is not stored
///   (`item.contentDescription` NULL) is made from: the title or the stored
///   text (``ItemDescription``).
/// - `item.uri`: computed from the path for files (`storedURI` is empty
///   then), stored for application items.
/// - `item.recent`: changed in the last week (set by the writers, cleared by
///   ``IndexWriter/expireRecency(now:atMost:)``), part of every item's rank.
/// - `item.nameRank`: the query-independent rank of a name match, a virtual
///   column; its band is a facet of the name index, so that a word in half
///   the names lists its best matches without ranking them all.
/// - `item.boost` and `item_order`: what ranks an item besides its match
///   (``ItemRank/boost(_:)``), a virtual column, and an index in the order
///   filters alone list items in (``ItemRank/filterOrder``), with the kind
///   classes: `kind:text` reads its first items in that order instead of
///   sorting every text, and skips the items of other kinds on the index.
/// - `item_size`: `size:>1G` finds its few items without reading every one.
/// - `item_domain`: items by domain, folder or not and content waiting or
///   not, which `limelight status` counts without reading the rows.
/// - `item_identity`, `item_size` and `item_content_pending` are made after
///   a first crawl (``deferredIndexes``).
/// - `content_type`: each content type with its tree (which items read
///   from there) as items were written
///   with them (never removed: a type no longer held costs a lookup), whose
///   row is `item.typeID` and a facet of the name index: `type:image/*`
///   finds the types it matches there, and FTS5 their items.
/// - `term_deletion`: every name term under the strings one or two deleted
///   letters make of its first seven (SymSpell): typos and abbreviations are
///   found by looking up the query word's own deletions, never by scanning
///   the vocabulary.
enum Schema {
  static var migrator: DatabaseMigrator {
    var migrator = DatabaseMigrator()
    migrator.registerMigration("v1") { db in
      try db.execute(
        sql: """
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
          INSERT INTO meta(key, value) VALUES ('generation', 0);
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
          """)
    }
    // The FTS index's own vocabulary, for typo tolerance: which terms exist and
    // in how many items.
    migrator.registerMigration("v2-vocabulary") { db in
      try db.execute(sql: "CREATE VIRTUAL TABLE item_vocab USING fts5vocab(item_text, 'row')")
    }
    migrator.registerMigration("v3-names") { db in
      try db.execute(
        sql: """
          CREATE VIRTUAL TABLE item_name USING fts5(
            name, keywords, path,
            tokenize = 'unicode61 remove_diacritics 2',
            prefix = '2 3 4 5 6'
          );
          INSERT INTO item_name (rowid, name, keywords, path)
            SELECT rowid, name, keywords, path FROM item_text;
          CREATE VIRTUAL TABLE item_name_vocab USING fts5vocab(item_name, 'row');
          CREATE TABLE term_deletion (
            key TEXT NOT NULL,
            term TEXT NOT NULL,
            PRIMARY KEY (key, term)
          ) WITHOUT ROWID;
          """)
      let terms = try String.fetchCursor(db, sql: "SELECT term FROM item_name_vocab")
      let deletions = TermDeletions(db: db)
      while let term = try terms.next() { try deletions.add(term: term) }
    }
    // Prefix indexes for 4 and 5 letters in the text too: a short prefix in
    // long texts (`cons`, `file`) was a merge of hundreds of terms' lists, up to
    // a few hundred milliseconds; with the index it is one list. FTS5 cannot
    // change the option of a table, so the table is copied, rowids kept.
    migrator.registerMigration("v4-text-prefixes") { db in
      try db.execute(
        sql: """
          CREATE VIRTUAL TABLE item_text_v4 USING fts5(
            name, keywords, path, content,
            tokenize = 'unicode61 remove_diacritics 2',
            prefix = '2 3 4 5'
          );
          INSERT INTO item_text_v4 (rowid, name, keywords, path, content)
            SELECT rowid, name, keywords, path, content FROM item_text;
          DROP TABLE item_vocab;
          DROP TABLE item_text;
          ALTER TABLE item_text_v4 RENAME TO item_text;
          CREATE VIRTUAL TABLE item_vocab USING fts5vocab(item_text, 'row');
          """)
    }
    // Application items: the id an application gave (unique within its
    // domain, as the contract's deletions name it), expiry, the client states
    // of batched imports, and how each reindex extension last ran.
    migrator.registerMigration("v5-applications") { db in
      try db.execute(
        sql: """
          ALTER TABLE item ADD COLUMN localID TEXT;
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
          """)
    }
    // A smaller index: the text was kept twice (in the item's full-text row
    // and again in each of four prefix indexes, with every word's positions),
    // the name, keywords and path three times. Now each is stored once, the
    // text deflated, in `item_words`; both full-text indexes read them from
    // there (a plain table: an index whose content is another FTS5 table
    // flushes that table's pending words at every read, row by row), and the
    // text index records only which columns hold a word. Files read by name
    // alone in the first pass wait for their content in the second
    // (`contentPending`), newest first.
    migrator.registerMigration("v6-small-text") { db in
      try db.execute(
        sql: """
          CREATE TABLE item_words (
            rowid INTEGER PRIMARY KEY,
            name TEXT NOT NULL,
            keywords TEXT NOT NULL,
            path TEXT NOT NULL,
            text BLOB
          );
          INSERT INTO item_words (rowid, name, keywords, path, text)
            SELECT rowid, name, keywords, path, limelight_deflate(content) FROM item_text;
          CREATE VIEW item_text_source AS
            SELECT rowid, name, keywords, path, limelight_inflate(text) AS content FROM item_words;
          \(fullTextIndexes(namePrefixes: "2 3 4 5 6", textPrefixes: "2 3 4"))
          ALTER TABLE item ADD COLUMN contentPending INTEGER NOT NULL DEFAULT 0;
          CREATE INDEX item_content_pending ON item(modified) WHERE contentPending = 1;
          \(compactAfter)
          """)
    }
    // Lighter indexes, and name matches in rank order without ranking them
    // all.
    // - A common word (`jpg`, `gz`) names half a home, and sorting every
    //   match cost 400 ms at a million entries. The rank that depends on the
    //   item alone is a column (computed by SQLite from the name, depth, use
    //   count and recency) with an index, so a crowded name query walks it
    //   best first. "Changed in the last week" is a flag, set as items are
    //   written and cleared by ``IndexWriter/expireRecency(now:)``: an index
    //   cannot hold a rank that moves with the clock.
    // - A file's URI is computed from its path (`limelight_file_uri`)
    //   instead of being stored beside it (83 bytes an entry).
    // - Fewer prefix indexes in the text: the two- and four-letter ones cost
    //   a third of its index (355 bytes an entry), while FTS5 answers those
    //   prefixes from the terms themselves, and a word is looked up in the
    //   names first.
    migrator.registerMigration("v7-name-rank") { db in
      try db.execute(
        sql: """
          ALTER TABLE item RENAME COLUMN uri TO storedURI;
          ALTER TABLE item ADD COLUMN uri TEXT GENERATED ALWAYS AS
            (CASE WHEN storedURI = '' THEN limelight_file_uri(path) ELSE storedURI END) VIRTUAL;
          UPDATE item SET storedURI = '' WHERE path IS NOT NULL;
          ALTER TABLE item ADD COLUMN recent INTEGER NOT NULL DEFAULT 0;
          """)
      try db.execute(
        sql: "UPDATE item SET recent = 1 WHERE modified > ?",
        arguments: [Date().timeIntervalSince1970 - Double(ItemRank.recentSeconds)])
      try db.execute(
        sql: """
          ALTER TABLE item ADD COLUMN nameRank REAL GENERATED ALWAYS AS (\(ItemRank.nameRankColumn)) VIRTUAL;
          CREATE INDEX item_name_rank ON item(hidden, nameRank);
          \(fullTextIndexes(namePrefixes: "2 3 4 5 6", textPrefixes: textPrefixes))
          \(compactAfter)
          """)
    }
    // Filters and ranks inside the name index (``ItemFacets``). A word in
    // half the names with a `kind:` or `modified:` filter read every match's
    // row, once per tier, to keep a few (450,000 rows, 200 ms a tier at a
    // million entries); without a filter, walking the rank's index first
    // gathered all 450,000 matches to look them up (90 ms). Each item's kind
    // classes, month and rank band are terms of a column of their own, so
    // FTS5 narrows the matches to a filter's and to the best ranks first.
    // Only the name index is made again: the text index does not read the
    // column. The rank's index goes.
    migrator.registerMigration("v8-facets") { db in
      try db.execute(
        sql: """
          ALTER TABLE item_words ADD COLUMN facets TEXT NOT NULL DEFAULT '';
          UPDATE item_words
            SET facets = limelight_facets(item.kindClasses, item.modified, item.nameRank)
            FROM item WHERE item.rowid = item_words.rowid;
          DROP INDEX item_name_rank;
          \(nameIndexAgain(detail: "full"))
          \(compactAfter)
          """)
    }
    // The text index records which items hold a word, no longer in which
    // columns (`detail=none`): 656 bytes an entry became 277 on a home of
    // real files. The columns served the ranking, which now counts the
    // words an item holds (``limelight_rank``), and `name:` and `tag:`
    // words, now checked on the item's words (``PhraseCheck``).
    migrator.registerMigration("v9-text-rows") { db in
      try db.execute(
        sql: """
          DROP TABLE item_vocab;
          DROP TABLE item_text;
          \(textIndex(detail: "none", prefixes: textPrefixes))
          \(compactAfter)
          """)
    }
    // The dictionary the index's texts are packed with (``TextPacker``),
    // trained once enough of them have been read.
    migrator.registerMigration("v10-text-dictionary") { db in
      try db.execute(
        sql: "CREATE TABLE text_dictionary (id INTEGER PRIMARY KEY, dictionary BLOB NOT NULL)")
    }
    // Typo keys made of a term's first seven letters (``TermDeletions``).
    migrator.registerMigration("v11-short-typo-keys") { db in
      try db.execute(sql: "DELETE FROM term_deletion")
      let terms = try String.fetchCursor(db, sql: "SELECT term FROM item_name_vocab")
      let deletions = TermDeletions(db: db)
      while let term = try terms.next() { try deletions.add(term: term) }
      try db.execute(sql: compactAfter)
    }
    // The hidden items alone, usually none: a search asks once whether
    // there are any before it looks for them apart (a seek, not a scan).
    migrator.registerMigration("v12-hidden-items") { db in
      try db.execute(sql: "CREATE INDEX item_hidden ON item(hidden) WHERE hidden = 1")
    }
    // Two Chinese, Japanese or Korean characters side by side are a term of
    // the text index too (the `limelight_pairs` tokenizer): a run typed as a
    // query finds the texts holding each of its pairs, where it found those
    // holding each of its characters and read every one to look for the run
    // (150 ms a query over 10,000 files, 600 for a common character).
    migrator.registerMigration("v13-cjk-pairs") { db in
      try db.execute(
        sql: """
          DROP TABLE item_vocab;
          DROP TABLE item_text;
          \(textIndex(detail: "none", prefixes: textPrefixes, tokenizer: "limelight_pairs"))
          \(compactAfter)
          """)
    }
    // The watcher's account of itself is one value (``WatcherReport``)
    // where it was a key each; a rebuild's record keeps a key of its own.
    migrator.registerMigration("v14-watcher-report") { db in
      func meta<T: DatabaseValueConvertible>(_ key: String) throws -> T? {
        try T.fetchOne(db, sql: "SELECT value FROM meta WHERE key = ?", arguments: [key])
      }
      var report = WatcherReport()
      report.built = try meta("status.built") ?? false
      report.crawlSeen = try meta("status.crawlSeen") ?? 0
      try db.execute(
        sql: "UPDATE meta SET key = ? WHERE key = 'status.rebuilt'", arguments: [IndexRebuild.key])
      try db.execute(sql: "DELETE FROM meta WHERE key LIKE 'status.%'")
      try db.execute(
        sql: "INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)",
        arguments: [WatcherReport.key, report.stored])
    }
    migrator.registerMigration("v15-item-order") { db in
      // The index holds the order's columns but the last, the rowid every
      // index ends with: a stretch of it is a stretch of the order.
      try db.execute(
        sql: """
          ALTER TABLE item ADD COLUMN boost REAL GENERATED ALWAYS AS (\(ItemRank.boost(""))) VIRTUAL;
          CREATE INDEX item_order ON item(hidden, boost, modified DESC, displayName);
          CREATE INDEX item_size ON item(size) WHERE size IS NOT NULL;
          """)
    }
    migrator.registerMigration("v16-item-order-kinds") { db in
      // The kind classes too: a walk of the order checks `kind:` on the
      // index alone, and reads the rows of the items of that kind only
      // (at a million entries, 131,000 newer gzip files stood before the
      // first text: 170 ms with their rows, 11 without).
      try db.execute(
        sql: """
          DROP INDEX item_order;
          CREATE INDEX item_order ON item(hidden, boost, modified DESC, displayName, kindClasses);
          """)
      // Each content type with its tree in a row of its own, and its term
      // in the name index's facets: `type:image/*` narrows a word's matches
      // to the types it names before any item row is read (`gz type:image/*`
      // read 500,000 rows a tier at a million entries: 2.7 s).
      try db.execute(
        sql: """
          CREATE TABLE content_type (
            id INTEGER PRIMARY KEY, type TEXT NOT NULL, tree TEXT NOT NULL, UNIQUE (type, tree));
          INSERT OR IGNORE INTO content_type (type, tree)
            SELECT DISTINCT COALESCE(contentType, ''), contentTypeTree FROM item;
          ALTER TABLE item ADD COLUMN typeID INTEGER;
          UPDATE item SET typeID = (
            SELECT id FROM content_type
              WHERE type = COALESCE(item.contentType, '') AND tree = item.contentTypeTree);
          UPDATE item_words SET facets = COALESCE((
            SELECT limelight_facets(kindClasses, modified, nameRank, typeID)
              FROM item WHERE item.rowid = item_words.rowid), facets);
          INSERT INTO item_name (item_name) VALUES ('rebuild');
          \(compactAfter)
          """)
    }
    // Each distinct text once (``TextBodies``): copies, hard links and
    // backups of a file share one body. The texts move out of the item's
    // row, and the index is packed afterwards.
    migrator.registerMigration("v17-text-bodies") { db in
      try TextPacker().refresh(db)
      try db.execute(
        sql: """
          CREATE TABLE text_body (
            id INTEGER PRIMARY KEY, key INTEGER NOT NULL, refs INTEGER NOT NULL, text BLOB NOT NULL);
          CREATE INDEX text_body_key ON text_body(key);
          ALTER TABLE item_words ADD COLUMN textID INTEGER;
          """)
      try TextBodies.moveRowTexts(db)
      try db.execute(
        sql: """
          DROP VIEW item_text_source;
          ALTER TABLE item_words DROP COLUMN text;
          \(textSource)
          \(compactAfter)
          """)
    }
    // Descriptions that repeat the title or the beginning of the text are
    // made from there when read (``ItemDescription``), not stored.
    migrator.registerMigration("v18-derived-descriptions") { db in
      try db.execute(sql: "ALTER TABLE item ADD COLUMN descriptionSource INTEGER")
      // The texts are read back to compare: with the index's dictionary.
      try TextPacker().refresh(db)
      try ItemDescription.deriveStored(db)
      try db.execute(sql: compactAfter)
    }
    // An item's content type tree is its type's, in `content_type`.
    migrator.registerMigration("v19-type-trees") { db in
      try db.execute(
        sql: """
          ALTER TABLE item DROP COLUMN contentTypeTree;
          \(compactAfter)
          """)
    }
    // The name index records which columns hold a word, no longer where
    // (`detail=column`): 554 bytes an entry became 328 on a corpus of
    // documentation and sources. A phrase of several words in a name is
    // looked for as its words, and checked on the item's names
    // (``SQLCompiler/NameMatch``).
    migrator.registerMigration("v20-name-columns") { db in
      try db.execute(
        sql: """
          \(nameIndexAgain(detail: "column"))
          \(compactAfter)
          """)
    }
    // An item's words keep no copy of its path where it is the item's own
    // path as text (every ASCII path: 79 bytes an entry of a corpus of
    // documentation and sources): `item_words`, which both full-text
    // indexes read, becomes a view that reads it from `item`
    // (``IndexWriter/keptPath(_:of:)``). What it shows is what the indexes
    // hold already: neither is made again.
    migrator.registerMigration("v21-paths-once") { db in
      try db.execute(
        sql: """
          DROP VIEW item_text_source;
          ALTER TABLE item_words RENAME TO item_words_stored;
          UPDATE item_words_stored SET path = ''
            WHERE path = (SELECT CAST(item.path AS TEXT) FROM item
              WHERE item.rowid = item_words_stored.rowid);
          \(wordsView)
          \(textSource)
          \(compactAfter)
          """)
    }
    // A word among the commonest and the word after it are a
    // term of the text index too (the `limelight_pairs` tokenizer): a
    // phrase of common words finds the texts holding its pairs, where it
    // read every text holding each of its words (`"the quick"`: 291 texts,
    // 26 MB unpacked and read at a million entries). An item with a text
    // has its facets there too (``ItemFacets/textFacets(_:hasText:)``): a
    // common word with a narrow filter finds the texts of the filter's
    // items without reading every text holding the word. The texts are
    // indexed again.
    migrator.registerMigration("v22-word-pairs-and-facets") { db in
      // The texts are read through the index's dictionary.
      try TextPacker().refresh(db)
      try db.execute(
        sql: """
          DROP TABLE item_vocab;
          DROP TABLE item_text;
          DROP VIEW item_text_source;
          \(textSourceWithFacets)
          \(textIndex(
            detail: "none", prefixes: textPrefixes, tokenizer: "limelight_pairs",
            columns: "name, keywords, path, content, facets"))
          \(compactAfter)
          """)
    }
    // `limelight status` counts files, folders and the files whose content
    // waits on an index of those columns alone (43 ms at a million entries,
    // where reading every row took 400 ms, at each refresh of its progress
    // bar), and the count of waiting files needs no index of its own while
    // a first crawl goes without it (``deferredIndexes``).
    migrator.registerMigration("v23-counted-kinds") { db in
      try db.execute(
        sql: """
          DROP INDEX item_domain;
          CREATE INDEX item_domain ON item(domain, isFolder, contentPending);
          """)
    }
    // `kind:email`: the e-mails indexed before the kind was are read again
    // by the second pass, which writes their kinds and facets anew.
    migrator.registerMigration("v24-email-kind") { db in
      try db.execute(
        sql: """
          UPDATE item SET contentPending = 1
            WHERE contentType IN ('message/rfc822', 'application/mbox', 'message/news',
              'application/vnd.ms-outlook');
          """)
    }
    // Meaning search: an embedding of each document worth one (one signed
    // byte a dimension; an empty one for a text too short or that the model
    // failed on), gone with its item; every change counted in `meta`, so
    // that a query service holding the vectors in memory knows when to read
    // them again.
    migrator.registerMigration("v25-meaning") { db in
      try db.execute(
        sql: """
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
          """)
    }
    return migrator
  }

  /// The indexes a first crawl goes without, made when it ends
  /// (``IndexStore/deferIndexesForFirstCrawl()``): each new row went to a
  /// random page of each (by inode, size, time), and each commit wrote
  /// those pages again: a million entries' first pass wrote 10.6 GB of log
  /// with them, 6.5 without; made at its end, they take 2.5 s. Queries do
  /// without them meanwhile (none names them), reading more rows for a move
  /// or a size. As the migrations leave them: a later migration that
  /// changes one drops it `IF EXISTS`.
  static let deferredIndexes = [
    (name: "item_identity", sql: "CREATE INDEX item_identity ON item(device, inode)"),
    (name: "item_size", sql: "CREATE INDEX item_size ON item(size) WHERE size IS NOT NULL"),
    (
      name: "item_content_pending",
      sql: "CREATE INDEX item_content_pending ON item(modified) WHERE contentPending = 1"
    ),
  ]

  /// Asks for the index to be packed once its upgrade is done
  /// (``IndexStore/compactAfterUpgrade(_:texts:)``): an upgrade that
  /// rewrites tables leaves their old pages free.
  static let compactAfter = "INSERT OR REPLACE INTO meta (key, value) VALUES ('compact', 1);"

  /// What both full-text indexes index: each item's name, keywords, path
  /// (its own when `item_words_stored` keeps none), facets and text.
  static let wordsView = """
    CREATE VIEW item_words AS
      SELECT w.rowid AS rowid, w.name AS name, w.keywords AS keywords,
        CASE WHEN w.path = '' THEN COALESCE(CAST(item.path AS TEXT), '') ELSE w.path END AS path,
        w.facets AS facets, w.textID AS textID
      FROM item_words_stored AS w LEFT JOIN item ON item.rowid = w.rowid;
    """

  /// What `item_text` indexes: each item's words with its text unpacked,
  /// and the facets of an item with a text (``ItemFacets/textFacets(_:hasText:)``).
  static let textSourceWithFacets = """
    CREATE VIEW item_text_source AS
      SELECT w.rowid AS rowid, w.name AS name, w.keywords AS keywords, w.path AS path,
        limelight_inflate(b.text) AS content, limelight_text_facets(w.facets, w.textID) AS facets
      FROM item_words AS w LEFT JOIN text_body AS b ON b.id = w.textID;
    """

  /// What `item_text` indexed up to v21: each item's words with its text unpacked.
  static let textSource = """
    CREATE VIEW item_text_source AS
      SELECT w.rowid AS rowid, w.name AS name, w.keywords AS keywords, w.path AS path,
        limelight_inflate(b.text) AS content
      FROM item_words AS w LEFT JOIN text_body AS b ON b.id = w.textID;
    """

  /// Both full-text indexes made again over `item_words` (the old ones
  /// dropped) with these prefix lengths, and their vocabularies, as the
  /// upgrades to v6 and v7 made them (a name index without facets).
  static func fullTextIndexes(namePrefixes: String, textPrefixes: String) -> String {
    """
    DROP TABLE item_vocab;
    DROP TABLE item_text;
    DROP TABLE item_name_vocab;
    DROP TABLE item_name;
    \(nameIndex(columns: "name, keywords, path", prefixes: namePrefixes))
    INSERT INTO item_name (item_name) VALUES ('rebuild');
    \(textIndex(detail: "column", prefixes: textPrefixes))
    INSERT INTO item_name (item_name, rank) VALUES ('automerge', \(automerge));
    """
  }

  /// The text index over `item_text_source`, built, with its vocabulary;
  /// `tokenizer` is unicode61 or `limelight_pairs`, which wraps it.
  static func textIndex(
    detail: String, prefixes: String, tokenizer: String = "unicode61",
    columns: String = "name, keywords, path, content"
  ) -> String {
    """
    CREATE VIRTUAL TABLE item_text USING fts5(
      \(columns),
      content = 'item_text_source', content_rowid = 'rowid',
      tokenize = '\(tokenizer) remove_diacritics 2',
      detail = \(detail),
      prefix = '\(prefixes)'
    );
    INSERT INTO item_text (item_text) VALUES ('rebuild');
    CREATE VIRTUAL TABLE item_vocab USING fts5vocab(item_text, 'row');
    INSERT INTO item_text (item_text, rank) VALUES ('automerge', \(automerge));
    """
  }

  /// The name index over these columns of `item_words`, with its
  /// vocabulary, empty; `detail` as FTS5 takes it.
  static func nameIndex(columns: String, prefixes: String, detail: String = "full") -> String {
    """
    CREATE VIRTUAL TABLE item_name USING fts5(
      \(columns),
      content = 'item_words', content_rowid = 'rowid',
      tokenize = 'unicode61 remove_diacritics 2',
      detail = \(detail),
      prefix = '\(prefixes)'
    );
    CREATE VIRTUAL TABLE item_name_vocab USING fts5vocab(item_name, 'row');
    """
  }

  /// The name index (with facets) made again from `item_words` with this
  /// `detail`, the old one dropped.
  static func nameIndexAgain(detail: String) -> String {
    """
    DROP TABLE item_name_vocab;
    DROP TABLE item_name;
    \(nameIndex(columns: "name, keywords, path, facets", prefixes: namePrefixes, detail: detail))
    INSERT INTO item_name (item_name) VALUES ('rebuild');
    INSERT INTO item_name (item_name, rank) VALUES ('automerge', \(automerge));
    """
  }

  /// How many segments of a level the full-text indexes gather before
  /// merging them (FTS5's most; its default is 4): a crawl commits often, and
  /// merging at every fourth commit rewrote the index again and again (a
  /// third of the second pass's time).
  static let automerge = 16

  /// The prefix lengths `item_text` indexes: a three-letter prefix is one
  /// list to read; shorter and longer ones are gathered from the terms.
  static let textPrefixes = "3"
  /// The prefix lengths `item_name` indexes: the keystrokes of a search are
  /// one list each (without the five- and six-letter ones, a million
  /// entries' lookups of longer prefixes took 8 to 16 ms each; without the
  /// one-letter one, a first keystroke with a filter or another word merged
  /// the lists of every word starting with it, 25 ms each time; it costs 80
  /// bytes an entry).
  static let namePrefixes = "1 2 3 4 5 6"
}
