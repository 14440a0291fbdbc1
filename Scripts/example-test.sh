#!/usr/bin/env bash
# The example server's end-to-end test: builds Examples/Server (debug), starts it on
# a free loopback port with a database in a temporary folder, drives every route
# with curl, checks the statuses and the JSON bodies, then stops it. Exits non-zero
# on the first failure; the last line counts the checks.
#
#   Scripts/example-test.sh
#   Scripts/example-test.sh --skip-build   # reuse the last debug build
set -euo pipefail
cd "$(dirname "$0")/.."

build=true
case "${1:-}" in
    --skip-build) build=false ;;
    "") ;;
    *) echo "example-test: unknown argument: $1" >&2; exit 2 ;;
esac
package=Examples/Server
if $build; then swift build --package-path "$package"; fi
server_bin="$(swift build --package-path "$package" --show-bin-path)/ExampleServer"

tmp=$(mktemp -d)
port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
base="http://127.0.0.1:$port"
"$server_bin" --port "$port" --database "$tmp/example.sqlite" >"$tmp/server.log" 2>&1 &
server=$!
sse=
cleanup() {
    [[ -n $sse ]] && kill "$sse" 2>/dev/null
    [[ -n $server ]] && kill "$server" 2>/dev/null && wait "$server" 2>/dev/null
    rm -rf "$tmp"
}
trap cleanup EXIT

checks=0
fail() {
    echo "example-test: FAIL: $*" >&2
    echo "--- server log (last lines)" >&2
    tail -n 20 "$tmp/server.log" >&2
    exit 1
}
pass() { checks=$((checks + 1)); }

# Waits for the server to listen: 60 s at most.
for _ in $(seq 600); do
    curl -fs "$base/health" >/dev/null 2>&1 && break
    kill -0 "$server" 2>/dev/null || fail "the server exited at start"
    sleep 0.1
done
curl -fs "$base/health" >/dev/null || fail "the server doesn't listen on $base after 60 s"

