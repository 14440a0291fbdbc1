#!/usr/bin/env bash
# GRDB 7.10's own test suite (3,137 XCTest tests; 2,777 compiled on Linux),
# run against GRDBLite: the compatibility report. GRDB's test files come from
# its SwiftPM checkout at run time (nothing of GRDB is committed here); a
# scratch package builds them against GRDBLite with `import GRDB` rewritten
# to `import GRDBLite` and the base class of Tests/GRDBCompat; files that
# don't compile are set aside ("not compiled", with their first error), the
# rest run, a crash or a hang fails only the running test. Only the tests that
# pass on GRDB on Linux count (Tests/GRDBCompat/reference.tsv).
#
#   Scripts/grdb-compat.sh                      # the table per area, on stdout
#   Scripts/grdb-compat.sh --files 'Record*'    # some GRDB test files only
#   Scripts/grdb-compat.sh --check              # CI: fails if fewer tests pass than
#                                               # Tests/GRDBCompat/passing-count (builds what
#                                               # compile-plan.tsv says compiles)
#   Scripts/grdb-compat.sh --record             # writes results.tsv, compile-plan.tsv,
#                                               # passing-count, README table
#   Scripts/grdb-compat.sh --reference --record # GRDB itself: writes reference.tsv
#
# Options: --scratch DIR (default ${TMPDIR:-/tmp}/grdblite-compat, kept between
# runs so that builds are incremental), --jobs N (test processes at once,
# default 2), --timeout S (silence that makes a test hung, default 90).
# Results per test: DIR/out/results.tsv; every compiler error of the files set
# aside: DIR/out/not-compiled.txt; test output: DIR/out/test-logs/.
set -euo pipefail
cd "$(dirname "$0")/.."
Scripts/install-deps.sh
exec python3 Scripts/grdb-compat.py "$@"
