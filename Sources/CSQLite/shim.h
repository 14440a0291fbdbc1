// The system SQLite, with the declarations GRDBLite needs.
//
// Debian's libsqlite3 is built with SQLITE_ENABLE_PREUPDATE_HOOK, but its
// header only declares the pre-update functions when that macro is set.
#ifndef SQLITE_ENABLE_PREUPDATE_HOOK
#define SQLITE_ENABLE_PREUPDATE_HOOK 1
#endif
#include <sqlite3.h>

/// sqlite3_db_config is variadic, so Swift can't call it: this wrapper
/// disables double-quoted string literals, as GRDB does.
static inline void grdblite_disable_dqs(sqlite3 *db) {
    sqlite3_db_config(db, SQLITE_DBCONFIG_DQS_DDL, 0, (void *)0);
    sqlite3_db_config(db, SQLITE_DBCONFIG_DQS_DML, 0, (void *)0);
}

/// SQLITE_TRANSIENT is a macro Swift can't import: SQLite copies the bytes.
static inline sqlite3_destructor_type grdblite_transient(void) {
    return SQLITE_TRANSIENT;
}
