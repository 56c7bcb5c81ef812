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
//
// A word among the commonest (the, of, is: limelight_is_common_word) and
// the word after it are a term too, for the same reason: a phrase of common
// words ("the quick") has thousands of texts holding each word, and reading
// them all to find the few holding the phrase took most of a query. The
// pairs that end in a common word are left out: half the terms again, and
// a phrase has a common word at its end alone far less often.
//
// The term is two characters of the private use plane 15 chosen by a hash
// of the two words (pair_term): two characters have no
// prefix for the text index's prefix index (of three) to record. Two pairs
// may share a term, which only adds a text to read; with one character a
// term stood for so many pairs that a long text held a given one by chance
// (at a million entries, 2,083 texts had `"the quick"`'s term and 836 the
// phrase).
//
// Words here are runs of ASCII letters and digits (token_words); whatever
// stands between two of them is passed over, not a break: the phrase check
// (PhraseCheck) reads some of it as spaces, and a pair too many costs a
// read, where one too few would lose a text. Queries ask for a pair as
// "\x01first second", which becomes its term alone.

#include "limelight_text_rank.h"

#include <string.h>

// The characters of pairs' terms: the private use plane 15 past its first
// 4,096, which stand for months (ItemFacets: to the year 2311) in the
// facets the text index holds too.
#define PAIR_TERMS (65534u - 4096u)
#define PAIR_BASE (0xF0000u + 4096u)

typedef struct {
  LimelightInner inner;
  // Pair terms given in a text, by their hash mod PAIR_TERMS: the hash and
  // the text it was last given for. A term is given once a text (the index
  // records no more), not at each of its places (a pair of common words is
  // in most sentences); two hashes sharing a slot are given again. Texts
  // are numbered by `texts`, and the slots cleared when the numbers start
  // again. Made at the first text (a connection that only queries has none).
  struct {
    unsigned int hash;
    unsigned short text;
  } *given;
  unsigned short texts;
} PairTokenizer;

typedef struct {
  void *context;
  int (*token)(void *, int, const char *, int, int, int);
  // The last token when it was one such character: its bytes and place.
  char previous[4];
  int previous_length;
  int previous_start;
  int previous_end;
  // The last word in ASCII, when there is one: its hash with the space
  // after it (the start of a pair's), and whether it is a common word.
  unsigned int word_hash;
  int has_word;
  int word_is_common;
  PairTokenizer *tokenizer;
} PairState;

// The commonest words of English, and a few of other languages', by length
// (each group ends with a null), and the words programs begin their
// commonest phrases with ("int main", "return the", "import os"): words of
// up to six letters ("i" and "y" left out: a loop's variable in every
// program, paired with all it touches).
static const char *const common_words[7][32] = {
    {0},
    {"a", 0},
    {"an", "as", "at", "be", "by", "de", "do", "en", "et", "fn", "he", "if", "in", "is", "it",
     "la", "le", "no", "of", "on", "or", "so", "to", "we", 0},
    {"all", "and", "are", "but", "can", "def", "der", "des", "die", "for", "has", "his", "int",
     "its", "les", "let", "may", "new", "not", "one", "pub", "the", "und", "use", "var", "was",
     "you", 0},
    {"also", "been", "char", "else", "from", "func", "have", "impl", "into", "more", "self",
     "than", "that", "then", "they", "this", "void", "will", "with", 0},
    {"about", "class", "const", "other", "their", "there", "these", "which", 0},
    {"define", "import", "public", "return", "static", "struct", 0},
};

int limelight_is_common_word(const char *word, int length) {
  if (length < 1 || length > 6) return 0;
  for (const char *const *common = common_words[length]; *common; common++)
    if ((*common)[0] == word[0] && memcmp(*common, word, (size_t)length) == 0) return 1;
  return 0;
}

// FNV-1a, continued from `hash` over `length` bytes.
static unsigned int fnv1a(unsigned int hash, const char *bytes, int length) {
  for (int i = 0; i < length; i++) {
    hash ^= (unsigned char)bytes[i];
    hash *= 16777619u;
  }
  return hash;
}

static const unsigned int fnv_basis = 2166136261u;

// A character of a pair's term, in UTF-8.
static void pair_character(unsigned int value, char out[4]) {
  out[0] = (char)(0xF0 | (value >> 18));
  out[1] = (char)(0x80 | ((value >> 12) & 0x3F));
  out[2] = (char)(0x80 | ((value >> 6) & 0x3F));
  out[3] = (char)(0x80 | (value & 0x3F));
}

// The term of a pair: two characters, from the hash's low and high parts.
static void pair_term(unsigned int hash, char out[8]) {
  pair_character(PAIR_BASE + hash % PAIR_TERMS, out);
  pair_character(PAIR_BASE + hash / PAIR_TERMS % PAIR_TERMS, out + 4);
}

// The term a query asks for: the hash of "first second", as the document's
// words make it (word_pair).
static void word_pair_term(const char *first, int first_length, const char *second,
                           int second_length, char out[8]) {
  unsigned int hash = fnv1a(fnv1a(fnv_basis, first, first_length), " ", 1);
  pair_term(fnv1a(hash, second, second_length), out);
}

