import Foundation
import Testing
import GRDBLite
import TestSupport

/// Suspension through ``Database/suspendNotification``: the statements
/// that would lock the database fail with `SQLITE_ABORT`, reads in WAL
/// mode still run, and ``Database/resumeNotification`` ends it. Each test
/// uses a database of its own; the notifications reach every observing
/// connection, so the tests of this suite run one at a time.
@Suite(.serialized) struct DatabaseSuspensionTests {
    private static func suspended<T>(_ body: () throws -> T) rethrows -> T {
        NotificationCenter.default.post(name: Database.suspendNotification, object: nil)
        defer { NotificationCenter.default.post(name: Database.resumeNotification, object: nil) }
        return try body()
    }

    private static func configuration(wal: Bool) -> Configuration {
        var configuration = Configuration()
        configuration.observesSuspensionNotifications = true
        configuration.journalMode = wal ? .wal : .default
        return configuration
    }

    @Test func writesFailWhileSuspendedAndRunOnceResumed() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let dbQueue = try DatabaseQueue(path: directory.path(), configuration: Self.configuration(wal: false))
        try dbQueue.write { try $0.execute(sql: "CREATE TABLE t (a)") }
        Self.suspended {
            let error = coreThrownError { try dbQueue.write { try $0.execute(sql: "INSERT INTO t VALUES (1)") } }
            let databaseError = error as? DatabaseError
            #expect(databaseError?.resultCode == .SQLITE_ABORT)
            #expect(databaseError?.message == "Database is suspended")
            #expect(databaseError?.sql == "BEGIN IMMEDIATE TRANSACTION")
            #expect(databaseError?.isInterruptionError == true)
            // Outside of WAL mode, reads lock the file too.
            #expect(throws: DatabaseError.self) { try dbQueue.read { try Int.fetchOne($0, sql: "SELECT 1 FROM t") } }
        }
        try dbQueue.write { try $0.execute(sql: "INSERT INTO t VALUES (1)") }
        #expect(try dbQueue.read { try Int.fetchOne($0, sql: "SELECT COUNT(*) FROM t") } == 1)
    }

    @Test func readsRunInWALMode() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let dbPool = try DatabasePool(path: directory.path(), configuration: Self.configuration(wal: true))
        try dbPool.write { try $0.execute(sql: "CREATE TABLE t (a); INSERT INTO t VALUES (1)") }
        try Self.suspended { () throws in
            #expect(try dbPool.read { try Int.fetchOne($0, sql: "SELECT a FROM t") } == 1)
            #expect(throws: DatabaseError.self) { try dbPool.write { try $0.execute(sql: "DELETE FROM t") } }
        }
        try dbPool.write { try $0.execute(sql: "DELETE FROM t") }
    }

    @Test func aSuspensionRollsBackTheTransaction() throws {
        let dbQueue = try DatabaseQueue(configuration: Self.configuration(wal: false))
        try dbQueue.inDatabase { db throws in
            try db.execute(sql: "CREATE TABLE t (a)")
            try db.beginTransaction()
            try db.execute(sql: "INSERT INTO t VALUES (1)")
            Self.suspended {
                #expect(throws: DatabaseError.self) { try db.execute(sql: "INSERT INTO t VALUES (2)") }
                #expect(!db.isInsideTransaction)
            }
            #expect(try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM t") == 0)
        }
    }

    @Test func connectionsThatDontObserveAreNotSuspended() throws {
        let dbQueue = try DatabaseQueue()
        try Self.suspended { () throws in
            try dbQueue.write { try $0.execute(sql: "CREATE TABLE t (a); INSERT INTO t VALUES (1)") }
        }
        #expect(Configuration().observesSuspensionNotifications == false)
    }
}
