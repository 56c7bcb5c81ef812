// The one folding of words beyond what unicode61 folds: every word the
// index stores and every word a query looks for passes through it, so that
// the index folds as the Swift side does (SearchText.caseAndAccentFolded,
// Foundation's case- and diacritic-insensitive folding). unicode61 with
// remove_diacritics strips the accents of Latin letters alone: "Αθήνα"
// stayed "αθήνα" and "straße" stayed "straße", which the queries, folded
// in Swift, looked for as "αθηνα" and "strasse" and never found.
//
// The table maps a character as unicode61 leaves it (lower case, Latin
// accents gone) to what Foundation folds it to: Greek tonos, dialytika and
// the polytonic marks, Cyrillic ё, й, ї, ў and their kin, ß, and the few
// Latin letters and capitals unicode61's older tables keep. FoldingTests
// checks it, character by character, for every script the relevance
// benchmark holds, against SearchText.terms, and prints the rows to add
// when Unicode or Foundation moves.

#include "limelight_text_rank.h"

#include <string.h>

typedef struct {
  unsigned int from;
  const char *to;
} Fold;

static const Fold folds[] = {
  {0x00DF, "\x73\x73"}, // ß → ss
  {0x0149, "\xCA\xBC\x6E"}, // ŉ → ʼn
  {0x01E1, "\x61"}, // ǡ → a
  {0x01E3, "\xC3\xA6"}, // ǣ → æ
  {0x01EF, "\xCA\x92"}, // ǯ → ʒ
  {0x01FD, "\xC3\xA6"}, // ǽ → æ
  {0x01FF, "\xC3\xB8"}, // ǿ → ø
  {0x0374, "\xCA\xB9"}, // ʹ → ʹ
  {0x037F, "\xCF\xB3"}, // Ϳ → ϳ
  {0x0390, "\xCE\xB9"}, // ΐ → ι
  {0x03AC, "\xCE\xB1"}, // ά → α
  {0x03AD, "\xCE\xB5"}, // έ → ε
  {0x03AE, "\xCE\xB7"}, // ή → η
  {0x03AF, "\xCE\xB9"}, // ί → ι
  {0x03B0, "\xCF\x85"}, // ΰ → υ
  {0x03CA, "\xCE\xB9"}, // ϊ → ι
  {0x03CB, "\xCF\x85"}, // ϋ → υ
  {0x03CC, "\xCE\xBF"}, // ό → ο
  {0x03CD, "\xCF\x85"}, // ύ → υ
  {0x03CE, "\xCF\x89"}, // ώ → ω
  {0x03D3, "\xCF\x92"}, // ϓ → ϒ
  {0x03D4, "\xCF\x92"}, // ϔ → ϒ
  {0x0439, "\xD0\xB8"}, // й → и
  {0x0450, "\xD0\xB5"}, // ѐ → е
  {0x0451, "\xD0\xB5"}, // ё → е
  {0x0453, "\xD0\xB3"}, // ѓ → г
  {0x0457, "\xD1\x96"}, // ї → і
  {0x045C, "\xD0\xBA"}, // ќ → к
  {0x045D, "\xD0\xB8"}, // ѝ → и
  {0x045E, "\xD1\x83"}, // ў → у
  {0x0477, "\xD1\xB5"}, // ѷ → ѵ
  {0x04C2, "\xD0\xB6"}, // ӂ → ж
  {0x04D1, "\xD0\xB0"}, // ӑ → а
  {0x04D3, "\xD0\xB0"}, // ӓ → а
  {0x04D7, "\xD0\xB5"}, // ӗ → е
  {0x04DB, "\xD3\x99"}, // ӛ → ә
  {0x04DD, "\xD0\xB6"}, // ӝ → ж
  {0x04DF, "\xD0\xB7"}, // ӟ → з
  {0x04E3, "\xD0\xB8"}, // ӣ → и
  {0x04E5, "\xD0\xB8"}, // ӥ → и
  {0x04E7, "\xD0\xBE"}, // ӧ → о
  {0x04EB, "\xD3\xA9"}, // ӫ → ө
  {0x04ED, "\xD1\x8D"}, // ӭ → э
  {0x04EF, "\xD1\x83"}, // ӯ → у
  {0x04F1, "\xD1\x83"}, // ӱ → у
  {0x04F3, "\xD1\x83"}, // ӳ → у
  {0x04F5, "\xD1\x87"}, // ӵ → ч
  {0x04F9, "\xD1\x8B"}, // ӹ → ы
  {0x0528, "\xD4\xA9"}, // Ԩ → ԩ
  {0x052A, "\xD4\xAB"}, // Ԫ → ԫ
  {0x052C, "\xD4\xAD"}, // Ԭ → ԭ
  {0x052E, "\xD4\xAF"}, // Ԯ → ԯ
  {0x1E9A, "\x61\xCA\xBE"}, // ẚ → aʾ
  {0x1F00, "\xCE\xB1"}, // ἀ → α
  {0x1F01, "\xCE\xB1"}, // ἁ → α
  {0x1F02, "\xCE\xB1"}, // ἂ → α
  {0x1F03, "\xCE\xB1"}, // ἃ → α
  {0x1F04, "\xCE\xB1"}, // ἄ → α
  {0x1F05, "\xCE\xB1"}, // ἅ → α
  {0x1F06, "\xCE\xB1"}, // ἆ → α
  {0x1F07, "\xCE\xB1"}, // ἇ → α
  {0x1F10, "\xCE\xB5"}, // ἐ → ε
  {0x1F11, "\xCE\xB5"}, // ἑ → ε
  {0x1F12, "\xCE\xB5"}, // ἒ → ε
  {0x1F13, "\xCE\xB5"}, // ἓ → ε
  {0x1F14, "\xCE\xB5"}, // ἔ → ε
  {0x1F15, "\xCE\xB5"}, // ἕ → ε
  {0x1F20, "\xCE\xB7"}, // ἠ → η
  {0x1F21, "\xCE\xB7"}, // ἡ → η
  {0x1F22, "\xCE\xB7"}, // ἢ → η
  {0x1F23, "\xCE\xB7"}, // ἣ → η
  {0x1F24, "\xCE\xB7"}, // ἤ → η
  {0x1F25, "\xCE\xB7"}, // ἥ → η
  {0x1F26, "\xCE\xB7"}, // ἦ → η
  {0x1F27, "\xCE\xB7"}, // ἧ → η
  {0x1F30, "\xCE\xB9"}, // ἰ → ι
  {0x1F31, "\xCE\xB9"}, // ἱ → ι
  {0x1F32, "\xCE\xB9"}, // ἲ → ι
  {0x1F33, "\xCE\xB9"}, // ἳ → ι
  {0x1F34, "\xCE\xB9"}, // ἴ → ι
  {0x1F35, "\xCE\xB9"}, // ἵ → ι
  {0x1F36, "\xCE\xB9"}, // ἶ → ι
  {0x1F37, "\xCE\xB9"}, // ἷ → ι
  {0x1F40, "\xCE\xBF"}, // ὀ → ο
  {0x1F41, "\xCE\xBF"}, // ὁ → ο
  {0x1F42, "\xCE\xBF"}, // ὂ → ο
  {0x1F43, "\xCE\xBF"}, // ὃ → ο
  {0x1F44, "\xCE\xBF"}, // ὄ → ο
  {0x1F45, "\xCE\xBF"}, // ὅ → ο
  {0x1F50, "\xCF\x85"}, // ὐ → υ
  {0x1F51, "\xCF\x85"}, // ὑ → υ
  {0x1F52, "\xCF\x85"}, // ὒ → υ
  {0x1F53, "\xCF\x85"}, // ὓ → υ
  {0x1F54, "\xCF\x85"}, // ὔ → υ
  {0x1F55, "\xCF\x85"}, // ὕ → υ
  {0x1F56, "\xCF\x85"}, // ὖ → υ
  {0x1F57, "\xCF\x85"}, // ὗ → υ
  {0x1F60, "\xCF\x89"}, // ὠ → ω
  {0x1F61, "\xCF\x89"}, // ὡ → ω
  {0x1F62, "\xCF\x89"}, // ὢ → ω
  {0x1F63, "\xCF\x89"}, // ὣ → ω
  {0x1F64, "\xCF\x89"}, // ὤ → ω
  {0x1F65, "\xCF\x89"}, // ὥ → ω
  {0x1F66, "\xCF\x89"}, // ὦ → ω
  {0x1F67, "\xCF\x89"}, // ὧ → ω
  {0x1F70, "\xCE\xB1"}, // ὰ → α
  {0x1F71, "\xCE\xB1"}, // ά → α
  {0x1F72, "\xCE\xB5"}, // ὲ → ε
  {0x1F73, "\xCE\xB5"}, // έ → ε
  {0x1F74, "\xCE\xB7"}, // ὴ → η
  {0x1F75, "\xCE\xB7"}, // ή → η
  {0x1F76, "\xCE\xB9"}, // ὶ → ι
  {0x1F77, "\xCE\xB9"}, // ί → ι
  {0x1F78, "\xCE\xBF"}, // ὸ → ο
  {0x1F79, "\xCE\xBF"}, // ό → ο
  {0x1F7A, "\xCF\x85"}, // ὺ → υ
  {0x1F7B, "\xCF\x85"}, // ύ → υ
  {0x1F7C, "\xCF\x89"}, // ὼ → ω
  {0x1F7D, "\xCF\x89"}, // ώ → ω
  {0x1F80, "\xCE\xB1"}, // ᾀ → α
  {0x1F81, "\xCE\xB1"}, // ᾁ → α
  {0x1F82, "\xCE\xB1"}, // ᾂ → α
  {0x1F83, "\xCE\xB1"}, // ᾃ → α
  {0x1F84, "\xCE\xB1"}, // ᾄ → α
  {0x1F85, "\xCE\xB1"}, // ᾅ → α
  {0x1F86, "\xCE\xB1"}, // ᾆ → α
  {0x1F87, "\xCE\xB1"}, // ᾇ → α
  {0x1F90, "\xCE\xB7"}, // ᾐ → η
  {0x1F91, "\xCE\xB7"}, // ᾑ → η
  {0x1F92, "\xCE\xB7"}, // ᾒ → η
  {0x1F93, "\xCE\xB7"}, // ᾓ → η
  {0x1F94, "\xCE\xB7"}, // ᾔ → η
  {0x1F95, "\xCE\xB7"}, // ᾕ → η
  {0x1F96, "\xCE\xB7"}, // ᾖ → η
  {0x1F97, "\xCE\xB7"}, // ᾗ → η
  {0x1FA0, "\xCF\x89"}, // ᾠ → ω
  {0x1FA1, "\xCF\x89"}, // ᾡ → ω
  {0x1FA2, "\xCF\x89"}, // ᾢ → ω
  {0x1FA3, "\xCF\x89"}, // ᾣ → ω
  {0x1FA4, "\xCF\x89"}, // ᾤ → ω
  {0x1FA5, "\xCF\x89"}, // ᾥ → ω
  {0x1FA6, "\xCF\x89"}, // ᾦ → ω
  {0x1FA7, "\xCF\x89"}, // ᾧ → ω
  {0x1FB0, "\xCE\xB1"}, // ᾰ → α
  {0x1FB1, "\xCE\xB1"}, // ᾱ → α
  {0x1FB2, "\xCE\xB1"}, // ᾲ → α
  {0x1FB3, "\xCE\xB1"}, // ᾳ → α
  {0x1FB4, "\xCE\xB1"}, // ᾴ → α
  {0x1FB6, "\xCE\xB1"}, // ᾶ → α
  {0x1FB7, "\xCE\xB1"}, // ᾷ → α
  {0x1FC2, "\xCE\xB7"}, // ῂ → η
  {0x1FC3, "\xCE\xB7"}, // ῃ → η
  {0x1FC4, "\xCE\xB7"}, // ῄ → η
  {0x1FC6, "\xCE\xB7"}, // ῆ → η
  {0x1FC7, "\xCE\xB7"}, // ῇ → η
  {0x1FD0, "\xCE\xB9"}, // ῐ → ι
  {0x1FD1, "\xCE\xB9"}, // ῑ → ι
  {0x1FD2, "\xCE\xB9"}, // ῒ → ι
  {0x1FD3, "\xCE\xB9"}, // ΐ → ι
  {0x1FD6, "\xCE\xB9"}, // ῖ → ι
  {0x1FD7, "\xCE\xB9"}, // ῗ → ι
  {0x1FE0, "\xCF\x85"}, // ῠ → υ
  {0x1FE1, "\xCF\x85"}, // ῡ → υ
  {0x1FE2, "\xCF\x85"}, // ῢ → υ
  {0x1FE3, "\xCF\x85"}, // ΰ → υ
  {0x1FE4, "\xCF\x81"}, // ῤ → ρ
  {0x1FE5, "\xCF\x81"}, // ῥ → ρ
  {0x1FE6, "\xCF\x85"}, // ῦ → υ
  {0x1FE7, "\xCF\x85"}, // ῧ → υ
  {0x1FF2, "\xCF\x89"}, // ῲ → ω
  {0x1FF3, "\xCF\x89"}, // ῳ → ω
  {0x1FF4, "\xCF\x89"}, // ῴ → ω
  {0x1FF6, "\xCF\x89"}, // ῶ → ω
  {0x1FF7, "\xCF\x89"}, // ῷ → ω
  {0xA796, "\xEA\x9E\x97"}, // Ꞗ → ꞗ
  {0xA798, "\xEA\x9E\x99"}, // Ꞙ → ꞙ
  {0xA79A, "\xEA\x9E\x9B"}, // Ꞛ → ꞛ
  {0xA79C, "\xEA\x9E\x9D"}, // Ꞝ → ꞝ
  {0xA79E, "\xEA\x9E\x9F"}, // Ꞟ → ꞟ
  {0xA7AB, "\xC9\x9C"}, // Ɜ → ɜ
  {0xA7AC, "\xC9\xA1"}, // Ɡ → ɡ
  {0xA7AD, "\xC9\xAC"}, // Ɬ → ɬ
  {0xA7AE, "\xC9\xAA"}, // Ɪ → ɪ
  {0xA7B0, "\xCA\x9E"}, // Ʞ → ʞ
  {0xA7B1, "\xCA\x87"}, // Ʇ → ʇ
  {0xA7B2, "\xCA\x9D"}, // Ʝ → ʝ
  {0xA7B3, "\xEA\xAD\x93"}, // Ꭓ → ꭓ
  {0xA7B4, "\xEA\x9E\xB5"}, // Ꞵ → ꞵ
  {0xA7B6, "\xEA\x9E\xB7"}, // Ꞷ → ꞷ
  {0xA7B8, "\xEA\x9E\xB9"}, // Ꞹ → ꞹ
  {0xA7BA, "\xEA\x9E\xBB"}, // Ꞻ → ꞻ
  {0xA7BC, "\xEA\x9E\xBD"}, // Ꞽ → ꞽ
  {0xA7BE, "\xEA\x9E\xBF"}, // Ꞿ → ꞿ
  {0xA7C0, "\xEA\x9F\x81"}, // Ꟁ → ꟁ
  {0xA7C2, "\xEA\x9F\x83"}, // Ꟃ → ꟃ
  {0xA7C4, "\xEA\x9E\x94"}, // Ꞔ → ꞔ
  {0xA7C5, "\xCA\x82"}, // Ʂ → ʂ
  {0xA7C6, "\xE1\xB6\x8E"}, // Ᶎ → ᶎ
  {0xA7C7, "\xEA\x9F\x88"}, // Ꟈ → ꟈ
  {0xA7C9, "\xEA\x9F\x8A"}, // Ꟊ → ꟊ
  {0xA7CB, "\xC9\xA4"}, // Ɤ → ɤ
  {0xA7D0, "\xEA\x9F\x91"}, // Ꟑ → ꟑ
  {0xA7D2, "\xEA\x9F\x93"}, // ꟒ → ꟓ
  {0xA7D4, "\xEA\x9F\x95"}, // ꟔ → ꟕ
  {0xA7D6, "\xEA\x9F\x97"}, // Ꟗ → ꟗ
  {0xA7D8, "\xEA\x9F\x99"}, // Ꟙ → ꟙ
  {0xA7DC, "\xC6\x9B"}, // Ƛ → ƛ
  {0xA7F5, "\xEA\x9F\xB6"}, // Ꟶ → ꟶ
};

