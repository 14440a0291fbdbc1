@testable import GRDBLite
import Testing
import TestSupport

/// Fetches of values with `sql:` that run to completion reuse the statements
/// of the recent SQL (`StatementCache`): they must behave as fresh
/// statements. Statements cached for any fetch are forgotten when the
/// schema may have changed.
@Suite struct StatementCacheTests {
    /// A value that fetches the same SQL as the request that decodes it,
    /// while that request's statement is still running.
    private struct NestedFetch: DatabaseValueConvertible {
        nonisolated(unsafe) static var db: Database?
        var id: Int
        var ids: [Int]

        var databaseValue: DatabaseValue { id.databaseValue }

        static func fromDatabaseValue(_ dbValue: DatabaseValue) -> NestedFetch? {
            guard let id = Int.fromDatabaseValue(dbValue),
                let ids = try? Int.fetchAll(db!, sql: "SELECT id FROM t ORDER BY id")
            else { return nil }
            return NestedFetch(id: id, ids: ids)
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
            #expect(try Row.fetchOne(db, sql: sql, arguments: [2]) == ["name": "b"])  // not cached
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
            let values = try NestedFetch.fetchAll(db, sql: "SELECT id FROM t ORDER BY id")
            #expect(values.map(\.id) == [1, 2, 3])
            #expect(values.map(\.ids) == Array(repeating: [1, 2, 3], count: 3))
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
            #expect(try Int.fetchAll(db, sql: "SELECT * FROM t") == [1])
            try db.execute(sql: "DROP TABLE t; CREATE TABLE t (x); INSERT INTO t VALUES ('new')")
            #expect(try String.fetchAll(db, sql: "SELECT * FROM t") == ["new"])
            try db.execute(sql: "DROP TABLE t")
            #expect(throws: DatabaseError.self) { try String.fetchAll(db, sql: "SELECT * FROM t") }
        }
    }

    /// SQLite recompiles a cached statement after another connection
    /// changed the schema: values read the leftmost column of the new
    /// program.
    @Test func valuesFollowASchemaChangedByAnotherConnection() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let reader = try DatabaseQueue(path: directory.path())
        let writer = try DatabaseQueue(path: directory.path())
        try writer.write { db in try db.execute(sql: "CREATE TABLE t (a); INSERT INTO t VALUES (1)") }
        let sql = "SELECT * FROM t"
        #expect(try reader.read { db in try Int.fetchAll(db, sql: sql) } == [1])
        try writer.write { db in
            try db.execute(sql: "DROP TABLE t; CREATE TABLE t (x, y); INSERT INTO t VALUES (7, 8)")
        }
        #expect(try reader.read { db in try Int.fetchAll(db, sql: sql) } == [7])
        #expect(try reader.read { db in try Int.fetchOne(db, sql: sql) } == 7)
    }

    @Test func clearingTheSchemaCacheForgetsCachedStatements() throws {
        try DatabaseQueue().write { (db: Database) throws in
            #expect(try Int.fetchOne(db, sql: "SELECT 1") == 1)
            let statement = try db.cachedStatement(sql: "SELECT 2")
            db.clearSchemaCache()
            let count = db.statementCache.fetchStatementCount
            #expect(count == 0)
            #expect(try db.cachedStatement(sql: "SELECT 2") !== statement)
        }
    }

    @Test func rollbackBySQLiteForgetsCachedStatements() throws {
        try DatabaseQueue().writeWithoutTransaction { (db: Database) throws in
            try db.execute(sql: "CREATE TABLE t (a UNIQUE ON CONFLICT ROLLBACK); INSERT INTO t VALUES (1)")
            try db.execute(sql: "BEGIN")
            try db.execute(sql: "ALTER TABLE t ADD COLUMN b")
            #expect(try Row.fetchAll(db.cachedStatement(sql: "SELECT * FROM t")) == [["a": 1, "b": nil]])
            #expect(throws: DatabaseError.self) { try db.execute(sql: "INSERT INTO t (a) VALUES (1)") }
            #expect(!db.isInsideTransaction)
            #expect(try Row.fetchAll(db.cachedStatement(sql: "SELECT * FROM t")) == [["a": 1]])
        }
    }

    @Test func backupDestinationForgetsCachedStatements() throws {
        let source = try DatabaseQueue()
        let destination = try DatabaseQueue()
        try source.write { db in try db.execute(sql: "CREATE TABLE t (a, b); INSERT INTO t VALUES (1, 2)") }
        try destination.write { db in try db.execute(sql: "CREATE TABLE t (a); INSERT INTO t VALUES (3)") }
        let sql = "SELECT * FROM t"
        #expect(try destination.read { db in try Row.fetchAll(db.cachedStatement(sql: sql)) } == [["a": 3]])
        try source.read { sourceDb in
            try destination.writeWithoutTransaction { destDb in try sourceDb.backup(to: destDb) }
        }
        #expect(try destination.read { db in try Row.fetchAll(db.cachedStatement(sql: sql)) } == [["a": 1, "b": 2]])
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
