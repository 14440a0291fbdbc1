import GRDBLite
import Testing

/// A statement whose iteration stopped on an error (the caller's, thrown
/// between two rows, or SQLite's, at a row) starts from its first row when
/// it runs again: no later use sees the stale position of the failed one.
@Suite struct StatementAfterErrorTests {
    private struct Stop: Error { }

    @Test func aStatementStoppedByAnErrorStartsOverWhenItRunsAgain() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.inDatabase { db in
            try db.execute(sql: "CREATE TABLE t (id INTEGER PRIMARY KEY)")
            for id in 1...3 { try db.execute(sql: "INSERT INTO t VALUES (?)", arguments: [id]) }
            let statement = try db.cachedStatement(sql: "SELECT id FROM t ORDER BY id")
            #expect(throws: Stop.self) {
                try Int.fetchCursor(statement).forEach { id in if id == 2 { throw Stop() } }
            }
            #expect(try Int.fetchAll(statement) == [1, 2, 3], "after the caller's error")
            let cursor = try Int.fetchCursor(statement)
            #expect(try cursor.next() == 1, "after the caller's error")
            #expect(try cursor.next() == 2, "after the caller's error")

            // SQLite's error at the third row: an integer overflow.
            let failing = try db.makeStatement(
                sql: "SELECT CASE WHEN id = 3 THEN abs(?) ELSE id END FROM t ORDER BY id")
            let error = #expect(throws: DatabaseError.self) { try Int.fetchAll(failing, arguments: [Int64.min]) }
            #expect(error?.resultCode == .SQLITE_ERROR, "\(String(describing: error))")
            #expect(try Int.fetchAll(failing, arguments: [3]) == [1, 2, 3], "after SQLite's error")
        }
    }
}
