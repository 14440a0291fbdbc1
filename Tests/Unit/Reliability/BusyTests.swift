import Dispatch
import Foundation
@_spi(GRDBLite) import GRDBLite
import Testing
import TestSupport

/// Two queues on one file: a conflicting write fails with `SQLITE_BUSY`
/// in the immediate busy mode, waits and succeeds with a timeout or a
/// retrying callback; no committed row is lost, and a failed write leaves
/// nothing behind. (Tests/Reliability runs the same with two processes.)
@Suite struct BusyTests {
    enum Mode: String, CaseIterable, Sendable { case rollback, wal }

    private func makeQueue(_ path: String, _ mode: Mode, busyMode: Database.BusyMode = .immediateError,
                           trace: (@Sendable (String) -> Void)? = nil) throws -> DatabaseQueue {
        var config = Configuration()
        config.journalMode = mode == .wal ? .wal : .default
        config.busyMode = busyMode
        config.trace = trace
        return try DatabaseQueue(path: path, configuration: config)
    }

    private func names(_ dbQueue: DatabaseQueue) throws -> [String] {
        try dbQueue.read { try String.fetchAll($0, sql: "SELECT who FROM t ORDER BY rowid") }
    }

    @Test(arguments: Mode.allCases)
    func immediateModeFailsWithSQLITE_BUSY(mode: Mode) throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.path("busy.sqlite")
        let holder = try makeQueue(path, mode)
        let other = try makeQueue(path, mode)
        try holder.write { try $0.execute(sql: "CREATE TABLE t (who TEXT NOT NULL)") }

