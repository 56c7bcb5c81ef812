// libpq, loaded when a PostgreSQL store is first named (dlopen), so that
// the programs that never use one do not pay for loading it and its
// libraries (TLS, Kerberos, LDAP) at every start. The declarations are
// libpq's own (libpq-fe.h, a stable interface), for the calls the store makes.
#ifndef LIMELIGHT_CPOSTGRES_H
#define LIMELIGHT_CPOSTGRES_H

typedef struct pg_conn PGconn;
typedef struct pg_result PGresult;
typedef unsigned int Oid;

typedef enum { CONNECTION_OK, CONNECTION_BAD } ConnStatusType;

typedef enum {
  PGRES_EMPTY_QUERY = 0,
  PGRES_COMMAND_OK,
  PGRES_TUPLES_OK,
  PGRES_COPY_OUT,
  PGRES_COPY_IN,
  PGRES_BAD_RESPONSE,
  PGRES_NONFATAL_ERROR,
  PGRES_FATAL_ERROR
} ExecStatusType;

typedef struct pgNotify {
  char *relname;
  int be_pid;
  char *extra;
  struct pgNotify *next;
} PGnotify;

typedef void (*PQnoticeProcessor)(void *arg, const char *message);

/// Loads libpq; NULL when loaded, else why it could not be.
const char *limelight_pq_load(void);

PGconn *limelight_PQconnectdbParams(
    const char *const *keywords, const char *const *values, int expand_dbname);
ConnStatusType limelight_PQstatus(const PGconn *conn);
char *limelight_PQerrorMessage(const PGconn *conn);
void limelight_PQfinish(PGconn *conn);
PQnoticeProcessor limelight_PQsetNoticeProcessor(
    PGconn *conn, PQnoticeProcessor proc, void *arg);
PGresult *limelight_PQexecParams(
    PGconn *conn, const char *command, int nParams, const Oid *paramTypes,
    const char *const *paramValues, const int *paramLengths, const int *paramFormats,
    int resultFormat);
ExecStatusType limelight_PQresultStatus(const PGresult *res);
char *limelight_PQresultErrorMessage(const PGresult *res);
char *limelight_PQresultErrorField(const PGresult *res, int fieldcode);
int limelight_PQntuples(const PGresult *res);
int limelight_PQnfields(const PGresult *res);
char *limelight_PQfname(const PGresult *res, int field_num);
char *limelight_PQgetvalue(const PGresult *res, int tup_num, int field_num);
int limelight_PQgetisnull(const PGresult *res, int tup_num, int field_num);
void limelight_PQclear(PGresult *res);
int limelight_PQsocket(const PGconn *conn);
int limelight_PQconsumeInput(PGconn *conn);
PGnotify *limelight_PQnotifies(PGconn *conn);
void limelight_PQfreemem(void *ptr);
int limelight_PQsendQueryParams(
    PGconn *conn, const char *command, int nParams, const Oid *paramTypes,
    const char *const *paramValues, const int *paramLengths, const int *paramFormats,
    int resultFormat);
int limelight_PQisBusy(PGconn *conn);
PGresult *limelight_PQgetResult(PGconn *conn);

#endif
