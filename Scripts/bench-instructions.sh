#!/usr/bin/env bash
# Instruction counts of the benchmark workloads, under valgrind's callgrind:
# unlike wall-clock time on shared machines, they repeat to a fraction of a
# percent, so they show small regressions and gains.
#
#   Scripts/bench-instructions.sh                  # 20,000 rows fetched, 5,000 inserted
#   ROWS=50000 INSERT_ROWS=10000 Scripts/bench-instructions.sh
#   Scripts/bench-instructions.sh fetch-by-name    # some workloads
#
# Each workload runs on each side in its own process:
# `bench --only W --side S --once` runs it once as a warm-up (first page
# reads, statement and schema caches, lazy runtime metadata), then once
# more inside the function `grdblite_bench_measured_run`. callgrind runs
# with `--toggle-collect=grdblite_bench_measured_run`: it counts only the
# instructions executed while that function is on the stack, so the
# process start, the database generation, the connection opening, the
# warm-up and the checks of results are left out, and the measured run is
# counted whole (SQLite, the library, and the allocator included). The
# database files are generated once, before valgrind runs, in a temporary
# folder that every run reuses (`--path`).
#
# jemalloc: callgrind, unlike memcheck, doesn't replace malloc, so jemalloc
# stays the allocator under valgrind and its instructions are counted, as
# allocations cost in production. We don't pass
# `--soname-synonyms=somalloc=*jemalloc*`: it would matter only to tools that
# replace malloc, whose replacement runs outside the counted code and would
# make allocations look free.
#
# Swift seeds its hash functions at random in each process, which changes
# the collisions of every Dictionary and Set (GRDB looks column names up in
# one), and so the instruction counts, by several percent from one run to
# the next: SWIFT_DETERMINISTIC_HASHING=1 fixes the seed, so that counts
# repeat.
#
# The table gives instructions per row (Ir of the measured run divided by
# the rows fetched or inserted) and their ratios; n/a where a side doesn't
# implement a workload yet.
set -euo pipefail
cd "$(dirname "$0")/.."

export SWIFT_DETERMINISTIC_HASHING=1
rows=${ROWS:-20000}
insert_rows=${INSERT_ROWS:-5000}

Scripts/install-deps.sh
command -v valgrind >/dev/null || { echo "valgrind is missing: apt-get install valgrind" >&2; exit 1; }
swift build -c release --package-path Benchmarks --product bench >&2
bench="$(swift build -c release --package-path Benchmarks --show-bin-path)/bench"

if [ $# -gt 0 ]; then workloads=("$@"); else mapfile -t workloads < <("$bench" --list-workloads); fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# Generate the database files once, outside valgrind.
"$bench" --once --only fetch-by-index --side raw --rows "$rows" --insert-rows "$insert_rows" --path "$work/db" >/dev/null

# instructions WORKLOAD SIDE: prints the Ir of the measured run, or n/a.
instructions() {
    local out="$work/$1.$2.callgrind" log="$work/$1.$2.log" status=0
    valgrind --tool=callgrind --toggle-collect=grdblite_bench_measured_run --callgrind-out-file="$out" \
        "$bench" --once --only "$1" --side "$2" --rows "$rows" --insert-rows "$insert_rows" --path "$work/db" \
        >"$log" 2>&1 || status=$?
    if [ "$status" = 3 ]; then echo n/a; return; fi
    if [ "$status" != 0 ]; then
        echo "bench failed on $1 $2:" >&2
        cat "$log" >&2
        exit 1
    fi
    # callgrind's "totals:" line sums the collected events (Ir only here).
    local total
    total=$(awk '/^totals:/ { print $2 }' "$out")
    [ -n "$total" ] || total=$(awk '/^summary:/ { print $2 }' "$out")
    if [ -z "$total" ] || [ "$total" = 0 ]; then
        echo "no instructions collected for $1 $2 (is grdblite_bench_measured_run in the binary?)" >&2
        exit 1
    fi
    echo "$total"
}

echo "Instructions per row (callgrind Ir of one measured run after one warm-up); $rows rows fetched, $insert_rows inserted."
echo
echo "| Workload | raw C | GRDBLite | GRDB 7.10 | GRDBLite/raw | GRDB/raw | GRDBLite/GRDB |"
echo "|---|---:|---:|---:|---:|---:|---:|"
for workload in "${workloads[@]}"; do
    echo "callgrind: $workload..." >&2
    raw=$(instructions "$workload" raw)
    lite=$(instructions "$workload" lite)
    grdb=$(instructions "$workload" grdb)
    case "$workload" in fetch-*) n=$rows ;; *) n=$insert_rows ;; esac
    awk -v w="$workload" -v n="$n" -v raw="$raw" -v lite="$lite" -v grdb="$grdb" 'BEGIN {
        split(raw " " lite " " grdb, v, " ")
        line = "| " w
        for (i = 1; i <= 3; i++) line = line " | " (v[i] == "n/a" ? "n/a" : sprintf("%.0f", v[i] / n))
        line = line " | " ratio(lite, raw) " | " ratio(grdb, raw) " | " ratio(lite, grdb) " |"
        print line
    }
    function ratio(a, b) { return (a == "n/a" || b == "n/a") ? "n/a" : sprintf("%.3f×", a / b) }'
done
