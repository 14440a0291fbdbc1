import Testing
import GRDBLite

@Suite struct BelongsToTests {
    @Test func seedLibrarySchema() throws {
        // RecordRecommendedPractices: the library schema, as written.
        let dbQueue = try DatabaseQueue()
        try dbQueue.inDatabase { db in
            let sql = try recordedSchemaSQL(db) {
                try db.create(table: "author") { t in
                    t.autoIncrementedPrimaryKey("id")
                    t.column("name", .text).notNull()
                    t.column("countryCode", .text)
                }
                try db.create(table: "book") { t in
                    t.autoIncrementedPrimaryKey("id")
                    t.column("title", .text).notNull()
                    t.belongsTo("author", onDelete: .cascade)
                        .notNull()
                }
            }
            #expect(sql == [
                    #"CREATE TABLE "author" ("id" INTEGER PRIMARY KEY AUTOINCREMENT, "name" TEXT NOT NULL, "countryCode" TEXT)"#,
                    #"CREATE TABLE "book" ("id" INTEGER PRIMARY KEY AUTOINCREMENT, "title" TEXT NOT NULL, "authorId" INTEGER NOT NULL REFERENCES "author"("id") ON DELETE CASCADE)"#,
                #"CREATE INDEX "book_on_authorId" ON "book"("authorId")"#,
            ])
            #expect(try db.columns(in: "book").map(\.name) == ["id", "title", "authorId"])
            #expect(try db.indexes(on: "book").map(\.columns) == [["authorId"]])
            let foreignKey = try #require(try db.foreignKeys(on: "book").first)
            #expect(foreignKey.destinationTable == "author")
            #expect(foreignKey.originColumns == ["authorId"])
            #expect(foreignKey.destinationColumns == ["id"])

