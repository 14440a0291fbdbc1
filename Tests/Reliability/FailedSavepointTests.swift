import CFaultInjection
import GRDBLite
import Testing
import TestSupport

/// A savepoint whose `RELEASE` or `ROLLBACK TO` fails: `inSavepoint`
/// throws that error, and no change of the savepoint stays in the
/// transaction. The failure is SQLite's own: the connection's
/// `SQLITE_LIMIT_SQL_LENGTH`, lowered inside the savepoint, makes the
/// statements that end it too long to prepare (`SQLITE_TOOBIG`), as an
/// allocation failure at their preparation would.
@Suite struct FailedSavepointTests {
    /// Shorter than `RELEASE SAVEPOINT grdb` and `ROLLBACK TRANSACTION TO
    /// SAVEPOINT grdb`; longer than the test's own statements.
    private static let shortSQLLength: Int32 = 20

    @Test(arguments: [Database.TransactionCompletion.commit, .rollback])
    func aSavepointThatCantEndThrowsAndKeepsNoChange(_ completion: Database.TransactionCompletion) throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db in try db.execute(sql: "CREATE TABLE t (id INTEGER PRIMARY KEY)") }
        try dbQueue.inDatabase { db in
            try db.beginTransaction()
            try db.execute(sql: "INSERT INTO t VALUES (1)")
            var limit: Int32 = -1
            let error = #expect(throws: DatabaseError.self, "\(completion): the savepoint's failure vanished") {
                try db.inSavepoint {
                    try db.execute(sql: "INSERT INTO t VALUES (2)")
                    limit = sqlite3_limit(db.sqliteConnection, SQLITE_LIMIT_SQL_LENGTH, Self.shortSQLLength)
                    return completion
                }
            }
            sqlite3_limit(db.sqliteConnection, SQLITE_LIMIT_SQL_LENGTH, limit)
            #expect(error?.resultCode == .SQLITE_TOOBIG, "\(String(describing: error))")
            // Its rollback failed too: the connection rolls back the whole
            // transaction before the next statement.
            #expect(try Int.fetchAll(db, sql: "SELECT id FROM t") == [], "\(completion)")
            #expect(db.isInsideTransaction == false, "\(completion): a transaction is left open")
            try db.execute(sql: "INSERT INTO t VALUES (3)")
            #expect(try Int.fetchAll(db, sql: "SELECT id FROM t") == [3])
        }
    }
}
