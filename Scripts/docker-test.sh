#!/usr/bin/env bash
# Builds the Docker image and runs the whole test suite in it, then checks that the
# benchmark starts: run it before calling a change to the Dockerfile done.
# Extra arguments go to `swift test` in the container (e.g. --filter Row).
# IMAGE names the image (default: grdblite).
set -euo pipefail
cd "$(dirname "$0")/.."
image="${IMAGE:-grdblite}"
docker build -t "$image" .
docker run --rm "$image" "$@"
docker run --rm "$image" bench --help >/dev/null
echo "docker-test: image $image builds, its tests pass and its benchmark starts."
