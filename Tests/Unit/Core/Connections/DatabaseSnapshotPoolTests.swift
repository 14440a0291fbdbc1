import Dispatch
import Foundation
@_spi(GRDBLite) @testable import GRDBLite
import Testing
import TestSupport

/// `DatabaseSnapshotPool` needs `sqlite3_snapshot_*`, which GRDBLite looks
/// up when it runs. With Debian's SQLite, which lacks them, every way of
/// making one throws a clear error, and nothing else breaks; with a SQLite
/// that has them, it behaves as GRDB's DatabaseSnapshotPoolTests say.
@Suite struct DatabaseSnapshotPoolTests {
    private static let isSupported = SnapshotAPI.linked != nil

    private static func withCounter(_ body: (DatabasePool) throws -> Void) throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let dbPool = try DatabasePool(path: directory.path())
        try dbPool.write { try $0.execute(sql: "CREATE TABLE counter (id INTEGER PRIMARY KEY)") }
        try dbPool.write(Self.increment)
        try body(dbPool)
    }

    @Sendable private static func increment(_ db: Database) throws {
        try db.execute(sql: "INSERT INTO counter DEFAULT VALUES")
    }

    @Sendable private static func value(_ db: Database) throws -> Int {
        try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM counter")!
    }

    /// The ways of making a snapshot pool, each at a state of one row.
    enum Origin: String, CaseIterable, Sendable, CustomTestStringConvertible {
        case makeSnapshotPool, read, unsafeRead, writeWithoutTransaction, path
        var testDescription: String { rawValue }

        func make(_ dbPool: DatabasePool) throws -> DatabaseSnapshotPool {
            switch self {
            case .makeSnapshotPool: return try dbPool.makeSnapshotPool()
            case .read: return try dbPool.read { try DatabaseSnapshotPool($0) }
            case .unsafeRead: return try dbPool.unsafeRead { try DatabaseSnapshotPool($0) }
            case .writeWithoutTransaction: return try dbPool.writeWithoutTransaction { try DatabaseSnapshotPool($0) }
            case .path: return try DatabaseSnapshotPool(path: dbPool.path)
            }
        }
    }

    @Test(
        .enabled(if: !isSupported, "the linked SQLite has no sqlite3_snapshot_* functions"), arguments: Origin.allCases)
    func withoutSQLiteSnapshotsMakingOneIsAnError(origin: Origin) throws {
        try Self.withCounter { dbPool in
            let error = #expect(throws: DatabaseError.self) { try origin.make(dbPool) }
            #expect(error?.resultCode == .SQLITE_ERROR)
            #expect(
                error?.message?.contains("built without SQLITE_ENABLE_SNAPSHOT") == true, "\(String(describing: error))"
            )
            #expect(error?.message?.contains(Database.sqliteLibVersion) == true)
            // The pool is unharmed.
            try dbPool.write(Self.increment)
            #expect(try dbPool.read(Self.value) == 2)
        }
    }

    @Test(.enabled(if: isSupported, "the linked SQLite has sqlite3_snapshot_* functions"), arguments: Origin.allCases)
    func aSnapshotPoolSeesItsState(origin: Origin) async throws {
        try Self.withCounter { dbPool in
            let snapshot = try origin.make(dbPool)
            try dbPool.write(Self.increment)
            #expect(try dbPool.read(Self.value) == 2)
            #expect(try snapshot.read(Self.value) == 1)
            #expect(try snapshot.unsafeRead(Self.value) == 1)
            #expect(try snapshot.unsafeReentrantRead { _ in try snapshot.unsafeReentrantRead(Self.value) } == 1)
            #expect(try dbPool.read(Self.value) == 2)
        }
    }

    @Test(.enabled(if: isSupported, "the linked SQLite has sqlite3_snapshot_* functions"))
    func aSnapshotPoolReadsInParallel() async throws {
        try await onThread {
            try Self.withCounter { dbPool in
                let snapshot = try dbPool.makeSnapshotPool()
                try dbPool.write(Self.increment)
                let s1 = DispatchSemaphore(value: 0)
                let s2 = DispatchSemaphore(value: 0)
                try runOnThreads([
                    {
                        try snapshot.read { db in
                            try check(try Self.value(db) == 1, "1"); s1.signal(); try s2.waitOrThrow()
                        }
                    },
                    {
                        try s1.waitOrThrow();
                        try snapshot.read { db in
                            try check(try Self.value(db) == 1, "1"); s2.signal()
                        }
                    }
                ])
            }
        }
    }

    /// A closure that ends the transaction of its reader doesn't lose the
    /// snapshot: the reader is discarded.
    @Test(
        .enabled(if: isSupported, "the linked SQLite has sqlite3_snapshot_* functions"),
        arguments: [Database.CheckpointMode.passive, .truncate])
    func aDiscardedTransactionKeepsTheSnapshot(mode: Database.CheckpointMode) throws {
        try Self.withCounter { dbPool in
            let snapshot = try dbPool.makeSnapshotPool()
            try dbPool.write(Self.increment)
            try snapshot.read { db in
                #expect(try Self.value(db) == 1)
                try db.commit()
                #expect(try Self.value(db) == 2)
            }
            _ = try? dbPool.writeWithoutTransaction { try $0.checkpoint(mode) }
            #expect(try snapshot.read(Self.value) == 1)
        }
    }

    @Test(.enabled(if: isSupported, "the linked SQLite has sqlite3_snapshot_* functions"))
    func anUncommittedWriteCannotMakeASnapshotPool() throws {
        try Self.withCounter { dbPool in
            let error = #expect(throws: DatabaseError.self) {
                try dbPool.write { db in
                    try Self.increment(db)
                    _ = try DatabaseSnapshotPool(db)
                }
            }
            #expect(error?.resultCode == .SQLITE_ERROR)
        }
    }
}
