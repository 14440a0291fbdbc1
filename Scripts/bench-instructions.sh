#!/usr/bin/env bash
# Instruction counts of the benchmark workloads under valgrind's callgrind
# (`bench instructions`): unlike wall-clock time on shared machines, they
# repeat from run to run, so they show small regressions and gains. Prints a
# Markdown report; --output writes it as JSON, the format of the committed
# baseline that `bench compare` checks. Arguments go to `bench instructions`
# (see `Scripts/bench-instructions.sh --help`).
#
#   Scripts/bench-instructions.sh                       # 20,000 rows fetched, 5,000 inserted, every side
#   Scripts/bench-instructions.sh --quick --output reports/instructions.json   # every side (about 4 minutes)
#   Scripts/bench-instructions.sh --quick --side raw --side lite --output reports/instructions.json  # CI (2 min)
#   Scripts/bench-instructions.sh --filter fetch --side raw --side lite
#
# After a deliberate change of GRDBLite's figures, update the baseline, and
# commit it with the change that explains it:
#
#   Scripts/bench-instructions.sh --quick --output Benchmarks/baseline.json
set -euo pipefail
cd "$(dirname "$0")/.."
Scripts/install-deps.sh
if ! command -v valgrind >/dev/null; then
    sudo=""
    [ "$(id -u)" = 0 ] || sudo="sudo"
    echo "Installing valgrind..." >&2
    $sudo apt-get update -q >/dev/null
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -q valgrind >/dev/null
fi
# The record macros' plugin, in debug, which the benchmark's build loads
# (see Benchmarks/Package.swift): nothing to do after the tests' build.
swift build --product GRDBLiteMacrosPlugin >&2
swift build -c release --package-path Benchmarks --product bench >&2
exec "$(swift build -c release --package-path Benchmarks --show-bin-path)/bench" instructions "$@"
