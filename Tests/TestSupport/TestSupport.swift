import Foundation

// Support shared by the unit and reliability test targets.

/// A temporary directory for database files, removed by `remove()`.
public struct TemporaryDirectory: Sendable {
    public let url: URL

    public init() throws {
        url = FileManager.default.temporaryDirectory
            .appendingPathComponent("grdblite-tests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    /// The path of a file in the directory.
    public func path(_ name: String = "db.sqlite") -> String {
        url.appendingPathComponent(name).path
    }

    public func remove() {
        try? FileManager.default.removeItem(at: url)
    }
}

/// A seeded pseudo-random generator (SplitMix64): a failing run prints its
/// seed, and `GRDBLITE_SEED` replays it.
public struct SeededGenerator: RandomNumberGenerator, Sendable {
    public private(set) var state: UInt64

    public init(seed: UInt64) { state = seed }

    /// A generator seeded from `GRDBLITE_SEED`, or randomly.
    public static func fromEnvironment() -> (SeededGenerator, seed: UInt64) {
        let seed = ProcessInfo.processInfo.environment["GRDBLITE_SEED"].flatMap { UInt64($0) }
            ?? UInt64.random(in: 0...UInt64.max)
        return (SeededGenerator(seed: seed), seed)
    }

    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

/// How much longer than the default the reliability tests run:
/// `GRDBLITE_RELIABILITY_SCALE=100 swift test --filter Reliability`.
public let reliabilityScale = max(
    1, ProcessInfo.processInfo.environment["GRDBLITE_RELIABILITY_SCALE"].flatMap { Int($0) } ?? 1)
