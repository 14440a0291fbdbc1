import GRDBLite
import Testing

/// SQLite recompiles a prepared statement when the schema changes, and a
/// `SELECT *` may then return other columns. (Found by FuzzTests: a cached
/// statement kept its old column count, and reading a column name that no
/// longer existed crashed.)
@Suite struct StatementSchemaChangeTests {
    @Test func cachedStatementSeesTheNewColumns() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db in
            try db.execute(sql: "CREATE TABLE t (a, b, c); INSERT INTO t VALUES (1, 2, 3)")
            let rows = try Row.fetchAll(db.cachedStatement(sql: "SELECT * FROM t"))
            #expect(rows == [["a": 1, "b": 2, "c": 3]])

            try db.execute(sql: "DROP TABLE t; CREATE TABLE t (x); INSERT INTO t VALUES ('new')")
            let newRows = try Row.fetchAll(db.cachedStatement(sql: "SELECT * FROM t"))
            #expect(newRows == [["x": "new"]])
            #expect(try String.fetchAll(db.cachedStatement(sql: "SELECT * FROM t")) == ["new"])

            try db.execute(sql: "ALTER TABLE t ADD COLUMN y DEFAULT 'added'")
            #expect(try Row.fetchAll(db.cachedStatement(sql: "SELECT * FROM t")) == [["x": "new", "y": "added"]])
        }
    }

    /// A statement the user keeps across a schema change does not crash
    /// (its columns are those it was prepared with: prepare it again).
    @Test func heldStatementDoesNotCrash() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db in
            try db.execute(sql: "CREATE TABLE t (a, b); INSERT INTO t VALUES (1, 2)")
            let statement = try db.makeStatement(sql: "SELECT * FROM t")
            try db.execute(sql: "DROP TABLE t; CREATE TABLE t (a); INSERT INTO t VALUES (10)")
            let rows = try Row.fetchAll(statement)
            #expect(rows.count == 1)
            #expect(rows[0]["a"] as Int == 10)
            _ = rows[0].description
            #expect(try Int.fetchAll(statement) == [10])
            #expect(try String.fetchOne(statement) == "10")
        }
    }
}
