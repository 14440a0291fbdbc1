# GRDBLite's test and benchmark image.
#
#   docker build -t grdblite .
#   docker run --rm grdblite                      # the whole test suite; exits with its status
#   docker run --rm grdblite --filter Row         # arguments go to `swift test`
#   docker run --rm -e GRDBLITE_SEED=42 grdblite  # environment reaches the tests
#   docker run --rm grdblite bench --quick        # the benchmark's report on stdout
#   docker run --rm grdblite bench instructions --quick   # instruction counts (valgrind)
#   mkdir -p reports && docker run --rm --user "$(id -u):$(id -g)" \
#     -v "$PWD/reports:/reports" grdblite bench --output /reports   # JSON + SVG on the host
#   docker build --target tests -t grdblite:tests .   # tests only, without the release benchmark
#
# Two packages: the library (Package.swift, whose tests build in debug) and the benchmark
# (Benchmarks/Package.swift, GRDBLite by path plus its peers, built in release).
# Layers, from the least to the most often invalidated, so that editing a source file
# recompiles GRDBLite, its tests and the benchmark, never the dependencies (GRDB...):
#   1. system packages and the user;
#   2. `swift package resolve` of both  (invalidated by the two Package.swift files only);
#   3. dependencies, built against a skeleton of both packages where every target holds one
#      empty stub file (invalidated by a Package.swift, or by adding/removing a target);
#   4. the sources: test build, then (last stage) the release benchmark.
# It uses no BuildKit feature, so any `docker build` builds it, but warm builds want BuildKit
# (the default since Docker 23, and on GitHub): Docker 20.10's legacy builder truncates file
# times to whole seconds when it commits a layer, so SwiftPM then sees the dependency layer's
# build files as changed and recompiles the release dependencies after every source edit.
# With an old Docker: DOCKER_BUILDKIT=1 docker build ...

# The packages' skeleton: the target folders, each with one stub Swift file instead of its
# sources, plus the non-Swift files SwiftPM reads (module maps, headers, C sources); the
# documents (articles, reports) stay as empty files, so that editing them changes nothing
# here. It changes only when targets are added or removed, so the dependency layer below
# stays cached.
FROM swift:6.3-bookworm AS skeleton
WORKDIR /src
COPY Sources Sources
COPY Tests Tests
COPY Benchmarks/Sources Benchmarks/Sources
RUN set -eu; \
    for target in Sources/* Tests/* Benchmarks/Sources/*; do \
        [ -n "$(find "$target" -name '*.swift' -print -quit)" ] || continue; \
        if [ -n "$(find "$target" -name main.swift -print -quit)" ] \
           || grep -rqE '^[[:space:]]*@main([[:space:]]|$)' --include='*.swift' "$target"; then \
            stub='@main enum DockerStub { static func main() {} }'; \
        else \
            stub=''; \
        fi; \
        find "$target" -name '*.swift' -delete; \
        printf '%s\n' "$stub" > "$target/DockerStub.swift"; \
    done; \
    find Sources Tests Benchmarks/Sources -type d -empty -delete; \
    find Sources Tests Benchmarks/Sources -type f \( -name '*.md' -o -name '*.tsv' -o -name '*.txt' \
        -o -name passing-count \) -exec sh -c ': > "$1"' sh {} \;

FROM swift:6.3-bookworm AS tests
RUN export DEBIAN_FRONTEND=noninteractive \
    && apt-get -q update \
    && apt-get -q install -y --no-install-recommends libsqlite3-dev libjemalloc-dev pkg-config valgrind \
    && apt-get clean && rm -rf /var/lib/apt/lists/*
# An unprivileged user (uid 1000, the usual first user of a Linux machine) owns the package
# and its build. To write reports into a mounted folder owned by another uid, run with
# `--user "$(id -u):$(id -g)"`: the benchmark is readable and executable by everyone.
RUN useradd --create-home --uid 1000 --user-group grdblite \
    && mkdir /app /reports && chown grdblite:grdblite /app /reports
USER grdblite
WORKDIR /app

COPY --chown=grdblite:grdblite Package.swift ./
COPY --chown=grdblite:grdblite Benchmarks/Package.swift Benchmarks/
RUN swift package resolve && swift package --package-path Benchmarks resolve

COPY --from=skeleton --chown=grdblite:grdblite /src/ ./
RUN swift build --product GRDBLitePackageTests \
    && swift build -c release --package-path Benchmarks --product bench \
    && rm -rf Sources Tests Benchmarks/Sources

COPY --chown=grdblite:grdblite . .
# The tests (their binary is also the child process the reliability tests
# start: see Tests/Support/CCrashWriterEntry); the container runs them with
# --skip-build.
RUN swift build --product GRDBLitePackageTests
ENTRYPOINT ["/app/Scripts/docker-entrypoint.sh"]

# The default image: the tests above, plus the release benchmark.
FROM tests
RUN swift build -c release --package-path Benchmarks --product bench