        try holder.write { db in
            try db.execute(sql: "INSERT INTO t (who) VALUES ('holder')")
            // The other queue can't start a write transaction...
            let error = databaseError {
                try other.write { try $0.execute(sql: "INSERT INTO t (who) VALUES ('other')") }
            }
            #expect(error?.resultCode == .SQLITE_BUSY)
            #expect(error?.message == "database is locked")
            #expect(error?.sql == "BEGIN IMMEDIATE TRANSACTION")
            // ...nor write in autocommit mode...
            let autocommitError = databaseError {
                try other.writeWithoutTransaction { try $0.execute(sql: "INSERT INTO t (who) VALUES ('other')") }
            }
            #expect(autocommitError?.resultCode == .SQLITE_BUSY)
            #expect(autocommitError?.sql == "INSERT INTO t (who) VALUES ('other')")
            // ...but it reads the last committed state.
            #expect(try other.read { try Int.fetchOne($0, sql: "SELECT COUNT(*) FROM t") } == 0)
            #expect(other.inDatabase { $0.isInsideTransaction } == false)
        }
        // Nothing lost, nothing half-written; the other queue writes now.
        try other.write { try $0.execute(sql: "INSERT INTO t (who) VALUES ('other')") }
        #expect(try names(holder) == ["holder", "other"])
        #expect(try names(other) == ["holder", "other"])
    }

    /// The waiting queue's trace tells the holder to commit when the
    /// waiting `BEGIN IMMEDIATE` starts: the write waits, then succeeds.
    /// The holder commits 50 ms after that signal, so the write can only
    /// succeed if it waited at least that long (a lower bound that holds
    /// on any machine, not a guess at an order).
    ///
    /// The holder waits too: in rollback journal mode, its COMMIT needs an
    /// exclusive lock, and the waiter holds a shared lock for an instant
    /// each time it tries to begin (without a timeout, that COMMIT would
    /// fail with SQLITE_BUSY, and roll back, once in a while).
    @Test(arguments: Mode.allCases)
    func timeoutModeWaitsAndSucceeds(mode: Mode) throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.path("busy.sqlite")
        let holder = try makeQueue(path, mode, busyMode: .timeout(60))
        try holder.write { try $0.execute(sql: "CREATE TABLE t (who TEXT NOT NULL)") }
        let locked = DispatchSemaphore(value: 0)
        let release = DispatchSemaphore(value: 0)
        let waiter = try makeQueue(path, mode, busyMode: .timeout(60)) { sql in
            if sql == "BEGIN IMMEDIATE TRANSACTION" { release.signal() }
        }

        let holderDone = DispatchSemaphore(value: 0)
        let holderError = Shared<(any Error)?>(nil)
        DispatchQueue.global().async {
            do {
                try holder.write { db in
                    try db.execute(sql: "INSERT INTO t (who) VALUES ('holder')")
                    locked.signal()
                    release.wait()
                    Thread.sleep(forTimeInterval: 0.05)
                }
            } catch {
                holderError.update { $0 = error }
            }
            holderDone.signal()
        }
        locked.wait()
        let start = ContinuousClock.now
        try waiter.write { try $0.execute(sql: "INSERT INTO t (who) VALUES ('waiter')") }
        #expect(ContinuousClock.now - start >= .milliseconds(50), "the write did not wait for the lock")
        holderDone.wait()
        #expect(holderError.value == nil)
        #expect(try names(waiter) == ["holder", "waiter"])
    }

    /// A busy callback that lets the holder commit, then asks to retry:
    /// the write waited (the callback ran) and succeeded.
    @Test(arguments: Mode.allCases)
    func callbackModeRetriesAndSucceeds(mode: Mode) throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.path("busy.sqlite")
        let holder = try makeQueue(path, mode)
        try holder.write { try $0.execute(sql: "CREATE TABLE t (who TEXT NOT NULL)") }
        let locked = DispatchSemaphore(value: 0)
        let release = DispatchSemaphore(value: 0)
        let committed = DispatchSemaphore(value: 0)
        let tries = Shared<[Int]>([])
        let waiter = try makeQueue(path, mode, busyMode: .callback { numberOfTries in
            tries.update { $0.append(numberOfTries) }
            if numberOfTries == 0 {
                release.signal()
                committed.wait()
            }
            return true
        })

        DispatchQueue.global().async {
            try? holder.write { db in
                try db.execute(sql: "INSERT INTO t (who) VALUES ('holder')")
                locked.signal()
                release.wait()
            }
            committed.signal()
        }
        locked.wait()
        try waiter.write { try $0.execute(sql: "INSERT INTO t (who) VALUES ('waiter')") }
        #expect(tries.value.first == 0)
        #expect(try names(waiter) == ["holder", "waiter"])
    }

    @Test(arguments: Mode.allCases)
    func callbackThatGivesUpFailsWithSQLITE_BUSY(mode: Mode) throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.path("busy.sqlite")
        let holder = try makeQueue(path, mode)
        try holder.write { try $0.execute(sql: "CREATE TABLE t (who TEXT NOT NULL)") }
        let tries = Shared(0)
        let waiter = try makeQueue(path, mode, busyMode: .callback { numberOfTries in
            tries.update { $0 += 1 }
            return numberOfTries < 3
        })
        try holder.write { db in
            try db.execute(sql: "INSERT INTO t (who) VALUES ('holder')")
            let error = databaseError {
                try waiter.write { try $0.execute(sql: "INSERT INTO t (who) VALUES ('waiter')") }
            }
            #expect(error?.resultCode == .SQLITE_BUSY)
        }
        #expect(tries.value == 4)
        #expect(try names(waiter) == ["holder"])
    }

    /// WAL: a deferred transaction that read before another connection
    /// committed can't write (`SQLITE_BUSY_SNAPSHOT`, even with a timeout);
    /// it is rolled back as a whole.
    @Test func staleSnapshotCantWrite() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.path("busy.sqlite")
        let first = try makeQueue(path, .wal, busyMode: .timeout(60))
        let second = try makeQueue(path, .wal, busyMode: .timeout(60))
        try first.write { try $0.execute(sql: "CREATE TABLE t (who TEXT NOT NULL)") }
        let error = databaseError {
            try first.inTransaction(.deferred) { db in
                #expect(try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM t") == 0)
                try second.write { try $0.execute(sql: "INSERT INTO t (who) VALUES ('second')") }
                try db.execute(sql: "INSERT INTO t (who) VALUES ('first')")
                return .commit
            }
        }
        #expect(error?.extendedResultCode == .SQLITE_BUSY_SNAPSHOT)
        #expect(error?.sql == "INSERT INTO t (who) VALUES ('first')")
        #expect(first.inDatabase { $0.isInsideTransaction } == false)
        #expect(try names(first) == ["second"])
        try first.write { try $0.execute(sql: "INSERT INTO t (who) VALUES ('first')") }
        #expect(try names(second) == ["second", "first"])
    }
}
