import GRDBLite
import Testing

private typealias Player = QueryInterfaceFixtures.Player

/// A player of a team, for deletes and updates of joined requests.
private struct Member: TableRecord {
    static let databaseTableName = "member"
    static let team = belongsTo(Team.self)
}

private struct Team: TableRecord {
    static let databaseTableName = "team"
    static let members = hasMany(Member.self)
}

@Suite struct QueryInterfaceRequestAndFetchTests {
    let dbQueue: DatabaseQueue

    init() throws {
        dbQueue = try QueryInterfaceFixtures.makeDatabase()
    }

    // MARK: - deleteAndFetch

    @Test func deleteAndFetchStatement() throws {
        try dbQueue.write { db throws in
            var statement = try Player.all().deleteAndFetchStatement(db) { [$0.name] }
            #expect(statement.sql == #"DELETE FROM "player" RETURNING "name""#)
            #expect(statement.columnNames == ["name"])

            statement = try Player.filter { $0.team == "red" }.deleteAndFetchStatement(db, selection: [.allColumns])
            #expect(statement.sql == #"DELETE FROM "player" WHERE "team" = ? RETURNING *"#)
            #expect(statement.columnNames == ["id", "name", "score", "team"])

            statement = try Player.all().deleteAndFetchStatement(db, selection: [Column("id"), Column("score") * 2])
            #expect(statement.sql == #"DELETE FROM "player" RETURNING "id", "score" * ?"#)
            // Nothing deleted until the statement runs.
            #expect(try Player.fetchCount(db) == 5)
            #expect(try String.fetchSet(
                Player.filter { $0.team == "red" }.deleteAndFetchStatement(db, selection: [Column("name")]))
                == ["Arthur", "Craig"])
            #expect(try Player.fetchCount(db) == 3)
        }
    }

    @Test func deleteAndFetchRecords() throws {
        try dbQueue.write { db throws in
            let players = QueryInterfaceFixtures.players
            var sql = try recordedSQL(db) {
                let deleted = try Player.filter { $0.team == "red" }.deleteAndFetchAll(db).sorted { $0.id < $1.id }
                #expect(deleted == [players[0], players[2]])
            }
            #expect(sql == [#"DELETE FROM "player" WHERE "team" = ? RETURNING *"#])

            // Selection and ordering play no part in the RETURNING clause.
            sql = try recordedSQL(db) {
                let deleted = try Player.select(\.name).order(\.name).filter(key: 2).deleteAndFetchSet(db)
                #expect(deleted == [players[1]])
            }
            #expect(sql == [#"DELETE FROM "player" WHERE "id" = ? RETURNING *"#])

            #expect(try Player.filter(key: 4).deleteAndFetchIds(db) == [4])
            #expect(try Player.filter(key: 4).deleteAndFetchIds(db) == [])

            let cursor = try Player.all().deleteAndFetchCursor(db)
            #expect(try cursor.next() == players[4])
            #expect(try cursor.next() == nil)
            #expect(try Player.fetchCount(db) == 0)
        }
    }

    @Test func deleteAndFetchFromAView() throws {
        try dbQueue.write { db throws in
            try db.execute(sql: """
                CREATE VIEW playerView AS SELECT * FROM player;
                CREATE TRIGGER playerViewDelete INSTEAD OF DELETE ON playerView BEGIN
                    DELETE FROM player WHERE id = OLD.id;
                END;
                """)
            let statement = try Table("playerView").filter(Column("score") == 1000)
                .deleteAndFetchStatement(db, selection: [Column("id")])
            #expect(statement.sql == #"DELETE FROM "playerView" WHERE "score" = ? RETURNING "id""#)
            // RETURNING on a view returns nothing: the rows are deleted by
            // the trigger (https://www.sqlite.org/lang_returning.html).
            _ = try Int64.fetchSet(statement)
            #expect(try Player.selectID().fetchAll(db) == [1, 3, 4])
        }
    }

    @Test func deleteAndFetchJoinedAndGroupedRequests() throws {
        try dbQueue.write { db throws in
            try db.execute(sql: """
                CREATE TABLE team (id INTEGER PRIMARY KEY, name TEXT);
                CREATE TABLE member (id INTEGER PRIMARY KEY, teamId INTEGER REFERENCES team(id));
                INSERT INTO team VALUES (1, 'red'), (2, 'blue'), (3, 'green');
                INSERT INTO member VALUES (1, 1), (2, 1), (3, NULL), (4, 2);
                """)
            var statement = try Member.joining(required: Member.team.filter(Column("name") == "red"))
                .deleteAndFetchStatement(db, selection: [Column("id")])
            #expect(statement.sql == """
                DELETE FROM "member" WHERE "id" IN (SELECT "member"."id" FROM "member" \
                JOIN "team" ON ("team"."id" = "member"."teamId") AND ("team"."name" = ?)) RETURNING "id"
                """)
            #expect(try Int64.fetchSet(statement) == [1, 2])

            statement = try Team.having(Team.members.isEmpty).deleteAndFetchStatement(db, selection: [.allColumns])
            #expect(statement.sql == """
                DELETE FROM "team" WHERE "id" IN (SELECT "team"."id" FROM "team" \
                LEFT JOIN "member" ON "member"."teamId" = "team"."id" \
                GROUP BY "team"."id" HAVING COUNT(DISTINCT "member"."id") = 0) RETURNING *
                """)
            #expect(try Row.fetchAll(statement) == [["id": 1, "name": "red"], ["id": 3, "name": "green"]])

            statement = try Player.filter { $0.score > 500 }.groupByPrimaryKey().deleteAndFetchStatement(db) { [$0.id] }
            #expect(statement.sql == """
                DELETE FROM "player" WHERE "id" IN (SELECT "id" FROM "player" WHERE "score" > ? GROUP BY "id") RETURNING "id"
                """)
            #expect(try Int64.fetchSet(statement) == [2, 5])
        }
    }

    // MARK: - updateAndFetch

    @Test func updateAndFetchStatement() throws {
        try dbQueue.write { db throws in
            var statement = try Player.filter(key: 1).updateAndFetchStatement(
                db, [Column("score") += 1], selection: [Column("score")])
            #expect(statement.sql == #"UPDATE "player" SET "score" = "score" + ? WHERE "id" = ? RETURNING "score""#)
            #expect(statement.arguments == [1, 1])
            #expect(try Int.fetchAll(statement) == [101])

            statement = try Player.all().updateAndFetchStatement(db) {
                [$0.score.set(to: 0)]
            } select: {
                [$0.id, $0.team]
            }
            #expect(statement.sql == #"UPDATE "player" SET "score" = ? RETURNING "id", "team""#)
            #expect(statement.columnNames == ["id", "team"])

            statement = try Player.all().updateAndFetchStatement(
                db, onConflict: .ignore, [Column("name").set(to: "Arthur")], selection: [.allColumns])
            #expect(statement.sql == #"UPDATE OR IGNORE "player" SET "name" = ? RETURNING *"#)
            // Only the row that already had the name is updated.
            #expect(try Player.fetchAll(statement) == [Player(id: 1, name: "Arthur", score: 101, team: "red")])
        }
    }

    @Test func updateAndFetchRecords() throws {
        try dbQueue.write { db throws in
            let sql = try recordedSQL(db) {
                let updated = try Player.filter { $0.team == "blue" }.updateAndFetchAll(db, [Column("score") += 1])
                #expect(updated.sorted { $0.id < $1.id } == [
                    Player(id: 2, name: "Barbara", score: 1001, team: "blue"),
                    Player(id: 5, name: "Élodie", score: 1001, team: "blue"),
                ])
            }
            #expect(sql == [#"UPDATE "player" SET "score" = "score" + ? WHERE "team" = ? RETURNING *"#])

            #expect(try Player.filter(key: 4).updateAndFetchSet(db) { [$0.team.set(to: "green")] }
                == [Player(id: 4, name: "David", score: 500, team: "green")])
            #expect(try Player.filter(key: 3).updateAndFetchAll(db) { [$0.score.set(to: 7)] }
                == [Player(id: 3, name: "Craig", score: 7, team: "red")])
            #expect(try Player.filter(key: 1).updateAndFetchSet(db, [Column("score").set(to: nil)])
                == [Player(id: 1, name: "Arthur", score: nil, team: "red")])

            let cursor = try Player.filter(key: 1).updateAndFetchCursor(db) { [$0.name.set(to: "Art")] }
            #expect(try cursor.next()?.name == "Art")
            #expect(try cursor.next() == nil)
            #expect(try Player.find(db, key: 1).name == "Art")
        }
    }

    @Test func updateAndFetchGroupedRequest() throws {
        try dbQueue.write { db throws in
            let statement = try Player.filter { $0.team == "red" }.group(Column.rowID)
                .updateAndFetchStatement(db, [Column("score").set(to: 7)], selection: [Column("id")])
            #expect(statement.sql == """
                UPDATE "player" SET "score" = ? WHERE "id" IN (SELECT "id" FROM "player" WHERE "team" = ? GROUP BY "rowid") \
                RETURNING "id"
                """)
            #expect(try Int64.fetchSet(statement) == [1, 3])
        }
    }
}
