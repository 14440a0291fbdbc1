import CFaultInjection
import Foundation
import GRDBLite
import Testing
import TestSupport

/// A `COMMIT` that fails leaves no transaction open, the database as it
/// was before the transaction, and the connection usable, as GRDB's
/// `inTransaction` does (it rolls back when the commit throws):
///
/// - `SQLITE_BUSY` in rollback journal mode: another connection holds a
///   SHARED lock, so COMMIT can't take the EXCLUSIVE one. SQLite leaves
///   the transaction open (OP_AutoCommit restores autocommit off when
///   sqlite3VdbeHalt returns SQLITE_BUSY): GRDBLite must roll it back.
/// - `SQLITE_CONSTRAINT_FOREIGNKEY` from a deferred foreign key: SQLite
///   leaves the transaction open too.
/// - An I/O error or a full disk at each I/O operation of the COMMIT (the
///   fault VFS, armed from the last statement of the transaction), in
///   rollback journal and WAL modes: SQLite rolls back by itself
///   (sqlite3VdbeHalt calls sqlite3RollbackAll after a failed commit).
///   One exception, SQLite's: a failed unlock after the commit point (the
///   journal is gone, the transaction durable) is COMMIT's error
///   (SQLITE_IOERR_UNLOCK) in rollback journal mode: the data is then
///   committed, and GRDBLite has nothing to roll back.
///
/// The connections allow unsafe transactions: a transaction left open
/// would otherwise trap at the end of the access, which ends the test
/// process; here it fails the expectations that name it.
///
/// An extension of `IOFaultInjectionTests`: the fault VFS is global, and
/// that suite runs one test at a time.
extension IOFaultInjectionTests {
    private static func commitConfiguration(wal: Bool) -> Configuration {
        var config = Configuration()
        config.journalMode = wal ? .wal : .default
        config.allowsUnsafeTransactions = true
        return config
    }

    private static func rows(_ db: Database) throws -> [Int] {
        try Int.fetchAll(db, sql: "SELECT id FROM t ORDER BY id")
    }

    /// A table `t` with rows 1...3.
    private static func makeDatabase(at path: String, wal: Bool) throws {
        let dbQueue = try DatabaseQueue(path: path, configuration: commitConfiguration(wal: wal))
        try dbQueue.write { db in
            try db.execute(sql: "CREATE TABLE t (id INTEGER PRIMARY KEY, payload BLOB)")
            try db.execute(sql: """
                CREATE TABLE child (id INTEGER PRIMARY KEY, parent INTEGER REFERENCES t(id) DEFERRABLE INITIALLY DEFERRED)
                """)
            for id in 1...3 { try db.execute(sql: "INSERT INTO t (id) VALUES (?)", arguments: [id]) }
        }
        try dbQueue.close()
    }

    /// After a failed commit: no transaction is open, the data is as
    /// before, and the connection writes again.
    private static func expectRolledBack(_ dbQueue: DatabaseQueue, _ context: String) throws {
        #expect(dbQueue.inDatabase { $0.isInsideTransaction } == false, "\(context): a transaction is left open")
        #expect(try dbQueue.read(rows) == [1, 2, 3], "\(context): the failed transaction is visible")
        try dbQueue.write { db in try db.execute(sql: "INSERT INTO t (id) VALUES (4)") }
        #expect(try dbQueue.read(rows) == [1, 2, 3, 4], "\(context)")
    }

    @Test func commitBusyInRollbackJournalModeRollsBack() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.path("busy.sqlite")
        try Self.makeDatabase(at: path, wal: false)
        let dbQueue = try DatabaseQueue(path: path, configuration: Self.commitConfiguration(wal: false))

        // The other connection reads in a transaction: it keeps its SHARED
        // lock until it ends.
        var reader: OpaquePointer?
        try #require(sqlite3_open_v2(path, &reader, SQLITE_OPEN_READWRITE, nil) == SQLITE_OK)
        defer { sqlite3_close(reader) }
        try #require(sqlite3_exec(reader, "BEGIN DEFERRED; SELECT COUNT(*) FROM t", nil, nil, nil) == SQLITE_OK)