static const char *folded_scalar(unsigned int value) {
  int low = 0, high = (int)(sizeof(folds) / sizeof(folds[0])) - 1;
  while (low <= high) {
    int middle = (low + high) / 2;
    if (folds[middle].from == value) return folds[middle].to;
    if (folds[middle].from < value) low = middle + 1;
    else high = middle - 1;
  }
  return 0;
}

int limelight_fold(const char *token, int length, char *out, int capacity) {
  const unsigned char *bytes = (const unsigned char *)token;
  int i = 0, written = 0, changed = 0;
  // ASCII, the common case, is as unicode61 left it.
  while (i < length && bytes[i] < 0x80) i++;
  if (i == length) return -1;
  if (i > capacity) return -1;
  memcpy(out, token, (size_t)i);
  written = i;
  while (i < length) {
    unsigned int value = bytes[i];
    int size = 1;
    if (value >= 0xF0 && i + 3 < length) {
      value = ((value & 0x07u) << 18) | ((bytes[i + 1] & 0x3Fu) << 12) |
              ((bytes[i + 2] & 0x3Fu) << 6) | (bytes[i + 3] & 0x3Fu);
      size = 4;
    } else if (value >= 0xE0 && i + 2 < length) {
      value = ((value & 0x0Fu) << 12) | ((bytes[i + 1] & 0x3Fu) << 6) | (bytes[i + 2] & 0x3Fu);
      size = 3;
    } else if (value >= 0xC0 && i + 1 < length) {
      value = ((value & 0x1Fu) << 6) | (bytes[i + 1] & 0x3Fu);
      size = 2;
    }
    const char *to = value >= 0x80 ? folded_scalar(value) : 0;
    const char *piece = to ? to : token + i;
    int pieceLength = to ? (int)strlen(to) : size;
    if (written + pieceLength > capacity) return -1;
    memcpy(out + written, piece, (size_t)pieceLength);
    written += pieceLength;
    changed |= to != 0;
    i += size;
  }
  return changed ? written : -1;
}

