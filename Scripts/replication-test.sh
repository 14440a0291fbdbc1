#!/usr/bin/env bash
# Replication by Litestream, killed at random points, then restored: a
# GRDBLite DatabasePool writer (the crash writer child) commits numbered
# transactions while Litestream replicates to a `file` replica; each round
# SIGKILLs the writer, Litestream or both, restores the replica into a new
# file and checks it (see Scripts/replication-test.py). Installs Litestream
# 0.5.17 when missing (Scripts/install-litestream.sh).
#
#     Scripts/replication-test.sh                     # 50 rounds, a random seed
#     Scripts/replication-test.sh --rounds 500 --seed 1234
#     Scripts/replication-test.sh --pause-litestream  # must fail: Litestream stopped too long
#     Scripts/replication-test.sh --skip-build ...     # the test build is there already
#
# The last line: `replication: N rounds, 0 torn, 0 lost beyond the window,
# lost p50/p99/max A/B/C ms`. Timing matters (a Litestream starved of CPU
# falls behind its window): run it on a machine that isn't saturated.
set -euo pipefail
cd "$(dirname "$0")/.."
Scripts/install-deps.sh
litestream_folder=$(Scripts/install-litestream.sh)
if [ "${1:-}" = --skip-build ]; then
    shift
else
    swift build --product GRDBLitePackageTests
fi
# The test binary runs as the crash writer child (Tests/Support/CCrashWriterEntry).
writer=$(swift build --show-bin-path)/GRDBLitePackageTests.xctest
exec python3 Scripts/replication-test.py --writer "$writer" --writer-env GRDBLITE_CRASH_WRITER_CHILD=1 \
    --litestream "$litestream_folder/bin/litestream" --vfs "$litestream_folder/litestream_vfs/litestream-vfs.so" "$@"
