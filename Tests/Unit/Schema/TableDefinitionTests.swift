import Foundation
import Testing
import GRDBLite

@Suite struct TableDefinitionTests {
    @Test func seedTimestampsTable() throws {
        let dbQueue = try DatabaseQueue()
        let sql = try dbQueue.inDatabase { db in
            try recordedSchemaSQL(db) {
                try db.create(table: "player") { t in
                    t.autoIncrementedPrimaryKey("id")
                    t.column("creationDate", .datetime).notNull()
                    t.column("modificationDate", .datetime).notNull()
                    t.column("name", .text).notNull()
                    t.column("score", .integer).notNull()
                }
            }
        }
        #expect(sql == [
                #"CREATE TABLE "player" ("id" INTEGER PRIMARY KEY AUTOINCREMENT, "creationDate" DATETIME NOT NULL, "modificationDate" DATETIME NOT NULL, "name" TEXT NOT NULL, "score" INTEGER NOT NULL)"#
        ])
    }

    @Test func options() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.inDatabase { db in
            let sql = try recordedSchemaSQL(db) {
                try db.create(table: "a", options: [.ifNotExists, .temporary]) { t in t.column("x") }
                try db.create(table: "a", options: [.ifNotExists, .temporary]) { t in t.column("x") }
                try db.create(table: "b", options: [.withoutRowID, .strict]) { t in
                    t.primaryKey("id", .text)
                    t.column("v", .any)
                }
                try db.create(table: "c", temporary: true, ifNotExists: true, withoutRowID: false) { t in t.column("x")
                }
            }
            #expect(sql == [
                #"CREATE TEMPORARY TABLE IF NOT EXISTS "a" ("x")"#,
                #"CREATE TEMPORARY TABLE IF NOT EXISTS "a" ("x")"#,
                #"CREATE TABLE "b" ("id" TEXT PRIMARY KEY NOT NULL, "v" ANY) STRICT, WITHOUT ROWID"#,
                #"CREATE TEMPORARY TABLE IF NOT EXISTS "c" ("x")"#,
            ])
            #expect(try String.fetchOne(db, sql: "SELECT type FROM sqlite_temp_master WHERE name = 'a'") == "table")
            // The text primary key is NOT NULL.
            #expect(throws: DatabaseError.self) {
                try db.execute(sql: "INSERT INTO b (id, v) VALUES (NULL, 1)")
            }
            // WITHOUT ROWID: no rowid column.
            #expect(throws: DatabaseError.self) {
                try db.execute(sql: "SELECT rowid FROM b")
            }
        }
    }

    @Test func strictTablesRejectWrongTypes() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.inDatabase { db in
            try db.create(table: "t", options: .strict) { t in
                t.column("n", .integer)
            }
            let error = #expect(throws: DatabaseError.self) {
                try db.execute(sql: "INSERT INTO t (n) VALUES ('not a number')")
            }
            #expect(error?.extendedResultCode == ResultCode(rawValue: 3091)) // SQLITE_CONSTRAINT_DATATYPE
        }
    }

    @Test func primaryKeys() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.inDatabase { db in
            let sql = try recordedSchemaSQL(db) {
                try db.create(table: "a") { t in t.primaryKey("id", .integer) }
                try db.create(table: "b") { t in t.primaryKey("uuid", .text, onConflict: .replace) }
                try db.create(table: "c") { t in
                    t.column("x", .text)
                    t.column("y", .integer)
                    t.primaryKey(["x", "y"], onConflict: .ignore)
                }
                try db.create(table: "d") { t in
                    t.primaryKey {
                        t.column("x", .text)
                        t.column("y", .integer)
                    }
                    t.column("z")
                }
                try db.create(table: "e") { t in
                    t.autoIncrementedPrimaryKey("id", onConflict: .fail)
                }
                try db.create(table: "f") { t in
                    t.column("id", .integer).primaryKey(autoincrement: false)
                }
            }
            #expect(sql == [
                #"CREATE TABLE "a" ("id" INTEGER PRIMARY KEY)"#,
                #"CREATE TABLE "b" ("uuid" TEXT PRIMARY KEY ON CONFLICT REPLACE NOT NULL)"#,
                #"CREATE TABLE "c" ("x" TEXT, "y" INTEGER, PRIMARY KEY ("x", "y") ON CONFLICT IGNORE)"#,
                #"CREATE TABLE "d" ("x" TEXT NOT NULL, "y" INTEGER NOT NULL, "z", PRIMARY KEY ("x", "y"))"#,
                #"CREATE TABLE "e" ("id" INTEGER PRIMARY KEY ON CONFLICT FAIL AUTOINCREMENT)"#,
                #"CREATE TABLE "f" ("id" INTEGER PRIMARY KEY)"#,
            ])

            // A text primary key refuses NULL (SQLite would accept it).
            #expect(throws: DatabaseError.self) {
                try db.execute(sql: "INSERT INTO b (uuid) VALUES (NULL)")
            }
            // ON CONFLICT REPLACE
            try db.execute(sql: "INSERT INTO b (uuid) VALUES ('x'); INSERT INTO b (uuid) VALUES ('x')")
            #expect(try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM b") == 1)
            // ON CONFLICT IGNORE on the composite key
            try db.execute(sql: "INSERT INTO c (x, y) VALUES ('a', 1); INSERT INTO c (x, y) VALUES ('a', 1)")
            #expect(try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM c") == 1)
            // Columns of a primary key body are NOT NULL.
            #expect(throws: DatabaseError.self) {
                try db.execute(sql: "INSERT INTO d (x, y) VALUES (NULL, 1)")
            }
        }
    }

    @Test func autoIncrementDoesNotReuseIds() throws {
        let dbQueue = try DatabaseQueue()
        let ids = try dbQueue.inDatabase { db in
            try db.create(table: "a") { t in t.autoIncrementedPrimaryKey("id") }
            try db.execute(
                sql: "INSERT INTO a DEFAULT VALUES; INSERT INTO a DEFAULT VALUES; DELETE FROM a WHERE id = 2")
            try db.execute(sql: "INSERT INTO a DEFAULT VALUES")
            return try Int64.fetchAll(db, sql: "SELECT id FROM a ORDER BY id")
        }
        #expect(ids == [1, 3])
    }

    @Test func tableConstraints() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.inDatabase { db in
            try db.create(table: "parent") { t in
                t.column("a", .integer)
                t.column("b", .text)
                t.primaryKey(["a", "b"])
            }
            let sql = try recordedSchemaSQL(db) {
                try db.create(table: "child") { t in
                    t.column("x", .integer)
                    t.column("y", .text)
                    t.column("z", .integer)
                    t.uniqueKey(["x", "y"])
                    t.uniqueKey(["z"], onConflict: .replace)
                    t.foreignKey(
                        ["x", "y"], references: "parent", onDelete: .cascade, onUpdate: .setNull, deferred: true)
                    t.foreignKey(["y", "x"], references: "parent", columns: ["b", "a"])
                    t.check(sql: "x < z")
                    t.check(SQL("z <> \(13)"))
                    t.constraint(sql: "CHECK (y <> '')")
                    t.constraint(literal: "CHECK (y <> \("forbidden"))")
                }
            }
            #expect(sql == [
                """
                CREATE TABLE "child" ("x" INTEGER, "y" TEXT, "z" INTEGER, \
                UNIQUE ("x", "y"), \
                UNIQUE ("z") ON CONFLICT REPLACE, \
                FOREIGN KEY ("x", "y") REFERENCES "parent"("a", "b") ON DELETE CASCADE ON UPDATE SET NULL DEFERRABLE INITIALLY DEFERRED, \
                FOREIGN KEY ("y", "x") REFERENCES "parent"("b", "a"), \
                CHECK (x < z), \
                CHECK (z <> 13), \
                CHECK (y <> ''), \
                CHECK (y <> 'forbidden'))
                """,
            ])

            try db.execute(sql: "INSERT INTO parent (a, b) VALUES (1, 'one')")
            try db.execute(sql: "INSERT INTO child (x, y, z) VALUES (1, 'one', 2)")
            for invalidInsert in [
                "INSERT INTO child (x, y, z) VALUES (1, 'one', 3)",        // UNIQUE (x, y)
                "INSERT INTO child (x, y, z) VALUES (1, 'one', 0)",        // CHECK x < z
                "INSERT INTO child (x, y, z) VALUES (0, 'one', 13)",       // CHECK z <> 13
                "INSERT INTO child (x, y, z) VALUES (0, '', 1)",           // CHECK y <> ''
                "INSERT INTO child (x, y, z) VALUES (0, 'forbidden', 1)",  // CHECK literal
                "INSERT INTO child (x, y, z) VALUES (2, 'two', 5)",        // FOREIGN KEY
            ] {
                let error = #expect(throws: DatabaseError.self, "\(invalidInsert)") {
                    try db.execute(sql: invalidInsert)
                }
                #expect(error?.resultCode == .SQLITE_CONSTRAINT)
            }
            // UNIQUE (z) ON CONFLICT REPLACE replaces the existing row
            try db.execute(sql: "INSERT INTO child (x, y, z) VALUES (NULL, 'other', 2)")
            #expect(try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM child") == 1)
            #expect(try String.fetchOne(db, sql: "SELECT y FROM child") == "other")
        }
    }

    @Test func foreignKeyActions() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.inDatabase { db in
            try db.create(table: "parent") { t in t.primaryKey("code", .text) }
            try db.create(table: "child") { t in
                t.autoIncrementedPrimaryKey("id")
                t.column("cascade", .text).references("parent", onDelete: .cascade, onUpdate: .cascade)
                t.column("setNull", .text).references("parent", onDelete: .setNull)
                t.column("setDefault", .text).defaults(to: "default").references("parent", onDelete: .setDefault)
                t.column("restrict", .text).references("parent", column: "code", onDelete: .restrict)
            }
            try db.execute(sql: """
                INSERT INTO parent (code) VALUES ('a'), ('b'), ('c'), ('d'), ('default');
                INSERT INTO child ("cascade") VALUES ('a');
                INSERT INTO child ("setNull") VALUES ('b');
                INSERT INTO child ("setDefault") VALUES ('c');
                INSERT INTO child ("restrict") VALUES ('d');
                UPDATE parent SET code = 'A' WHERE code = 'a';
                """)
            #expect(try String.fetchOne(db, sql: #"SELECT "cascade" FROM child WHERE id = 1"#) == "A")
            try db.execute(sql: "DELETE FROM parent WHERE code IN ('b', 'c')")
            #expect(try Bool.fetchOne(db, sql: #"SELECT "setNull" IS NULL FROM child WHERE id = 2"#) == true)
            #expect(try String.fetchOne(db, sql: #"SELECT "setDefault" FROM child WHERE id = 3"#) == "default")
            let error = #expect(throws: DatabaseError.self) {
                try db.execute(sql: "DELETE FROM parent WHERE code = 'd'")
            }
            #expect(error?.resultCode == .SQLITE_CONSTRAINT)
            #expect(error?.message == "FOREIGN KEY constraint failed")
            try db.execute(sql: "DELETE FROM parent WHERE code = 'A'")
            #expect(try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM child") == 3)
        }
    }

    @Test func deferredForeignKeyIsCheckedAtCommit() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.inDatabase { db in
            try db.create(table: "parent") { t in t.autoIncrementedPrimaryKey("id") }
            try db.create(table: "child") { t in
                t.column("parentId", .integer).references("parent", deferred: true)
            }
        }
        // Inserting the child first is fine when the parent comes before commit.
        try dbQueue.write { db in
            try db.execute(sql: "INSERT INTO child (parentId) VALUES (1)")
            try db.execute(sql: "INSERT INTO parent (id) VALUES (1)")
        }
        let error = #expect(throws: DatabaseError.self) {
            try dbQueue.write { db in
                try db.execute(sql: "INSERT INTO child (parentId) VALUES (2)")
            }
        }
        #expect(error?.extendedResultCode == .SQLITE_CONSTRAINT_FOREIGNKEY)
        #expect(try dbQueue.read { try Int.fetchOne($0, sql: "SELECT COUNT(*) FROM child") } == 1)
    }

    @Test func selfReferences() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.inDatabase { db in
            let sql = try recordedSchemaSQL(db) {
                // Hidden rowid: reference to rowid
                try db.create(table: "a") { t in
                    t.column("parent").references("a")
                }
                try db.create(table: "b") { t in
                    t.column("parent").references("b")
                    t.primaryKey("code", .text)
                }
                try db.create(table: "c") { t in
                    t.column("x")
                    t.column("y")
                    t.column("px")
                    t.column("py")
                    t.primaryKey(["x", "y"])
                    t.foreignKey(["px", "py"], references: "c")
                }
            }
            #expect(sql == [
                #"CREATE TABLE "a" ("parent" REFERENCES "a"("rowid"))"#,
                #"CREATE TABLE "b" ("parent" REFERENCES "b"("code"), "code" TEXT PRIMARY KEY NOT NULL)"#,
                    #"CREATE TABLE "c" ("x", "y", "px", "py", PRIMARY KEY ("x", "y"), FOREIGN KEY ("px", "py") REFERENCES "c"("x", "y"))"#
            ])
        }
    }

    @Test func columnSQL() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.inDatabase { db in
            let sql = try recordedSchemaSQL(db) {
                try db.create(table: "t") { t in
                    t.column(sql: "a TEXT DEFAULT 'x'")
                    t.column(literal: "b TEXT DEFAULT \("it's")")
                    t.column("c", .integer)
                }
            }
            #expect(sql == [#"CREATE TABLE "t" (a TEXT DEFAULT 'x', b TEXT DEFAULT 'it''s', "c" INTEGER)"#])
            try db.execute(sql: "INSERT INTO t (c) VALUES (1)")
            #expect(try String.fetchOne(db, sql: "SELECT b FROM t") == "it's")
        }
    }

    @Test func literalWithRawArgumentsIsAnError() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.inDatabase { db throws in
            let error = #expect(throws: DatabaseError.self) {
                try db.create(table: "t") { t in
                    t.column(literal: SQL(sql: "a DEFAULT ?", arguments: [1]))
                }
            }
            #expect(error?.resultCode == .SQLITE_MISUSE)
            #expect(try !db.tableExists("t"))
        }
    }

    @Test func errorsOfTheStatementAreThrown() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.inDatabase { db in
            try db.create(table: "t") { t in t.column("a") }
            let error = #expect(throws: DatabaseError.self) {
                try db.create(table: "t") { t in t.column("a") }
            }
            #expect(error?.resultCode == .SQLITE_ERROR)
            #expect(error?.message == "table \"t\" already exists")
            #expect(error?.sql == #"CREATE TABLE "t" ("a")"#)
        }
    }

    @Test func bodyErrorCreatesNothing() throws {
        struct BodyError: Error { }
        let dbQueue = try DatabaseQueue()
        try dbQueue.inDatabase { db throws in
            #expect(throws: BodyError.self) {
                try db.create(table: "t") { _ in throw BodyError() }
            }
            #expect(try !db.tableExists("t"))
        }
    }

    @Test func dropAndRenameTable() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.inDatabase { db in
            try db.create(table: "t") { t in t.column("a") }
            let sql = try recordedSchemaSQL(db) {
                try db.rename(table: "t", to: "u")
                #expect(try !db.tableExists("t"))
                #expect(try db.tableExists("u"))
                try db.drop(table: "u")
                #expect(try !db.tableExists("u"))
            }
            #expect(sql == [#"ALTER TABLE "t" RENAME TO "u""#, #"DROP TABLE "u""#])
            let error = #expect(throws: DatabaseError.self) { try db.drop(table: "u") }
            #expect(error?.message == "no such table: u")
        }
    }

    @Test func views() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.inDatabase { db in
            try db.create(table: "player") { t in
                t.column("name", .text)
                t.column("score", .integer)
            }
            let sql = try recordedSchemaSQL(db) {
                try db.create(view: "champion", asLiteral: "SELECT * FROM player WHERE score > \(1000)")
                try db.create(
                    view: "names", options: [.temporary, .ifNotExists], columns: ["n"],
                    asLiteral: "SELECT name FROM player")
                try db.drop(view: "names")
            }
            #expect(sql == [
                #"CREATE VIEW "champion" AS SELECT * FROM player WHERE score > 1000"#,
                #"CREATE TEMPORARY VIEW IF NOT EXISTS "names" ("n") AS SELECT name FROM player"#,
                #"DROP VIEW "names""#,
            ])
            try db.execute(sql: "INSERT INTO player VALUES ('Arthur', 500), ('Barbara', 1500)")
            #expect(try String.fetchAll(db, sql: "SELECT name FROM champion") == ["Barbara"])
            #expect(try db.viewExists("champion"))
            #expect(try !db.viewExists("names"))
        }
    }

    @Test func viewsOfRequests() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.inDatabase { db in
            try db.create(table: "player") { t in
                t.column("name", .text)
                t.column("score", .integer)
            }
            let sql = try recordedSchemaSQL(db) {
                try db.create(view: "arthur", as: Table("player").filter(Column("name") == "O'Brien"))
                try db.create(
                    view: "best", options: .temporary, columns: ["n"],
                    as: SQLRequest<String>(literal: "SELECT name FROM player WHERE score > \(1000)"))
            }
            #expect(sql == [
                #"CREATE VIEW "arthur" AS SELECT * FROM "player" WHERE "name" = 'O''Brien'"#,
                #"CREATE TEMPORARY VIEW "best" ("n") AS SELECT name FROM player WHERE score > 1000"#,
            ])
            try db.execute(sql: "INSERT INTO player VALUES ('O''Brien', 500), ('Barbara', 1500)")
            #expect(try String.fetchAll(db, sql: "SELECT n FROM best") == ["Barbara"])
            #expect(try Int.fetchAll(db, sql: "SELECT score FROM arthur") == [500])
        }
    }
}
