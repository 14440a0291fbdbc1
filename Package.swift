// swift-tools-version:6.1
import PackageDescription

let package = Package(
    name: "GRDBLite",
    products: [
        .library(name: "GRDBLite", targets: ["GRDBLite"]),
    ],
    targets: [
        // The system SQLite (Debian: `apt-get install libsqlite3-dev`).
        .systemLibrary(
            name: "CSQLite",
            pkgConfig: "sqlite3",
            providers: [.apt(["libsqlite3-dev"])]),
        .target(
            name: "GRDBLite",
            dependencies: ["CSQLite"]),
        // The child process of the crash and multi-process tests
        // (Tests/Reliability): writes transactions until it is killed.
        .executableTarget(
            name: "grdblite-crash-writer",
            dependencies: ["GRDBLite"]),
        .testTarget(
            name: "UnitTests",
            dependencies: ["GRDBLite"],
            path: "Tests/Unit"),
        // Fault injection for tests: an SQLite VFS that fails I/O on
        // demand, and an allocator that fails on demand.
        .target(
            name: "CFaultInjection",
            dependencies: ["CSQLite"],
            path: "Tests/Support/CFaultInjection"),
        // Tests that need other processes or fault injection: crash
        // safety, multi-process locking, I/O errors, out-of-memory.
        .testTarget(
            name: "ReliabilityTests",
            dependencies: ["GRDBLite", "CFaultInjection", "grdblite-crash-writer"],
            path: "Tests/Reliability"),
    ],
    swiftLanguageModes: [.v6]
)