// After a word (`length` bytes, the first of them in `head`): the pair it
// ends, when the word before is common. `pair_hash` is the hash of the word
// before, its space and this word; `hash`, of this word alone.
static int word_pair(PairState *state, const char *head, int length, unsigned int pair_hash,
                     unsigned int hash, int start, int end) {
  int is_common = limelight_is_common_word(head, length);
  int rc = SQLITE_OK;
  PairTokenizer *tokenizer = state->tokenizer;
  unsigned int slot = pair_hash % PAIR_TERMS;
  if (state->has_word && state->word_is_common &&
      (tokenizer->given[slot].text != tokenizer->texts ||
       tokenizer->given[slot].hash != pair_hash)) {
    tokenizer->given[slot].text = tokenizer->texts;
    tokenizer->given[slot].hash = pair_hash;
    char term[8];
    pair_term(pair_hash, term);
    rc = state->token(state->context, FTS5_TOKEN_COLOCATED, term, 8, start, end);
  }
  state->word_hash = fnv1a(hash, " ", 1);
  state->has_word = 1;
  state->word_is_common = is_common;
  return rc;
}

// The words of a token (unicode61 and limelight_fold have folded its case and
// accents, ß to "ss"): its runs of ASCII letters (lower case) and digits.
// Anything else in the token stands between words, as a space would:
// unicode61 keeps in one token characters the phrase check reads as spaces
// (private use, formatting characters Unicode named after SQLite's tables).
static int token_words(PairState *state, const char *token, int length, int start, int end) {
  const unsigned char *bytes = (const unsigned char *)token;
  int i = 0;
  while (i < length) {
    char head[7];
    int count = 0;
    unsigned int hash = fnv_basis, pair_hash = state->word_hash;
    for (;;) {
      const char *piece;
      int size;
      unsigned char byte = i < length ? bytes[i] : 0;
      if ((byte >= '0' && byte <= '9') || (byte >= 'a' && byte <= 'z')) {
        piece = token + i;
        size = 1;
        i += 1;
      } else {
        break;
      }
      for (int k = 0; k < size; k++, count++)
        if (count < 7) head[count] = piece[k];
      hash = fnv1a(hash, piece, size);
      pair_hash = fnv1a(pair_hash, piece, size);
    }
    if (count > 0) {
      int rc = word_pair(state, head, count > 6 ? 7 : count, pair_hash, hash, start, end);
      if (rc != SQLITE_OK) return rc;
    } else {
      i += 1;
    }
  }
  return SQLITE_OK;
}

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
  // Folded as the name index folds (search_fold.c).
  char folded[256];
  int size = limelight_fold(token, length, folded, (int)sizeof(folded));
  if (size >= 0) {
    token = folded;
    length = size;
  }
  int rc = state->token(state->context, flags, token, length, start, end);
  if (rc != SQLITE_OK || (flags & FTS5_TOKEN_COLOCATED)) return rc;
  rc = token_words(state, token, length, start, end);
  if (rc != SQLITE_OK) return rc;
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
  PairTokenizer *tokenizer = (PairTokenizer *)sqlite3_malloc(sizeof(PairTokenizer));
  if (!tokenizer) return SQLITE_NOMEM;
  memset(tokenizer, 0, sizeof(PairTokenizer));
  int rc = limelight_inner_create((fts5_api *)context, arguments, count, &tokenizer->inner);
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
  limelight_inner_delete(&tokenizer->inner);
  sqlite3_free(tokenizer->given);
  sqlite3_free(tokenizer);
}

static int pair_tokenize(Fts5Tokenizer *pointer, void *context, int flags, const char *text,
                         int length,
                         int (*token)(void *, int, const char *, int, int, int)) {
  PairTokenizer *tokenizer = (PairTokenizer *)pointer;
  // A query's pair of words: "\x01first second", folded, in ASCII.
  if ((flags & FTS5_TOKENIZE_QUERY) && length > 0 && text[0] == '\x01') {
    const char *space = memchr(text + 1, ' ', (size_t)(length - 1));
    if (!space) return SQLITE_ERROR;
    char term[8];
    int first = (int)(space - text) - 1;
    word_pair_term(text + 1, first, space + 1, length - first - 2, term);
    return token(context, 0, term, 8, 0, length);
  }
  // Queries and snippets see the words alone, folded.
  if (!(flags & FTS5_TOKENIZE_DOCUMENT) || (flags & FTS5_TOKENIZE_QUERY)) {
    LimelightFoldState fold = {context, token};
    return tokenizer->inner.methods.xTokenize(tokenizer->inner.tokenizer, &fold, flags, text,
                                              length, limelight_fold_token);
  }
  PairState state;
  memset(&state, 0, sizeof(state));
  state.context = context;
  state.token = token;
  state.tokenizer = tokenizer;
  if (!tokenizer->given) {
    tokenizer->given = sqlite3_malloc64(PAIR_TERMS * sizeof(*tokenizer->given));
    if (!tokenizer->given) return SQLITE_NOMEM;
    tokenizer->texts = 0;
  }
  if (tokenizer->texts == 0 || ++tokenizer->texts == 0) {
    memset(tokenizer->given, 0, PAIR_TERMS * sizeof(*tokenizer->given));
    tokenizer->texts = 1;
  }
  return tokenizer->inner.methods.xTokenize(tokenizer->inner.tokenizer, &state, flags, text,
                                            length, pair_token);
}

int limelight_register_cjk_pairs(sqlite3 *db) {
  fts5_tokenizer methods = {pair_create, pair_delete, pair_tokenize};
  return limelight_create_tokenizer(db, "limelight_pairs", &methods);
}
