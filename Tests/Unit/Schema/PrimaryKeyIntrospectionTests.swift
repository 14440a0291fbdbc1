import Foundation
import Testing
import GRDBLite
import TestSupport

@Suite struct PrimaryKeyIntrospectionTests {
    private func withSchema<T>(_ sql: String, _ body: (Database) throws -> T) throws -> T {
        let dbQueue = try DatabaseQueue()
        return try dbQueue.writeWithoutTransaction { db throws in
            try db.execute(sql: sql)
            return try body(db)
        }
    }

    @Test func hiddenRowID() throws {
        try withSchema("CREATE TABLE t (name TEXT)") { db throws in
            let primaryKey = try db.primaryKey("t")
            #expect(primaryKey.columns == ["rowid"])
            #expect(primaryKey.rowIDColumn == nil) // as GRDB: no column holds the hidden rowid
            #expect(primaryKey.isRowID)
        }
    }

    @Test(arguments: [
        "CREATE TABLE t (id INTEGER PRIMARY KEY, name TEXT)",
        "CREATE TABLE t (id integer primary key autoincrement, name TEXT)",
        "CREATE TABLE t (name TEXT, id INTEGER NOT NULL, PRIMARY KEY (id))",
    ])
    func integerPrimaryKeyIsTheRowID(sql: String) throws {
        try withSchema(sql) { db throws in
            let primaryKey = try db.primaryKey("t")
            #expect(primaryKey.columns == ["id"])
            #expect(primaryKey.rowIDColumn == "id")
            #expect(primaryKey.isRowID)
        }
    }

    @Test(arguments: [
        "CREATE TABLE t (id INT PRIMARY KEY)",      // only INTEGER aliases the rowid
        "CREATE TABLE t (id BIGINT PRIMARY KEY)",
        "CREATE TABLE t (id TEXT PRIMARY KEY)",
        "CREATE TABLE t (id TEXT NOT NULL PRIMARY KEY) WITHOUT ROWID",
    ])
    func otherSingleColumnPrimaryKeys(sql: String) throws {
        try withSchema(sql) { db throws in
            let primaryKey = try db.primaryKey("t")
            #expect(primaryKey.columns == ["id"])
            #expect(primaryKey.rowIDColumn == nil)
            #expect(!primaryKey.isRowID)
        }
    }

    @Test func compositePrimaryKeyInItsOwnOrder() throws {
        try withSchema("CREATE TABLE t (a INTEGER, b TEXT, c INTEGER, PRIMARY KEY (c, a))") { db throws in
            let primaryKey = try db.primaryKey("t")
            #expect(primaryKey.columns == ["c", "a"])
            #expect(primaryKey.rowIDColumn == nil)
            #expect(!primaryKey.isRowID)
        }
    }

    @Test func columns() throws {
        try withSchema("""
            CREATE TABLE t (
                id INTEGER PRIMARY KEY,
                name TEXT NOT NULL DEFAULT 'anonymous',
                score,
                "quoted name" REAL DEFAULT (1.5 * 2))
            """) { db throws in
            let columns = try db.columns(in: "T")
            #expect(columns.map(\.name) == ["id", "name", "score", "quoted name"])
            #expect(columns.map(\.type) == ["INTEGER", "TEXT", "", "REAL"])
            #expect(columns.map(\.isNotNull) == [false, true, false, false])
            #expect(columns.map(\.defaultValueSQL) == [nil, "'anonymous'", nil, "1.5 * 2"])
            #expect(columns.map(\.primaryKeyIndex) == [1, 0, 0, 0])
        }
    }

    @Test func columnsOfGeneratedColumnsAndViews() throws {
        try withSchema("""
            CREATE TABLE t (a INTEGER, b INTEGER GENERATED ALWAYS AS (a * 2));
            CREATE VIEW v AS SELECT a, b FROM t;
            """) { db throws in
            #expect(try db.columns(in: "t").map(\.name) == ["a", "b"])
            #expect(try db.columns(in: "v").map(\.name) == ["a", "b"])
        }
    }

    @Test func missingTableIsAnError() throws {
        try withSchema("CREATE TABLE t (a)") { db throws in
            let error = #expect(throws: DatabaseError.self) { try db.columns(in: "nope") }
            #expect(error?.message == "no such table: nope")
            #expect(throws: DatabaseError.self) { try db.primaryKey("nope") }
        }
    }

    @Test func tableExists() throws {
        try withSchema("""
            CREATE TABLE Player (a);
            CREATE TEMP TABLE scratch (a);
            CREATE VIEW playerView AS SELECT * FROM player;
            CREATE INDEX playerIndex ON player(a);
            """) { db throws in
            #expect(try db.tableExists("Player"))
            #expect(try db.tableExists("player"), "case-insensitive")
            #expect(try db.tableExists("PLAYER"))
            #expect(try db.tableExists("scratch"), "temporary tables are tables")
            #expect(try !db.tableExists("playerView"), "views are not tables")
            #expect(try !db.tableExists("playerIndex"))
            #expect(try !db.tableExists("nope"))
            #expect(try !db.tableExists(""))
        }
    }

    @Test func schemaChangesAreSeen() throws {
        try withSchema("CREATE TABLE t (a)") { db throws in
            #expect(try db.columns(in: "t").map(\.name) == ["a"])
            #expect(try db.primaryKey("t").columns == ["rowid"])
            try db.execute(sql: "ALTER TABLE t ADD COLUMN b")
            #expect(try db.columns(in: "t").map(\.name) == ["a", "b"])
            try db.execute(sql: "DROP TABLE t; CREATE TABLE t (id INTEGER PRIMARY KEY)")
            #expect(try db.primaryKey("t").columns == ["id"])
            #expect(try !db.tableExists("u"))
            try db.execute(sql: "CREATE TABLE u (a)")
            #expect(try db.tableExists("u"))
        }
    }

    @Test func schemaChangesByAnotherConnectionNeedClearSchemaCache() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let first = try DatabaseQueue(path: directory.path())
        let second = try DatabaseQueue(path: directory.path())
        try first.write { db throws in try db.execute(sql: "CREATE TABLE t (a)") }
        try second.inDatabase { db throws in #expect(try db.columns(in: "t").map(\.name) == ["a"]) }
        try first.write { db throws in try db.execute(sql: "ALTER TABLE t ADD COLUMN b") }
        try second.inDatabase { db throws in
            #expect(try db.columns(in: "t").map(\.name) == ["a"], "cached")
            db.clearSchemaCache()
            #expect(try db.columns(in: "t").map(\.name) == ["a", "b"])
        }
    }
}
