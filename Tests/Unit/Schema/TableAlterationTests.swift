import Testing
import GRDBLite

@Suite struct TableAlterationTests {
    @Test func alterations() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.inDatabase { db in
            try db.create(table: "team") { t in t.primaryKey("code", .text) }
            try db.create(table: "player") { t in
                t.autoIncrementedPrimaryKey("id")
                t.column("name", .text)
                t.column("legacy")
            }
            try db.execute(sql: "INSERT INTO player (name, legacy) VALUES ('Arthur', 1)")
            let sql = try recordedSchemaSQL(db) {
                try db.alter(table: "player") { t in
                    t.add(column: "score", .integer).notNull().defaults(to: 0)
                    t.add(column: "email", .text).collate(.nocase).indexed()
                    t.add(column: "teamCode", .text).references("team", onDelete: .setNull)
                    t.add(column: "captainId", .integer).references("player")
                    t.addColumn(sql: "bonus INTEGER DEFAULT 1")
                    t.addColumn(literal: "note TEXT DEFAULT \("n/a")")
                    t.rename(column: "name", to: "fullName")
                    t.drop(column: "legacy")
                }
            }
            #expect(sql == [
                #"ALTER TABLE "player" ADD COLUMN "score" INTEGER NOT NULL DEFAULT 0"#,
                #"ALTER TABLE "player" ADD COLUMN "email" TEXT COLLATE NOCASE"#,
                #"CREATE INDEX "player_on_email" ON "player"("email")"#,
                #"ALTER TABLE "player" ADD COLUMN "teamCode" TEXT REFERENCES "team"("code") ON DELETE SET NULL"#,
                #"ALTER TABLE "player" ADD COLUMN "captainId" INTEGER REFERENCES "player"("id")"#,
                #"ALTER TABLE "player" ADD COLUMN bonus INTEGER DEFAULT 1"#,
                #"ALTER TABLE "player" ADD COLUMN note TEXT DEFAULT 'n/a'"#,
                #"ALTER TABLE "player" RENAME COLUMN "name" TO "fullName""#,
                #"ALTER TABLE "player" DROP COLUMN "legacy""#,
            ])
            #expect(try db.columns(in: "player").map(\.name)
                == ["id", "fullName", "score", "email", "teamCode", "captainId", "bonus", "note"])
            let row = try #require(try Row.fetchOne(db, sql: "SELECT fullName, score, bonus, note FROM player"))
            #expect(row == ["fullName": "Arthur", "score": 0, "bonus": 1, "note": "n/a"])
            #expect(try db.indexes(on: "player").map(\.name) == ["player_on_email"])
        }
    }

    @Test func failingAlterationThrows() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.inDatabase { db in
            try db.create(table: "t") { t in t.column("a") }
            let error = #expect(throws: DatabaseError.self) {
                try db.alter(table: "t") { t in t.drop(column: "missing") }
            }
            #expect(error?.resultCode == .SQLITE_ERROR)
            #expect(error?.sql == #"ALTER TABLE "t" DROP COLUMN "missing""#)
            // NOT NULL without default can't be added to a table with rows.
            try db.execute(sql: "INSERT INTO t (a) VALUES (1)")
            let notNullError = #expect(throws: DatabaseError.self) {
                try db.alter(table: "t") { t in t.add(column: "b", .text).notNull() }
            }
            #expect(notNullError?.message == "Cannot add a NOT NULL column with default value NULL")
        }
    }

    @Test func schemaCacheFollowsAlterations() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.inDatabase { db in
            try db.create(table: "t") { t in t.column("a") }
            #expect(try db.columns(in: "t").map(\.name) == ["a"])
            try db.alter(table: "t") { t in t.add(column: "b") }
            #expect(try db.columns(in: "t").map(\.name) == ["a", "b"])
            try db.alter(table: "t") { t in t.rename(column: "b", to: "c") }
            #expect(try db.columns(in: "t").map(\.name) == ["a", "c"])
        }
    }
}

@Suite struct IndexDefinitionTests {
    @Test func createAndDropIndexes() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.inDatabase { db in
            try db.create(table: "player") { t in
                t.column("name", .text)
                t.column("email", .text)
                t.column("score", .integer)
            }
            let sql = try recordedSchemaSQL(db) {
                try db.create(index: "byName", on: "player", columns: ["name"])
                try db.create(index: "byEmail", on: "player", columns: ["email"], options: [.unique, .ifNotExists])
                try db.create(index: "byEmail", on: "player", columns: ["email"], unique: true, ifNotExists: true)
                try db.create(
                    index: "byScore", on: "player", columns: ["score", "name"], condition: SQL("score > \(0)"))
                try db.create(index: "byLowerName", on: "player", expressions: [SQL("lower(name)")])
                try db.create(indexOn: "player", columns: ["score"])
                try db.drop(index: "byName")
                try db.drop(indexOn: "player", columns: ["SCORE"])
                try db.drop(indexOn: "player", columns: ["missing"]) // no such index: does nothing
            }
            #expect(sql == [
                #"CREATE INDEX "byName" ON "player"("name")"#,
                #"CREATE UNIQUE INDEX IF NOT EXISTS "byEmail" ON "player"("email")"#,
                #"CREATE UNIQUE INDEX IF NOT EXISTS "byEmail" ON "player"("email")"#,
                #"CREATE INDEX "byScore" ON "player"("score", "name") WHERE score > 0"#,
                #"CREATE INDEX "byLowerName" ON "player"(lower(name))"#,
                #"CREATE INDEX "index_player_on_score" ON "player"("score")"#,
                #"DROP INDEX "byName""#,
                #"DROP INDEX "index_player_on_score""#,
            ])
            // byLowerName is an expression index: not listed.
            let indexes = try db.indexes(on: "player")
            #expect(Set(indexes.map(\.name)) == ["byEmail", "byScore"])
            try db.execute(sql: "INSERT INTO player (email) VALUES ('a')")
            let error = #expect(throws: DatabaseError.self) {
                try db.execute(sql: "INSERT INTO player (email) VALUES ('a')")
            }
            #expect(error?.extendedResultCode == .SQLITE_CONSTRAINT_UNIQUE)
        }
    }

    @Test func failingIndexThrows() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.inDatabase { db throws in
            let error = #expect(throws: DatabaseError.self) {
                try db.create(index: "i", on: "missing", columns: ["a"])
            }
            #expect(error?.message == "no such table: main.missing")
            #expect(throws: DatabaseError.self) { try db.drop(index: "missing") }
        }
    }
}
