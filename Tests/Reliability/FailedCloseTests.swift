import CFaultInjection
import GRDBLite
import Testing
import TestSupport

/// A close that `sqlite3_close` refuses (a statement prepared through the
/// C API on the queue's connection is still alive: GRDBLite does not count
/// it) throws `SQLITE_BUSY`, and the queue stays open and usable; it
/// closes once the statement is finalized.
@Suite struct FailedCloseTests {
    @Test func aCloseThatSQLiteRefusesThrowsAndKeepsTheQueueOpen() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let dbQueue = try DatabaseQueue(path: directory.path("db.sqlite"))
        try dbQueue.write { db in try db.execute(sql: "CREATE TABLE t (id INTEGER PRIMARY KEY)") }
        let statement = try dbQueue.inDatabase { db -> OpaquePointer? in
            var statement: OpaquePointer?
            try #require(sqlite3_prepare_v2(db.sqliteConnection, "SELECT 1", -1, &statement, nil) == SQLITE_OK)
            return statement
        }
        let error = #expect(throws: DatabaseError.self, "sqlite3_close's failure vanished") { try dbQueue.close() }
        #expect(error?.resultCode == .SQLITE_BUSY, "\(String(describing: error))")
        try dbQueue.write { db in try db.execute(sql: "INSERT INTO t VALUES (1)") }
        #expect(try dbQueue.read { try Int.fetchAll($0, sql: "SELECT id FROM t") } == [1])
        sqlite3_finalize(statement)
        try dbQueue.close()
    }
}
