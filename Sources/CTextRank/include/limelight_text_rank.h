#ifndef LIMELIGHT_TEXT_RANK_H
#define LIMELIGHT_TEXT_RANK_H

#include <sqlite3.h>
#include <stdint.h>

/// Registers `limelight_rank(fts_table, narrowing)` with the FTS5 module of a
/// connection: BM25 over which phrases a row holds (see text_rank.c).
/// Returns SQLITE_OK, or an error when the connection has no FTS5.
int limelight_register_text_rank(sqlite3 *db);

/// Registers the `limelight_pairs` tokenizer: unicode61 (given the same
/// arguments), which also indexes two Chinese, Japanese or Korean characters
/// written side by side as one term (see cjk_pairs.c).
int limelight_register_cjk_pairs(sqlite3 *db);

// The name index's tokenizer: unicode61, each word folded as the Swift side
// folds (search_fold.c).
int limelight_register_words(sqlite3 *db);

// A word as unicode61 left it, folded further (search_fold.c): the length
// written to `out`, or -1 when the word stays as it is (or does not fit).
int limelight_fold(const char *token, int length, char *out, int capacity);

// A tokenizer's callback and its context, for limelight_fold_token: a
// callback that folds each token (limelight_fold) and hands it on.
typedef struct {
  void *context;
  int (*token)(void *, int, const char *, int, int, int);
} LimelightFoldState;

int limelight_fold_token(void *context, int flags, const char *token, int length, int start,
                         int end);

// The unicode61 tokenizer a tokenizer of ours wraps, made with its
// arguments (search_fold.c).
typedef struct {
  fts5_tokenizer methods;
  Fts5Tokenizer *tokenizer;
} LimelightInner;

// Registers a tokenizer of ours under `name` (its context: the FTS5 API).
int limelight_create_tokenizer(sqlite3 *db, const char *name, fts5_tokenizer *methods);

int limelight_inner_create(fts5_api *fts, const char **arguments, int count,
                           LimelightInner *inner);
void limelight_inner_delete(LimelightInner *inner);

/// Whether a word (folded, in ASCII) is one of the commonest, whose pairs
/// with the words beside it the `limelight_pairs` tokenizer indexes.
int limelight_is_common_word(const char *word, int length);

/// The dot products of `count` meaning vectors laid end to end
/// (`dimensions` signed bytes each) with a query's, into `out`: a scan of
/// vectors held in memory, as the query service keeps them (see meaning.c).
void limelight_dot_products(const int8_t *vectors, long count, int dimensions,
                            const int8_t *query, int32_t *out);

/// Sets `out` to the connection's FTS5 interface. Returns SQLITE_OK, or
/// SQLite's error (SQLITE_NOTADB for a damaged file, SQLITE_ERROR without FTS5).
int limelight_fts5_api(sqlite3 *db, fts5_api **out);

#endif
