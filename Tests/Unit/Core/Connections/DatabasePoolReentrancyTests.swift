import Foundation
import GRDBLite
import Testing
import TestSupport

/// The reentrancy rules of a `DatabasePool`, as GRDB 7.10 has them: a read
/// traps inside a read of the same pool, a write inside a write; a read
/// inside a write takes a reader, a write inside a read takes the writer;
/// the accesses that wait for every connection (barriers, `close`) trap
/// inside any access of the pool.
@Suite struct DatabasePoolReentrancyTests {
    private static let reentrancyMessage =
        "Database methods are not reentrant: GRDBLite.DatabasePool was accessed from inside one of its own access blocks"

    enum Access: String, CaseIterable, Codable, Sendable, CustomTestStringConvertible {
        case read, unsafeRead, write, writeWithoutTransaction, writeInTransaction, barrier, close, releaseMemory

        var testDescription: String { rawValue }

        func run(_ dbPool: DatabasePool, _ body: () throws -> Void = { }) throws {
            switch self {
            case .read: try dbPool.read { _ in try body() }
            case .unsafeRead: try dbPool.unsafeRead { _ in try body() }
            case .write: try dbPool.write { _ in try body() }
            case .writeWithoutTransaction: try dbPool.writeWithoutTransaction { _ in try body() }
            case .writeInTransaction: try dbPool.writeInTransaction { _ in try body(); return .commit }
            case .barrier: try dbPool.barrierWriteWithoutTransaction { _ in try body() }
            case .close: try dbPool.close()
            case .releaseMemory: dbPool.releaseMemory()
            }
        }

        var isRead: Bool { self == .read || self == .unsafeRead }
        var isWrite: Bool {
            self == .write || self == .writeWithoutTransaction || self == .writeInTransaction || self == .barrier
        }
        var waitsForEveryConnection: Bool { self == .barrier || self == .close || self == .releaseMemory }
    }

    /// The nestings that trap: an access inside an access of the same kind
    /// of connection, or one that waits for every connection.
    static let trappingNestings: [(Access, Access)] = [Access.read, .unsafeRead, .write, .writeWithoutTransaction]
        .flatMap { outer in
        Access.allCases.compactMap { inner in
            (outer.isRead && inner.isRead) || (outer.isWrite && inner.isWrite) || inner.waitsForEveryConnection
                ? (outer, inner) : nil
        }
    }

    @Test(arguments: trappingNestings)
    func reentrantAccessTraps(outer: Access, inner: Access) async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) { [outer, inner] in
            let directory = try TemporaryDirectory()
            let dbPool = try DatabasePool(path: directory.path())
            try outer.run(dbPool) { try inner.run(dbPool) }
        }
        let stderr = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
        #expect(stderr.contains(Self.reentrancyMessage))
    }

    /// Through the access of another database, too.
    @Test(arguments: [(Access.read, Access.read), (.write, .write), (.read, .barrier)])
    func reentrancyThroughAnotherDatabaseTraps(outer: Access, inner: Access) async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) { [outer, inner] in
            let directory = try TemporaryDirectory()
            let dbPool = try DatabasePool(path: directory.path())
            let dbQueue = try DatabaseQueue()
            try outer.run(dbPool) {
                try dbQueue.write { _ in try inner.run(dbPool) }
            }
        }
        let stderr = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
        #expect(stderr.contains(Self.reentrancyMessage))
    }

    /// A write inside a read inside a write waits for itself: it traps.
    @Test func writeInsideReadInsideWriteTraps() async {
        await #expect(processExitsWith: .failure) {
            let directory = try TemporaryDirectory()
            let dbPool = try DatabasePool(path: directory.path())
            try dbPool.write { _ in
                try dbPool.read { _ in
                    try dbPool.write { _ in }
                }
            }
        }
    }

    /// The nestings GRDB allows: across the writer and the readers.
    @Test func readsAndWritesNest() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let dbPool = try DatabasePool(path: directory.path())
        for outer in [Access.read, .unsafeRead] {
            for inner in [Access.write, .writeWithoutTransaction, .writeInTransaction] {
                try outer.run(dbPool) { try inner.run(dbPool) }
            }
        }
        for outer in [Access.write, .writeWithoutTransaction, .writeInTransaction] {
            for inner in [Access.read, .unsafeRead] {
                try outer.run(dbPool) { try inner.run(dbPool) }
            }
        }
        let value = try dbPool.write { _ in try dbPool.read { _ in dbPool.unsafeReentrantWrite { _ in 42 } } }
        #expect(value == 42)
    }

    /// `unsafeReentrantRead` runs on the connection of the enclosing access
    /// (the reader of a read, the writer of a write), and on a reader
    /// outside of any.
    @Test func unsafeReentrantReadUsesTheEnclosingConnection() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let dbPool = try DatabasePool(path: directory.path())
        #expect(try dbPool.unsafeReentrantRead { $0.description } == "GRDBLite.DatabasePool.reader.1")
        try dbPool.write { writer in
            try dbPool.unsafeReentrantRead { #expect($0 === writer) }
            try dbPool.read { reader in
                try dbPool.unsafeReentrantRead { #expect($0 === reader) }
            }
        }
        try dbPool.read { reader in
            try dbPool.unsafeReentrantRead { #expect($0 === reader) }
            // Inside a write inside a read: the reader, as in GRDB.
            try dbPool.writeWithoutTransaction { _ in
                try dbPool.unsafeReentrantRead { #expect($0 === reader) }
            }
        }
        // unsafeReentrantWrite runs on the writer, from anywhere.
        try dbPool.read { _ in
            let description = dbPool.unsafeReentrantWrite { $0.description }
            #expect(description == "GRDBLite.DatabasePool.writer")
        }
    }
}
