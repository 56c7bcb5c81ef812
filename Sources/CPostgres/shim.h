// libpq: connections named by a URL, a key=value string or a service
// (pg_service.conf), with passwords from ~/.pgpass or PGPASSFILE and TLS as
// the connection string asks.
#include <libpq-fe.h>
