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
set -euo pipefail
cd "$(dirname "$0")/.."
Scripts/install-deps.sh
swift build -c release --package-path Benchmarks --product bench >&2
exec "$(swift build -c release --package-path Benchmarks --show-bin-path)/bench" "$@"