            // NOT NULL, foreign key, and cascade
            try db.execute(sql: "INSERT INTO author (id, name) VALUES (1, 'Herman Melville')")
            try db.execute(sql: "INSERT INTO book (title, authorId) VALUES ('Moby-Dick', 1)")
            let nullError = #expect(throws: DatabaseError.self) {
                try db.execute(sql: "INSERT INTO book (title) VALUES ('Orphan')")
            }
            #expect(nullError?.extendedResultCode == .SQLITE_CONSTRAINT_NOTNULL)
            let foreignKeyError = #expect(throws: DatabaseError.self) {
                try db.execute(sql: "INSERT INTO book (title, authorId) VALUES ('Ghost', 2)")
            }
            #expect(foreignKeyError?.extendedResultCode == .SQLITE_CONSTRAINT_FOREIGNKEY)
            try db.execute(sql: "DELETE FROM author WHERE id = 1")
            #expect(try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM book") == 0)
        }
    }

    @Test func columnNameAndTypeComeFromThePrimaryKey() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.inDatabase { db in
            try db.create(table: "team") { t in t.autoIncrementedPrimaryKey("id") }
            try db.create(table: "country") { t in t.primaryKey("code", .text) }
            try db.create(table: "tag") { t in t.column("name", .text) } // hidden rowid
            try db.create(table: "untyped") { t in t.column("key").primaryKey() }
            let sql = try recordedSchemaSQL(db) {
                try db.create(table: "player") { t in
                    t.autoIncrementedPrimaryKey("id")
                    t.belongsTo("team")
                    t.belongsTo("country").notNull()
                    t.belongsTo("tag", indexed: false)
                    t.belongsTo("untyped", onUpdate: .cascade).unique()
                }
            }
            #expect(sql == [
                """
                CREATE TABLE "player" ("id" INTEGER PRIMARY KEY AUTOINCREMENT, \
                "teamId" INTEGER REFERENCES "team"("id"), \
                "countryCode" TEXT NOT NULL REFERENCES "country"("code"), \
                "tagId" INTEGER REFERENCES "tag"("rowid"), \
                "untypedKey" UNIQUE REFERENCES "untyped"("key") ON UPDATE CASCADE)
                """,
                #"CREATE INDEX "player_on_teamId" ON "player"("teamId")"#,
                #"CREATE INDEX "player_on_countryCode" ON "player"("countryCode")"#,
            ])
            #expect(try db.columns(in: "player").map(\.name) == ["id", "teamId", "countryCode", "tagId", "untypedKey"])
        }
    }

    @Test func explicitTable() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.inDatabase { db in
            try db.create(table: "person") { t in t.autoIncrementedPrimaryKey("id") }
            let sql = try recordedSchemaSQL(db) {
                try db.create(table: "book") { t in
                    t.autoIncrementedPrimaryKey("id")
                    t.belongsTo("author", inTable: "person", onDelete: .restrict, deferred: true)
                    t.belongsTo("translator", inTable: "person", onDelete: .setNull, indexed: false)
                }
            }
            #expect(sql == [
                """
                CREATE TABLE "book" ("id" INTEGER PRIMARY KEY AUTOINCREMENT, \
                "authorId" INTEGER REFERENCES "person"("id") ON DELETE RESTRICT DEFERRABLE INITIALLY DEFERRED, \
                "translatorId" INTEGER REFERENCES "person"("id") ON DELETE SET NULL)
                """,
                #"CREATE INDEX "book_on_authorId" ON "book"("authorId")"#,
            ])
        }
    }

    @Test func pluralTableNames() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.inDatabase { db in
            try db.create(table: "teams") { t in t.autoIncrementedPrimaryKey("id") }
            try db.create(table: "countries") { t in t.primaryKey("code", .text) }
            try db.create(table: "people") { t in t.autoIncrementedPrimaryKey("id") }
            let sql = try recordedSchemaSQL(db) {
                try db.create(table: "players") { t in
                    t.belongsTo("team")
                    t.belongsTo("country")
                    t.belongsTo("person", indexed: false)
                }
            }
            #expect(sql == [
                """
                CREATE TABLE "players" (\
                "teamId" INTEGER REFERENCES "teams"("id"), \
                "countryCode" TEXT REFERENCES "countries"("code"), \
                "personId" INTEGER REFERENCES "people"("id"))
                """,
                #"CREATE INDEX "players_on_teamId" ON "players"("teamId")"#,
                #"CREATE INDEX "players_on_countryCode" ON "players"("countryCode")"#,
            ])
        }
    }

    @Test func singularTableWins() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.inDatabase { db in
            try db.create(table: "team") { t in t.primaryKey("name", .text) }
            try db.create(table: "teams") { t in t.autoIncrementedPrimaryKey("id") }
            try db.create(table: "player") { t in t.belongsTo("team") }
            #expect(try db.foreignKeys(on: "player").first?.destinationTable == "team")
            #expect(try db.columns(in: "player").map(\.name) == ["teamName"])
        }
    }

    @Test func missingTableThrows() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.inDatabase { db throws in
            let error = #expect(throws: DatabaseError.self) {
                try db.create(table: "player") { t in t.belongsTo("team") }
            }
            #expect(error?.message == "no such table: team")
            #expect(try !db.tableExists("player"))
        }
    }

    @Test func compositePrimaryKey() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.inDatabase { db in
            try db.create(table: "citizenship") { t in
                t.column("countryCode", .text)
                t.column("personId", .integer)
                t.primaryKey(["countryCode", "personId"])
            }
            let sql = try recordedSchemaSQL(db) {
                try db.create(table: "passport") { t in
                    t.autoIncrementedPrimaryKey("id")
                    t.belongsTo("citizenship", onDelete: .cascade).notNull()
                }
                try db.create(table: "visa") { t in
                    t.belongsTo("citizenship").unique()
                    t.belongsTo("other", inTable: "citizenship", indexed: false)
                }
            }
            #expect(sql == [
                """
                CREATE TABLE "passport" ("id" INTEGER PRIMARY KEY AUTOINCREMENT, \
                "citizenshipCountryCode" TEXT NOT NULL, "citizenshipPersonId" INTEGER NOT NULL, \
                FOREIGN KEY ("citizenshipCountryCode", "citizenshipPersonId") REFERENCES "citizenship"("countryCode", "personId") ON DELETE CASCADE)
                """,
                    #"CREATE INDEX "index_passport_on_citizenshipCountryCode_citizenshipPersonId" ON "passport"("citizenshipCountryCode", "citizenshipPersonId")"#,
                """
                CREATE TABLE "visa" ("citizenshipCountryCode" TEXT, "citizenshipPersonId" INTEGER, \
                "otherCountryCode" TEXT, "otherPersonId" INTEGER, \
                FOREIGN KEY ("citizenshipCountryCode", "citizenshipPersonId") REFERENCES "citizenship"("countryCode", "personId"), \
                FOREIGN KEY ("otherCountryCode", "otherPersonId") REFERENCES "citizenship"("countryCode", "personId"))
                """,
                    #"CREATE UNIQUE INDEX "index_visa_on_citizenshipCountryCode_citizenshipPersonId" ON "visa"("citizenshipCountryCode", "citizenshipPersonId")"#
            ])

            try db.execute(sql: "INSERT INTO citizenship VALUES ('FR', 1)")
            try db.execute(sql: "INSERT INTO passport (citizenshipCountryCode, citizenshipPersonId) VALUES ('FR', 1)")
            let error = #expect(throws: DatabaseError.self) {
                try db.execute(
                    sql: "INSERT INTO passport (citizenshipCountryCode, citizenshipPersonId) VALUES ('FR', 2)")
            }
            #expect(error?.extendedResultCode == .SQLITE_CONSTRAINT_FOREIGNKEY)
            try db.execute(sql: "DELETE FROM citizenship")
            #expect(try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM passport") == 0)
        }
    }

    @Test func primaryKeyMadeOfForeignKeys() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.inDatabase { db in
            try db.create(table: "user") { t in t.autoIncrementedPrimaryKey("id") }
            try db.create(table: "group") { t in t.primaryKey("uuid", .text) }
            let sql = try recordedSchemaSQL(db) {
                try db.create(table: "membership") { t in
                    t.primaryKey {
                        t.belongsTo("user", onDelete: .cascade)
                        t.belongsTo("group")
                    }
                    t.column("role", .text)
                }
            }
            // Primary key columns are NOT NULL and not indexed again.
            #expect(sql == [
                """
                CREATE TABLE "membership" (\
                "userId" INTEGER NOT NULL REFERENCES "user"("id") ON DELETE CASCADE, \
                "groupUuid" TEXT NOT NULL REFERENCES "group"("uuid"), \
                "role" TEXT, \
                PRIMARY KEY ("userId", "groupUuid"))
                """,
            ])
            #expect(try db.primaryKey("membership").columns == ["userId", "groupUuid"])
        }
    }

    @Test func selfReference() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.inDatabase { db in
            let sql = try recordedSchemaSQL(db) {
                try db.create(table: "employee") { t in
                    t.autoIncrementedPrimaryKey("id")
                    t.belongsTo("manager", inTable: "employee", onDelete: .setNull)
                }
                try db.create(table: "nodes") { t in
                    t.primaryKey("path", .text)
                    t.belongsTo("node")
                }
                try db.create(table: "folder") { t in // hidden rowid
                    t.column("name", .text)
                    t.belongsTo("folder", indexed: false)
                }
                try db.create(table: "cell") { t in
                    t.column("x", .integer)
                    t.column("y", .integer)
                    t.primaryKey(["x", "y"])
                    t.belongsTo("next", inTable: "cell", indexed: false)
                }
            }
            #expect(sql == [
                    #"CREATE TABLE "employee" ("id" INTEGER PRIMARY KEY AUTOINCREMENT, "managerId" INTEGER REFERENCES "employee"("id") ON DELETE SET NULL)"#,
                #"CREATE INDEX "employee_on_managerId" ON "employee"("managerId")"#,
                #"CREATE TABLE "nodes" ("path" TEXT PRIMARY KEY NOT NULL, "nodePath" TEXT REFERENCES "nodes"("path"))"#,
                #"CREATE INDEX "nodes_on_nodePath" ON "nodes"("nodePath")"#,
                #"CREATE TABLE "folder" ("name" TEXT, "folderId" INTEGER REFERENCES "folder"("rowid"))"#,
                    #"CREATE TABLE "cell" ("x" INTEGER, "y" INTEGER, "nextX" INTEGER, "nextY" INTEGER, PRIMARY KEY ("x", "y"), FOREIGN KEY ("nextX", "nextY") REFERENCES "cell"("x", "y"))"#
            ])
            try db.execute(
                sql: "INSERT INTO employee (id) VALUES (1); INSERT INTO employee (id, managerId) VALUES (2, 1)")
            try db.execute(sql: "DELETE FROM employee WHERE id = 1")
            #expect(try Bool.fetchOne(db, sql: "SELECT managerId IS NULL FROM employee WHERE id = 2") == true)
        }
    }

    @Test func quotedNames() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.inDatabase { db in
            try db.create(table: "my \"team\"") { t in t.primaryKey("the id", .integer) }
            let sql = try recordedSchemaSQL(db) {
                try db.create(table: "joueur ⚽️") { t in
                    t.belongsTo("équipe", inTable: "my \"team\"")
                }
            }
            #expect(sql == [
                #"CREATE TABLE "joueur ⚽️" ("équipeThe id" INTEGER REFERENCES "my ""team"""("the id"))"#,
                #"CREATE INDEX "joueur ⚽️_on_équipeThe id" ON "joueur ⚽️"("équipeThe id")"#,
            ])
        }
    }
}
