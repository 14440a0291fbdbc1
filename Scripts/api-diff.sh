#!/usr/bin/env bash
# GRDB 7.10's public API against GRDBLite's: which of GRDB's public
# symbols GRDBLite lacks (symbol graphs of both modules, compared by kind
# and path with argument labels), and which are GRDBLite's own.
#
#   Scripts/api-diff.sh                  # the report; writes Tests/GRDBCompat/api-surface.tsv
#   Scripts/api-diff.sh --no-write       # the report only
#   Scripts/api-diff.sh --test-build     # graphs the module of Scripts/test.sh's build
#                                        # (host, Modules-tool) instead of building GRDBLite again
#   Scripts/api-diff.sh --scratch DIR    # builds and graphs in DIR (default
#                                        # ${TMPDIR:-/tmp}/grdblite-api-diff, kept between runs)
#
# Fails when a GRDB symbol is missing that Tests/GRDBCompat/api-exclusions.tsv
# doesn't list with its reason. GRDB's module is built from its SwiftPM
# checkout (the benchmark's, or one resolved in the scratch folder), unless
# the benchmark's build of it is there. The last line:
# `api-surface: N of M GRDB public symbols present (P%); GRDBLite-only: X (...)`.
# Also fails when a GRDBLite-only public symbol is not in
# Tests/GRDBCompat/api-additions.tsv with its category and reason.
set -euo pipefail
cd "$(dirname "$0")/.."
Scripts/install-deps.sh
exec python3 Scripts/api-diff.py "$@"
