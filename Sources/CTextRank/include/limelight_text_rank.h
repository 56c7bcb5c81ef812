#ifndef LIMELIGHT_TEXT_RANK_H
#define LIMELIGHT_TEXT_RANK_H

#include <sqlite3.h>

/// Registers `limelight_rank(fts_table, narrowing)` with the FTS5 module of a
/// connection: BM25 over which phrases a row holds (see text_rank.c).
/// Returns SQLITE_OK, or an error when the connection has no FTS5.
int limelight_register_text_rank(sqlite3 *db);

#endif
