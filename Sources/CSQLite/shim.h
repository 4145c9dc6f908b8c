#include <sqlite3.h>

/* sqlite3_db_config is variadic and does not import into Swift. */
static inline int bw_sqlite_set_defensive(sqlite3 *db) {
    return sqlite3_db_config(db, SQLITE_DBCONFIG_DEFENSIVE, 1, (int *)0);
}
