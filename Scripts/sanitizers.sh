#!/usr/bin/env bash
# Runs the whole test suite under Thread Sanitizer and Address Sanitizer,
# each in its own build folder (.build-thread, .build-address), and prints
# for each: duration, test count, sanitizer reports.
#
#     Scripts/sanitizers.sh                   # both
#     Scripts/sanitizers.sh thread            # one
#     Scripts/sanitizers.sh address --filter Reliability
#
# Exits non-zero if a run fails or a sanitizer reports anything.
set -uo pipefail
cd "$(dirname "$0")/.."
Scripts/install-deps.sh

sanitizers=()
while [ $# -gt 0 ] && { [ "$1" = thread ] || [ "$1" = address ]; }; do
    sanitizers+=("$1"); shift
done
[ ${#sanitizers[@]} -eq 0 ] && sanitizers=(thread address)

# Stop at the first report; halt_on_error keeps the report next to its test.
export TSAN_OPTIONS="${TSAN_OPTIONS:-halt_on_error=1 second_deadlock_stack=1}"
export ASAN_OPTIONS="${ASAN_OPTIONS:-halt_on_error=1 detect_leaks=1}"
# Leaks of the toolchain's libraries (XCTest, Foundation.Process), not GRDBLite's.
export LSAN_OPTIONS="${LSAN_OPTIONS:-suppressions=$PWD/Scripts/lsan-suppressions.txt print_suppressions=0}"

status=0
summary=""
for sanitizer in "${sanitizers[@]}"; do
    log=".build-$sanitizer.log"
    start=$(date +%s)
    swift build --build-tests --sanitize="$sanitizer" --scratch-path ".build-$sanitizer" > "$log" 2>&1
    built=$(date +%s)
    swift test --skip-build --sanitize="$sanitizer" --scratch-path ".build-$sanitizer" "$@" >> "$log" 2>&1
    result=$?
    end=$(date +%s)
    reports=$(grep -c -E "WARNING: ThreadSanitizer|ERROR: AddressSanitizer|ERROR: LeakSanitizer" "$log")
    tests=$(grep -a -o -E "Test run with [0-9]+ tests? in [0-9]+ suites? (passed|failed) after [0-9.]+ seconds( with [0-9]+ issues?)?" "$log" | tail -1)
    line="$sanitizer: build $((built - start))s, tests $((end - built))s; ${tests:-no test summary}; $reports sanitizer reports; exit $result (log: $log)"
    echo "$line"
    summary+="$line"$'\n'
    if [ "$result" -ne 0 ] || [ "$reports" -ne 0 ]; then status=1; fi
done
printf '\n%s' "$summary"
exit $status
