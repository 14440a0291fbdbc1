#!/usr/bin/env bash
# Runs the whole test suite (unit and property suites), in debug.
# Extra arguments go to `swift test`, e.g. `Scripts/test.sh --filter Row`.
set -euo pipefail
cd "$(dirname "$0")/.."
Scripts/install-deps.sh
swift test "$@"
