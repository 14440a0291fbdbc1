#!/usr/bin/env bash
# The style check of the Swift sources (Sources, Tests, Fuzz, Benchmarks, Examples), a few
# seconds; Scripts/test.sh runs it first. Exits non-zero on any finding.
#
# 1. swift-format's rules, configured in .swift-format: the rules the code
#    follows are on, those it deliberately doesn't (SQLITE_* constants,
#    GRDB's overloads, `case let (a, b)`, ...) are off. `--strict` makes
#    every finding an error.
# 2. Whitespace, checked here rather than by swift-format's pretty printer:
#    the code keeps GRDB's layout (a closing parenthesis on the last argument's
#    line, `{` alone on its line after a wrapped signature), which the
#    pretty printer cannot be configured to accept, so the lint runs with
#    `--debug-disable-pretty-print` and this script checks what matters:
#    spaces only (4 per level, see .swift-format), no trailing whitespace,
#    a final newline, and lines of at most `lineLength` characters (120, as
#    swift-nio), but for the lines of string literals and symbol links.
# 3. The Docker image's files (Scripts/docker-context.py, without Docker):
#    every committed file reaches the image, whose suite reads some of them.
# 4. The tests of Scripts/grdb-compat.py and Scripts/api-diff.py (Scripts/tests,
#    Python's unittest); the figures of the README and the porting guide, and
#    passing-count, are those of Tests/GRDBCompat/results.tsv and
#    api-surface.tsv; the generated sources (Scripts/generate-*.py) are their
#    scripts' output.
#
# Don't run `swift format format` on whole files: it would rewrite the layout.
set -euo pipefail
cd "$(dirname "$0")/.."

paths=(Package.swift Sources Tests Fuzz Benchmarks/Package.swift Benchmarks/Sources
       Examples/Server/Package.swift Examples/Server/Sources)
status=0
swift format lint --strict --parallel --recursive --debug-disable-pretty-print \
    --configuration .swift-format "${paths[@]}" || status=1

# Characters, not bytes: UTF-8 continuation bytes (0x80-0xBF) don't count.
max=$(sed -n 's/^ *"lineLength": *\([0-9]*\).*/\1/p' .swift-format)
find "${paths[@]}" -name '*.swift' -print0 | LC_ALL=C xargs -0 awk -v max="$max" '
    /\t/ { print FILENAME ":" FNR ": tab (indent with spaces)"; bad = 1 }
    / +$/ { print FILENAME ":" FNR ": trailing whitespace"; bad = 1 }
    FNR == 1 { inString = 0 }
    { line = $0; gsub(/[\200-\277]/, "", line); literal = inString }
    # A line of a string literal (an expected SQL, a message) or a symbol
    # link can be long: breaking it would change the string or the link.
    line ~ /^ *([-+?:=]+ *)?#*"/ || line ~ /^ *\/\/\/.*``/ { literal = 1 }
    { n = gsub(/"""/, "&", line); if (n % 2 == 1) inString = !inString }
    length(line) > max && !literal { print FILENAME ":" FNR ": " length(line) " characters, more than " max; bad = 1 }
    END { exit bad }' || status=1
# A final newline ($(...) drops it: what remains of the last byte is empty).
find "${paths[@]}" -name '*.swift' -exec sh -c '
    for file; do [ -z "$(tail -c 1 "$file")" ] || { echo "$file: no newline at the end"; exit 1; }; done' sh {} + || status=1
# The Docker image has no python3, nor the history these checks read.
if command -v python3 >/dev/null 2>&1; then
    Scripts/docker-context.py || status=1
    # The tests of the scripts whose parsing and counting make the figures.
    python3 -W ignore::ResourceWarning -m unittest discover --buffer -s Scripts/tests || status=1
    Scripts/generate-named-values.py --check || status=1
    python3 Scripts/grdb-compat.py --figures check || status=1
    python3 Scripts/api-diff.py --figures check || status=1
else
    echo "lint.sh: no python3 (the Docker image?): image, scripts and figures checks skipped" >&2
fi
exit $status
