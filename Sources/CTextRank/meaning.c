// Meaning search's scan: how close stored meaning vectors are to a query's.
// Both are the embedding's components as signed bytes, each scaled so that
// its largest is 127; a cosine is their dot product over their lengths, so
// no scale needs storing beside a vector, and a vector's length is counted
// once, when it is read. Sums of byte products in integers, which the
// compiler runs on vector units (AVX2 where the processor has it: 16 bytes
// at a time, chosen when the program loads).
#include <stdint.h>

#if defined(__x86_64__) && defined(__clang__)
#define LIMELIGHT_CLONES __attribute__((target_clones("avx2", "default")))
#else
#define LIMELIGHT_CLONES
#endif

LIMELIGHT_CLONES
void limelight_dot_products(const int8_t *vectors, long count, int dimensions,
                            const int8_t *query, int32_t *out) {
  for (long row = 0; row < count; row++) {
    const int8_t *vector = vectors + row * dimensions;
    int32_t dot = 0;
    for (int i = 0; i < dimensions; i++) dot += (int16_t)vector[i] * (int16_t)query[i];
    out[row] = dot;
  }
}
