#ifndef CSQLITE_SHIM_H
#define CSQLITE_SHIM_H
#include <sqlite3.h>

/// Makes closing `db` leave the files as they are: no checkpoint of the write-ahead log into the
/// main file, no removal of the log (sqlite3_db_config is variadic, which Swift cannot call).
static inline int modelstore_sqlite3_no_checkpoint_on_close(sqlite3 *db) {
    return sqlite3_db_config(db, SQLITE_DBCONFIG_NO_CKPT_ON_CLOSE, 1, (int *)0);
}
#endif
