import GRDBLite
import Testing

private typealias Player = QueryInterfaceFixtures.Player

/// A record whose updates replace conflicting rows.
private struct ReplacingPlayer: TableRecord, MutablePersistableRecord, Encodable {
    static let databaseTableName = "player"
    static let persistenceConflictPolicy = PersistenceConflictPolicy(insert: .abort, update: .replace)
    var id: Int64
}

@Suite struct BatchDeleteUpdateTests {
    let dbQueue: DatabaseQueue

    init() throws {
        dbQueue = try QueryInterfaceFixtures.makeDatabase()
    }

    // MARK: - deleteAll

    @Test func deleteAll() throws {
        try dbQueue.write { db throws in
            var count = 0
            let sql = try recordedSQL(db) { count = try Player.filter { $0.score < 600 }.deleteAll(db) }
            #expect(sql == [#"DELETE FROM "player" WHERE "score" < ?"#])
            #expect(count == 2)
            #expect(try Player.selectID().fetchAll(db) == [2, 3, 5])

            #expect(try recordedSQL(db) { count = try Player.filter(key: 3).deleteAll(db) }
                == [#"DELETE FROM "player" WHERE "id" = ?"#])
            #expect(count == 1)

            #expect(try Player.none().deleteAll(db) == 0)
            #expect(try recordedSQL(db) { count = try Player.all().deleteAll(db) } == [#"DELETE FROM "player""#])
            #expect(count == 2)
            #expect(try Player.fetchCount(db) == 0)
        }
    }

    /// `ORDER BY` and `LIMIT` go to SQLite, as in GRDB: Debian's SQLite
    /// (SQLITE_ENABLE_UPDATE_DELETE_LIMIT) honors them; a SQLite without
    /// the option (the 3.54.1 of `sqlite-build.sh`) reports its syntax
    /// error, and nothing is deleted.
    @Test func deleteAllWithOrderAndLimit() throws {
        try dbQueue.write { db throws in
            let request = Player.order { [$0.score.desc, $0.id] }.limit(1)
            let sql = #"DELETE FROM "player" ORDER BY "score" DESC, "id" LIMIT ?"#
            guard sqliteHasUpdateDeleteLimit else {
                let error = try #require(throws: DatabaseError.self) { try request.deleteAll(db) }
                #expect(error.message == #"near "ORDER": syntax error"#)
                #expect(error.sql == sql)
                #expect(try Player.selectID().fetchAll(db) == [1, 2, 3, 4, 5])
                return
            }
            var count = 0
            #expect(try recordedSQL(db) { count = try request.deleteAll(db) } == [sql])
            #expect(count == 1)
            #expect(try Player.selectID().fetchAll(db) == [1, 3, 4, 5])
        }
    }

    @Test func deleteAllOfATable() throws {
        try dbQueue.write { db throws in
            #expect(try Table("player").filter(Column("team") == "red").deleteAll(db) == 2)
            #expect(try Table("player").deleteAll(db) == 3)
        }
    }

    @Test func deleteAllGroupedByAUniqueKey() throws {
        try dbQueue.write { db throws in
            var count = 0
            var sql = try recordedSQL(db) {
                count = try Player.filter { $0.score > 500 }.groupByPrimaryKey().deleteAll(db)
            }
            #expect(
                sql == [
                    #"DELETE FROM "player" WHERE "id" IN (SELECT "id" FROM "player" WHERE "score" > ? GROUP BY "id")"#
                ])
            #expect(count == 2)
            #expect(try Player.selectID().fetchAll(db) == [1, 3, 4])

            sql = try recordedSQL(db) {
                count = try Player.all().group(-Column("id")).having(Column("id") < 3).deleteAll(db)
            }
            #expect(
                sql == [
                    #"DELETE FROM "player" WHERE "id" IN (SELECT "id" FROM "player" GROUP BY -"id" HAVING "id" < ?)"#
                ])
            #expect(count == 1)

            // A unique index; the rowid of a table whose primary key is not.
            sql = try recordedSQL(db) { count = try Player.all().group(Column("name"), Column("team")).deleteAll(db) }
            #expect(
                sql.last == #"DELETE FROM "player" WHERE "id" IN (SELECT "id" FROM "player" GROUP BY "name", "team")"#)
            #expect(count == 2)
            try db.execute(sql: "CREATE TABLE passport (country TEXT, citizen INTEGER, PRIMARY KEY (country, citizen))")
            try db.execute(sql: "INSERT INTO passport VALUES ('fr', 1), ('fr', 2)")
            sql = try recordedSQL(db) { count = try Table("passport").all().group(Column.rowID).deleteAll(db) }
            #expect(
                sql.last
                    == #"DELETE FROM "passport" WHERE "rowid" IN (SELECT "rowid" FROM "passport" GROUP BY "rowid")"#)
            #expect(count == 2)
        }
    }

    @Test func deletingOrUpdatingARequestGroupedByANonUniqueKeyThrows() throws {
        try dbQueue.write { db throws in
            for request in [Player.all().group(Column("team")), Player.all().group(Column("id") * 2)] {
                let error = try #require(throws: DatabaseError.self) { try request.deleteAll(db) }
                #expect(error.resultCode == .SQLITE_MISUSE)
                let updateError = try #require(throws: DatabaseError.self) {
                    try request.updateAll(db, Column("score").set(to: 0))
                }
                #expect(updateError.resultCode == .SQLITE_MISUSE)
            }
            try db.execute(sql: "CREATE VIEW playerView AS SELECT * FROM player")
            let error = try #require(throws: DatabaseError.self) {
                try Table("playerView").all().group(Column("id")).deleteAll(db)
            }
            #expect(error.resultCode == .SQLITE_MISUSE)
            #expect(try Player.fetchCount(db) == 5)
        }
    }

    // MARK: - updateAll

    @Test func updateAll() throws {
        try dbQueue.write { db throws in
            var count = 0
            let sql = try recordedSQL(db) { count = try Player.updateAll(db, Column("score").set(to: 0)) }
            #expect(sql == [#"UPDATE "player" SET "score" = ?"#])
            #expect(count == 5)
            #expect(try Player.select(\.score, as: Int.self).fetchSet(db) == [0])
        }
    }

    @Test func updateAllWithFilterAndClosure() throws {
        try dbQueue.write { db throws in
            var count = 0
            let sql = try recordedSQL(db) {
                count = try Player.filter { $0.team == "red" }.updateAll(db) { $0.score += 10 }
            }
            #expect(sql == [#"UPDATE "player" SET "score" = "score" + ? WHERE "team" = ?"#])
            #expect(count == 2)
            #expect(try Player.order(\.id).select(\.score, as: Int?.self).fetchAll(db) == [110, 1000, nil, 500, 1000])
        }
    }

    @Test(arguments: [
        (Column("score") += 5, #""score" = "score" + ?"#, 105),
        (Column("score") -= 5, #""score" = "score" - ?"#, 95),
        (Column("score") *= 3, #""score" = "score" * ?"#, 300),
        (Column("score") /= 3, #""score" = "score" / ?"#, 33),
        (Column("score") &= 6, #""score" = "score" & ?"#, 4),
        (Column("score") |= 1, #""score" = "score" | ?"#, 101),
        (Column("score") <<= 1, #""score" = "score" << ?"#, 200),
        (Column("score") >>= 2, #""score" = "score" >> ?"#, 25),
        (Column("score").set(to: Column("id") + 1), #""score" = "id" + ?"#, 2),
    ])
    func assignment(_ assignment: ColumnAssignment, _ setSQL: String, _ arthurScore: Int) throws {
        try dbQueue.write { db throws in
            let sql = try recordedSQL(db) { try Player.filter(key: 1).updateAll(db, assignment) }
            #expect(sql == [#"UPDATE "player" SET "# + setSQL + #" WHERE "id" = ?"#])
            #expect(try Player.select(\.score, as: Int.self).filter(key: 1).fetchOne(db) == arthurScore)
        }
    }

    @Test func updateSeveralColumns() throws {
        try dbQueue.write { db throws in
            let sql = try recordedSQL(db) {
                try Player.filter(key: 4).updateAll(db) {
                    [$0.score *= 2, $0.team.set(to: nil), $0.name.set(to: "Dave")]
                }
            }
            #expect(sql == [#"UPDATE "player" SET "score" = "score" * ?, "team" = ?, "name" = ? WHERE "id" = ?"#])
            #expect(try Player.find(db, key: 4) == Player(id: 4, name: "Dave", score: 1000, team: nil))

            #expect(try Player.updateAll(db) { $0.team.set(to: "green") } == 5)
            #expect(try Player.updateAll(db, assignments: { [$0.score.set(to: 1)] }) == 5)
            #expect(try Table("player").updateAll(db, Column("score").set(to: 2)) == 5)
            #expect(try Player.select(\.team, as: String.self).distinct().fetchAll(db) == ["green"])
        }
    }

    /// As `deleteAllWithOrderAndLimit`: SQLite's syntax error without
    /// SQLITE_ENABLE_UPDATE_DELETE_LIMIT.
    @Test func updateWithOrderAndLimit() throws {
        try dbQueue.write { db throws in
            let request = Player.order(\.id).limit(2, offset: 1)
            let sql = #"UPDATE "player" SET "score" = ? ORDER BY "id" LIMIT ? OFFSET ?"#
            guard sqliteHasUpdateDeleteLimit else {
                let error = try #require(throws: DatabaseError.self) {
                    try request.updateAll(db, Column("score").set(to: 7))
                }
                #expect(error.message == #"near "ORDER": syntax error"#)
                #expect(error.sql == sql)
                #expect(try Player.filter { $0.score == 7 }.fetchCount(db) == 0)
                return
            }
            #expect(try recordedSQL(db) { try request.updateAll(db, Column("score").set(to: 7)) } == [sql])
            #expect(try Player.filter { $0.score == 7 }.selectID().fetchAll(db) == [2, 3])
        }
    }

    @Test func emptyUpdateDoesNotHitTheDatabase() throws {
        try dbQueue.write { db throws in
            var count = -1
            #expect(try recordedSQL(db) { count = try Player.all().updateAll(db, []) }.isEmpty)
            #expect(count == 0)
        }
    }

    @Test func updateAllGroupedByAUniqueKey() throws {
        try dbQueue.write { db throws in
            var count = 0
            let request = Player.filter { $0.team == "red" }.group(Column.rowID)
            let sql = try recordedSQL(db) { count = try request.updateAll(db, Column("score").set(to: 7)) }
            #expect(
                sql == [
                    #"UPDATE "player" SET "score" = ? WHERE "id" IN (SELECT "id" FROM "player" WHERE "team" = ? GROUP BY "rowid")"#
                ])
            #expect(count == 2)
            #expect(try Player.filter { $0.score == 7 }.selectID().fetchAll(db) == [1, 3])
        }
    }

    @Test func conflictResolution() throws {
        try dbQueue.write { db throws in
            // Default: ABORT, the error names the statement.
            let error = try #require(throws: DatabaseError.self) {
                try Player.updateAll(db, Column("name").set(to: "Arthur"))
            }
            #expect(error.resultCode == .SQLITE_CONSTRAINT)
            #expect(error.extendedResultCode == ResultCode(rawValue: 2067)) // SQLITE_CONSTRAINT_UNIQUE
            #expect(error.sql == #"UPDATE "player" SET "name" = ?"#)
            #expect(error.arguments == ["Arthur"])

            let sql = try recordedSQL(db) {
                let count = try Player.all().updateAll(db, onConflict: .ignore, Column("name").set(to: "Arthur"))
                #expect(count == 1)
            }
            #expect(sql == [#"UPDATE OR IGNORE "player" SET "name" = ?"#])
            #expect(try Player.fetchCount(db) == 5)

            // The record's policy is the default.
            let replaceSQL = try recordedSQL(db) {
                try ReplacingPlayer.filter(key: 2).updateAll(db, Column("name").set(to: "Arthur"))
            }
            #expect(replaceSQL == [#"UPDATE OR REPLACE "player" SET "name" = ? WHERE "id" = ?"#])
            #expect(try Player.selectID().fetchAll(db) == [2, 3, 4, 5])
        }
    }
}
