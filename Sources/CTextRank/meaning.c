// limelight_similarity(vector, query): how close a stored meaning vector is
// to a query's, for meaning search. A stored vector is the embedding's 384
// components as signed bytes (scaled so the largest is 127); the query's is
// 384 native floats, unit length. The result is their cosine: the dot product
// over the stored vector's length, so no scale needs storing beside it.
#include <math.h>
#include <sqlite3.h>
#include <stdint.h>

static void similarity(sqlite3_context *context, int argc, sqlite3_value **argv) {
  (void)argc;
  const int8_t *vector = sqlite3_value_blob(argv[0]);
  int bytes = sqlite3_value_bytes(argv[0]);
  const float *query = sqlite3_value_blob(argv[1]);
  int queryBytes = sqlite3_value_bytes(argv[1]);
  if (!vector || !query || bytes <= 0 || queryBytes != bytes * (int)sizeof(float)) {
    sqlite3_result_null(context);
    return;
  }
  float dot = 0, length = 0;
  for (int i = 0; i < bytes; i++) {
    float v = (float)vector[i];
    dot += v * query[i];
    length += v * v;
  }
  sqlite3_result_double(context, length > 0 ? dot / sqrtf(length) : 0);
}

int limelight_register_meaning(sqlite3 *db) {
  return sqlite3_create_function_v2(db, "limelight_similarity", 2,
                                    SQLITE_UTF8 | SQLITE_DETERMINISTIC | SQLITE_INNOCUOUS, 0,
                                    similarity, 0, 0, 0);
}
