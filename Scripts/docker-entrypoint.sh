#!/usr/bin/env bash
# The Docker image's entry point (see Dockerfile); the image has already built everything.
#   docker run --rm IMAGE [swift test options]   the whole test suite, e.g. --filter Row
#   docker run --rm IMAGE test [options]          the same
#   docker run --rm IMAGE bench [options]         the release benchmark, e.g. --quick
#   docker run --rm -it IMAGE bash                any other command runs as is
set -euo pipefail
cd "$(dirname "$0")/.."

case "${1-}" in
bench)
    shift
    if [ ! -x Benchmarks/.build/release/bench ]; then
        echo "This image has no benchmark (built with --target tests?)." >&2
        exit 2
    fi
    # The reports folder is usually a host folder mounted with -v: say plainly when this
    # container's user cannot write into it, instead of failing deep in the benchmark.
    output=""
    prev=""
    for arg in "$@"; do
        case "$arg" in --output=*) output="${arg#--output=}" ;; esac
        [ "$prev" = --output ] && output="$arg"
        prev="$arg"
    done
    if [ -n "$output" ] && [ -d "$output" ] && [ ! -w "$output" ]; then
        echo "$output is not writable by uid $(id -u). Create the folder on the host and run" \
             "with --user \"\$(id -u):\$(id -g)\" so that the reports are yours." >&2
        exit 2
    fi
    exec Benchmarks/.build/release/bench "$@"
    ;;
test)
    shift
    exec Scripts/test.sh --skip-build "$@"
    ;;
"" | -*)
    exec Scripts/test.sh --skip-build "$@"
    ;;
*)
    exec "$@"
    ;;
esac
