import Foundation
import Testing
import GRDBLite
import TestSupport

@Suite struct IntrospectionTests {
    @Test func objectExistence() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.inDatabase { db in
            try db.execute(sql: """
                CREATE TABLE player (id INTEGER PRIMARY KEY, name TEXT);
                CREATE VIEW champion AS SELECT * FROM player;
                CREATE TRIGGER playerTrigger AFTER INSERT ON player BEGIN SELECT 1; END;
                CREATE TEMP TABLE scratch (a);
                """)
            #expect(try db.tableExists("player"))
            #expect(try db.tableExists("PLAYER")) // case-insensitive
            #expect(try db.tableExists("player", in: "main"))
            #expect(try !db.tableExists("player", in: "temp"))
            #expect(try db.tableExists("scratch"))
            #expect(try db.tableExists("scratch", in: "temp"))
            #expect(try !db.tableExists("champion"))
            #expect(try !db.tableExists("missing"))
            #expect(try db.viewExists("champion"))
            #expect(try db.viewExists("Champion", in: "main"))
            #expect(try !db.viewExists("player"))
            #expect(try db.triggerExists("playerTrigger"))
            #expect(try !db.triggerExists("player"))
            let error = #expect(throws: DatabaseError.self) { try db.tableExists("player", in: "nowhere") }
            #expect(error?.message == "no such schema: nowhere")

            // Names compare as SQLite compares them: ASCII case only, the
            // bytes of other characters ("é" in one code point, then two).
            try db.execute(sql: "CREATE TABLE \"caf\u{E9}\" (a)")
            #expect(try db.tableExists("CAF\u{E9}"))
            #expect(try !db.tableExists("cafe\u{301}"))
            #expect(try db.tableExists("caf\u{E9}"))

            // The cache follows schema changes.
            #expect(try db.tableExists("scratch"))
            try db.drop(table: "scratch")
            #expect(try !db.tableExists("scratch"))
            try db.execute(sql: "DROP VIEW champion")
            #expect(try !db.viewExists("champion"))
        }
    }

    @Test func attachedDatabase() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.inDatabase { db in
            try db.execute(sql: "ATTACH DATABASE ':memory:' AS other")
            try db.execute(sql: "CREATE TABLE other.thing (code TEXT PRIMARY KEY, parent TEXT REFERENCES thing(code))")
            #expect(try db.tableExists("thing"))
            #expect(try db.tableExists("thing", in: "other"))
            #expect(try !db.tableExists("thing", in: "main"))
            #expect(try db.columns(in: "thing", in: "other").map(\.name) == ["code", "parent"])
            #expect(try db.primaryKey("thing", in: "other").columns == ["code"])
            #expect(try db.foreignKeys(on: "thing", in: "other").map(\.destinationColumns) == [["code"]])
            #expect(throws: DatabaseError.self) { try db.columns(in: "thing", in: "main") }
        }
    }

    @Test func columns() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.inDatabase { db in
            try db.create(table: "t") { t in
                t.autoIncrementedPrimaryKey("id")
                t.column("name", .text).notNull().defaults(to: "O'Brien")
                t.column("untyped")
                t.column("generated", .integer).generatedAs(sql: "id * 2")
            }
            let columns = try db.columns(in: "t")
            #expect(columns.map(\.name) == ["id", "name", "untyped", "generated"])
            #expect(columns.map(\.type) == ["INTEGER", "TEXT", "", "INTEGER"])
            #expect(columns.map(\.isNotNull) == [false, true, false, false])
            #expect(columns.map(\.defaultValueSQL) == [nil, "'O''Brien'", nil, nil])
            #expect(columns.map(\.primaryKeyIndex) == [1, 0, 0, 0])

            let error = #expect(throws: DatabaseError.self) { try db.columns(in: "missing") }
            #expect(error?.resultCode == .SQLITE_ERROR)
            #expect(error?.message == "no such table: missing")
        }
    }

    @Test func primaryKeys() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.inDatabase { db in
            try db.execute(sql: """
                CREATE TABLE hidden (name TEXT);
                CREATE TABLE aliased (id INTEGER PRIMARY KEY, name TEXT);
                CREATE TABLE lowercaseInteger (id integer PRIMARY KEY);
                CREATE TABLE notAlias (id INT PRIMARY KEY);
                CREATE TABLE textKey (uuid TEXT PRIMARY KEY);
                CREATE TABLE composite (a, b, c, PRIMARY KEY (b, a));
                CREATE TABLE withoutRowID (code TEXT PRIMARY KEY, name TEXT) WITHOUT ROWID;
                CREATE VIEW v AS SELECT * FROM aliased;
                """)
            let hidden = try db.primaryKey("hidden")
            #expect(hidden.columns == ["rowid"])
            #expect(hidden.rowIDColumn == nil)
            #expect(hidden.isRowID)

            let aliased = try db.primaryKey("aliased")
            #expect(aliased.columns == ["id"])
            #expect(aliased.rowIDColumn == "id")
            #expect(aliased.isRowID)

            #expect(try db.primaryKey("lowercaseInteger").rowIDColumn == "id")

            let notAlias = try db.primaryKey("notAlias")
            #expect(notAlias.columns == ["id"])
            #expect(notAlias.rowIDColumn == nil)
            #expect(!notAlias.isRowID)

            let textKey = try db.primaryKey("textKey")
            #expect(textKey.columns == ["uuid"])
            #expect(!textKey.isRowID)

            let composite = try db.primaryKey("composite")
            #expect(composite.columns == ["b", "a"])
            #expect(composite.rowIDColumn == nil)
            #expect(!composite.isRowID)

            let withoutRowID = try db.primaryKey("WITHOUTROWID")
            #expect(withoutRowID.columns == ["code"])
            #expect(!withoutRowID.isRowID)

            let viewError = #expect(throws: DatabaseError.self) { try db.primaryKey("v") }
            #expect(viewError?.message == "database view v has no primary key")
            let missingError = #expect(throws: DatabaseError.self) { try db.primaryKey("missing") }
            #expect(missingError?.message == "no such table: missing")
        }
    }

    @Test func foreignKeys() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.inDatabase { db in
            try db.execute(sql: """
                CREATE TABLE parent (a, b, PRIMARY KEY (a, b));
                CREATE TABLE single (id INTEGER PRIMARY KEY);
                CREATE TABLE child (
                    x, y, z,
                    singleId REFERENCES single,
                    FOREIGN KEY (x, y) REFERENCES parent,
                    FOREIGN KEY (z, x) REFERENCES parent (b, a));
                CREATE TABLE none (a);
                """)
            let foreignKeys = try db.foreignKeys(on: "child").sorted { $0.id < $1.id }
            #expect(foreignKeys.map(\.destinationTable) == ["parent", "parent", "single"])
            #expect(foreignKeys.map(\.originColumns) == [["z", "x"], ["x", "y"], ["singleId"]])
            #expect(foreignKeys.map(\.destinationColumns) == [["b", "a"], ["a", "b"], ["id"]])
            #expect(foreignKeys[1].mapping.map(\.origin) == ["x", "y"])
            #expect(foreignKeys[1].mapping.map(\.destination) == ["a", "b"])
            #expect(try db.foreignKeys(on: "none").isEmpty)
            let error = #expect(throws: DatabaseError.self) { try db.foreignKeys(on: "missing") }
            #expect(error?.message == "no such table: missing")
        }
    }

    @Test func indexes() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.inDatabase { db in
            try db.execute(sql: """
                CREATE TABLE t (id TEXT PRIMARY KEY, a, b UNIQUE, c);
                CREATE INDEX t_a_c ON t (c, a);
                CREATE UNIQUE INDEX t_partial ON t (a) WHERE a > 0;
                CREATE INDEX t_expression ON t (a + c);
                CREATE TABLE none (a);
                """)
            let indexes = try db.indexes(on: "t").sorted { $0.name < $1.name }
            #expect(indexes.map(\.name) == ["sqlite_autoindex_t_1", "sqlite_autoindex_t_2", "t_a_c", "t_partial"])
            #expect(indexes.map(\.columns) == [["id"], ["b"], ["c", "a"], ["a"]])
            #expect(indexes.map(\.isUnique) == [true, true, false, true])
            #expect(indexes.map(\.origin) == [.primaryKeyConstraint, .uniqueConstraint, .createIndex, .createIndex])
            #expect(try db.indexes(on: "none").isEmpty)
            #expect(throws: DatabaseError.self) { try db.indexes(on: "missing") }
        }
    }

    @Test func uniqueKeys() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.inDatabase { db in
            try db.execute(sql: """
                CREATE TABLE t (id INTEGER PRIMARY KEY, a, b, c, UNIQUE (a, b));
                CREATE TABLE hidden (a UNIQUE, b);
                CREATE TABLE composite (a, b, c, PRIMARY KEY (a, b)) WITHOUT ROWID;
                """)
            #expect(try db.table("t", hasUniqueKey: ["id"]))
            #expect(try db.table("t", hasUniqueKey: ["ID"]))
            #expect(try db.table("t", hasUniqueKey: ["a", "b"]))
            #expect(try db.table("t", hasUniqueKey: ["b", "a"]))
            #expect(try !db.table("t", hasUniqueKey: ["c"]))
            #expect(try !db.table("t", hasUniqueKey: ["a", "c"]))
            #expect(try db.table("t", hasUniqueKey: ["id", "a"]))
            #expect(try db.table("t", hasUniqueKey: ["id", "a", "b", "c"]))
            #expect(try !db.table("t", hasUniqueKey: []))
            #expect(try db.table("hidden", hasUniqueKey: ["rowid"]))
            #expect(try db.table("hidden", hasUniqueKey: ["a"]))
            #expect(try !db.table("hidden", hasUniqueKey: ["b"]))
            #expect(try db.table("composite", hasUniqueKey: ["b", "a"]))
            #expect(try !db.table("composite", hasUniqueKey: ["a"]))
            #expect(try !db.table("composite", hasUniqueKey: ["rowid"]))
        }
    }

    @Test func viewsHaveNoUniqueKeyWithoutSchemaSource() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.inDatabase { db in
            try db.execute(sql: """
                CREATE TABLE t (id INTEGER PRIMARY KEY, a UNIQUE);
                CREATE VIEW v AS SELECT * FROM t;
                """)
            #expect(try !db.table("v", hasUniqueKey: ["id"]))
            #expect(try !db.table("v", hasUniqueKey: ["a"]))
            #expect(try !db.table("v", hasUniqueKey: ["rowid"]))
            #expect(throws: DatabaseError.self) { try db.table("missing", hasUniqueKey: ["id"]) }
        }
    }

    @Test func unknownSchemas() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.inDatabase { db in
            try db.execute(sql: "CREATE TABLE t (id INTEGER PRIMARY KEY, parentId REFERENCES t)")
            let calls: [(Database) throws -> Void] = [
                { _ = try $0.columns(in: "t", in: "invalid") },
                { _ = try $0.primaryKey("t", in: "invalid") },
                { _ = try $0.foreignKeys(on: "t", in: "invalid") },
                { _ = try $0.indexes(on: "t", in: "invalid") },
                { _ = try $0.viewExists("t", in: "invalid") },
            ]
            for call in calls {
                let error = #expect(throws: DatabaseError.self) { try call(db) }
                #expect(error?.resultCode == .SQLITE_ERROR)
                #expect(error?.message == "no such schema: invalid")
            }
            // Schema names are case-insensitive.
            #expect(try db.columns(in: "t", in: "MAIN").map(\.name) == ["id", "parentId"])
        }
    }

    @Test func foreignKeyViolations() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.inDatabase { db in
            try db.create(table: "author") { t in t.autoIncrementedPrimaryKey("id") }
            try db.create(table: "book") { t in
                t.autoIncrementedPrimaryKey("id")
                t.column("title", .text)
                t.belongsTo("author")
            }
            try db.create(table: "other") { t in t.column("a") }
            try db.checkForeignKeys()
            #expect(try Array(db.foreignKeyViolations()).isEmpty)

            try db.execute(sql: "PRAGMA foreign_keys = OFF")
            try db.execute(sql: "INSERT INTO book (id, title, authorId) VALUES (7, 'Ghost', 42)")
            try db.execute(sql: "PRAGMA foreign_keys = ON")

            let violations = try Array(db.foreignKeyViolations())
            #expect(violations.count == 1)
            let violation = try #require(violations.first)
            #expect(violation.originTable == "book")
            #expect(violation.originRowID == 7)
            #expect(violation.destinationTable == "author")
            #expect(violation.foreignKeyId == 0)
            #expect(violation.description == "FOREIGN KEY constraint violation - from book to author, in rowid 7")
            #expect(try violation.failureDescription(db)
                    == #"FOREIGN KEY constraint violation - from book(authorId) to author(id), in [id:7 title:"Ghost" authorId:42]"#
            )

            #expect(try Array(db.foreignKeyViolations(in: "book")).count == 1)
            #expect(try Array(db.foreignKeyViolations(in: "other")).isEmpty)
            #expect(throws: DatabaseError.self) { try db.foreignKeyViolations(in: "missing") }

            let checks: [() throws -> Void] = [{ try db.checkForeignKeys() }, { try db.checkForeignKeys(in: "book") }]
            for check in checks {
                let error = #expect(throws: DatabaseError.self) { try check() }
                #expect(error?.extendedResultCode == .SQLITE_CONSTRAINT_FOREIGNKEY)
                #expect(
                    error?.message
                        == #"FOREIGN KEY constraint violation - from book(authorId) to author(id), in [id:7 title:"Ghost" authorId:42]"#
                )
            }
            try db.checkForeignKeys(in: "other")
        }
    }

    @Test func foreignKeyViolationInWithoutRowIDTable() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.inDatabase { db in
            try db.execute(sql: """
                PRAGMA foreign_keys = OFF;
                CREATE TABLE parent (id INTEGER PRIMARY KEY);
                CREATE TABLE child (code TEXT PRIMARY KEY, parentId REFERENCES parent) WITHOUT ROWID;
                INSERT INTO child VALUES ('a', 1);
                PRAGMA foreign_keys = ON;
                """)
            let violation = try #require(try db.foreignKeyViolations().next())
            #expect(violation.originRowID == nil)
            #expect(
                try violation.failureDescription(db)
                    == "FOREIGN KEY constraint violation - from child(parentId) to parent(id)")
        }
    }

    @Test func schemaVersionAndInternalTables() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.inDatabase { db in
            let version = try db.schemaVersion()
            try db.create(table: "t") { t in t.autoIncrementedPrimaryKey("id") }
            #expect(try db.schemaVersion() > version)
        }
        #expect(Database.isSQLiteInternalTable("sqlite_sequence"))
        #expect(!Database.isSQLiteInternalTable("player"))
        #expect(Database.isGRDBInternalTable("grdb_migrations"))
        #expect(!Database.isGRDBInternalTable("player"))
    }

    /// A file whose schema holds text that is not valid UTF-8 (a damaged
    /// file): a column type, a foreign key's destination column.
    static func makeDatabaseWithInvalidUTF8Schema(at path: String) throws {
        try DatabaseQueue(path: path).writeWithoutTransaction { db in
            try db.execute(sql: """
                CREATE TABLE parent(id INTEGER PRIMARY KEY);
                CREATE TABLE child(a INT, parentId REFERENCES parent(id));
                PRAGMA writable_schema = ON;
                UPDATE sqlite_master
                SET sql = 'CREATE TABLE child(a ' || CAST(x'ff' AS TEXT) || ', parentId REFERENCES parent('
                    || CAST(x'fe' AS TEXT) || '))'
                WHERE name = 'child';
                PRAGMA writable_schema = OFF;
                """)
        }
    }

    /// Found by Fuzz/DatabaseFile.swift: introspection of a damaged file
    /// whose schema holds invalid UTF-8 trapped (a `String` read of the
    /// pragma rows); names are read repaired, as GRDB reads text.
    @Test func schemaTextThatIsNotUTF8IsRepaired() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        try Self.makeDatabaseWithInvalidUTF8Schema(at: directory.path())
        try DatabaseQueue(path: directory.path()).read { db in
            #expect(try db.columns(in: "child").map(\.type) == ["\u{FFFD}", ""])
            let foreignKeys = try db.foreignKeys(on: "child")
            #expect(foreignKeys.map(\.destinationTable) == ["parent"])
            #expect(foreignKeys.map(\.originColumns) == [["parentId"]])
            #expect(foreignKeys.map(\.destinationColumns) == [["\u{FFFD}"]])
            #expect(try db.indexes(on: "child").isEmpty)
            #expect(try db.primaryKey("child").columns == ["rowid"])
        }
    }

    /// Found by Fuzz/DatabaseFile.swift: a damaged file whose
    /// `sqlite_master` holds bytes where SQLite writes text (the type of
    /// an index) trapped introspection (a `String` read of its rows); it is
    /// read as the rest of the schema, as SQLite itself reads it.
    @Test(arguments: ["CAST('index' AS BLOB)", "x'ff'", "NULL"])
    func schemaObjectsThatAreNotTextDoNotTrap(type: String) throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        try DatabaseQueue(path: directory.path()).writeWithoutTransaction { db throws in
            try db.execute(sql: """
                CREATE TABLE team(id INTEGER PRIMARY KEY, name TEXT UNIQUE);
                INSERT INTO team VALUES (1, 'Reds');
                PRAGMA writable_schema = ON;
                UPDATE sqlite_master SET type = \(type) WHERE name = 'sqlite_autoindex_team_1';
                PRAGMA writable_schema = OFF;
                """)
        }
        let dbQueue = try DatabaseQueue(path: directory.path())
        try dbQueue.read { db throws in
            #expect(try db.tableExists("team"))
            #expect(try !db.tableExists("sqlite_autoindex_team_1"))
            #expect(try String.fetchAll(db, sql: "SELECT name FROM team") == ["Reds"])
        }
        // The migrator compares schemas with the same rows.
        var migrator = DatabaseMigrator()
        migrator.eraseDatabaseOnSchemaChange = true
        migrator.registerMigration("v1") { db in
            try db.execute(sql: "CREATE TABLE IF NOT EXISTS team(id INTEGER PRIMARY KEY, name TEXT UNIQUE)")
        }
        try migrator.migrate(dbQueue)
        #expect(try dbQueue.read { db throws in try db.tableExists("team") })
    }
}
