// BM25 for a full-text table that records which rows hold a word, but not
// in which column nor how often (detail=none). FTS5's own bm25() counts each
// phrase's instances, which in such a table means reading and tokenizing
// every matching row's text again (about 0.1 ms a row, a second for a common
// word). This one asks only whether the row holds each phrase: the rows of
// every phrase are gathered once per query (FTS5 walks them anyway to count
// them for the IDF), and a row's score is the IDF of each phrase it holds,
// normalised by the row's length against the average (k1 = 1.2, b = 0.75,
// as bm25()).
//
// A phrase the item's name, keywords or path holds counts more, as those
// fields say what the item is: the SQL tells which (limelight_field_hits).
//
// limelight_rank(table, narrowing phrases, field hits[, all held]): how many
// phrases at the end of the query only narrow the match (a filter's terms)
// and are not scored; for each phrase in order, a character: '3' the name
// holds it, '2' the keywords, '1' the path, '0' none of them (missing:
// none); and, when 1, that the phrases are ANDed, so that every row the
// query visits holds each. Then a phrase's rows are only counted, for its
// IDF, and no further than `sampled_rows`: past them the count is
// extrapolated from the span of rowids they cover (a two-letter prefix in
// the paths of a third of a home took 20 ms to gather, for every query).

#include "limelight_text_rank.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
  sqlite3_int64 *rows;
  sqlite3_int64 count;
  sqlite3_int64 capacity;
  // With a limit, the rows are only counted, up to it; first and last rowid.
  sqlite3_int64 limit;
  sqlite3_int64 first;
  sqlite3_int64 last;
} RowList;

// Rows of a phrase counted, when the phrases are ANDed, before its count is
// extrapolated.
static const sqlite3_int64 sampled_rows = 2000;

typedef struct {
  int phrases;
  int all_held;    // the phrases are ANDed: every row holds each
  double average;  // average row length in tokens
  double *idf;     // per phrase
  RowList *lists;  // per phrase: the rows holding it, in rowid order
} RankData;

static void free_rank_data(void *pointer) {
  RankData *data = (RankData *)pointer;
  if (!data) return;
  for (int i = 0; i < data->phrases; i++) sqlite3_free(data->lists[i].rows);
  sqlite3_free(data);
}

static int gather_row(const Fts5ExtensionApi *api, Fts5Context *fts, void *context) {
  RowList *list = (RowList *)context;
  if (list->limit > 0) {
    sqlite3_int64 row = api->xRowid(fts);
    if (list->count == 0) list->first = row;
    list->last = row;
    // SQLITE_DONE ends the walk, and xQueryPhrase returns SQLITE_OK.
    return ++list->count < list->limit ? SQLITE_OK : SQLITE_DONE;
  }
  if (list->count == list->capacity) {
    sqlite3_int64 capacity = list->capacity ? list->capacity * 2 : 256;
    sqlite3_int64 *rows =
        (sqlite3_int64 *)sqlite3_realloc64(list->rows, sizeof(sqlite3_int64) * capacity);
    if (!rows) return SQLITE_NOMEM;
    list->rows = rows;
    list->capacity = capacity;
  }
  list->rows[list->count++] = api->xRowid(fts);
  return SQLITE_OK;
}

static int compare_rows(const void *a, const void *b) {
  sqlite3_int64 x = *(const sqlite3_int64 *)a, y = *(const sqlite3_int64 *)b;
  return x < y ? -1 : x > y;
}

static int holds(const RowList *list, sqlite3_int64 row) {
  sqlite3_int64 low = 0, high = list->count;
  while (low < high) {
    sqlite3_int64 middle = low + (high - low) / 2;
    if (list->rows[middle] < row) low = middle + 1;
    else high = middle;
  }
  return low < list->count && list->rows[low] == row;
}

// The columns whose words a row's length counts: name, keywords, path and
// content, not the facets after them (terms of what filters compare).
static int ranked_columns(const Fts5ExtensionApi *api, Fts5Context *fts) {
  int columns = api->xColumnCount(fts);
  return columns < 4 ? columns : 4;
}

