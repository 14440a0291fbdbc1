import CSQLite
import Foundation
import Testing
@_spi(GRDBLite) import GRDBLite

@Suite struct TransactionTests {
    private func makeQueue() throws -> DatabaseQueue {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db throws in try db.execute(sql: "CREATE TABLE t (a UNIQUE ON CONFLICT ROLLBACK, b UNIQUE)")
        }
        return dbQueue
    }

    private func values(_ dbQueue: DatabaseQueue) throws -> [Int] {
        try dbQueue.read { try Int.fetchAll($0, sql: "SELECT a FROM t ORDER BY a") }
    }

    @Test func inTransactionCommits() throws {
        let dbQueue = try makeQueue()
        try dbQueue.inTransaction { db throws in
            #expect(db.isInsideTransaction)
            try db.execute(sql: "INSERT INTO t (a) VALUES (1)")
            return .commit
        }
        #expect(try values(dbQueue) == [1])
        try dbQueue.inDatabase { db throws in
            try db.inTransaction {
                try db.execute(sql: "INSERT INTO t (a) VALUES (2)")
                return .commit
            }
            #expect(!db.isInsideTransaction)
        }
        #expect(try values(dbQueue) == [1, 2])
    }

    @Test func inTransactionRollsBack() throws {
        let dbQueue = try makeQueue()
        try dbQueue.inTransaction { db throws in
            try db.execute(sql: "INSERT INTO t (a) VALUES (1)")
            return .rollback
        }
        #expect(try values(dbQueue) == [])
        try dbQueue.inDatabase { db throws in
            #expect(!db.isInsideTransaction)
        }
    }

    @Test func errorsRollBackAndAreRethrown() throws {
        let dbQueue = try makeQueue()
        let error = #expect(throws: CoreTestError.self) {
            try dbQueue.inTransaction { db throws in
                try db.execute(sql: "INSERT INTO t (a) VALUES (1)")
                throw CoreTestError(message: "inTransaction")
            }
        }
        #expect(error?.message == "inTransaction")
        #expect(throws: CoreTestError.self) {
            try dbQueue.write { db throws in
                try db.execute(sql: "INSERT INTO t (a) VALUES (2)")
                throw CoreTestError()
            }
        }
        let dbError = #expect(throws: DatabaseError.self) {
            try dbQueue.write { db throws in
                try db.execute(sql: "INSERT INTO t (a) VALUES (3)")
                try db.execute(sql: "INSERT INTO t (b) VALUES (1), (1)")
            }
        }
        #expect(dbError?.extendedResultCode == .SQLITE_CONSTRAINT_UNIQUE)
        #expect(try values(dbQueue) == [])
        try dbQueue.inDatabase { db throws in #expect(!db.isInsideTransaction) }
    }

    @Test func writeCommitsAndReturnsItsValue() throws {
        let dbQueue = try makeQueue()
        let count = try dbQueue.write { db throws in
            #expect(db.isInsideTransaction)
            try db.execute(sql: "INSERT INTO t (a) VALUES (1), (2)")
            return try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM t")
        }
        #expect(count == 2)
        #expect(try values(dbQueue) == [1, 2])
    }

    @Test func savepointsNest() throws {
        let dbQueue = try makeQueue()
        try dbQueue.inTransaction { db throws in
            try db.execute(sql: "INSERT INTO t (a) VALUES (1)")
            try db.inSavepoint {
                try db.execute(sql: "INSERT INTO t (a) VALUES (2)")
                try db.inSavepoint {
                    try db.execute(sql: "INSERT INTO t (a) VALUES (3)")
                    return .rollback
                }
                try db.inSavepoint {
                    try db.execute(sql: "INSERT INTO t (a) VALUES (4)")
                    return .commit
                }
                #expect(try Int.fetchAll(db, sql: "SELECT a FROM t ORDER BY a") == [1, 2, 4])
                return .commit
            }
            try db.inSavepoint {
                try db.execute(sql: "INSERT INTO t (a) VALUES (5)")
                return .rollback
            }
            #expect(throws: CoreTestError.self) {
                try db.inSavepoint {
                    try db.execute(sql: "INSERT INTO t (a) VALUES (6)")
                    throw CoreTestError()
                }
            }
            #expect(db.isInsideTransaction)
            return .commit
        }
        #expect(try values(dbQueue) == [1, 2, 4])
    }

    @Test func rolledBackTransactionDropsReleasedSavepoints() throws {
        let dbQueue = try makeQueue()
        try dbQueue.inTransaction { db throws in
            try db.inSavepoint {
                try db.execute(sql: "INSERT INTO t (a) VALUES (1)")
                return .commit
            }
            return .rollback
        }
        #expect(try values(dbQueue) == [])
    }

    @Test func savepointOutsideOfATransactionIsATransaction() throws {
        let dbQueue = try makeQueue()
        try dbQueue.writeWithoutTransaction { db throws in
            try db.inSavepoint {
                #expect(db.isInsideTransaction)
                try db.execute(sql: "INSERT INTO t (a) VALUES (1)")
                return .commit
            }
            #expect(!db.isInsideTransaction)
            try db.inSavepoint {
                try db.execute(sql: "INSERT INTO t (a) VALUES (2)")
                return .rollback
            }
            #expect(!db.isInsideTransaction)
        }
        #expect(try values(dbQueue) == [1])
    }

    @Test func transactionsDontNest() throws {
        let dbQueue = try makeQueue()
        let error = #expect(throws: DatabaseError.self) {
            try dbQueue.write { db throws in
                try db.execute(sql: "INSERT INTO t (a) VALUES (1)")
                try db.inTransaction { .commit }
            }
        }
        #expect(error?.resultCode == .SQLITE_ERROR)
        #expect(error?.message == "cannot start a transaction within a transaction")
        #expect(try values(dbQueue) == [])
    }

    @Test func isInsideTransactionTracksExplicitStatements() throws {
        let dbQueue = try makeQueue()
        try dbQueue.writeWithoutTransaction { db throws in
            #expect(!db.isInsideTransaction)
            try db.execute(sql: "BEGIN TRANSACTION")
            #expect(db.isInsideTransaction)
            try db.execute(sql: "INSERT INTO t (a) VALUES (1)")
            try db.execute(sql: "COMMIT")
            #expect(!db.isInsideTransaction)
            try db.execute(sql: "BEGIN IMMEDIATE")
            try db.execute(sql: "INSERT INTO t (a) VALUES (2)")
            #expect(db.isInsideTransaction)
            try db.execute(sql: "ROLLBACK")
            #expect(!db.isInsideTransaction)
            try db.execute(sql: "SAVEPOINT s")
            #expect(db.isInsideTransaction)
            try db.execute(sql: "INSERT INTO t (a) VALUES (3)")
            try db.execute(sql: "RELEASE SAVEPOINT s")
            #expect(!db.isInsideTransaction)
            try db.beginTransaction()
            #expect(db.isInsideTransaction)
            try db.commit()
            #expect(!db.isInsideTransaction)
            try db.beginTransaction(.exclusive)
            try db.execute(sql: "INSERT INTO t (a) VALUES (4)")
            try db.rollback()
            #expect(!db.isInsideTransaction)
            try db.rollback() // no transaction: no error
        }
        #expect(try values(dbQueue) == [1, 3])
    }

    @Test func transactionKinds() throws {
        let recorder = SQLRecorder()
        var configuration = Configuration()
        configuration.trace = recorder.record
        let dbQueue = try DatabaseQueue(configuration: configuration)
        try dbQueue.write { _ throws in }
        try dbQueue.read { _ throws in }
        try dbQueue.inTransaction(.exclusive) { _ throws in .commit }
        try dbQueue.inTransaction { _ throws in .commit }
        let begins = recorder.sql.filter { $0.hasPrefix("BEGIN") }
        #expect(
            begins == [
                "BEGIN IMMEDIATE TRANSACTION", "BEGIN DEFERRED TRANSACTION", "BEGIN EXCLUSIVE TRANSACTION",
                "BEGIN IMMEDIATE TRANSACTION"
            ])
    }

    @Test func writeInsideReadFailsWithReadOnly() throws {
        let dbQueue = try makeQueue()
        let error = #expect(throws: DatabaseError.self) {
            try dbQueue.read { db throws in
                try db.execute(sql: "INSERT INTO t (a) VALUES (1)")
            }
        }
        #expect(error?.resultCode == .SQLITE_READONLY)
        #expect(error?.sql == "INSERT INTO t (a) VALUES (1)")
        #expect(throws: DatabaseError.self) {
            try dbQueue.read { db throws in try db.execute(sql: "CREATE TABLE u (a)") }
        }
        // The connection is writable again after read.
        try dbQueue.write { db throws in try db.execute(sql: "INSERT INTO t (a) VALUES (2)") }
        #expect(try values(dbQueue) == [2])
    }

    @Test func readOnlyIsReentrant() throws {
        let dbQueue = try makeQueue()
        try dbQueue.writeWithoutTransaction { db throws in
            try db.readOnly {
                _ = try db.readOnly {
                    #expect(throws: DatabaseError.self) { try db.execute(sql: "INSERT INTO t (a) VALUES (1)") }
                }
                #expect(throws: DatabaseError.self) { try db.execute(sql: "INSERT INTO t (a) VALUES (1)") }
            }
            try db.execute(sql: "INSERT INTO t (a) VALUES (2)")
        }
        #expect(try values(dbQueue) == [2])
    }

    /// `PRAGMA query_only` is on in read-only accesses only: after one,
    /// it goes off before the next statement, whatever that statement is.
    @Test func queryOnlyIsOnInReadOnlyAccessesOnly() throws {
        let dbQueue = try makeQueue()
        let queryOnly = "PRAGMA query_only"
        #expect(try dbQueue.read { try Int.fetchOne($0, sql: queryOnly) } == 1)
        #expect(try dbQueue.read { try Int.fetchOne($0, sql: queryOnly) } == 1)
        #expect(try dbQueue.writeWithoutTransaction { try Int.fetchOne($0, sql: queryOnly) } == 0)
        try dbQueue.writeWithoutTransaction { db throws in
            #expect(try db.readOnly { try Int.fetchOne(db, sql: queryOnly) } == 1)
            #expect(try Int.fetchOne(db, sql: queryOnly) == 0)
            _ = try db.readOnly { try Int.fetchOne(db, sql: queryOnly) }
            // The first statement after a read-only access writes.
            try db.execute(sql: "INSERT INTO t (a) VALUES (1)")
            #expect(try db.readOnly { try Int.fetchOne(db, sql: queryOnly) } == 1)
        }
        try dbQueue.write { db throws in try db.execute(sql: "INSERT INTO t (a) VALUES (2)") }
        #expect(try values(dbQueue) == [1, 2])
    }

    /// The raw connection accepts C API writes outside of read-only
    /// accesses, even as the first thing after a read, and refuses them
    /// inside.
    @Test func rawConnectionWritesAfterARead() throws {
        let dbQueue = try makeQueue()
        _ = try dbQueue.read { try Int.fetchOne($0, sql: "SELECT COUNT(*) FROM t") }
        dbQueue.inDatabase { db in
            #expect(sqlite3_exec(db.sqliteConnection, "INSERT INTO t (a) VALUES (1)", nil, nil, nil) == SQLITE_OK)
        }
        _ = try dbQueue.read { try Int.fetchOne($0, sql: "SELECT COUNT(*) FROM t") }
        try dbQueue.writeWithoutTransaction { db in
            #expect(sqlite3_exec(db.sqliteConnection, "INSERT INTO t (a) VALUES (2)", nil, nil, nil) == SQLITE_OK)
            try db.readOnly {
                let code = sqlite3_exec(db.sqliteConnection, "INSERT INTO t (a) VALUES (3)", nil, nil, nil)
                #expect(code == SQLITE_READONLY)
            }
        }
        #expect(try values(dbQueue) == [1, 2])
    }

    /// Consecutive read-only accesses don't expire the connection's
    /// statements: a cached statement is not compiled again.
    @Test func consecutiveReadsKeepCompiledStatements() throws {
        let dbQueue = try makeQueue()
        func reprepareCount() throws -> CInt {
            try dbQueue.read { db throws in
                let statement = try db.cachedStatement(sql: "SELECT COUNT(*) FROM t")
                _ = try Int.fetchOne(statement)
                return sqlite3_stmt_status(statement.sqliteStatement, SQLITE_STMTSTATUS_REPREPARE, 0)
            }
        }
        let first = try reprepareCount()
        #expect(try reprepareCount() == first)
        #expect(try reprepareCount() == first)
        // A write in between: query_only goes off, then on again, and
        // each change of the pragma expires every statement.
        try dbQueue.write { db throws in try db.execute(sql: "INSERT INTO t (a) VALUES (1)") }
        #expect(try reprepareCount() > first)
    }

    @Test func readInsideAnOpenTransactionSeesItsChanges() throws {
        let dbQueue = try makeQueue()
        let count = try dbQueue.writeWithoutTransaction { db throws in
            try db.execute(sql: "BEGIN; INSERT INTO t (a) VALUES (1)")
            defer { try? db.rollback() }
            return try db.readOnly { try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM t") }
        }
        #expect(count == 1)
    }

    /// A statement with `ON CONFLICT ROLLBACK` ends the transaction: later
    /// statements in the block fail with SQLITE_ABORT instead of running
    /// outside of any transaction.
    @Test func abortedTransaction() throws {
        let dbQueue = try makeQueue()
        let error = #expect(throws: DatabaseError.self) {
            try dbQueue.inTransaction { db throws in
                try db.execute(sql: "INSERT INTO t (a) VALUES (1)")
                #expect(coreThrownError { try db.execute(sql: "INSERT INTO t (a) VALUES (1)") } is DatabaseError)
                #expect(!db.isInsideTransaction)
                try db.execute(sql: "INSERT INTO t (a) VALUES (2)")
                return .commit
            }
        }
        #expect(error?.resultCode == .SQLITE_ABORT)
        #expect(error?.message == "Transaction was aborted")
        #expect(error?.sql == "INSERT INTO t (a) VALUES (2)")
        #expect(try values(dbQueue) == [])
    }

    @Test func committingAnAbortedTransactionIsAnError() throws {
        let dbQueue = try makeQueue()
        let error = #expect(throws: DatabaseError.self) {
            try dbQueue.write { db throws in
                try db.execute(sql: "INSERT INTO t (a) VALUES (1)")
                #expect(coreThrownError { try db.execute(sql: "INSERT INTO t (a) VALUES (1)") } is DatabaseError)
            }
        }
        #expect(error?.resultCode == .SQLITE_ABORT)
        #expect(try values(dbQueue) == [])
        // The queue is usable again.
        try dbQueue.write { db throws in try db.execute(sql: "INSERT INTO t (a) VALUES (3)") }
        #expect(try values(dbQueue) == [3])
    }

    @Test func abortedSavepoint() throws {
        let dbQueue = try makeQueue()
        let error = #expect(throws: DatabaseError.self) {
            try dbQueue.inTransaction { db throws in
                try db.inSavepoint {
                    try db.execute(sql: "INSERT INTO t (a) VALUES (1)")
                    #expect(coreThrownError { try db.execute(sql: "INSERT INTO t (a) VALUES (1)") } is DatabaseError)
                    return .commit
                }
                return .commit
            }
        }
        #expect(error?.resultCode == .SQLITE_ABORT)
        #expect(try values(dbQueue) == [])
    }

    @Test func abortOutsideOfATransactionBlockLeavesAutocommit() throws {
        let dbQueue = try makeQueue()
        try dbQueue.writeWithoutTransaction { db throws in
            try db.execute(sql: "BEGIN")
            try db.execute(sql: "INSERT INTO t (a) VALUES (1)")
            #expect(throws: DatabaseError.self) { try db.execute(sql: "INSERT INTO t (a) VALUES (1)") }
            #expect(!db.isInsideTransaction)
            // Outside of inTransaction, statements run in autocommit mode.
            try db.execute(sql: "INSERT INTO t (a) VALUES (2)")
        }
        #expect(try values(dbQueue) == [2])
    }

    @Test func rollbackErrorDoesNotHideTheFirstError() throws {
        let dbQueue = try makeQueue()
        let error = #expect(throws: CoreTestError.self) {
            try dbQueue.inTransaction { db throws in
                try db.execute(sql: "ROLLBACK")
                throw CoreTestError(message: "first")
            }
        }
        #expect(error?.message == "first")
    }

    /// An interruption outside of any statement leaves FTS5 interrupted
    /// (<https://sqlite.org/forum/forumpost/95413eb410>): the rollback is
    /// retried, and the transaction never stays open (GRDB's issue 1838).
    @Test func interruptedRollbackStillRollsBack() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.inDatabase { db in
            try db.execute(sql: "CREATE VIRTUAL TABLE documents USING fts5(content)")
            try db.inTransaction {
                try db.execute(sql: "INSERT INTO documents(content) VALUES ('Document')")
                dbQueue.interrupt()
                return .rollback
            }
            #expect(!db.isInsideTransaction)
        }
        #expect(try dbQueue.read { try Int.fetchOne($0, sql: "SELECT COUNT(*) FROM documents") } == 0)
    }

    /// Whether SQLite itself, through its C API, fails the COMMIT of a
    /// transaction with pending FTS5 changes after `sqlite3_interrupt`:
    /// the oracle of `interruptedCommitRollsBack`, on any version.
    private static func sqliteFailsInterruptedFTS5Commit() -> Bool {
        var connection: OpaquePointer?
        guard sqlite3_open(":memory:", &connection) == SQLITE_OK, let connection else { return false }
        defer { sqlite3_close(connection) }
        sqlite3_exec(connection, "CREATE VIRTUAL TABLE documents USING fts5(content)", nil, nil, nil)
        sqlite3_exec(connection, "BEGIN IMMEDIATE TRANSACTION", nil, nil, nil)
        sqlite3_exec(connection, "INSERT INTO documents(content) VALUES ('Document')", nil, nil, nil)
        sqlite3_interrupt(connection)
        let code = sqlite3_exec(connection, "COMMIT TRANSACTION", nil, nil, nil)
        if code != SQLITE_OK { sqlite3_exec(connection, "ROLLBACK", nil, nil, nil) }
        return code == SQLITE_INTERRUPT
    }

    /// An interrupted commit fails with `SQLITE_INTERRUPT` and rolls back;
    /// the connection is usable afterwards. SQLite 3.40.1's FTS5 fails the
    /// commit of its pending changes when interrupted; 3.54.1's commits
    /// them (the interrupt comes between statements): then the transaction
    /// is committed whole. On any version, GRDBLite does what SQLite's C
    /// API does.
    @Test func interruptedCommitRollsBack() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db in try db.execute(sql: "CREATE VIRTUAL TABLE documents USING fts5(content)") }
        var isInterrupted = false
        do {
            try dbQueue.write { db in
                try db.execute(sql: "INSERT INTO documents(content) VALUES ('Document')")
                dbQueue.interrupt()
            }
        } catch let error as DatabaseError where error.resultCode == .SQLITE_INTERRUPT {
            isInterrupted = true
        }
        #expect(isInterrupted == Self.sqliteFailsInterruptedFTS5Commit())
        switch Database.sqliteLibVersion {
        case "3.40.1": #expect(isInterrupted)
        case "3.54.1": #expect(!isInterrupted)
        default: break
        }
        let committed = isInterrupted ? 0 : 1
        #expect(try dbQueue.read { try Int.fetchOne($0, sql: "SELECT COUNT(*) FROM documents") } == committed)
        try dbQueue.write { db in try db.execute(sql: "INSERT INTO documents(content) VALUES ('Other')") }
        #expect(try dbQueue.read { try Int.fetchOne($0, sql: "SELECT COUNT(*) FROM documents") } == committed + 1)
    }
}
