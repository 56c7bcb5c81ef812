// The text index's tokenizer: unicode61, and for two Chinese, Japanese or
// Korean characters written side by side, the pair as a term of its own at
// the second one's place (a colocated token). The index stores one
// character per word (SearchText.fold spaces them out, so that any run is a
// phrase), and a text index that records no positions (detail=none) could
// only tell that a document holds each character of a run somewhere: a
// common character's every document was read again to look for the run.
// With the pairs, the index itself finds the documents holding each pair of
// the run, and only those are read.
//
// Side by side means two characters unicode61 keeps as words of one
// character each, exactly two bytes apart: the two spaces the folding puts
// between them. A space or punctuation between them makes no pair.
// Queries name the pairs they want as words ("硬盘"), which unicode61 keeps
// whole; their text is tokenized as is.

#include "limelight_text_rank.h"

#include <string.h>

typedef struct {
  fts5_tokenizer inner_methods;
  Fts5Tokenizer *inner;
} PairTokenizer;

typedef struct {
  void *context;
  int (*token)(void *, int, const char *, int, int, int);
  // The last token when it was one such character: its bytes and place.
  char previous[4];
  int previous_length;
  int previous_start;
  int previous_end;
} PairState;

// Whether a token is a single Chinese, Japanese or Korean character (the
// blocks SearchText.isCJK names).
static int is_cjk_character(const char *token, int length) {
  const unsigned char *s = (const unsigned char *)token;
  unsigned int value;
  if (length == 3 && (s[0] & 0xF0) == 0xE0) {
    value = ((s[0] & 0x0Fu) << 12) | ((s[1] & 0x3Fu) << 6) | (s[2] & 0x3Fu);
  } else if (length == 4 && (s[0] & 0xF8) == 0xF0) {
    value = ((s[0] & 0x07u) << 18) | ((s[1] & 0x3Fu) << 12) | ((s[2] & 0x3Fu) << 6) |
            (s[3] & 0x3Fu);
  } else {
    return 0;
  }
  return (value >= 0x3040 && value <= 0x30FF) || (value >= 0x31F0 && value <= 0x31FF) ||
         (value >= 0x3400 && value <= 0x4DBF) || (value >= 0x4E00 && value <= 0x9FFF) ||
         (value >= 0xAC00 && value <= 0xD7AF) || (value >= 0xF900 && value <= 0xFAFF) ||
         (value >= 0x20000 && value <= 0x2FA1F);
}

static int pair_token(void *context, int flags, const char *token, int length, int start,
                      int end) {
  PairState *state = (PairState *)context;
  int rc = state->token(state->context, flags, token, length, start, end);
  if (rc != SQLITE_OK || (flags & FTS5_TOKEN_COLOCATED)) return rc;
  if (!is_cjk_character(token, length)) {
    state->previous_length = 0;
    return rc;
  }
  if (state->previous_length > 0 && start - state->previous_end == 2) {
    char pair[8];
    memcpy(pair, state->previous, (size_t)state->previous_length);
    memcpy(pair + state->previous_length, token, (size_t)length);
    rc = state->token(state->context, FTS5_TOKEN_COLOCATED, pair,
                      state->previous_length + length, state->previous_start, end);
  }
  memcpy(state->previous, token, (size_t)length);
  state->previous_length = length;
  state->previous_start = start;
  state->previous_end = end;
  return rc;
}

static int pair_create(void *context, const char **arguments, int count, Fts5Tokenizer **out) {
  fts5_api *fts = (fts5_api *)context;
  void *inner_context = 0;
  PairTokenizer *tokenizer = (PairTokenizer *)sqlite3_malloc(sizeof(PairTokenizer));
  if (!tokenizer) return SQLITE_NOMEM;
  memset(tokenizer, 0, sizeof(PairTokenizer));
  int rc = fts->xFindTokenizer(fts, "unicode61", &inner_context, &tokenizer->inner_methods);
  if (rc == SQLITE_OK)
    rc = tokenizer->inner_methods.xCreate(inner_context, arguments, count, &tokenizer->inner);
  if (rc != SQLITE_OK) {
    sqlite3_free(tokenizer);
    return rc;
  }
  *out = (Fts5Tokenizer *)tokenizer;
  return SQLITE_OK;
}

static void pair_delete(Fts5Tokenizer *pointer) {
  PairTokenizer *tokenizer = (PairTokenizer *)pointer;
  if (!tokenizer) return;
  tokenizer->inner_methods.xDelete(tokenizer->inner);
  sqlite3_free(tokenizer);
}

static int pair_tokenize(Fts5Tokenizer *pointer, void *context, int flags, const char *text,
                         int length,
                         int (*token)(void *, int, const char *, int, int, int)) {
  PairTokenizer *tokenizer = (PairTokenizer *)pointer;
  // Queries and snippets see the words alone.
  if (!(flags & FTS5_TOKENIZE_DOCUMENT) || (flags & FTS5_TOKENIZE_QUERY))
    return tokenizer->inner_methods.xTokenize(tokenizer->inner, context, flags, text, length,
                                              token);
  PairState state;
  memset(&state, 0, sizeof(state));
  state.context = context;
  state.token = token;
  return tokenizer->inner_methods.xTokenize(tokenizer->inner, &state, flags, text, length,
                                            pair_token);
}

int limelight_register_cjk_pairs(sqlite3 *db) {
  fts5_api *fts = 0;
  int rc = limelight_fts5_api(db, &fts);
  if (rc != SQLITE_OK) return rc;
  fts5_tokenizer methods = {pair_create, pair_delete, pair_tokenize};
  return fts->xCreateTokenizer(fts, "limelight_pairs", fts, &methods, 0);
}
