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

/// sqlite3_config is variadic, so Swift can't call it: this wrapper sets
/// (or, with NULL, removes) SQLite's error log callback
/// (https://www.sqlite.org/errlog.html). SQLite accepts it only before it
/// is initialized, when the first connection opens.
typedef void (*grdblite_log_callback)(void *context, int code, const char *message);
static inline int grdblite_set_log_callback(grdblite_log_callback callback) {
    return sqlite3_config(SQLITE_CONFIG_LOG, callback, (void *)0);
}
