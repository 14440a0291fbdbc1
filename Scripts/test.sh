#!/usr/bin/env bash
# Runs the style check (Scripts/lint.sh, a few seconds), then the whole test
# suite (unit, property and reliability suites), in debug.
# Extra arguments go to `swift test`, e.g. `Scripts/test.sh --filter Row`.
#
# `--sqlite VERSION` first runs the suite on another SQLite than the system's:
# Scripts/sqlite-build.sh builds it (or reuses it) as a libsqlite3.so.0 that
# the tests load instead of the system's, through LD_LIBRARY_PATH. The tests
# are built as usual (no rebuild when they already are): only their run
# changes. GRDBLITE_EXPECT_SQLITE_VERSION makes a unit test fail if the
# tests run on another version.
#
#   Scripts/test.sh --sqlite 3.54.1 --filter Snapshot
set -euo pipefail
cd "$(dirname "$0")/.."
library_path=
if [ "${1:-}" = --sqlite ]; then
    [ $# -ge 2 ] || { echo "test.sh: --sqlite needs a version, e.g. --sqlite 3.54.1" >&2; exit 2; }
    library_path=$(Scripts/sqlite-build.sh "$2" | tail -n 1)
    export GRDBLITE_EXPECT_SQLITE_VERSION=$2
    shift 2
fi
Scripts/install-deps.sh
Scripts/lint.sh

# The SQLite the tests will load, asked of the same dynamic loader by a
# program that links libsqlite3 as they do.
probe=$(mktemp -d)
trap 'rm -rf "$probe"' EXIT
printf '%s\n' '#include <stdio.h>' 'const char *sqlite3_libversion(void);' \
    'int main(void) { puts(sqlite3_libversion()); return 0; }' >"$probe/version.c"
"${CC:-$(command -v cc || command -v clang)}" -o "$probe/version" "$probe/version.c" -lsqlite3
library_name=${library_path:-the system libsqlite3}
echo "test.sh: the tests run on SQLite $(LD_LIBRARY_PATH=$library_path "$probe/version") ($library_name)"

# Only the test product: `swift test` would also build the library products
# and the crash writer executable, i.e. GRDBLite a second time, for the
# target platform, since the tests are built for the host (a test target
# depends on the macro plugin). The tests run as their own child process
# (Tests/Support/CCrashWriterEntry) and need no executable.
swift build --product GRDBLitePackageTests
# SwiftPM links libsqlite3 too: it builds without LD_LIBRARY_PATH, then
# only runs the built tests with it (and loads that SQLite itself).
[ -z "$library_path" ] || export LD_LIBRARY_PATH=$library_path
# A run that outlives its deadline (GRDBLITE_TEST_DEADLINE seconds; 20
# minutes times GRDBLITE_RELIABILITY_SCALE by default, a run takes about 2)
# is a hang: Scripts/hang-report.sh prints its unfinished tests and its
# threads, kills it, and the script fails.
deadline=${GRDBLITE_TEST_DEADLINE:-$((1200 * ${GRDBLITE_RELIABILITY_SCALE:-1}))}
run_log=$probe/run.log
swift test --skip-build "$@" > >(tee "$run_log") 2>&1 &
run=$!
# Without job control, a background command ignores SIGINT: end it here.
trap 'kill "$run" 2>/dev/null; exit 130' INT TERM
start=$SECONDS
while kill -0 "$run" 2>/dev/null; do
    if ((SECONDS - start >= deadline)); then
        echo "test.sh: the run outlived its deadline of $deadline s" >&2
        Scripts/hang-report.sh "$run" "$run_log" >&2
        wait "$run" || true
        exit 124
    fi
    sleep 1
done
wait "$run"
