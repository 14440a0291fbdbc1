#!/usr/bin/env bash
# Runs the style check (Scripts/lint.sh, a few seconds), then the whole test
# suite (unit, property and reliability suites), in debug.
# Extra arguments go to `swift test`, e.g. `Scripts/test.sh --filter Row`.
set -euo pipefail
cd "$(dirname "$0")/.."
Scripts/install-deps.sh
Scripts/lint.sh
swift test "$@"
