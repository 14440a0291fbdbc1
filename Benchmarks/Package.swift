// swift-tools-version:6.1
import PackageDescription

// The record macros' compiler plugin, as the library package's debug build
// makes it (Scripts/bench.sh builds it first): the compiler loads it to
// expand the benchmark's `@DatabaseRecord` records. The macro's output is
// the same code whichever build of the plugin writes it, and a release
// build of the plugin would cost a release build of swift-syntax (minutes
// of CI) for nothing the benchmark measures.
let recordMacrosPlugin = Context.packageDirectory
    + "/../.build/debug/GRDBLiteMacrosPlugin-tool#GRDBLiteMacrosPlugin"

// The benchmark: a package of its own, as swift-nio keeps its benchmarks,
// so that its peers never reach the library's users. It depends on GRDBLite
// by path: `Scripts/bench.sh` builds it from the repository's root.
let package = Package(
    name: "GRDBLiteBenchmarks",
    products: [
        .executable(name: "bench", targets: ["bench"]),
        .executable(name: "differential", targets: ["differential"]),
    ],
    dependencies: [
        // `name:`: a path dependency's identity is its folder's name, which
        // depends on where the repository is cloned; this name doesn't.
        .package(name: "GRDBLite", path: ".."),
        // The command line.
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        // The peers, at the versions the reports name (SoftwareInfo.peerVersions):
        // GRDB, whose API GRDBLite keeps, and Vapor's SQLite stack.
        .package(url: "https://github.com/groue/GRDB.swift", exact: "7.10.0"),
        .package(url: "https://github.com/vapor/sqlite-nio", exact: "1.13.2"),
        .package(url: "https://github.com/vapor/sqlite-kit", exact: "4.5.2"),
        .package(url: "https://github.com/vapor/sql-kit", exact: "3.36.0"),
    ],
    targets: [
        // The system SQLite, the one GRDBLite links, for the raw C side
        // (Debian: `apt-get install libsqlite3-dev`).
        .systemLibrary(
            name: "BenchSQLite",
            pkgConfig: "sqlite3",
            providers: [.apt(["libsqlite3-dev"])]),
        // jemalloc, the benchmark's allocator (Debian: `apt-get install libjemalloc-dev`).
        .systemLibrary(
            name: "CJemalloc",
            pkgConfig: "jemalloc",
            providers: [.apt(["libjemalloc-dev"])]),
        // Raw SQLite, GRDBLite, GRDB and Vapor on GRDB's performance workloads.
        .executableTarget(
            name: "bench",
            dependencies: [
                .product(name: "GRDBLite", package: "GRDBLite"),
                "BenchSQLite",
                "CJemalloc",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "SQLiteNIO", package: "sqlite-nio"),
                .product(name: "SQLiteKit", package: "sqlite-kit"),
                .product(name: "SQLKit", package: "sql-kit"),
            ],
            // No DWARF in the executable (its symbol table stays): valgrind 3.19
            // (Debian 12) can't read the DWARF 5 that clang writes for the C
            // targets of the peers (SQLiteNIO's SQLite, NIO's shims), and gives up.
            swiftSettings: [.unsafeFlags(["-load-plugin-executable", recordMacrosPlugin])],
            linkerSettings: [.unsafeFlags(["-Xlinker", "--strip-debug"])]),
        // Issue 47: random programs of GRDB's API, run on GRDBLite and on GRDB
        // 7.10 (the oracle), compared step by step (Scripts/differential.sh).
        // The program language: plain data, no database.
        .target(name: "DifferentialProgram"),
        // The interpreter, on GRDBLite. Its files are the real ones.
        .target(
            name: "DifferentialLite",
            dependencies: [
                "DifferentialProgram",
                .product(name: "GRDBLite", package: "GRDBLite"),
            ]),
        // The same interpreter on GRDB: relative symlinks to DifferentialLite's
        // files, compiled with `DIFFERENTIAL_GRDB`, which picks `import GRDB`.
        .target(
            name: "DifferentialGRDB",
            dependencies: [
                "DifferentialProgram",
                .product(name: "GRDB", package: "GRDB.swift"),
            ],
            swiftSettings: [.define("DIFFERENTIAL_GRDB")]),
        // The runner: generates, runs both, compares, shrinks, replays.
        .executableTarget(
            name: "differential",
            dependencies: [
                "DifferentialProgram",
                "DifferentialLite",
                "DifferentialGRDB",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]),
    ],
    swiftLanguageModes: [.v6]
)
