#!/usr/bin/env bash
# The differential harness (issue 47): random GRDB programs, run on GRDBLite
# and on GRDB 7.10 (the oracle), compared step by step. Builds the
# `differential` product of the benchmark package (in release, the build CI
# makes for the benchmark; `--debug` for iterating), and runs it.
#
#   Scripts/differential.sh                          # 1000 programs from a random seed
#   Scripts/differential.sh --programs 5000 --seed 42
#   Scripts/differential.sh --seed 1234 --programs 1 # replays program 1234, shrinks it
#   GRDBLITE_SEED=1234 Scripts/differential.sh       # the same
#   Scripts/differential.sh --debug --seed 7 --verbose
#
# The last line is `differential: N programs, D differences (K known: P% of
# programs)`; the
# exit status is non-zero when a difference is not in
# Benchmarks/Sources/differential/KnownDifferences.swift.
set -euo pipefail
cd "$(dirname "$0")/.."
configuration=release
if [ "${1:-}" = --debug ]; then
    configuration=debug
    shift
fi
Scripts/install-deps.sh
# Only this product: not `bench`, which needs the record macros' plugin.
swift build -c "$configuration" --package-path Benchmarks --product differential >&2
bin="$(swift build -c "$configuration" --package-path Benchmarks --show-bin-path)"
# First the known differences' matchers, on their examples and near misses
# (Benchmarks/Sources/differential/KnownDifferenceTests.swift): instant.
"$bin/differential" --self-test
exec "$bin/differential" "$@"
