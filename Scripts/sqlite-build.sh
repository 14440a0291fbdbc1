#!/usr/bin/env bash
# Builds SQLite 3.54.1 as a shared library, libsqlite3.so.0, offline, for
# `Scripts/test.sh --sqlite 3.54.1` and `Scripts/bench.sh --sqlite 3.54.1`,
# and prints the folder that holds it, last. Nothing of it is committed.
#
#   Scripts/sqlite-build.sh [3.54.1]
#   LD_LIBRARY_PATH=$(Scripts/sqlite-build.sh | tail -n 1) my-program
#
# The sources: the amalgamation that vapor/sqlite-nio 1.13.2 vendors, which
# the benchmark package (Benchmarks/) resolves; its symbols carry a
# `sqlite_nio_` prefix, removed here on a copy. The library goes into
# .build-sqlite/<version>/ (ignored by git), reused when it is there: delete
# the folder to rebuild it.
#
# A program linked with the system's libsqlite3.so.0 (GRDBLite, its tests,
# the benchmark) runs on this one when the dynamic loader finds it first:
# `LD_LIBRARY_PATH=<folder>`. The headers stay the system's (3.40.1): what
# GRDBLite needs beyond them (the sqlite3_snapshot_* functions) it looks up
# when it runs.
set -euo pipefail
cd "$(dirname "$0")/.."

version=${1:-3.54.1}
if [ "$version" != 3.54.1 ]; then
    echo "sqlite-build.sh: only 3.54.1 is available offline (the amalgamation of vapor/sqlite-nio 1.13.2)" >&2
    exit 2
fi
out=$PWD/.build-sqlite/$version

# The compile-time options.
# - What GRDB recommends for its custom SQLite builds
#   (GRDB's Documentation/CustomSQLiteBuilds.md):
#   SQLITE_ENABLE_SNAPSHOT: the sqlite3_snapshot_* functions
#   (DatabaseSnapshotPool, and the pool ValueObservation that fetches its
#   first value once); FTS5; the pre-update hook (DatabasePreUpdateEvent);
#   R-Tree; sessions; column metadata (sqlite3_column_table_name...).
# - What Debian's libsqlite3 3.40.1 has besides (`PRAGMA compile_options`),
#   so that the two legs differ by their version and snapshots, not by
#   their configuration: FTS3/FTS4 as Debian builds them, DBSTAT, the
#   statement virtual table, math functions, soundex, unlock notify,
#   recursive triggers on by default, the limits, secure delete, URIs, no
#   lookaside, thread-safe.
# JSON (and JSONB since 3.45) is built in. Not SQLITE_ENABLE_UPDATE_DELETE_LIMIT
# (Debian's has it): the amalgamation's parser is generated without it, so
# `DELETE ... ORDER BY ... LIMIT` stays a syntax error whatever the option;
# left out, `PRAGMA compile_options` tells the truth.
options=(
    -DSQLITE_ENABLE_SNAPSHOT
    -DSQLITE_ENABLE_FTS5
    -DSQLITE_ENABLE_PREUPDATE_HOOK
    -DSQLITE_ENABLE_RTREE
    -DSQLITE_ENABLE_SESSION
    -DSQLITE_ENABLE_COLUMN_METADATA
    -DSQLITE_ENABLE_FTS3
    -DSQLITE_ENABLE_FTS3_PARENTHESIS
    -DSQLITE_ENABLE_FTS3_TOKENIZER
    -DSQLITE_ENABLE_FTS4
    -DSQLITE_ENABLE_DBSTAT_VTAB
    -DSQLITE_ENABLE_STMTVTAB
    -DSQLITE_ENABLE_MATH_FUNCTIONS
    -DSQLITE_SOUNDEX
    -DSQLITE_ENABLE_UNLOCK_NOTIFY
    -DSQLITE_DEFAULT_RECURSIVE_TRIGGERS=1
    -DSQLITE_LIKE_DOESNT_MATCH_BLOBS
    -DSQLITE_MAX_VARIABLE_NUMBER=250000
    -DSQLITE_MAX_SCHEMA_RETRY=25
    -DSQLITE_SECURE_DELETE
    -DSQLITE_USE_URI=1
    -DSQLITE_OMIT_LOOKASIDE
    -DSQLITE_TEMP_STORE=1
    -DSQLITE_THREADSAFE=1
)

if [ ! -f "$out/libsqlite3.so.0" ]; then
    sources=Benchmarks/.build/checkouts/sqlite-nio/Sources/VaporCSQLite
    if [ ! -f "$sources/sqlite_nio_sqlite3.c" ]; then
        echo "sqlite-build.sh: resolving the benchmark package for the SQLite sources..." >&2
        swift package resolve --package-path Benchmarks >&2
    fi
    if ! grep -q "^$version\$" "$sources/version.txt"; then
        echo "sqlite-build.sh: $sources is not SQLite $version" >&2
        exit 1
    fi
    work=$(mktemp -d)
    trap 'rm -rf "$work"' EXIT
    sed 's/sqlite_nio_sqlite3/sqlite3/g' "$sources/sqlite_nio_sqlite3.c" >"$work/sqlite3.c"
    sed 's/sqlite_nio_sqlite3/sqlite3/g' "$sources/include/sqlite_nio_sqlite3.h" >"$work/sqlite3.h"
    echo "sqlite-build.sh: compiling SQLite $version (about a minute)..." >&2
    # cc, or the clang of the Swift toolchain (the swift Docker images).
    compiler=${CC:-$(command -v cc || command -v clang)}
    "$compiler" -O2 -fPIC -shared -I"$work" "${options[@]}" \
        -Wl,-soname,libsqlite3.so.0 -o "$work/libsqlite3.so.0" "$work/sqlite3.c" -lpthread -ldl -lm
    # Every function keeps its name, and the snapshot functions are there.
    nm -D --defined-only "$work/libsqlite3.so.0" >"$work/symbols"
    for symbol in sqlite3_libversion sqlite3_open_v2 sqlite3_snapshot_get sqlite3_snapshot_open \
        sqlite3_snapshot_cmp sqlite3_snapshot_free sqlite3_preupdate_hook; do
        grep -q " T $symbol\$" "$work/symbols" || { echo "sqlite-build.sh: $symbol is not exported" >&2; exit 1; }
    done
    if grep -q sqlite_nio "$work/symbols"; then
        echo "sqlite-build.sh: a symbol kept the sqlite_nio_ prefix" >&2
        exit 1
    fi
    mkdir -p "$out"
    cp "$work/sqlite3.h" "$out/sqlite3.h"
    cp "$work/libsqlite3.so.0" "$out/libsqlite3.so.0.tmp"
    mv "$out/libsqlite3.so.0.tmp" "$out/libsqlite3.so.0"
    ln -sf libsqlite3.so.0 "$out/libsqlite3.so"
fi
echo "$out"