// What every row of a query shares: each phrase's rows and IDF, and the
// average row length, computed once per query and kept as its aux data.
static RankData *rank_data(const Fts5ExtensionApi *api, Fts5Context *fts, int argc,
                           sqlite3_value **argv, int *rc) {
  RankData *data = (RankData *)api->xGetAuxdata(fts, 0);
  if (data) return data;
  int phrases = api->xPhraseCount(fts);
  if (argc > 0) {
    int narrowing = sqlite3_value_int(argv[0]);
    phrases = narrowing > 0 && narrowing < phrases ? phrases - narrowing : phrases;
  }
  size_t bytes = sizeof(RankData) + (sizeof(double) + sizeof(RowList)) * (size_t)phrases;
  data = (RankData *)sqlite3_malloc64(bytes);
  if (!data) {
    *rc = SQLITE_NOMEM;
    return 0;
  }
  memset(data, 0, bytes);
  data->phrases = phrases;
  data->idf = (double *)&data[1];
  data->lists = (RowList *)(data->idf + phrases);
  data->all_held = argc > 2 && sqlite3_value_int(argv[2]) == 1;
  sqlite3_int64 rows = 0, total = 0;
  *rc = api->xRowCount(fts, &rows);
  for (int i = 0; *rc == SQLITE_OK && i < phrases; i++) {
    RowList *list = &data->lists[i];
    list->limit = data->all_held ? sampled_rows : 0;
    *rc = api->xQueryPhrase(fts, i, list, gather_row);
    double count = (double)list->count;
    if (list->limit > 0 && list->count >= list->limit && list->last > list->first) {
      // Rowids run from about 1 to the row count: as many rows again in
      // each span as wide as the one sampled.
      count = count * (double)rows / (double)(list->last - list->first + 1);
      if (count < (double)list->count) count = (double)list->count;
      if (count > (double)rows) count = (double)rows;
    }
    if (list->limit == 0)
      qsort(list->rows, (size_t)list->count, sizeof(sqlite3_int64), compare_rows);
    double idf = log(((double)rows - count + 0.5) / (count + 0.5));
    data->idf[i] = idf > 1e-6 ? idf : 1e-6;
  }
  for (int i = 0; *rc == SQLITE_OK && i < ranked_columns(api, fts); i++) {
    sqlite3_int64 size = 0;
    *rc = api->xColumnTotalSize(fts, i, &size);
    total += size;
  }
  data->average = rows > 0 && total > 0 ? (double)total / (double)rows : 1.0;
  if (*rc != SQLITE_OK) {
    free_rank_data(data);
    return 0;
  }
  // On failure xSetAuxdata frees the data itself.
  *rc = api->xSetAuxdata(fts, data, free_rank_data);
  return *rc == SQLITE_OK ? data : 0;
}

static void text_rank(const Fts5ExtensionApi *api, Fts5Context *fts, sqlite3_context *context,
                      int argc, sqlite3_value **argv) {
  int rc = SQLITE_OK;
  RankData *data = rank_data(api, fts, argc, argv, &rc);
  int length = 0;
  for (int i = 0; data && rc == SQLITE_OK && i < ranked_columns(api, fts); i++) {
    int size = 0;
    rc = api->xColumnSize(fts, i, &size);
    length += size;
  }
  if (!data || rc != SQLITE_OK) {
    sqlite3_result_error_code(context, rc);
    return;
  }
  const double k1 = 1.2, b = 0.75;
  double norm = 1.0 - b + b * (double)length / data->average;
  double saturation = (k1 + 1.0) / (1.0 + k1 * norm);
  sqlite3_int64 row = api->xRowid(fts);
  const unsigned char *hits = argc > 1 ? sqlite3_value_text(argv[1]) : 0;
  int known = hits ? (int)strlen((const char *)hits) : 0;
  double score = 0;
  for (int i = 0; i < data->phrases; i++) {
    if (!data->all_held && !holds(&data->lists[i], row)) continue;
    double field = i < known && hits[i] >= '1' && hits[i] <= '3' ? hits[i] - '0' : 0;
    score += data->idf[i] * (saturation + field);
  }
  // Lower is better, as with bm25().
  sqlite3_result_double(context, -score);
}

int limelight_fts5_api(sqlite3 *db, fts5_api **out) {
  fts5_api *fts = 0;
  sqlite3_stmt *statement = 0;
  // A damaged file fails here first: its code (not a database, corrupt)
  // is what tells the caller so.
  int rc = sqlite3_prepare_v2(db, "SELECT fts5(?1)", -1, &statement, 0);
  if (rc != SQLITE_OK) return rc;
  sqlite3_bind_pointer(statement, 1, (void *)&fts, "fts5_api_ptr", 0);
  sqlite3_step(statement);
  rc = sqlite3_finalize(statement);
  if (rc != SQLITE_OK) return rc;
  if (!fts || fts->iVersion < 2) return SQLITE_ERROR;
  *out = fts;
  return SQLITE_OK;
}

int limelight_register_text_rank(sqlite3 *db) {
  fts5_api *fts = 0;
  int rc = limelight_fts5_api(db, &fts);
  if (rc != SQLITE_OK) return rc;
  return fts->xCreateFunction(fts, "limelight_rank", 0, text_rank, 0);
}
