import CFaultInjection
import GRDBLite
import Testing
import TestSupport

/// A transaction whose `ROLLBACK` fails: `inTransaction` throws (the
/// rollback's error when the block asked for the rollback, the block's own
/// error when it threw, as GRDB does), and no change of the transaction
/// survives: the connection rolls back before its next statement. The
/// failure is SQLite's own: the connection's `SQLITE_LIMIT_SQL_LENGTH`,
/// lowered inside the transaction, makes `ROLLBACK TRANSACTION` too long to
/// prepare (`SQLITE_TOOBIG`), as an allocation failure at its preparation
/// would.
@Suite struct FailedRollbackTests {
    /// Shorter than `ROLLBACK TRANSACTION`.
    private static let shortSQLLength: Int32 = 10

    private struct BlockError: Error {}

    @Test(arguments: [false, true])
    func aRollbackThatFailsThrowsAndKeepsNoChange(blockThrows: Bool) throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db in try db.execute(sql: "CREATE TABLE t (id INTEGER PRIMARY KEY)") }
        try dbQueue.inDatabase { db in
            var limit: Int32 = -1
            let error = #expect(throws: (any Error).self, "the failed rollback vanished") {
                try db.inTransaction {
                    try db.execute(sql: "INSERT INTO t VALUES (1)")
                    limit = sqlite3_limit(db.sqliteConnection, SQLITE_LIMIT_SQL_LENGTH, Self.shortSQLLength)
                    if blockThrows { throw BlockError() }
                    return .rollback
                }
            }
            sqlite3_limit(db.sqliteConnection, SQLITE_LIMIT_SQL_LENGTH, limit)
            if blockThrows {
                #expect(error is BlockError, "\(String(describing: error))")
            } else {
                #expect((error as? DatabaseError)?.resultCode == .SQLITE_TOOBIG, "\(String(describing: error))")
            }
            #expect(try Int.fetchAll(db, sql: "SELECT id FROM t") == [], "the rolled back row is there")
            #expect(db.isInsideTransaction == false, "a transaction is left open")
            try db.execute(sql: "INSERT INTO t VALUES (2)")
            #expect(try Int.fetchAll(db, sql: "SELECT id FROM t") == [2])
        }
        #expect(try dbQueue.read { try Int.fetchAll($0, sql: "SELECT id FROM t") } == [2])
    }
}