# request METHOD PATH [JSON]: sets $status and $body.
request() {
    local args=(-s -o "$tmp/body" -w '%{http_code}' -X "$1")
    [[ $# -ge 3 ]] && args+=(-H 'Content-Type: application/json' --data-binary "$3")
    status=$(curl "${args[@]}" "$base$2") || fail "curl $1 $2: no answer"
    body=$(cat "$tmp/body")
}
# expect STATUS METHOD PATH [JSON]: the request answers STATUS.
expect() {
    local want=$1
    shift
    request "$@"
    [[ $status == "$want" ]] || fail "$1 $2: status $status, expected $want; body: $body"
    pass
}
# check PYTHON_EXPRESSION: true of the last body, parsed as `j`.
check() {
    python3 -c 'import json, sys; j = json.loads(sys.argv[1]); sys.exit(0 if eval(sys.argv[2]) else 1)' \
        "$body" "$1" 2>/dev/null || fail "last body: expected $1; body: $body"
    pass
}
# field PYTHON_EXPRESSION: its value in the last body.
field() { python3 -c 'import json, sys; j = json.loads(sys.argv[1]); print(eval(sys.argv[2]))' "$body" "$1"; }

# Create.
expect 201 POST /authors '{"name": "Ursula K. Le Guin", "country": "US"}'
check 'j["name"] == "Ursula K. Le Guin" and j["country"] == "US" and isinstance(j["id"], int)'
ursula=$(field 'j["id"]')
for name in "Stanislaw Lem" "Octavia Butler" "Iain M. Banks" "Ted Chiang"; do
    expect 201 POST /authors "{\"name\": \"$name\"}"
done
check 'j["name"] == "Ted Chiang" and j.get("country") is None'
expect 201 POST /books "{\"authorId\": $ursula, \"title\": \"The Dispossessed\", \"year\": 1974}"
check 'j["title"] == "The Dispossessed" and j["authorId"] == '"$ursula"
book=$(field 'j["id"]')
expect 201 POST /books "{\"authorId\": $ursula, \"title\": \"The Lathe of Heaven\"}"

# List with pagination.
expect 200 GET '/authors?page=1&per=2'
check 'j["total"] == 5 and j["page"] == 1 and j["per"] == 2'
check '[a["name"] for a in j["items"]] == ["Ursula K. Le Guin", "Stanislaw Lem"]'
expect 200 GET '/authors?page=3&per=2'
check '[a["name"] for a in j["items"]] == ["Ted Chiang"]'
expect 200 GET '/authors?page=4&per=2'
check 'j["items"] == [] and j["total"] == 5'
expect 200 GET /authors
check 'len(j["items"]) == 5 and j["per"] == 20'

# Get with the association, both ways.
expect 200 GET "/authors/$ursula"
check 'j["author"]["name"] == "Ursula K. Le Guin"'
check '[b["title"] for b in j["books"]] == ["The Dispossessed", "The Lathe of Heaven"]'
check 'j["books"][0]["year"] == 1974 and "year" not in j["books"][1]'
expect 200 GET "/books/$book"
check 'j["book"]["title"] == "The Dispossessed" and j["author"]["name"] == "Ursula K. Le Guin"'

# Update.
expect 200 PATCH "/authors/$ursula" '{"country": "United States"}'
check 'j["country"] == "United States" and j["name"] == "Ursula K. Le Guin"'
expect 200 GET "/authors/$ursula"
check 'j["author"]["country"] == "United States" and len(j["books"]) == 2'

# 404: a missing id.
expect 404 GET /authors/999999
check '"999999" in j["error"]["message"]'
expect 404 PATCH /authors/999999 '{"name": "Nobody"}'
expect 404 DELETE /authors/999999
expect 404 GET /books/999999

# 400: bad parameters and bad JSON.
expect 400 GET /authors/abc
expect 400 GET '/authors?page=0'
expect 400 GET '/authors?per=1000'
expect 400 GET '/authors?page=two'
expect 400 POST /authors '{"name": '
expect 400 POST /authors '{"country": "FR"}'
expect 400 POST /authors '{"name": 42}'
expect 400 PATCH "/authors/$ursula" 'not json'

# 409 and 422: constraint violations.
expect 409 POST /authors '{"name": "Stanislaw Lem"}'
check '"UNIQUE" in j["error"]["message"]'
expect 409 PATCH "/authors/$ursula" '{"name": "Ted Chiang"}'
expect 422 POST /authors '{"name": ""}'
check '"CHECK" in j["error"]["message"]'
expect 422 POST /books '{"authorId": 999999, "title": "Orphan"}'
check '"FOREIGN KEY" in j["error"]["message"]'
expect 200 GET '/authors?per=1'
check 'j["total"] == 5'

# Server-sent events: the author count now, then after a change.
curl -sN --max-time 20 "$base/authors/count/changes?limit=2" >"$tmp/sse" &
sse=$!
for _ in $(seq 100); do grep -q 'data: 5' "$tmp/sse" && break; sleep 0.1; done
grep -q 'data: 5' "$tmp/sse" || fail "SSE: no first event 'data: 5'; got: $(cat "$tmp/sse")"
pass
expect 201 POST /authors '{"name": "N. K. Jemisin"}'
wait "$sse" || fail "SSE: the stream didn't end after 2 events; got: $(cat "$tmp/sse")"
sse=
[[ $(cat "$tmp/sse") == $'data: 5\n\ndata: 6' ]] || fail "SSE: expected events 5 then 6; got: $(cat "$tmp/sse")"
pass
# A client that goes away mid-stream ends its observation; the server goes on.
curl -sN --max-time 3 "$base/authors/count/changes" >"$tmp/sse" || true
[[ $(cat "$tmp/sse") == 'data: 6' ]] || fail "SSE: expected 'data: 6' before the client left; got: $(cat "$tmp/sse")"
pass
request GET '/authors/count/changes?limit=0'
[[ $status == 400 ]] || fail "SSE: limit=0: status $status, expected 400"
pass

# Delete: 204, then 404, and the books went with the author.
expect 204 DELETE "/authors/$ursula"
[[ -z $body ]] || fail "DELETE: expected no body; got: $body"
pass
expect 404 GET "/authors/$ursula"
expect 404 GET "/books/$book"
expect 200 GET /authors
check 'j["total"] == 5 and "Ursula K. Le Guin" not in [a["name"] for a in j["items"]]'

# Still up, then stops cleanly on SIGTERM, which ends an open event stream.
kill -0 "$server" 2>/dev/null || fail "the server died"
curl -sN --max-time 20 "$base/authors/count/changes" >"$tmp/sse" &
sse=$!
for _ in $(seq 100); do grep -q 'data: 5' "$tmp/sse" && break; sleep 0.1; done
kill -TERM "$server"
for _ in $(seq 100); do kill -0 "$server" 2>/dev/null || break; sleep 0.1; done
kill -0 "$server" 2>/dev/null && fail "the server didn't stop within 10 s of SIGTERM"
code=0
wait "$server" || code=$?
server=
[[ $code == 0 ]] || fail "the server exited with status $code"
pass
wait "$sse" || fail "SSE: the stream didn't end with the server"
sse=
[[ $(cat "$tmp/sse") == 'data: 5' ]] || fail "SSE: expected 'data: 5' until the shutdown; got: $(cat "$tmp/sse")"
pass

echo "example-test: $checks checks passed"
