// swift-tools-version:6.1
import PackageDescription

let package = Package(
    name: "GRDBLite",
    products: [
        .library(name: "GRDBLite", targets: ["GRDBLite"]),
        .executable(name: "bench", targets: ["bench"]),
    ],
    dependencies: [
        // The benchmark's command line.
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        // The benchmark's peer: GRDBLite is measured against GRDB itself.
        .package(url: "https://github.com/groue/GRDB.swift", exact: "7.10.0"),
    ],
    targets: [
        // The system SQLite (Debian: `apt-get install libsqlite3-dev`).
        .systemLibrary(
            name: "CSQLite",
            pkgConfig: "sqlite3",
            providers: [.apt(["libsqlite3-dev"])]),
        // jemalloc, the benchmark's allocator (Debian: `apt-get install libjemalloc-dev`).
        .systemLibrary(
            name: "CJemalloc",
            pkgConfig: "jemalloc",
            providers: [.apt(["libjemalloc-dev"])]),
        .target(
            name: "GRDBLite",
            dependencies: ["CSQLite"]),
        // Raw SQLite, GRDBLite and GRDB on GRDB's performance workloads.
        .executableTarget(
            name: "bench",
            dependencies: [
                "GRDBLite",
                "CSQLite",
                "CJemalloc",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "GRDB", package: "GRDB.swift"),
            ]),
        .testTarget(
            name: "UnitTests",
            dependencies: ["GRDBLite"],
            path: "Tests/Unit"),
    ],
    swiftLanguageModes: [.v6]
)
