#!/usr/bin/env bash
# Runs the benchmark (the package in Benchmarks/, which depends on GRDBLite
# by path): installs the C libraries it needs, builds it in release, and
# runs it with the given arguments. By default: every
# workload, 200,000 rows fetched and 50,000 inserted, in a temporary folder.
#
#   Scripts/bench.sh                              # the Markdown report on stdout
#   Scripts/bench.sh --output reports/latest      # + report.json, report.md, ratios.svg
#   Scripts/bench.sh --quick --check-allocations  # CI: fast, fails on allocation regressions
#   Scripts/bench.sh --help
#
# `--sqlite VERSION`, first: raw C, GRDBLite and GRDB run on that SQLite
# instead of the system's, the libsqlite3.so.0 that Scripts/sqlite-build.sh
# builds, loaded through LD_LIBRARY_PATH (the build doesn't change). Vapor
# embeds its own 3.54.1: with `--sqlite 3.54.1`, the four sides run on the
# same engine. The report shows each side's `sqlite_version()`.
#
#   Scripts/bench.sh --sqlite 3.54.1 --quick
#
# `--litestream` adds the cost of Litestream: GRDBLite's insert and
# server-mix without and with a replicating sidecar (installed by
# Scripts/install-litestream.sh, which the script runs then).
#
#   Scripts/bench.sh --litestream --filter litestream
set -euo pipefail
cd "$(dirname "$0")/.."
library_path=
if [ "${1:-}" = --sqlite ]; then
    [ $# -ge 2 ] || { echo "bench.sh: --sqlite needs a version, e.g. --sqlite 3.54.1" >&2; exit 2; }
    library_path=$(Scripts/sqlite-build.sh "$2" | tail -n 1)
    shift 2
fi
Scripts/install-deps.sh
for argument in "$@"; do
    if [ "$argument" = --litestream ]; then Scripts/install-litestream.sh >/dev/null; fi
done
# The record macros' plugin, in debug, which the benchmark's build loads
# (see Benchmarks/Package.swift): nothing to do after the tests' build.
# Only the plugin (built for the host), not the GRDBLiteMacros library,
# which would build GRDBLite for the target platform.
swift build --product GRDBLiteMacrosPlugin >&2
swift build -c release --package-path Benchmarks --product bench >&2
bench="$(swift build -c release --package-path Benchmarks --show-bin-path)/bench"
if [ -n "$library_path" ]; then
    LD_LIBRARY_PATH=$library_path exec "$bench" "$@"
fi
exec "$bench" "$@"
