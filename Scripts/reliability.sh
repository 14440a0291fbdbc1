#!/usr/bin/env bash
# Runs the reliability suites: crash safety, power loss, fault injection,
# busy, bad input, concurrency, misuse traps, fuzzing. Extra arguments go
# to `swift test`.
#
#     Scripts/reliability.sh                                  # the short default run
#     GRDBLITE_RELIABILITY_SCALE=100 Scripts/reliability.sh   # a long run (100x kills, fuzz iterations, writes)
#     GRDBLITE_SEED=1234 Scripts/reliability.sh               # replay a seed printed by a failure
set -euo pipefail
cd "$(dirname "$0")/.."
Scripts/install-deps.sh
swift test --filter 'ReliabilityTests\.|UnitTests\.(BadInputTests|BusyTests|ChaosTests|ConcurrencyTests|DiskFullTests|FuzzTests|IdentifierTests|MisuseTrapTests|OpenErrorTests|ReadOnlyFileTests|StatementBindingErrorTests|StatementSchemaChangeTests)' "$@"
