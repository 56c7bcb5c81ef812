#include "CPostgres.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stddef.h>

// Each call of libpq the store makes: its name, result and parameters.
#define LIMELIGHT_PQ_CALLS(X)                                                            \
  X(PGconn *, PQconnectdbParams, (const char *const *a, const char *const *b, int c),   \
    (a, b, c))                                                                           \
  X(ConnStatusType, PQstatus, (const PGconn *a), (a))                                    \
  X(char *, PQerrorMessage, (const PGconn *a), (a))                                      \
  X(void, PQfinish, (PGconn *a), (a))                                                    \
  X(PQnoticeProcessor, PQsetNoticeProcessor, (PGconn *a, PQnoticeProcessor b, void *c), \
    (a, b, c))                                                                           \
  X(PGresult *, PQexecParams,                                                            \
    (PGconn *a, const char *b, int c, const Oid *d, const char *const *e, const int *f, \
     const int *g, int h),                                                               \
    (a, b, c, d, e, f, g, h))                                                            \
  X(ExecStatusType, PQresultStatus, (const PGresult *a), (a))                            \
  X(char *, PQresultErrorMessage, (const PGresult *a), (a))                              \
  X(char *, PQresultErrorField, (const PGresult *a, int b), (a, b))                      \
  X(int, PQntuples, (const PGresult *a), (a))                                            \
  X(int, PQnfields, (const PGresult *a), (a))                                            \
  X(char *, PQfname, (const PGresult *a, int b), (a, b))                                 \
  X(char *, PQgetvalue, (const PGresult *a, int b, int c), (a, b, c))                    \
  X(int, PQgetisnull, (const PGresult *a, int b, int c), (a, b, c))                      \
  X(void, PQclear, (PGresult *a), (a))                                                   \
  X(int, PQsocket, (const PGconn *a), (a))                                               \
  X(int, PQconsumeInput, (PGconn *a), (a))                                               \
  X(PGnotify *, PQnotifies, (PGconn *a), (a))                                            \
  X(void, PQfreemem, (void *a), (a))                                                     \
  X(int, PQsendQueryParams,                                                              \
    (PGconn *a, const char *b, int c, const Oid *d, const char *const *e, const int *f, \
     const int *g, int h),                                                               \
    (a, b, c, d, e, f, g, h))                                                            \
  X(int, PQisBusy, (PGconn *a), (a))                                                     \
  X(PGresult *, PQgetResult, (PGconn *a), (a))

#define LIMELIGHT_POINTER(result, name, parameters, arguments) \
  static result(*pointer_##name) parameters;
LIMELIGHT_PQ_CALLS(LIMELIGHT_POINTER)

static pthread_once_t once = PTHREAD_ONCE_INIT;
static const char *failure = "libpq was not loaded";

static void load(void) {
  void *library = dlopen("libpq.so.5", RTLD_NOW | RTLD_LOCAL);
  if (library == NULL) {
    failure = "libpq.so.5 cannot be loaded (install libpq5)";
    return;
  }
#define LIMELIGHT_RESOLVE(result, name, parameters, arguments) \
  *(void **)(&pointer_##name) = dlsym(library, #name);         \
  if (pointer_##name == NULL) {                                \
    failure = "libpq.so.5 lacks " #name;                       \
    return;                                                    \
  }
  LIMELIGHT_PQ_CALLS(LIMELIGHT_RESOLVE)
  failure = NULL;
}

const char *limelight_pq_load(void) {
  pthread_once(&once, load);
  return failure;
}

// Called only after limelight_pq_load returned NULL.
#define LIMELIGHT_FORWARD(result, name, parameters, arguments) \
  result limelight_##name parameters { return pointer_##name arguments; }
LIMELIGHT_PQ_CALLS(LIMELIGHT_FORWARD)
