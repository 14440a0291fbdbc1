#!/usr/bin/env bash
# The example server under Litestream, through the loss of its machine:
# starts Examples/Server under `litestream replicate -exec` (a `file`
# replica, a 100 ms window), creates authors through its HTTP API, waits
# past the window, kills Litestream and the server with SIGKILL, deletes
# the database (the machine is gone), restores the replica into a new
# folder with `litestream restore`, starts the server on the restored file,
# and checks that every author is there. Installs Litestream when missing
# (Scripts/install-litestream.sh).
#
#   Scripts/example-replicated.sh
#   Scripts/example-replicated.sh --skip-build   # reuse the last debug build
set -euo pipefail
cd "$(dirname "$0")/.."

build=true
case "${1:-}" in
    --skip-build) build=false ;;
    "") ;;
    *) echo "example-replicated: unknown argument: $1" >&2; exit 2 ;;
esac
package=Examples/Server
litestream="$(Scripts/install-litestream.sh)/bin/litestream"
if $build; then swift build --package-path "$package"; fi
server_bin="$(swift build --package-path "$package" --show-bin-path)/ExampleServer"

tmp=$(mktemp -d)
mkdir "$tmp/primary" "$tmp/restored"
port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
base="http://127.0.0.1:$port"
pids=()
cleanup() {
    local status=$?
    for pid in "${pids[@]}"; do
        kill -9 "$pid" 2>/dev/null && { wait "$pid" 2>/dev/null || true; }
    done
    rm -rf "$tmp"
    exit "$status"
}
trap cleanup EXIT
fail() {
    echo "example-replicated: FAIL: $*" >&2
    tail -n 20 "$tmp"/*.log >&2 || true
    exit 1
}
# Waits for the server to listen: 60 s at most.
wait_for_server() {
    for _ in $(seq 600); do
        curl -fs "$base/health" >/dev/null 2>&1 && return
        kill -0 "$1" 2>/dev/null || fail "the server exited at start"
        sleep 0.1
    done
    fail "the server doesn't listen on $base after 60 s"
}

cat >"$tmp/litestream.yml" <<YAML
dbs:
  - path: $tmp/primary/library.sqlite
    monitor-interval: 100ms
    replica:
      type: file
      path: $tmp/replica
      sync-interval: 100ms
YAML
"$litestream" replicate -config "$tmp/litestream.yml" \
    -exec "$server_bin --port $port --database $tmp/primary/library.sqlite" >"$tmp/litestream.log" 2>&1 &
replicate=$!
pids+=("$replicate")
wait_for_server "$replicate"
# Its child (started by any of its threads).
server=$(cat /proc/"$replicate"/task/*/children 2>/dev/null | tr ' ' '\n' | grep -m 1 . || true)
[[ -n $server ]] || fail "no server under litestream replicate -exec"
pids+=("$server")

count=100
for n in $(seq "$count"); do
    status=$(curl -s -o /dev/null -w '%{http_code}' -X POST -H 'Content-Type: application/json' \
        --data-binary "{\"name\": \"Author $n\", \"country\": \"C$((n % 7))\"}" "$base/authors")
    [[ $status == 201 ]] || fail "POST /authors $n: status $status"
done
# Past the window (monitor-interval + sync-interval, 200 ms) and a margin.
sleep 2.2
# The machine dies.
kill -9 "$server" "$replicate"
wait "$replicate" 2>/dev/null || true
rm -rf "$tmp/primary"

"$litestream" restore -o "$tmp/restored/library.sqlite" "file://$tmp/replica" >"$tmp/restore.log" 2>&1 ||
    fail "litestream restore failed"
integrity=$(python3 -c 'import sqlite3, sys; print(sqlite3.connect(sys.argv[1]).execute("PRAGMA integrity_check").fetchone()[0])' \
    "$tmp/restored/library.sqlite")
[[ $integrity == ok ]] || fail "integrity_check: $integrity"
"$server_bin" --port "$port" --database "$tmp/restored/library.sqlite" >"$tmp/restored.log" 2>&1 &
restored=$!
pids+=("$restored")
wait_for_server "$restored"
body=$(curl -fs "$base/authors?page=1&per=$count") || fail "GET /authors on the restored database"
python3 -c '
import json, sys
page = json.loads(sys.argv[1])
count = int(sys.argv[2])
names = [author["name"] for author in page["items"]]
if page["total"] != count or names != [f"Author {n}" for n in range(1, count + 1)]:
    sys.exit(f"restored: {page['"'"'total'"'"']} authors: {names[:3]}...")
' "$body" "$count" || fail "the restored authors differ"
echo "example-replicated: $count authors created under litestream replicate -exec, kill -9," \
    "restored: all $count there, served by the server on the restored file"
