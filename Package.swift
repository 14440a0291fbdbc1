// swift-tools-version:6.1
import CompilerPluginSupport
import PackageDescription

let package = Package(
    name: "GRDBLite",
    products: [
        .library(name: "GRDBLite", targets: ["GRDBLite"]),
        // The record macros (`@DatabaseRecord`): a product of its own, so
        // that apps depending only on GRDBLite never build swift-syntax.
        .library(name: "GRDBLiteMacros", targets: ["GRDBLiteMacros"]),
    ],
    // Only what the library's own tests need: the benchmark and its peers
    // (GRDB, Vapor's SQLite stack) are a package of their own, Benchmarks/,
    // so that a package depending on GRDBLite never resolves them.
    dependencies: [
        // The property suites' generators and shrinking (test only).
        .package(url: "https://github.com/x-sheep/swift-property-based", exact: "2.0.1"),
        // The record macros' compiler plugin and its expansion tests.
        .package(url: "https://github.com/swiftlang/swift-syntax", exact: "603.0.1"),
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
        // The record macros: their declarations and the helpers their
        // expansions call, over GRDBLite.
        .target(
            name: "GRDBLiteMacros",
            dependencies: ["GRDBLite", "GRDBLiteMacrosPlugin"]),
        // The compiler plugin that expands the record macros.
        .macro(
            name: "GRDBLiteMacrosPlugin",
            dependencies: [
                .product(name: "SwiftSyntax", package: "swift-syntax"),
                .product(name: "SwiftSyntaxBuilder", package: "swift-syntax"),
                .product(name: "SwiftSyntaxMacros", package: "swift-syntax"),
                .product(name: "SwiftCompilerPlugin", package: "swift-syntax"),
                .product(name: "SwiftDiagnostics", package: "swift-syntax"),
            ]),
        // The child process of the crash and multi-process tests
        // (Tests/Reliability): writes transactions until it is killed.
        .executableTarget(
            name: "grdblite-crash-writer",
            dependencies: ["GRDBLite"]),
        // Temporary directories, seeded random numbers and the reliability
        // scale, shared by the test targets.
        .target(
            name: "TestSupport",
            path: "Tests/TestSupport"),
        .testTarget(
            name: "UnitTests",
            dependencies: ["GRDBLite", "TestSupport"],
            path: "Tests/Unit"),
        // Property-based suites that check GRDBLite against reference
        // models (see Tests/Property/README.md).
        .testTarget(
            name: "PropertyTests",
            dependencies: [
                "GRDBLite",
                "TestSupport",
                .product(name: "PropertyBased", package: "swift-property-based"),
            ],
            path: "Tests/Property",
            exclude: ["README.md"]),
        // The record macros: their expansions and diagnostics, and records
        // declared with them checked against the same records by hand.
        .testTarget(
            name: "MacroTests",
            dependencies: [
                "GRDBLite",
                "GRDBLiteMacros",
                "GRDBLiteMacrosPlugin",
                "TestSupport",
                .product(name: "SwiftSyntax", package: "swift-syntax"),
                .product(name: "SwiftSyntaxMacroExpansion", package: "swift-syntax"),
                .product(name: "SwiftSyntaxMacrosGenericTestSupport", package: "swift-syntax"),
                .product(name: "PropertyBased", package: "swift-property-based"),
            ],
            path: "Tests/Macros"),
        // Fault injection for tests: an SQLite VFS that fails I/O on
        // demand, and an allocator that fails on demand.
        .target(
            name: "CFaultInjection",
            dependencies: ["CSQLite"],
            path: "Tests/Support/CFaultInjection"),
        // Lets the test binary run as the crash writer child, so that the
        // tests need no executable: the tests are built for the host (a
        // test target depends on the macro plugin), the executable for the
        // target, and CI builds GRDBLite once (see Scripts/test.sh).
        .target(
            name: "CCrashWriterEntry",
            path: "Tests/Support/CCrashWriterEntry"),
        // Tests that need other processes or fault injection: crash
        // safety, multi-process locking, I/O errors, out-of-memory.
        .testTarget(
            name: "ReliabilityTests",
            dependencies: [
                "GRDBLite", "CFaultInjection", "CCrashWriterEntry", "TestSupport", "grdblite-crash-writer",
            ],
            path: "Tests/Reliability"),
    ],
    swiftLanguageModes: [.v6]
)
