// limelight_similarity(vector, query): how close a stored meaning vector is
// to a query's, for meaning search. Both are the embedding's components as
// signed bytes, each scaled so that its largest is 127; the result is their
// cosine, so no scale needs storing beside a vector. Sums of byte products
// in integers: the compiler runs them on vector units, where sums of floats
// must be added one after the other (2 us a row against a few tenths).
#include <math.h>
#include <sqlite3.h>
#include <stdint.h>

static void similarity(sqlite3_context *context, int argc, sqlite3_value **argv) {
  (void)argc;
  const int8_t *vector = sqlite3_value_blob(argv[0]);
  int bytes = sqlite3_value_bytes(argv[0]);
  const int8_t *query = sqlite3_value_blob(argv[1]);
  int queryBytes = sqlite3_value_bytes(argv[1]);
  if (!vector || !query || bytes <= 0 || queryBytes != bytes) {
    sqlite3_result_null(context);
    return;
  }
  int32_t dot = 0, length = 0, queryLength = 0;
  for (int i = 0; i < bytes; i++) {
    dot += (int32_t)vector[i] * query[i];
    length += (int32_t)vector[i] * vector[i];
    queryLength += (int32_t)query[i] * query[i];
  }
  double lengths = sqrt((double)length * (double)queryLength);
  sqlite3_result_double(context, lengths > 0 ? dot / lengths : 0);
}

int limelight_register_meaning(sqlite3 *db) {
  return sqlite3_create_function_v2(db, "limelight_similarity", 2,
                                    SQLITE_UTF8 | SQLITE_DETERMINISTIC | SQLITE_INNOCUOUS, 0,
                                    similarity, 0, 0, 0);
}
