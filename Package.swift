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
        .testTarget(
            name: "UnitTests",
            dependencies: ["GRDBLite"],
            path: "Tests/Unit"),
    ],
    swiftLanguageModes: [.v6]
)
