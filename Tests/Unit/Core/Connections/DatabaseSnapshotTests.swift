import Dispatch
import Foundation
@testable import GRDBLite
import Testing
import TestSupport

/// `DatabaseSnapshot`: one state of the database, for as long as the
/// snapshot lives (after GRDB's DatabaseSnapshotTests).
@Suite struct DatabaseSnapshotTests {
    /// A pool with a counter: the number of rows of `counter`.
    private static func withCounter(_ body: (DatabasePool) throws -> Void) throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let dbPool = try DatabasePool(path: directory.path())
        try dbPool.write { try $0.execute(sql: "CREATE TABLE counter (id INTEGER PRIMARY KEY)") }
        try body(dbPool)
    }

    @Sendable private static func increment(_ db: Database) throws {
        try db.execute(sql: "INSERT INTO counter DEFAULT VALUES")
    }

    @Sendable private static func value(_ db: Database) throws -> Int {
        try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM counter")!
    }

    // MARK: - Creation

    @Test func aSnapshotSeesTheLastCommit() throws {
        try Self.withCounter { dbPool in
            try dbPool.write(Self.increment)
            let snapshot = try dbPool.makeSnapshot()
            try dbPool.write(Self.increment)
            #expect(try snapshot.read(Self.value) == 1)
            #expect(try dbPool.read(Self.value) == 2)
            #expect(try snapshot.read(Self.value) == 1)
        }
    }

    /// Made from the writer, outside of a transaction, a snapshot sees the
    /// writer's last commit and none of its later changes.
    @Test func aSnapshotMadeFromTheWriter() throws {
        try Self.withCounter { dbPool in
            try dbPool.writeWithoutTransaction { db in
                try Self.increment(db)
                let snapshot = try dbPool.makeSnapshot()
                try Self.increment(db)
                #expect(try Self.value(db) == 2)
                #expect(try snapshot.read(Self.value) == 1)
                #expect(try dbPool.read(Self.value) == 2)
            }
        }
    }

    @Test func aSnapshotMadeFromAReader() throws {
        try Self.withCounter { dbPool in
            let fromRead = try dbPool.read { db in
                #expect(db.isInsideTransaction)
                return try dbPool.makeSnapshot()
            }
            let fromUnsafeRead = try dbPool.unsafeRead { _ in try dbPool.makeSnapshot() }
            try dbPool.write(Self.increment)
            #expect(try fromRead.read(Self.value) == 0)
            #expect(try fromUnsafeRead.read(Self.value) == 0)
        }
    }

    /// A transaction observer makes a snapshot after each commit: the
    /// commit is over, so the snapshot sees it.
    @Test func aSnapshotMadeAfterACommit() throws {
        final class Observer: TransactionObserver, @unchecked Sendable {
            let dbPool: DatabasePool
            var snapshot: DatabaseSnapshot
            init(dbPool: DatabasePool) throws {
                self.dbPool = dbPool
                snapshot = try dbPool.makeSnapshot()
            }
            func observes(eventsOfKind eventKind: DatabaseEventKind) -> Bool { false }
            func databaseDidChange(with event: DatabaseEvent) { }
            func databaseDidCommit(_ db: Database) { snapshot = try! dbPool.makeSnapshot() }
            func databaseDidRollback(_ db: Database) { }
        }
        try Self.withCounter { dbPool in
            let observer = try Observer(dbPool: dbPool)
            dbPool.add(transactionObserver: observer)
            #expect(try observer.snapshot.read(Self.value) == 0)
            try dbPool.write(Self.increment)
            #expect(try observer.snapshot.read(Self.value) == 1)
        }
    }

    @Test func makeSnapshotInsideAWriteTransactionTraps() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let directory = try TemporaryDirectory()
            let dbPool = try DatabasePool(path: directory.path())
            try dbPool.write { _ in _ = try dbPool.makeSnapshot() }
        }
        let stderr = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
        #expect(stderr.contains("makeSnapshot() must not be called from inside a transaction"))
    }

    // MARK: - Behaviour

    @Test func aSnapshotIsReadOnly() throws {
        try Self.withCounter { dbPool in
            let snapshot = try dbPool.makeSnapshot()
            let error = #expect(throws: DatabaseError.self) { try snapshot.read(Self.increment) }
            #expect(error?.resultCode == .SQLITE_READONLY)
            #expect(snapshot.configuration.readonly)
            #expect(snapshot.path == dbPool.path)
        }
    }

    @Test func everyAccessSeesTheSnapshot() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let dbPool = try DatabasePool(path: directory.path())
        try await dbPool.write { try $0.execute(sql: "CREATE TABLE counter (id INTEGER PRIMARY KEY)") }
        let snapshot = try dbPool.makeSnapshot()
        try await dbPool.write(Self.increment)
        #expect(try await snapshot.read(Self.value) == 0)
        #expect(try await snapshot.unsafeRead(Self.value) == 0)
        #expect(try blocking { try snapshot.unsafeRead(Self.value) } == 0)
        #expect(try blocking { try snapshot.reentrantRead { _ in try snapshot.reentrantRead(Self.value) } } == 0)
        for access in [snapshot.asyncRead, snapshot.asyncUnsafeRead] {
            let value = try await withCheckedThrowingContinuation { continuation in
                access { dbResult in continuation.resume(with: dbResult.flatMap { db in Result { try Self.value(db) } })
                }
            }
            #expect(value == 0)
        }
        // Through `some DatabaseReader`.
        func count(_ reader: some DatabaseReader) throws -> Int { try reader.read(Self.value) }
        #expect(try count(snapshot) == 0)
        #expect(try count(dbPool) == 1)
        // Unsafe reads through the protocols: the snapshot's state.
        func unsafeCounts(_ reader: some DatabaseReader) async throws -> [Int] {
            let asyncValue = try await reader.unsafeRead(Self.value)
            let syncValue = try blocking { try reader.unsafeRead(Self.value) }
            let scheduled = try await withCheckedThrowingContinuation { continuation in
                reader.asyncUnsafeRead { dbResult in
                    continuation.resume(with: dbResult.flatMap { db in Result { try Self.value(db) } })
                }
            }
            return [asyncValue, syncValue, scheduled]
        }
        #expect(try await unsafeCounts(snapshot) == [0, 0, 0])
        let anyReader: any DatabaseSnapshotReader = snapshot
        #expect(try await anyReader.unsafeRead(Self.value) == 0)
        #expect(try await unsafeCounts(dbPool) == [1, 1, 1])
    }

    /// An async unsafe read of a snapshot, through `some DatabaseReader`,
    /// is an async access: a cancelled task doesn't run its closure (GRDB's
    /// DatabaseReaderTests).
    @Test func cancelledUnsafeReadThroughTheProtocolDoesNotRun() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let dbPool = try DatabasePool(path: directory.path())
        let snapshot = try dbPool.makeSnapshot()
        func unsafeRead(_ reader: some DatabaseReader, ran: LockedValue<Bool>) async throws {
            try await reader.unsafeRead { _ in ran.update { $0 = true } }
        }
        let ran = LockedValue(false)
        let task = Task {
            withUnsafeCurrentTask { $0!.cancel() }
            try await unsafeRead(snapshot, ran: ran)
        }
        await #expect(throws: CancellationError.self) { try await task.value }
        #expect(!ran.value)
    }

    @Test func aSnapshotHasThePoolsFunctionsAndCollations() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        var configuration = Configuration()
        configuration.prepareDatabase { db in
            db.add(function: DatabaseFunction("foo", argumentCount: 0, pure: true) { _ in "foo" })
            db.add(collation: DatabaseCollation("reversed") { a, b in
                a == b ? .orderedSame : (a < b ? .orderedDescending : .orderedAscending)
            })
        }
        let dbPool = try DatabasePool(path: directory.path(), configuration: configuration)
        try dbPool.write { try $0.execute(sql: "CREATE TABLE t (s); INSERT INTO t VALUES ('a'), ('b'), ('c')") }
        let snapshot = try dbPool.makeSnapshot()
        #expect(try snapshot.read { try String.fetchOne($0, sql: "SELECT foo()") } == "foo")
        #expect(
            try snapshot.read { try String.fetchAll($0, sql: "SELECT s FROM t ORDER BY s COLLATE reversed") } == [
                "c", "b", "a"
            ])
    }

    /// Two threads: the snapshot, made before the writes, never sees them
    /// (testReadBlockIsolationStartingWithRead).
    @Test func aSnapshotIsIsolatedFromConcurrentWrites() async throws {
        try await onThread {
            let directory = try TemporaryDirectory()
            defer { directory.remove() }
            let dbPool = try DatabasePool(path: directory.path())
            try dbPool.write { try $0.execute(sql: "CREATE TABLE counter (id INTEGER PRIMARY KEY)") }
            let s1 = DispatchSemaphore(value: 0)
            let s2 = DispatchSemaphore(value: 0)
            let s3 = DispatchSemaphore(value: 0)
            let s4 = DispatchSemaphore(value: 0)
            try runOnThreads([
                {
                    let snapshot = try dbPool.makeSnapshot()
                    try snapshot.read { db in
                        s1.signal()
                        try s2.waitOrThrow()
                        try check(try Self.value(db) == 0, "first write unseen")
                        s3.signal()
                        try s4.waitOrThrow()
                        try check(try Self.value(db) == 0, "second write unseen")
                    }
                    try check(try snapshot.read(Self.value) == 0, "still unseen")
                },
                {
                    try s1.waitOrThrow()
                    try dbPool.writeWithoutTransaction { db in
                        try Self.increment(db)
                        s2.signal()
                        try s3.waitOrThrow()
                        try Self.increment(db)
                        s4.signal()
                    }
                },
            ])
        }
    }

    @Test func labels() throws {
        try Self.withCounter { dbPool in
            let first = try dbPool.makeSnapshot()
            let second = try dbPool.makeSnapshot()
            #expect(try first.read { $0.description } == "GRDBLite.DatabasePool.snapshot.1")
            #expect(try second.read { $0.description } == "GRDBLite.DatabasePool.snapshot.2")
            #expect(try first.read { $0.configuration.label } == nil)
        }
    }

    /// Checkpoints, automatic or not, of any mode, don't change what a
    /// snapshot sees.
    @Test(arguments: [Database.CheckpointMode.passive, .full, .restart, .truncate])
    func checkpointsDoNotInvalidateASnapshot(mode: Database.CheckpointMode) throws {
        try Self.withCounter { dbPool in
            try dbPool.write(Self.increment)
            let snapshot = try dbPool.makeSnapshot()
            // The snapshot's read transaction may stop the checkpoint.
            _ = try? dbPool.writeWithoutTransaction { try $0.checkpoint(mode) }
            #expect(try snapshot.read(Self.value) == 1)
            try dbPool.writeWithoutTransaction { db in
                // Enough pages for an automatic checkpoint.
                for _ in 0..<1000 { try Self.increment(db) }
            }
            #expect(try snapshot.read(Self.value) == 1)
            #expect(try dbPool.read(Self.value) == 1001)
        }
    }

    @Test func theSchemaCacheLastsAsLongAsTheSnapshot() throws {
        try Self.withCounter { dbPool in
            let snapshot = try dbPool.makeSnapshot()
            try snapshot.read { db in
                #expect(db.schemaDependentCaches.isEmpty)
                _ = try db.primaryKey("counter")
                #expect(!db.schemaDependentCaches.isEmpty)
            }
            try snapshot.read { db in #expect(!db.schemaDependentCaches.isEmpty) }
        }
    }

    /// A closure that ends the snapshot's transaction loses the snapshot:
    /// later reads throw instead of reading another state.
    @Test func aLostSnapshotIsAnError() throws {
        try Self.withCounter { dbPool in
            let snapshot = try dbPool.makeSnapshot()
            try dbPool.write(Self.increment)
            try snapshot.read { db in try db.commit() }
            let error = #expect(throws: DatabaseError.self) { try snapshot.read(Self.value) }
            #expect(error?.resultCode == .SQLITE_ABORT)
            #expect(error?.message == "Snapshot is lost.")
        }
    }

    // MARK: - Closing

    @Test func close() async throws {
        try Self.withCounter { dbPool in
            let snapshot = try dbPool.makeSnapshot()
            _ = try snapshot.read { try $0.cachedStatement(sql: "SELECT * FROM counter") }
            try snapshot.close()
            let error = #expect(throws: DatabaseError.self) { try snapshot.read(Self.value) }
            #expect(error?.resultCode == .SQLITE_MISUSE)
            #expect(error?.message == "Connection is closed")
            try snapshot.close()
            snapshot.interrupt()
            // The pool goes on.
            try dbPool.write(Self.increment)
            #expect(try dbPool.read(Self.value) == 1)
        }
    }

    /// As GRDB: `unsafeRead` only rethrows; after `close()` it runs its
    /// closure, whose statements throw `SQLITE_MISUSE`.
    @Test func unsafeReadAfterCloseRunsOnAClosedConnection() throws {
        try Self.withCounter { dbPool in
            let snapshot = try dbPool.makeSnapshot()
            #expect(snapshot.unsafeRead { $0.description } == "GRDBLite.DatabasePool.snapshot.1")
            try snapshot.close()
            let error = #expect(throws: DatabaseError.self) { try snapshot.unsafeRead(Self.value) }
            #expect(error?.resultCode == .SQLITE_MISUSE)
        }
    }

    /// As GRDB: a statement still alive prevents closing (`SQLITE_BUSY`),
    /// and the snapshot stays open, on the same state.
    @Test func closeFailsWhileAStatementIsAlive() throws {
        try Self.withCounter { dbPool in
            let snapshot = try dbPool.makeSnapshot()
            try dbPool.write(Self.increment)
            do {
                let statement = try snapshot.read { db in try db.makeStatement(sql: "SELECT * FROM sqlite_master") }
                withExtendedLifetime(statement) {
                    let error = #expect(throws: DatabaseError.self) { try snapshot.close() }
                    #expect(error?.resultCode == .SQLITE_BUSY)
                }
            }
            #expect(try snapshot.read(Self.value) == 0)
            try snapshot.close()
        }
    }

    @Test func readInsideReadTraps() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let directory = try TemporaryDirectory()
            let snapshot = try DatabasePool(path: directory.path()).makeSnapshot()
            try snapshot.read { _ in try snapshot.read { _ in } }
        }
        let stderr = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
        #expect(stderr.contains("Database methods are not reentrant: GRDBLite.DatabasePool.snapshot.1"))
    }
}
