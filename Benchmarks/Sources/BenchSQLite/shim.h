// The system SQLite (Debian: `apt-get install libsqlite3-dev`), the same
// library GRDBLite links, for the benchmark's raw C side and its fixtures.
// GRDBLite's own module of it (CSQLite) is internal to the GRDBLite package.
#include <sqlite3.h>
