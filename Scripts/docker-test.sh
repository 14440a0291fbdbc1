#!/usr/bin/env bash
# Builds the Docker image and runs the whole test suite in it, then checks that the
# benchmark starts: run it before calling a change to the Dockerfile done.
# Extra arguments go to `swift test` in the container (e.g. --filter Row).
# IMAGE names the image (default: grdblite); DOCKER the docker command (default: docker).
# Warm builds want BuildKit (see the Dockerfile's header): with a Docker older than 23
# and no buildx, run DOCKER_BUILDKIT=1 Scripts/docker-test.sh.
set -euo pipefail
cd "$(dirname "$0")/.."
image="${IMAGE:-grdblite}"
docker="${DOCKER:-docker}"
if [ "${DOCKER_BUILDKIT:-}" != 1 ] && ! "$docker" buildx version >/dev/null 2>&1; then
    echo "docker-test: legacy builder: a source edit recompiles the dependencies too;" \
         "DOCKER_BUILDKIT=1 avoids it." >&2
fi
Scripts/docker-context.py
"$docker" build -t "$image" .
"$docker" run --rm "$image" "$@"
"$docker" run --rm "$image" bench --help >/dev/null
echo "docker-test: image $image builds, its tests pass and its benchmark starts."
