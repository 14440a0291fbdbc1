#!/usr/bin/env bash
# Coverage-guided fuzzing (libFuzzer, with Address Sanitizer) of the targets
# in Fuzz/, each checked against a second implementation (see Fuzz/README.md).
#
#   Scripts/fuzz.sh                         # every target, 60 s each (CI)
#   Scripts/fuzz.sh --seconds 600           # the documented long run, 10 min each
#   Scripts/fuzz.sh DateParsing FTSPatterns # some targets
#   Scripts/fuzz.sh --jobs 2                # two targets at a time
#   Scripts/fuzz.sh --merge-corpus reports/fuzz-corpus   # grow the committed corpora
#
# GRDBLite is built once with swiftc (no SwiftPM), instrumented, into
# .build/fuzz (git-ignored; FUZZ_BUILD_DIR to change), then each target is
# linked against it. Each target runs on a copy of its committed corpus
# (Fuzz/Corpus/<target>, minimized), with its dictionary if it has one
# (Fuzz/Dictionaries: SQL for StatementSplitting, FTS query syntax for
# FTSPatterns). The inputs a run adds (new coverage) go to
# reports/fuzz-corpus/<target> (FUZZ_CORPUS_OUTPUT to change), never to the
# committed corpus: `--merge-corpus DIR` minimizes the committed corpus and
# DIR/<target> together (libFuzzer's -merge=1 into an empty folder) and
# writes the result to Fuzz/Corpus/<target>, to review and commit; it
# fuzzes nothing. Prints each target's
# executions, and exits non-zero on any finding, whose input file (the
# crash file) the output names; replay one with
# `.build/fuzz/bin/<target> <crash file>`. The last line is
# `fuzz: T targets, E executions, F findings`.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD

seconds=60
jobs=1
merge=""
targets=()
while [ $# -gt 0 ]; do
    case "$1" in
        --seconds) seconds="$2"; shift 2 ;;
        --jobs) jobs="$2"; shift 2 ;;
        --merge-corpus) merge="$2"; shift 2 ;;
        -h|--help) sed -n '2,25p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
        -*) echo "fuzz: unknown option $1" >&2; exit 2 ;;
        *) targets+=("$1"); shift ;;
    esac
