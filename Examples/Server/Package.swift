// swift-tools-version:6.1
import PackageDescription

// A small Hummingbird 2 server over a GRDBLite `DatabasePool`: a package of
// its own, so that the library never depends on a web framework.
// `Scripts/example-test.sh` drives it end to end, `Scripts/example-load.sh`
// loads it with wrk.
let package = Package(
    name: "ExampleServer",
    platforms: [.macOS(.v14)],
    dependencies: [
        // `name:`: a path dependency's identity is its folder's name, which
        // depends on where the repository is cloned; this name doesn't.
        .package(name: "GRDBLite", path: "../.."),
        .package(url: "https://github.com/hummingbird-project/hummingbird", exact: "2.28.1"),
        // Hummingbird's own dependency: ends the server-sent events on graceful shutdown.
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0"),
    ],
    targets: [
        .executableTarget(
            name: "ExampleServer",
            dependencies: [
                .product(name: "GRDBLite", package: "GRDBLite"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ]),
    ],
    swiftLanguageModes: [.v6]
)