        let error = #expect(throws: DatabaseError.self) {
            try dbQueue.write { db in
                try db.execute(sql: "INSERT INTO t (id, payload) VALUES (10, randomblob(5000))")
                try db.execute(sql: "DELETE FROM t WHERE id = 2")
            }
        }
        #expect(error?.resultCode == .SQLITE_BUSY, "\(String(describing: error))")
        #expect(error?.sql == "COMMIT TRANSACTION", "\(String(describing: error))")
        #expect(dbQueue.inDatabase { $0.isInsideTransaction } == false, "the failed COMMIT left its transaction open")
        // The reader still holds its lock: the queue reads, and can't write.
        #expect(try dbQueue.read(Self.rows) == [1, 2, 3])
        #expect(sqlite3_exec(reader, "COMMIT", nil, nil, nil) == SQLITE_OK)
        try Self.expectRolledBack(dbQueue, "busy commit")
        try dbQueue.close()
        #expect(try DatabaseQueue(path: path).read(Self.rows) == [1, 2, 3, 4])
    }

    @Test(arguments: [false, true])
    func commitFailingADeferredForeignKeyRollsBack(wal: Bool) throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.path("fk.sqlite")
        try Self.makeDatabase(at: path, wal: wal)
        var config = Self.commitConfiguration(wal: wal)
        config.foreignKeysEnabled = true
        let dbQueue = try DatabaseQueue(path: path, configuration: config)
        let error = #expect(throws: DatabaseError.self) {
            try dbQueue.write { db in
                try db.execute(sql: "INSERT INTO t (id) VALUES (10)")
                try db.execute(sql: "INSERT INTO child (parent) VALUES (99)")
            }
        }
        #expect(error?.extendedResultCode == .SQLITE_CONSTRAINT_FOREIGNKEY, "\(String(describing: error))")
        try Self.expectRolledBack(dbQueue, "foreign key at commit, wal: \(wal)")
        try dbQueue.close()
    }

    struct CommitFaultScenario: Sendable, CustomTestStringConvertible {
        var wal: Bool
        var diskFull: Bool
        var testDescription: String { "\(wal ? "wal" : "rollback"), \(diskFull ? "disk full" : "I/O error")" }
    }

    static let commitFaultScenarios = [false, true].flatMap { wal in
        [false, true].map { CommitFaultScenario(wal: wal, diskFull: $0) }
    }

    @Test(arguments: commitFaultScenarios)
    func commitFailingWithAnIOErrorRollsBack(_ scenario: CommitFaultScenario) throws {
        #expect(grdblite_fault_vfs_register() == SQLITE_OK)
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let template = directory.path("template.sqlite")
        try Self.makeDatabase(at: template, wal: scenario.wal)
        let kind = scenario.diskFull ? GRDBLiteIOFaultDiskFull : GRDBLiteIOFaultError
        var failedCommits = 0
        var committedAnyway = 0  // failed with SQLITE_IOERR_UNLOCK after the commit point
        var operations: [String: Int] = [:]
        for countdown in 1...10_000 {
            let path = directory.path("db-\(countdown).sqlite")
            try FileManager.default.copyItem(atPath: template, toPath: path)
            defer {
                for suffix in ["", "-wal", "-shm", "-journal"] {
                    try? FileManager.default.removeItem(atPath: path + suffix)
                }
            }
            let context = "\(scenario.testDescription), fault at I/O operation \(countdown) of the commit"
            let dbQueue = try DatabaseQueue(
                path: "file:\(path)?vfs=grdblite-fault", configuration: Self.commitConfiguration(wal: scenario.wal))
            let result = Result {
                try dbQueue.write { db in
                    for id in 10...40 {
                        try db.execute(sql: "INSERT INTO t (id, payload) VALUES (?, randomblob(900))", arguments: [id])
                    }
                    try db.execute(sql: "DELETE FROM t WHERE id = 2")
                    // The next I/O operations are the COMMIT's.
                    grdblite_fault_vfs_arm(Int32(countdown), 0, kind)
                }
            }
            let injected = grdblite_fault_vfs_fault_count()
            let operation = FaultTrace.name(of: grdblite_fault_vfs_first_fault_operation())
            grdblite_fault_vfs_disarm()
            if injected == 0 {
                // The commit ran without reaching the fault: every point is covered.
                #expect(throws: Never.self, "\(context)") { try result.get() }
                try dbQueue.close()
                #expect(countdown > 3, "\(context): the commit made too few I/O operations")
                break
            }
            switch result {
            case .success:
                // The fault hit after the commit point (a failed unlock,
                // which SQLite ignores): the transaction is committed.
                operations["\(operation) ok", default: 0] += 1
                let unlocks = [ResultCode.SQLITE_IOERR_UNLOCK.rawValue, GRDBLiteIOFaultShmUnlock]
                #expect(
                    unlocks.contains(grdblite_fault_vfs_first_fault_operation()),
                    "\(context): \(operation) failed and COMMIT returned success")
                #expect(dbQueue.inDatabase { $0.isInsideTransaction } == false, "\(context)")
                #expect(try dbQueue.read(Self.rows).count == 33, "\(context)")
            case .failure(let error as DatabaseError):
                failedCommits += 1
                operations["\(operation) \(error.extendedResultCode.rawValue)", default: 0] += 1
                #expect(error.sql == "COMMIT TRANSACTION", "\(context): \(error)")
                if scenario.diskFull {
                    #expect(error.resultCode == .SQLITE_FULL, "\(context): \(error)")
                } else {
                    #expect(Self.injectedCodes.contains(error.extendedResultCode), "\(context): \(error)")
                }
                if error.extendedResultCode == .SQLITE_IOERR_UNLOCK {
                    committedAnyway += 1
                    #expect(dbQueue.inDatabase { $0.isInsideTransaction } == false, "\(context)")
                    #expect(try dbQueue.read(Self.rows).count == 33, "\(context)")
                } else {
                    try Self.expectRolledBack(dbQueue, context)
                }
            case .failure(let error):
                Issue.record("\(context): not a DatabaseError: \(error)")
            }
            try dbQueue.close()
            #expect(grdblite_fault_vfs_open_file_count() == 0, "\(context): files left open")
            // What the queue saw is what the file holds.
            let reopened = try DatabaseQueue(path: path)
            let integrity = try reopened.read { try String.fetchAll($0, sql: "PRAGMA integrity_check") }
            #expect(integrity == ["ok"], "\(context)")
            let count = try reopened.read(Self.rows).count
            let committed =
                result.isSuccess || (result.error as? DatabaseError)?.extendedResultCode == .SQLITE_IOERR_UNLOCK
            #expect(count == (committed ? 33 : 4), "\(context): \(count) rows")
            try reopened.close()
        }
        #expect(failedCommits > 0, "\(scenario.testDescription): no commit failed")
        print("""
            FailedCommitTests \(scenario.testDescription): \(failedCommits) failed commits (\(committedAnyway) after \
            the commit point); first fault by operation, \
            outcome: \(operations.sorted { $0.key < $1.key }.map { "\($0.value)× \($0.key)" }.joined(separator: ", "))
            """)
    }
}

extension Result {
    fileprivate var isSuccess: Bool {
        if case .success = self { return true }
        return false
    }

    fileprivate var error: Failure? {
        if case .failure(let error) = self { return error }
        return nil
    }
}
