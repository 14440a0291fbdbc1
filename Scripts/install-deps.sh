#!/usr/bin/env bash
# Installs the C libraries GRDBLite builds against (Debian/Ubuntu), when missing:
# libsqlite3-dev (the SQLite GRDBLite wraps), libjemalloc-dev (the benchmark's
# allocator), pkg-config (how SwiftPM finds them).
set -euo pipefail
if command -v pkg-config >/dev/null 2>&1 && pkg-config --exists sqlite3 jemalloc; then
    exit 0
fi
sudo=""
[ "$(id -u)" = 0 ] || sudo="sudo"
echo "Installing libsqlite3-dev libjemalloc-dev pkg-config..." >&2
$sudo apt-get update -q >/dev/null
DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -q libsqlite3-dev libjemalloc-dev pkg-config >/dev/null
