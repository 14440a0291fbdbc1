#!/usr/bin/env bash
# Loads the example server (Examples/Server) with wrk: installs wrk when it is
# missing, builds the server in release, starts it on a free loopback port with a
# database in a temporary folder, creates 100 authors (--authors) with 5 books each, then
# runs two loads of a fixed duration and prints wrk's report of each (requests/s,
# latency percentiles), then stops the server; fails when a request fails:
#
# 1. read: GET /authors/1, an author and their books (through the association);
# 2. mixed: Examples/Server/load-mixed.lua, 90% GET /authors/:id, 10% POST /books.
#
#   Scripts/example-load.sh                       # 10 s each, 2 threads, 32 connections
#   Scripts/example-load.sh --duration 30 --connections 64 --threads 2 --authors 100
set -euo pipefail
cd "$(dirname "$0")/.."

duration=10
connections=32
threads=2
authors=100
while [[ $# -gt 0 ]]; do
    case "$1" in
        --duration) duration=$2; shift 2 ;;
        --connections) connections=$2; shift 2 ;;
        --threads) threads=$2; shift 2 ;;
        --authors) authors=$2; shift 2 ;;
        -h|--help) sed -n '2,13p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
        *) echo "example-load: unknown argument: $1" >&2; exit 2 ;;
    esac
done

if ! command -v wrk >/dev/null; then
    sudo=""
    [ "$(id -u)" = 0 ] || sudo="sudo"
    echo "Installing wrk..." >&2
    $sudo apt-get update -q >/dev/null
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -q wrk >/dev/null
fi

package=Examples/Server
swift build -c release --package-path "$package"
server_bin="$(swift build -c release --package-path "$package" --show-bin-path)/ExampleServer"

tmp=$(mktemp -d)
port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
base="http://127.0.0.1:$port"
"$server_bin" --port "$port" --database "$tmp/example.sqlite" >"$tmp/server.log" 2>&1 &
server=$!
cleanup() {
    kill "$server" 2>/dev/null && wait "$server" 2>/dev/null
    rm -rf "$tmp"
}
trap cleanup EXIT

for _ in $(seq 600); do
    curl -fs "$base/health" >/dev/null 2>&1 && break
    kill -0 "$server" 2>/dev/null || { cat "$tmp/server.log" >&2; exit 1; }
    sleep 0.1
done

echo "== creating $authors authors with 5 books each" >&2
python3 - "$base" "$authors" <<'PY'
import http.client, json, sys, urllib.parse
base, count = urllib.parse.urlsplit(sys.argv[1]), int(sys.argv[2])
connection = http.client.HTTPConnection(base.hostname, base.port)
def post(path, value):
    connection.request("POST", path, json.dumps(value), {"Content-Type": "application/json"})
    response = connection.getresponse()
    body = response.read()
    if response.status != 201:
        sys.exit(f"POST {path}: {response.status} {body!r}")
    return json.loads(body)
for n in range(1, count + 1):
    author = post("/authors", {"name": f"Author {n}", "country": "FR"})
    for b in range(1, 6):
        post("/books", {"authorId": author["id"], "title": f"Book {b} of author {n}", "year": 1900 + n % 100})
PY

run() {
    echo
    echo "== $1: wrk -t$threads -c$connections -d${duration}s --latency ${*:2}"
    wrk -t"$threads" -c"$connections" -d"${duration}s" --latency "${@:2}" | tee "$tmp/wrk.out"
    if grep -q 'Non-2xx\|Socket errors' "$tmp/wrk.out"; then
        echo "example-load: $1: some requests failed" >&2
        exit 1
    fi
}
run "read (GET /authors/1: an author and 5 books)" "$base/authors/1"
AUTHORS=$authors run "mixed (90% GET /authors/:id, 10% POST /books)" -s "$package/load-mixed.lua" "$base"
kill -0 "$server" 2>/dev/null || { echo "example-load: the server died" >&2; exit 1; }
