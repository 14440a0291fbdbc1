// swift-tools-version:6.1
import PackageDescription

let package = Package(
    name: "GRDBLite",
    products: [
        .library(name: "GRDBLite", targets: ["GRDBLite"]),
    ],
    dependencies: [
        .package(url: "https://github.com/x-sheep/swift-property-based", exact: "2.0.1"),
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
        // Property-based suites that check GRDBLite against reference
        // models (see Tests/Property/README.md).
        .testTarget(
            name: "PropertyTests",
            dependencies: [
                "GRDBLite",
                .product(name: "PropertyBased", package: "swift-property-based"),
            ],
            path: "Tests/Property",
            exclude: ["README.md"]),
    ],
    swiftLanguageModes: [.v6]
)
