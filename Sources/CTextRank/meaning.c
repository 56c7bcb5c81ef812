// limelight_similarities: how close stored meaning vectors are to a
// query's, for meaning search. Both are the embedding's components as signed
// bytes, each scaled so that its largest is 127; the result is their cosine,
// so no scale needs storing beside a vector. Sums of byte products in
// integers: the compiler runs them on vector units, where sums of floats
// must be added one after the other.
#include <math.h>
#include <stdint.h>

void limelight_similarities(const int8_t *vectors, long count, int dimensions,
                            const int8_t *query, float *out) {
  int32_t queryLength = 0;
  for (int i = 0; i < dimensions; i++) queryLength += (int32_t)query[i] * query[i];
  for (long row = 0; row < count; row++) {
    const int8_t *vector = vectors + row * dimensions;
    int32_t dot = 0, length = 0;
    for (int i = 0; i < dimensions; i++) {
      dot += (int32_t)vector[i] * query[i];
      length += (int32_t)vector[i] * vector[i];
    }
    double lengths = sqrt((double)length * (double)queryLength);
    out[row] = lengths > 0 ? (float)(dot / lengths) : 0;
  }
}
