import Foundation
import Testing
import GRDBLite

@Suite struct ColumnDefinitionTests {
    /// The SQL of a table with one column.
    private func columnSQL(_ define: (TableDefinition) -> Void) throws -> String {
        let dbQueue = try DatabaseQueue()
        return try dbQueue.inDatabase { db in
            db.add(collation: .localizedCaseInsensitiveCompare)
            try db.create(table: "parent") { t in t.autoIncrementedPrimaryKey("id") }
            let sql = try recordedSchemaSQL(db) {
                try db.create(table: "t", body: define)
            }
            return sql.joined(separator: "; ")
        }
    }

    @Test func types() throws {
        let types: [(Database.ColumnType, String)] = [
            (.text, "TEXT"), (.jsonText, "TEXT"), (.jsonb, "BLOB"), (.integer, "INTEGER"),
            (.double, "DOUBLE"), (.real, "REAL"), (.numeric, "NUMERIC"), (.boolean, "BOOLEAN"),
            (.blob, "BLOB"), (.date, "DATE"), (.datetime, "DATETIME"), (.any, "ANY"),
            (Database.ColumnType(rawValue: "VARCHAR(255)"), "VARCHAR(255)"),
        ]
        for (type, sql) in types {
            #expect(try columnSQL { $0.column("c", type) } == #"CREATE TABLE "t" ("c" \#(sql))"#)
        }
        #expect(try columnSQL { $0.column("c") } == #"CREATE TABLE "t" ("c")"#)
    }

    @Test(arguments: [
        (Database.ConflictResolution?.none, "NOT NULL"),
        (.abort, "NOT NULL"),
        (.rollback, "NOT NULL ON CONFLICT ROLLBACK"),
        (.fail, "NOT NULL ON CONFLICT FAIL"),
        (.ignore, "NOT NULL ON CONFLICT IGNORE"),
        (.replace, "NOT NULL ON CONFLICT REPLACE"),
    ])
    func notNull(_ conflictResolution: Database.ConflictResolution?, _ sql: String) throws {
        #expect(try columnSQL { $0.column("c", .text).notNull(onConflict: conflictResolution) }
            == #"CREATE TABLE "t" ("c" TEXT \#(sql))"#)
    }

    @Test(arguments: [
        (Database.ConflictResolution?.none, "UNIQUE"),
        (.abort, "UNIQUE"),
        (.replace, "UNIQUE ON CONFLICT REPLACE"),
        (.ignore, "UNIQUE ON CONFLICT IGNORE"),
    ])
    func unique(_ conflictResolution: Database.ConflictResolution?, _ sql: String) throws {
        #expect(try columnSQL { $0.column("c", .text).unique(onConflict: conflictResolution) }
            == #"CREATE TABLE "t" ("c" TEXT \#(sql))"#)
    }

    @Test func defaults() throws {
        let date = Date(timeIntervalSince1970: 0)
        let cases: [(any DatabaseValueConvertible, String)] = [
            (0, "0"), (-12, "-12"), (1.5, "1.5"), (true, "1"), ("", "''"), ("O'Brien", "'O''Brien'"),
            ("é \"quoted\"", #"'é "quoted"'"#), (Data([0xCA, 0xFE]), "X'CAFE'"),
            (date, "'1970-01-01 00:00:00.000'"), (DatabaseValue.null, "NULL"),
        ]
        for (value, literal) in cases {
            #expect(
                try columnSQL { $0.column("c").defaults(to: value) } == #"CREATE TABLE "t" ("c" DEFAULT \#(literal))"#)
        }
        #expect(try columnSQL { $0.column("c", .datetime).defaults(sql: "CURRENT_TIMESTAMP") }
            == #"CREATE TABLE "t" ("c" DATETIME DEFAULT CURRENT_TIMESTAMP)"#)
    }

    @Test func defaultValuesAreStored() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.inDatabase { db in
            try db.create(table: "t") { t in
                t.autoIncrementedPrimaryKey("id")
                t.column("int", .integer).defaults(to: Int64.min)
                t.column("double", .double).defaults(to: 0.1)
                t.column("text", .text).defaults(to: "it's; DROP TABLE t; --")
                t.column("blob", .blob).defaults(to: Data([0, 1, 2]))
                t.column("nul", .text).defaults(to: "a\0b")
                t.column("sql", .integer).defaults(sql: "(1 + 2)")
            }
            try db.execute(sql: "INSERT INTO t DEFAULT VALUES")
            let row = try #require(try Row.fetchOne(db, sql: "SELECT * FROM t"))
            #expect(row["int"] == Int64.min)
            #expect(row["double"] == 0.1)
            #expect(row["text"] == "it's; DROP TABLE t; --")
            #expect(row["blob"] == Data([0, 1, 2]))
            #expect(row["nul"] == "a\0b")
            #expect(row["sql"] == 3)
        }
    }