// A token folded, then handed on.
int limelight_fold_token(void *context, int flags, const char *token, int length, int start,
                         int end) {
  LimelightFoldState *state = (LimelightFoldState *)context;
  char folded[256];
  int size = limelight_fold(token, length, folded, (int)sizeof(folded));
  if (size >= 0) return state->token(state->context, flags, folded, size, start, end);
  return state->token(state->context, flags, token, length, start, end);
}

int limelight_inner_create(fts5_api *fts, const char **arguments, int count,
                           LimelightInner *inner) {
  void *context = 0;
  int rc = fts->xFindTokenizer(fts, "unicode61", &context, &inner->methods);
  if (rc == SQLITE_OK) rc = inner->methods.xCreate(context, arguments, count, &inner->tokenizer);
  return rc;
}

void limelight_inner_delete(LimelightInner *inner) {
  if (inner->tokenizer) inner->methods.xDelete(inner->tokenizer);
}

static int words_create(void *context, const char **arguments, int count, Fts5Tokenizer **out) {
  LimelightInner *tokenizer = (LimelightInner *)sqlite3_malloc(sizeof(LimelightInner));
  if (!tokenizer) return SQLITE_NOMEM;
  memset(tokenizer, 0, sizeof(LimelightInner));
  int rc = limelight_inner_create((fts5_api *)context, arguments, count, tokenizer);
  if (rc != SQLITE_OK) {
    sqlite3_free(tokenizer);
    return rc;
  }
  *out = (Fts5Tokenizer *)tokenizer;
  return SQLITE_OK;
}

static void words_delete(Fts5Tokenizer *pointer) {
  if (!pointer) return;
  limelight_inner_delete((LimelightInner *)pointer);
  sqlite3_free(pointer);
}

static int words_tokenize(Fts5Tokenizer *pointer, void *context, int flags, const char *text,
                          int length, int (*token)(void *, int, const char *, int, int, int)) {
  LimelightInner *tokenizer = (LimelightInner *)pointer;
  LimelightFoldState state = {context, token};
  return tokenizer->methods.xTokenize(tokenizer->tokenizer, &state, flags, text, length,
                                      limelight_fold_token);
}

// The name index's tokenizer, `limelight_words`: unicode61 (with its
// arguments), each word folded.
int limelight_register_words(sqlite3 *db) {
  fts5_tokenizer methods = {words_create, words_delete, words_tokenize};
  return limelight_create_tokenizer(db, "limelight_words", &methods);
}

int limelight_create_tokenizer(sqlite3 *db, const char *name, fts5_tokenizer *methods) {
  fts5_api *fts = 0;
  int rc = limelight_fts5_api(db, &fts);
  if (rc != SQLITE_OK) return rc;
  return fts->xCreateTokenizer(fts, name, fts, methods, 0);
}
