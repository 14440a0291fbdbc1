@testable import GRDBLite
import Testing

/// Fetches with `sql:` that run to completion reuse the statements of the
/// recent SQL (`StatementCache`): they must behave as fresh statements.
@Suite struct StatementCacheTests {
    /// A record that fetches the same SQL as the request that decodes it,
    /// while that request's statement is still running.
    private struct NestedFetch: FetchableRecord {
        nonisolated(unsafe) static var db: Database?
        var id: Int
        var ids: [Int]

        init(row: Row) throws {
            id = row["id"]
            ids = try Int.fetchAll(Self.db!, sql: "SELECT id FROM t ORDER BY id")
        }
    }

    @Test func repeatedFetchesReuseOneStatementWithTheirOwnArguments() throws {
        try DatabaseQueue().write { (db: Database) throws in
            try db.execute(sql: "CREATE TABLE t (id INTEGER PRIMARY KEY, name TEXT)")
            try db.execute(sql: "INSERT INTO t VALUES (1, 'a'), (2, 'b'), (3, NULL)")
            let sql = "SELECT name FROM t WHERE id = ?"
            #expect(try String.fetchOne(db, sql: sql, arguments: [1]) == "a")
            #expect(try String.fetchOne(db, sql: sql, arguments: [2]) == "b")
            #expect(try String.fetchOne(db, sql: sql, arguments: [3]) == nil)
            #expect(try String?.fetchAll(db, sql: sql, arguments: [3]) == [nil])
            #expect(try Row.fetchOne(db, sql: sql, arguments: [2]) == ["name": "b"])
            let count = db.statementCache.fetchStatementCount
            #expect(count == 1)

            // Missing arguments are still an error.
            #expect(throws: DatabaseError.self) { try String.fetchOne(db, sql: sql) }
        }
    }

    @Test func fetchOfTheSameSQLInsideAFetchUsesAnotherStatement() throws {
        try DatabaseQueue().write { (db: Database) throws in
            try db.execute(sql: "CREATE TABLE t (id INTEGER PRIMARY KEY); INSERT INTO t VALUES (1), (2), (3)")
            NestedFetch.db = db
            defer { NestedFetch.db = nil }
            _ = try Int.fetchAll(db, sql: "SELECT id FROM t ORDER BY id")  // cached
            let records = try NestedFetch.fetchAll(db, sql: "SELECT id FROM t ORDER BY id")
            #expect(records.map(\.id) == [1, 2, 3])
            #expect(records.map(\.ids) == Array(repeating: [1, 2, 3], count: 3))
        }
    }

    @Test func leastRecentlyUsedStatementsGoFirst() throws {
        try DatabaseQueue().write { (db: Database) throws in
            let kept = "SELECT 'kept'"
            #expect(try String.fetchOne(db, sql: kept) == "kept")
            for value in 0..<(StatementCache.fetchCapacity - 1) {
                #expect(try Int.fetchOne(db, sql: "SELECT \(value)") == value)
            }
            let capacity = StatementCache.fetchCapacity
            let fullCount = db.statementCache.fetchStatementCount
            #expect(fullCount == capacity)
            // `kept` becomes the most recent; `SELECT 0` the least recent.
            #expect(try String.fetchAll(db, sql: kept) == ["kept"])
            #expect(try Int.fetchSet(db, sql: "SELECT 1000") == [1000])
            let countAfterEviction = db.statementCache.fetchStatementCount
            let keptIsCached = db.statementCache.fetchStatement(sql: kept) != nil
            let oldestIsCached = db.statementCache.fetchStatement(sql: "SELECT 0") != nil
            let nextIsCached = db.statementCache.fetchStatement(sql: "SELECT 1") != nil
            #expect(countAfterEviction == capacity)
            #expect(keptIsCached)
            #expect(!oldestIsCached)
            #expect(nextIsCached)
        }
    }

    @Test func schemaChangesAreSeen() throws {
        try DatabaseQueue().write { (db: Database) throws in
            try db.execute(sql: "CREATE TABLE t (a); INSERT INTO t VALUES (1)")
            #expect(try Row.fetchAll(db, sql: "SELECT * FROM t") == [["a": 1]])
            try db.execute(sql: "ALTER TABLE t ADD COLUMN b DEFAULT 2")
            #expect(try Row.fetchAll(db, sql: "SELECT * FROM t") == [["a": 1, "b": 2]])
            try db.execute(sql: "DROP TABLE t")
            #expect(throws: DatabaseError.self) { try Row.fetchAll(db, sql: "SELECT * FROM t") }
        }
    }

    @Test func explicitlyCachedStatementsKeepTheirArguments() throws {
        try DatabaseQueue().write { (db: Database) throws in
            let sql = "SELECT ? + 1"
            let statement = try db.cachedStatement(sql: sql)
            try statement.setArguments([10])
            #expect(try Int.fetchOne(db, sql: sql, arguments: [1]) == 2)
            #expect(statement.arguments == [10])
            #expect(try Int.fetchOne(statement) == 11)
        }
    }

    @Test func cursorsOfTheSameSQLKeepTheirArguments() throws {
        try DatabaseQueue().write { (db: Database) throws in
            let sql = "SELECT ? * 2"
            let first = try Int.fetchCursor(db, sql: sql, arguments: [1])
            let second = try Int.fetchCursor(db, sql: sql, arguments: [2])
            #expect(try first.next() == 2)
            #expect(try second.next() == 4)
        }
    }

    @Test func releasingMemoryForgetsFetchStatements() throws {
        try DatabaseQueue().write { (db: Database) throws in
            #expect(try Int.fetchOne(db, sql: "SELECT 1") == 1)
            let countBefore = db.statementCache.fetchStatementCount
            db.releaseMemory()
            let countAfter = db.statementCache.fetchStatementCount
            #expect(countBefore == 1)
            #expect(countAfter == 0)
        }
    }
}
