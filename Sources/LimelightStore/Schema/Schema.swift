import Foundation
import GRDB

/// The index's tables: a new index is made from ``current``, an older one
/// upgraded by the literal steps of ``upgrades``, and one older than the
/// first of those is built anew from the disk (the index is a cache).
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
///   the item's own as text: that one is read from `item`. Its items by
///   their text (`item_words_text`): a copy of a document takes the vector
///   the third pass made of the first.
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
  /// The one migration the migrator knows: it makes a new index from
  /// ``current`` or brings an older one up to it with ``upgrades``. It
  /// merges every migration shipped before it (GRDB's `merging:`), whose
  /// names an older index lists.
  ///
  /// To change the schema: add a step of literal SQL at the end of
  /// ``upgrades``, write its outcome into ``current`` and add its name to
  /// ``shipped``; `SchemaTests` checks that an index upgraded step by step
  /// ends where a new one starts. A shipped step is never changed, and
  /// calls nothing of the code of the day (a helper changed later would
  /// silently change an old migration): a change that needs code (reading
  /// every text again, say) moves ``oldestUpgraded`` forward instead, and
  /// older indexes are built anew.
  static let identifier = "schema-v32"

  /// The identifiers this migration had before, each with the last step
  /// it stood for: an index lists only the identifier it was made or
  /// upgraded with (GRDB's `merging:` replaces the steps it merges).
  static let earlierIdentifiers = [
    "schema-v25": "v25-meaning", "schema-v26": "v26-one-folding",
    "schema-v27": "v27-code-pairs", "schema-v28": "v28-meaning-passages",
    "schema-v29": "v29-meaning-token-cap", "schema-v30": "v30-meaning-changes",
    "schema-v31": "v32-text-prefixes-of-four",
  ]

  /// Every migration an index may list, oldest first: those made before
  /// the schema was written once, and the steps of ``upgrades``.
  static let shipped =
    [
      "v1", "v2-vocabulary", "v3-names", "v4-text-prefixes", "v5-applications", "v6-small-text",
      "v7-name-rank", "v8-facets", "v9-text-rows", "v10-text-dictionary", "v11-short-typo-keys",
      "v12-hidden-items", "v13-cjk-pairs", "v14-watcher-report", "v15-item-order",
      "v16-item-order-kinds", "v17-text-bodies", "v18-derived-descriptions", "v19-type-trees",
      "v20-name-columns", "v21-paths-once", "v22-word-pairs-and-facets", "v23-counted-kinds",
      "v24-email-kind", "v25-meaning", "v26-one-folding", "v27-code-pairs",
    ] + upgrades.map(\.name)

  /// The oldest index upgraded: the migrations up to it called the code of
  /// their day (to read every text again, to add typo keys, to move the
  /// watcher's report), or changed which terms the text index makes (v26:
  /// the tokenizers fold Greek and Cyrillic accents and ß as queries do,
  /// and every word indexed before would be looked for in vain; v27: the
  /// words programs begin phrases with pair with the next word, which a
  /// query's phrase asks for), so an index without it is built anew.
  static let oldestUpgraded = "v27-code-pairs"

  /// An index older than ``oldestUpgraded``: built anew, not upgraded.
  struct OlderIndex: Error {}

  /// Whether a newer version upgraded the index: it lists a migration
  /// this one does not know (GRDB's own check knows only ``identifier``,
  /// not the migrations it merges).
  static func isNewer(_ db: Database) throws -> Bool {
    let known = Set(shipped + [identifier] + earlierIdentifiers.keys)
    return try !migrator.appliedIdentifiers(db).isSubset(of: known)
  }

  static var migrator: DatabaseMigrator {
    var migrator = DatabaseMigrator()
    let merged = Set(shipped + earlierIdentifiers.keys)
    migrator.registerMigration(identifier, merging: merged) { db, applied in
      if applied.isEmpty {
        try db.execute(sql: current)
        try db.execute(sql: currentRows)
        return
      }
      var applied = applied
      for (earlier, last) in earlierIdentifiers where applied.contains(earlier) {
        if let end = shipped.firstIndex(of: last) { applied.formUnion(shipped[...end]) }
      }
      guard applied.contains(oldestUpgraded) else { throw OlderIndex() }
      for step in upgrades where !applied.contains(step.name) {
        try db.execute(sql: step.sql)
      }
    }
    return migrator
  }

  /// The indexes a first crawl goes without, made when it ends
  /// (``IndexStore/deferIndexesForFirstCrawl()``): each new row went to a
  /// random page of each (by inode, size, time), and each commit wrote
  /// those pages again: a million entries' first pass wrote 10.6 GB of log
  /// with them, 6.5 without; made at its end, they take 2.5 s. The order
  /// of filters alone (`item_order`, by rank, time and name) too: the names
  /// pass of the real corpus took 30 s against 35 without it, in three
  /// alternating runs. Queries do without them meanwhile, reading more rows
  /// for a move or a size, and sorting the items filters alone list
  /// (``SearchEngine/holdsFilterOrder(_:)``: the only statements that name
  /// one). As ``current`` makes them: a later step that changes one drops
  /// it `IF EXISTS`.
  static let deferredIndexes = [
    (name: "item_identity", sql: "CREATE INDEX item_identity ON item(device, inode)"),
    (name: "item_size", sql: "CREATE INDEX item_size ON item(size) WHERE size IS NOT NULL"),
    (
      name: "item_content_pending",
      sql: "CREATE INDEX item_content_pending ON item(modified) WHERE contentPending = 1"
    ),
    (
      name: "item_order",
      sql:
        "CREATE INDEX item_order ON item(hidden, boost, modified DESC, displayName, kindClasses)"
    ),
  ]
}
