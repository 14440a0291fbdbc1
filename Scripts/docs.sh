#!/usr/bin/env bash
# Builds GRDBLite's documentation catalog (Sources/GRDBLite/GRDBLite.docc)
# into a static website, with the toolchain's own tools: no plugin, no
# package dependency.
#
#   Scripts/docs.sh                     # builds into .build-docs/site
#   Scripts/docs.sh --output DIR        # builds into DIR (replaced)
#   Scripts/docs.sh --serve [--port N]  # builds, then serves it on 127.0.0.1
#   Scripts/docs.sh --test-build        # the module of Scripts/test.sh's build
#
# Steps: `swift build --target GRDBLite` (the module), then
# `swift-symbolgraph-extract` (its public symbols, as JSON), then
# `docc convert --warnings-as-errors` (a broken symbol link, an unknown
# topic or a malformed directive fails the build). The site's pages are at
# DIR/documentation/grdblite/. The output folder is printed last.
#
# `--test-build` (CI) documents the GRDBLite module of the test build
# (Scripts/test.sh's, built for the host: .build/debug/Modules-tool)
# instead of building the library again for the target platform.
set -euo pipefail

cd "$(dirname "$0")/.."
root=$PWD

output="$root/.build-docs/site"
serve=false
port=8123
test_build=false
while [[ $# -gt 0 ]]; do
    case "$1" in
        --output) output=$2; shift 2 ;;
        --output=*) output=${1#--output=}; shift ;;
        --serve) serve=true; shift ;;
        --test-build) test_build=true; shift ;;
        --port) port=$2; shift 2 ;;
        -h|--help) sed -n '2,19p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
        *) echo "docs.sh: unknown argument: $1" >&2; exit 2 ;;
    esac
done
case "$output" in /*) ;; *) output="$root/$output" ;; esac

# The toolchain's tools: next to `swift`, or on the PATH.
swift_bin=$(dirname "$(readlink -f "$(command -v swift)")")
tool() {
    if [[ -x "$swift_bin/$1" ]]; then echo "$swift_bin/$1"
    elif command -v "$1" >/dev/null; then command -v "$1"
    else echo "docs.sh: $1 not found (it comes with the Swift toolchain)" >&2; exit 1
    fi
}
docc=$(tool docc)
extract=$(tool swift-symbolgraph-extract)

bin=$(swift build --show-bin-path)
if $test_build; then
    # A no-op after Scripts/test.sh; the module is built for the host.
    echo "== swift build --product GRDBLitePackageTests" >&2
    swift build --product GRDBLitePackageTests >&2
    modules="$bin/Modules-tool"
else
    echo "== swift build --target GRDBLite" >&2
    swift build --target GRDBLite >&2
    modules="$bin/Modules"
    [[ -f "$modules/GRDBLite.swiftmodule" ]] || modules="$bin"
fi
triple=$("$swift_bin/swift" -print-target-info | python3 -c \
    'import json, sys; print(json.load(sys.stdin)["target"]["triple"])')

work="$root/.build-docs"
graphs="$work/symbol-graphs"
rm -rf "$graphs"
mkdir -p "$graphs"

echo "== swift-symbolgraph-extract ($triple)" >&2
# CSQLite's module map is found with -I, and the system SQLite's flags
# come from pkg-config, as SwiftPM passes them.
sqlite_flags=()
for flag in $(pkg-config --cflags sqlite3 2>/dev/null); do sqlite_flags+=(-Xcc "$flag"); done
"$extract" \
    -module-name GRDBLite \
    -target "$triple" \
    -I "$modules" \
    -I "$root/Sources/CSQLite" \
    -module-cache-path "$bin/ModuleCache" \
    "${sqlite_flags[@]}" \
    -minimum-access-level public \
    -skip-inherited-docs \
    -output-dir "$graphs" >&2

echo "== every public type in the landing page's topics" >&2
python3 - "$graphs/GRDBLite.symbols.json" "$root/Sources/GRDBLite/GRDBLite.docc/GRDBLite.md" <<'EOF'
import json, re, sys
graph, landing = sys.argv[1:]
kinds = {"struct", "class", "enum", "protocol", "typealias", "actor"}
types = {s["pathComponents"][0] for s in json.load(open(graph))["symbols"]
         if len(s["pathComponents"]) == 1 and s["kind"]["identifier"].split(".")[-1] in kinds}
curated = set(re.findall(r"^- ``([A-Za-z0-9_]+)``", open(landing).read(), re.M))
missing = sorted(types - curated)
if missing:
    sys.exit("docs.sh: public types missing from GRDBLite.md's topics: " + ", ".join(missing))
EOF

echo "== docc convert" >&2
rm -rf "$output"
mkdir -p "$(dirname "$output")"
"$docc" convert "$root/Sources/GRDBLite/GRDBLite.docc" \
    --additional-symbol-graph-dir "$graphs" \
    --fallback-display-name GRDBLite \
    --fallback-bundle-identifier org.grdblite.GRDBLite \
    --transform-for-static-hosting \
    --warnings-as-errors \
    --output-path "$output" >&2

if $serve; then
    echo "Serving http://127.0.0.1:$port/documentation/grdblite/ (Ctrl-C stops)" >&2
    echo "$output"
    exec python3 -m http.server "$port" --bind 127.0.0.1 --directory "$output"
fi
echo "$output"
