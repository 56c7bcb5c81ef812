// BM25 for a full-text table that records which columns hold a word but not
// how often (detail=column). FTS5's own bm25() counts each phrase's
// instances, which in such a table means reading and tokenizing every
// matching row's text again (about 0.1 ms a row, a second for a common word).
// This one asks only which columns of the row hold each phrase, which the
// index tells at once: a phrase counts once per column, weighted by the
// column's weight, its rarity (IDF) and the column's length in that row
// against the average (length normalisation, k1 = 1.2, b = 0.75, as bm25()).
//
// limelight_rank(table, weight of each column…, narrowing phrases): an
// argument after the columns' weights says how many phrases at the end of
// the query only narrow the match (a filter's terms) and are not scored.

#include "limelight_text_rank.h"

#include <math.h>
#include <string.h>

typedef struct {
  int phrases;
  int columns;
  double *idf;      // per phrase
  double *average;  // per column: average length in tokens
} RankData;

static int count_row(const Fts5ExtensionApi *api, Fts5Context *fts, void *context) {
  (void)api;
  (void)fts;
  (*(sqlite3_int64 *)context)++;
  return SQLITE_OK;
}

// What every row of a query shares: each phrase's IDF and each column's
// average length, computed once per query and kept as the query's aux data.
static RankData *rank_data(const Fts5ExtensionApi *api, Fts5Context *fts, int argc,
                           sqlite3_value **argv, int *rc) {
  RankData *data = (RankData *)api->xGetAuxdata(fts, 0);
  if (data) return data;
  int phrases = api->xPhraseCount(fts);
  int columns = api->xColumnCount(fts);
  if (argc > columns) {
    int narrowing = sqlite3_value_int(argv[columns]);
    phrases = narrowing > 0 && narrowing < phrases ? phrases - narrowing : phrases;
  }
  data = (RankData *)sqlite3_malloc64(sizeof(RankData) + sizeof(double) * (phrases + columns));
  if (!data) {
    *rc = SQLITE_NOMEM;
    return 0;
  }
  data->phrases = phrases;
  data->columns = columns;
  data->idf = (double *)&data[1];
  data->average = data->idf + phrases;
  sqlite3_int64 rows = 0;
  *rc = api->xRowCount(fts, &rows);
  for (int i = 0; *rc == SQLITE_OK && i < phrases; i++) {
    sqlite3_int64 hits = 0;
    *rc = api->xQueryPhrase(fts, i, &hits, count_row);
    double idf = log((rows - hits + 0.5) / (hits + 0.5));
    data->idf[i] = idf > 1e-6 ? idf : 1e-6;
  }
  for (int c = 0; *rc == SQLITE_OK && c < columns; c++) {
    sqlite3_int64 total = 0;
    *rc = api->xColumnTotalSize(fts, c, &total);
    data->average[c] = rows > 0 ? (double)total / (double)rows : 1.0;
    if (data->average[c] <= 0) data->average[c] = 1.0;
  }
  if (*rc != SQLITE_OK) {
    sqlite3_free(data);
    return 0;
  }
  // On failure xSetAuxdata frees the data itself.
  *rc = api->xSetAuxdata(fts, data, sqlite3_free);
  return *rc == SQLITE_OK ? data : 0;
}

static void text_rank(const Fts5ExtensionApi *api, Fts5Context *fts, sqlite3_context *context,
                      int argc, sqlite3_value **argv) {
  int rc = SQLITE_OK;
  RankData *data = rank_data(api, fts, argc, argv, &rc);
  if (!data) {
    sqlite3_result_error_code(context, rc);
    return;
  }
  const double k1 = 1.2, b = 0.75;
  double score = 0;
  for (int i = 0; i < data->phrases; i++) {
    Fts5PhraseIter iter;
    int column = -1;
    rc = api->xPhraseFirstColumn(fts, i, &iter, &column);
    while (rc == SQLITE_OK && column >= 0) {
      int length = 0;
      rc = api->xColumnSize(fts, column, &length);
      if (rc != SQLITE_OK) break;
      double weight = column < argc && column < data->columns ? sqlite3_value_double(argv[column]) : 1.0;
      double norm = 1.0 - b + b * (double)length / data->average[column];
      score += weight * data->idf[i] * (k1 + 1.0) / (1.0 + k1 * norm);
      api->xPhraseNextColumn(fts, &iter, &column);
    }
    if (rc != SQLITE_OK) {
      sqlite3_result_error_code(context, rc);
      return;
    }
  }
  // Lower is better, as with bm25().
  sqlite3_result_double(context, -score);
}

int limelight_register_text_rank(sqlite3 *db) {
  fts5_api *fts = 0;
  sqlite3_stmt *statement = 0;
  int rc = sqlite3_prepare_v2(db, "SELECT fts5(?1)", -1, &statement, 0);
  if (rc != SQLITE_OK) return rc;
  sqlite3_bind_pointer(statement, 1, (void *)&fts, "fts5_api_ptr", 0);
  sqlite3_step(statement);
  rc = sqlite3_finalize(statement);
  if (rc != SQLITE_OK) return rc;
  if (!fts || fts->iVersion < 2) return SQLITE_ERROR;
  return fts->xCreateFunction(fts, "limelight_rank", 0, text_rank, 0);
}
