import Foundation
import GRDBLite
import Testing

// Shared by the reliability tests of this target (Tests/Reliability has its
// own copy: test targets can't share sources).

/// A temporary directory, removed by `remove()`.
struct TemporaryDirectory {
    let url: URL

    init() throws {
        url = FileManager.default.temporaryDirectory
            .appendingPathComponent("grdblite-reliability-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    func path(_ name: String) -> String {
        url.appendingPathComponent(name).path
    }

    func remove() {
        try? FileManager.default.removeItem(at: url)
    }
}

/// A seeded pseudo-random generator (SplitMix64): a failing run prints its
/// seed, and `GRDBLITE_SEED` replays it.
struct SeededGenerator: RandomNumberGenerator {
    private(set) var state: UInt64

    init(seed: UInt64) { state = seed }

    /// A generator seeded from `GRDBLITE_SEED`, or randomly.
    static func fromEnvironment() -> (SeededGenerator, seed: UInt64) {
        let seed = ProcessInfo.processInfo.environment["GRDBLITE_SEED"].flatMap { UInt64($0) }
            ?? UInt64.random(in: 0...UInt64.max)
        return (SeededGenerator(seed: seed), seed)
    }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

/// How much longer than the default the reliability tests run:
/// `GRDBLITE_RELIABILITY_SCALE=100 swift test --filter Reliability`.
let reliabilityScale = max(1, ProcessInfo.processInfo.environment["GRDBLITE_RELIABILITY_SCALE"].flatMap { Int($0) } ?? 1)

/// Catches the error of `body`, which must be a `DatabaseError`.
func databaseError(_ body: () throws -> Void, sourceLocation: SourceLocation = #_sourceLocation) -> DatabaseError? {
    do {
        try body()
        Issue.record("expected a DatabaseError, got no error", sourceLocation: sourceLocation)
        return nil
    } catch let error as DatabaseError {
        return error
    } catch {
        Issue.record("expected a DatabaseError, got \(type(of: error)): \(error)", sourceLocation: sourceLocation)
        return nil
    }
}

/// A value shared between threads and tasks. (An NSLock rather than a
/// `Mutex`: Thread Sanitizer does not see the synchronization of
/// `Synchronization.Mutex` on Linux, and reports false races.)
final class Shared<Value: Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    private var _value: Value

    init(_ value: Value) {
        _value = value
    }

    var value: Value {
        lock.withLock { _value }
    }

    func update<T>(_ body: (inout Value) -> T) -> T {
        lock.withLock { body(&_value) }
    }
}
