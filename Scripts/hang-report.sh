#!/usr/bin/env bash
# Prints what a hung test run is doing: the tests that started and did not
# end (from the run's log, Swift Testing's "started" and "passed"/"failed"
# lines), then every thread's backtrace (gdb, installed when missing) of
# each process below PID; then it kills them. Scripts/test.sh calls it when
# a run outlives its deadline, so that a hang in CI fails with its cause,
# not with CI's timeout.
#
#   Scripts/hang-report.sh PID LOG
set -uo pipefail
pid=$1
log=$2
echo "hang-report: tests started and not ended:"
# "◇ Test name() started." against "✔ Test name() passed after" and
# "✘ Test name() failed after": the names left over, with their counts.
grep -oE '^◇ Test [^ ]+ started\.' "$log" | sed -E 's/^◇ Test ([^ ]+) started\./\1/' | sort >"$log.started"
grep -oE '^[✔✘] Test [^ ]+ (passed|failed)' "$log" | sed -E 's/^. Test ([^ ]+) .*/\1/' | sort >"$log.ended"
comm -23 "$log.started" "$log.ended" | uniq -c | sed 's/^/  /'
rm -f "$log.started" "$log.ended"
if ! command -v gdb >/dev/null 2>&1; then
    sudo=""
    [ "$(id -u)" = 0 ] || sudo="sudo"
    { $sudo apt-get update -q && DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -q gdb; } >/dev/null 2>&1 ||
        echo "hang-report: gdb could not be installed: no backtraces"
fi
# The process and its descendants (the test binary, its exit-test children).
pids=$pid
frontier=$pid
while [ -n "$frontier" ]; do
    children=$(for p in $frontier; do pgrep -P "$p"; done)
    pids="$pids $children"
    frontier=$children
done
for p in $pids; do
    command -v gdb >/dev/null 2>&1 || break
    echo "hang-report: process $p: $(tr '\0' ' ' <"/proc/$p/cmdline" 2>/dev/null | cut -c1-200)"
    timeout 120 gdb -p "$p" -batch -ex 'set pagination off' -ex 'thread apply all bt 30' 2>/dev/null |
        grep -E '^(Thread|#)' | cut -c1-240
done
kill -KILL $pids 2>/dev/null
exit 0