    @Test func check() throws {
        #expect(try columnSQL { $0.column("c", .integer).check(sql: "c > 0").check(sql: "c < 10") }
            == #"CREATE TABLE "t" ("c" INTEGER CHECK (c > 0) CHECK (c < 10))"#)
        #expect(try columnSQL { $0.column("c", .text).check { SQL("length(\($0)) > \(2)") } }
            == #"CREATE TABLE "t" ("c" TEXT CHECK (length("c") > 2))"#)
    }

    /// Comparing two columns builds SQL, never Swift's `Bool` of two equal
    /// or different `Column` values (which would write `CHECK (1)`).
    @Test func checkComparingTwoColumns() throws {
        #expect(try columnSQL { t in
            t.column("b", .integer)
            t.column("c", .integer).check { $0 != Column("b") }.check { $0 == Column("b") + 0 }
        } == #"CREATE TABLE "t" ("b" INTEGER, "c" INTEGER CHECK ("c" <> "b") CHECK ("c" = ("b" + 0)))"#)
        #expect(try columnSQL { t in
            t.column("b", .integer)
            t.column("c", .integer).check { $0 == Column("b") }
        } == #"CREATE TABLE "t" ("b" INTEGER, "c" INTEGER CHECK ("c" = "b"))"#)
    }

    @Test func collate() throws {
        #expect(
            try columnSQL { $0.column("c", .text).collate(.nocase) } == #"CREATE TABLE "t" ("c" TEXT COLLATE NOCASE)"#)
        #expect(
            try columnSQL { $0.column("c", .text).collate(.rtrim) } == #"CREATE TABLE "t" ("c" TEXT COLLATE RTRIM)"#)
        #expect(
            try columnSQL { $0.column("c", .text).collate(.binary) } == #"CREATE TABLE "t" ("c" TEXT COLLATE BINARY)"#)
        #expect(try columnSQL { $0.column("c", .text).collate(.localizedCaseInsensitiveCompare) }
            == #"CREATE TABLE "t" ("c" TEXT COLLATE swiftLocalizedCaseInsensitiveCompare)"#)
    }

    @Test func collationIsUsed() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.inDatabase { db in
            db.add(collation: .caseInsensitiveCompare)
            try db.create(table: "t") { t in
                t.column("nocase", .text).collate(.nocase).unique()
                t.column("custom", .text).collate(.caseInsensitiveCompare).unique()
            }
            try db.execute(sql: "INSERT INTO t VALUES ('a', 'x')")
            #expect(throws: DatabaseError.self) { try db.execute(sql: "INSERT INTO t VALUES ('A', 'y')") }
            #expect(throws: DatabaseError.self) { try db.execute(sql: "INSERT INTO t VALUES ('b', 'X')") }
            try db.reindex(collation: .caseInsensitiveCompare)
            try db.reindex(collation: .nocase)
        }
    }

    /// Collation names are written unquoted, as GRDB writes them.
    @Test func reindexSQL() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db throws in
            db.add(collation: .caseInsensitiveCompare)
            let sql = try recordedSQL(db) {
                try db.reindex(collation: .caseInsensitiveCompare)
                try db.reindex(collation: .binary)
            }
            #expect(sql == ["REINDEX swiftCaseInsensitiveCompare", "REINDEX BINARY"])
        }
    }

    @Test func references() throws {
        #expect(try columnSQL { $0.column("parentId", .integer).references("parent") }
            == #"CREATE TABLE "t" ("parentId" INTEGER REFERENCES "parent"("id"))"#)
        #expect(try columnSQL {
                $0.column("parentId", .integer).references(
                    "parent", column: "id", onDelete: .setNull, onUpdate: .restrict, deferred: true)
            }
                == #"CREATE TABLE "t" ("parentId" INTEGER REFERENCES "parent"("id") ON DELETE SET NULL ON UPDATE RESTRICT DEFERRABLE INITIALLY DEFERRED)"#
        )
    }

    @Test func referenceToMissingTableThrows() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.inDatabase { db throws in
            let error = #expect(throws: DatabaseError.self) {
                try db.create(table: "t") { t in t.column("a").references("missing") }
            }
            #expect(error?.message == "no such table: missing")
        }
    }

    @Test func indexed() throws {
        #expect(try columnSQL { $0.column("c", .text).indexed() }
            == #"CREATE TABLE "t" ("c" TEXT); CREATE INDEX "t_on_c" ON "t"("c")"#)
        // Unique columns are indexed by their constraint.
        #expect(try columnSQL { $0.column("c", .text).unique().indexed() } == #"CREATE TABLE "t" ("c" TEXT UNIQUE)"#)
        #expect(try columnSQL { $0.column("c", .text).indexed().unique() } == #"CREATE TABLE "t" ("c" TEXT UNIQUE)"#)
    }

    @Test func indexesOfIfNotExistsTable() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.inDatabase { db in
            let sql = try recordedSchemaSQL(db) {
                for _ in 0..<2 {
                    try db.create(table: "t", options: .ifNotExists) { t in t.column("c").indexed() }
                }
            }
            #expect(sql == [
                #"CREATE TABLE IF NOT EXISTS "t" ("c")"#,
                #"CREATE INDEX IF NOT EXISTS "t_on_c" ON "t"("c")"#,
                #"CREATE TABLE IF NOT EXISTS "t" ("c")"#,
                #"CREATE INDEX IF NOT EXISTS "t_on_c" ON "t"("c")"#,
            ])
        }
    }

    @Test func primaryKeyColumn() throws {
        #expect(try columnSQL { $0.column("c", .text).primaryKey(onConflict: .replace).notNull() }
            == #"CREATE TABLE "t" ("c" TEXT PRIMARY KEY ON CONFLICT REPLACE NOT NULL)"#)
    }

    @Test func generated() throws {
        #expect(try columnSQL {
            $0.column("a", .integer)
            $0.column("b", .integer).generatedAs(sql: "a * 2")
            $0.column("c", .integer).generatedAs(SQL("a + \(1)"), .stored)
            }
                == #"CREATE TABLE "t" ("a" INTEGER, "b" INTEGER GENERATED ALWAYS AS (a * 2) VIRTUAL, "c" INTEGER GENERATED ALWAYS AS (a + 1) STORED)"#
        )
        let dbQueue = try DatabaseQueue()
        let row = try dbQueue.inDatabase { db in
            try db.create(table: "t") { t in
                t.column("a", .integer)
                t.column("b", .integer).generatedAs(sql: "a * 2")
            }
            try db.execute(sql: "INSERT INTO t (a) VALUES (21)")
            return try Row.fetchOne(db, sql: "SELECT * FROM t")
        }
        #expect(row == ["a": 21, "b": 42])
    }

    @Test func allConstraintsInOrder() throws {
        #expect(try columnSQL {
            $0.column("c", .text)
                .references("parent")
                .collate(.nocase)
                .defaults(to: "x")
                .check(sql: "c <> ''")
                .unique()
                .notNull()
            }
                == #"CREATE TABLE "t" ("c" TEXT NOT NULL UNIQUE CHECK (c <> '') DEFAULT 'x' COLLATE NOCASE REFERENCES "parent"("id"))"#
        )
    }

    @Test func constraintsAreEnforced() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.inDatabase { db in
            try db.create(table: "t") { t in
                t.column("a", .integer).notNull()
                t.column("b", .text).unique()
                t.column("c", .integer).check(sql: "c BETWEEN 0 AND 10")
                t.column("d", .integer).notNull(onConflict: .replace).defaults(to: 7)
            }
            try db.execute(sql: "INSERT INTO t (a, b, c) VALUES (1, 'x', 5)")
            let cases: [(String, ResultCode)] = [
                ("INSERT INTO t (a) VALUES (NULL)", .SQLITE_CONSTRAINT_NOTNULL),
                ("INSERT INTO t (a, b) VALUES (1, 'x')", .SQLITE_CONSTRAINT_UNIQUE),
                ("INSERT INTO t (a, c) VALUES (1, 11)", .SQLITE_CONSTRAINT_CHECK),
            ]
            for (sql, code) in cases {
                let error = #expect(throws: DatabaseError.self) { try db.execute(sql: sql) }
                #expect(error?.extendedResultCode == code)
            }
            // NOT NULL ON CONFLICT REPLACE uses the default value.
            try db.execute(sql: "INSERT INTO t (a, d) VALUES (2, NULL)")
            #expect(try Int.fetchOne(db, sql: "SELECT d FROM t WHERE a = 2") == 7)
        }
    }
}