done
if [ ${#targets[@]} -eq 0 ]; then
    for file in Fuzz/*.swift; do targets+=("$(basename "$file" .swift)"); done
fi
for target in "${targets[@]}"; do
    [ -f "Fuzz/$target.swift" ] || { echo "fuzz: no target Fuzz/$target.swift" >&2; exit 2; }
done

Scripts/install-deps.sh
build=${FUZZ_BUILD_DIR:-$root/.build/fuzz}
mkdir -p "$build/lib" "$build/bin"
# The toolchain's Clang resource directory holds libFuzzer; lld links it.
flags=(-swift-version 6 -sanitize=fuzzer,address -Onone -use-ld=lld -I "$root/Sources/CSQLite")

# GRDBLite, once: rebuilt when a source is newer than the library.
library="$build/lib/libGRDBLite.a"
sources=()
while IFS= read -r -d '' file; do sources+=("$file"); done \
    < <(find "$root/Sources/GRDBLite" -name '*.swift' -print0 | sort -z)
if [ ! -f "$library" ] || [ -n "$(find "$root/Sources/GRDBLite" -name '*.swift' -newer "$library" | head -1)" ]; then
    echo "fuzz: building GRDBLite (instrumented)..."
    start=$(date +%s)
    # -enable-testing: the targets reach internal functions (@testable import).
    (cd "$build/lib" && swiftc "${flags[@]}" -module-name GRDBLite -parse-as-library -enable-testing \
        -emit-library -static -emit-module -emit-module-path GRDBLite.swiftmodule \
        -num-threads 2 "${sources[@]}" -o libGRDBLite.a)
    echo "fuzz: GRDBLite built in $(($(date +%s) - start)) s"
fi
for target in "${targets[@]}"; do
    binary="$build/bin/$target"
    if [ ! -f "$binary" ] || [ "Fuzz/$target.swift" -nt "$binary" ] || [ "$library" -nt "$binary" ]; then
        echo "fuzz: building $target..."
        swiftc "${flags[@]}" -parse-as-library -I "$build/lib" -L "$build/lib" -lGRDBLite -lsqlite3 \
            "Fuzz/$target.swift" -o "$binary"
    fi
done

# The dictionary of a target (libFuzzer's -dict=), if any.
dictionary() {
    case "$1" in
        StatementSplitting) echo "$root/Fuzz/Dictionaries/sql.dict" ;;
        FTSPatterns) echo "$root/Fuzz/Dictionaries/fts.dict" ;;
    esac
}

# Leaks of globals are not findings (see Harness.md); the runtime's own
# crash handler would race Address Sanitizer's report.
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=0}
export SWIFT_BACKTRACE=${SWIFT_BACKTRACE:-enable=no}

if [ -n "$merge" ]; then
    merge=$(cd "$merge" && pwd)
    for target in "${targets[@]}"; do
        [ -d "$merge/$target" ] || continue
        committed="$root/Fuzz/Corpus/$target"
        merged=$(mktemp -d)
        before=$(find "$committed" -type f | wc -l)
        offered=$(find "$merge/$target" -type f | wc -l)
        "$build/bin/$target" -merge=1 -timeout=25 -rss_limit_mb=4096 "$merged" "$committed" "$merge/$target" \
            > "$merged.log" 2>&1 || { cat "$merged.log" >&2; echo "fuzz: merge of $target failed" >&2; exit 1; }
        rm -rf "$committed" "$merged.log"
        mv "$merged" "$committed"
        chmod 755 "$committed"
        echo "fuzz: $target: $before committed + $offered new inputs -> $(find "$committed" -type f | wc -l)"
    done
    exit 0
fi

runs="$build/runs"
rm -rf "$runs"
mkdir -p "$runs"
output=${FUZZ_CORPUS_OUTPUT:-$root/reports/fuzz-corpus}

# Runs one target on a copy of its corpus: its log is $runs/<target>/log.
run() {
    local target=$1 dir="$runs/$1"
    mkdir -p "$dir/corpus" "$dir/crashes"
    cp Fuzz/Corpus/"$target"/* "$dir/corpus/" 2>/dev/null || true
    local status=0 options=()
    local dict
    dict=$(dictionary "$target")
    [ -n "$dict" ] && options+=(-dict="$dict")
    (cd "$dir" && "$build/bin/$target" -max_total_time="$seconds" -timeout=25 -rss_limit_mb=4096 \
        "${options[@]}" -print_final_stats=1 -artifact_prefix="$dir/crashes/" corpus > log 2>&1) || status=$?
    echo "$status" > "$dir/status"
    # The inputs the run added, for --merge-corpus.
    rm -rf "${output:?}/$target"
    mkdir -p "$output/$target"
    for file in "$dir"/corpus/*; do
        [ -e "Fuzz/Corpus/$target/$(basename "$file")" ] || cp "$file" "$output/$target/"
    done
}

pids=()
for target in "${targets[@]}"; do
    echo "fuzz: running $target for $seconds s..."
    run "$target" &
    pids+=($!)
    while [ "$(jobs -rp | wc -l)" -ge "$jobs" ]; do wait -n || true; done
done
wait

total=0
findings=0
for target in "${targets[@]}"; do
    dir="$runs/$target"
    executions=$(sed -n 's/^stat::number_of_executed_units: *//p' "$dir/log" | tail -1)
    executions=${executions:-$(grep -o '^#[0-9]*' "$dir/log" | tail -1 | tr -d '#')}
    executions=${executions:-0}
    total=$((total + executions))
    crashes=$(find "$dir/crashes" -type f | sort)
    if [ "$(cat "$dir/status")" != 0 ] || [ -n "$crashes" ]; then
        findings=$((findings + 1))
        echo "fuzz: $target: FINDING after $executions executions (log: $dir/log)"
        grep -E 'Fatal error|ERROR: |SUMMARY: ' "$dir/log" | head -5 | sed 's/^/    /'
        for crash in $crashes; do echo "    crash file: $crash"; done
    else
        echo "fuzz: $target: $executions executions, no finding"
    fi
done
echo "fuzz: ${#targets[@]} targets, $total executions, $findings findings"
[ "$findings" = 0 ]
