#include <zstd.h>
// For ZDICT_optimizeTrainFromBuffer_fastCover and its parameters, which
// libzstd exports (stable since 1.4): training with a smaller table.
#define ZDICT_STATIC_LINKING_ONLY
#include <zdict.h>
