import GRDBLite
import Testing

private typealias Player = QueryInterfaceFixtures.Player

@Suite struct TableAliasTests {
    let dbQueue: DatabaseQueue

    init() throws {
        dbQueue = try QueryInterfaceFixtures.makeDatabase()
    }

    @Test func namedAliasQualifiesColumns() throws {
        try dbQueue.read { db throws in
            let alias = TableAlias<Player>(name: "p")
            let request = Player.aliased(alias).filter { $0.score > 500 }.order(alias.name.desc)
            let (sql, arguments) = try sqlAndArguments(db, request)
            #expect(sql == #"SELECT "p".* FROM "player" "p" WHERE "p"."score" > ? ORDER BY "p"."name" DESC"#)
            #expect(arguments == [500])
            #expect(try request.fetchAll(db).map(\.id) == [5, 2])
        }
    }

    @Test func subscripts() throws {
        try dbQueue.read { db throws in
            let alias = TableAlias(name: "p")
            let request = Table("player").aliased(alias)
                .select(alias[Column("name")], alias["score"].forKey("points"))
                .filter(alias[Column("team") == "red"])
                .order(alias[Column("id").desc])
            #expect(try sqlAndArguments(db, request).sql == #"""
                SELECT "p"."name", "p"."score" AS "points" FROM "player" "p" \#
                WHERE "p"."team" = ? ORDER BY "p"."id" DESC
                """#)
            #expect(try request.fetchAll(db) == [["name": "Craig", "points": nil], ["name": "Arthur", "points": 100]])

            let selection = Table("player").aliased(alias).select(alias[AllColumns()]).filter(key: 1)
            #expect(try sqlAndArguments(db, selection).sql == #"SELECT "p".* FROM "player" "p" WHERE "p"."id" = ?"#)
        }
    }

    @Test func unnamedAliasOfASingleTableIsInvisible() throws {
        try dbQueue.read { db throws in
            let alias = TableAlias<Player>()
            let request = Player.all().aliased(alias).filter(alias.score > 500)
            #expect(try sqlAndArguments(db, request).sql == #"SELECT * FROM "player" WHERE "score" > ?"#)
        }
    }

    @Test func correlatedSubquery() throws {
        try dbQueue.read { db throws in
            // Players whose score is at least the average of their team
            let player = TableAlias<Player>()
            let other = TableAlias<Player>(name: "other")
            let teamAverage = Player.aliased(other)
                .filter { $0.team == player.team }
                .select(average(Column("score")))
            let request = Player.aliased(player).filter { $0.score >= teamAverage }.order(\.id)
            let (sql, arguments) = try sqlAndArguments(db, request)
            #expect(sql == #"""
                SELECT * FROM "player" WHERE "score" >= \#
                (SELECT AVG("other"."score") FROM "player" "other" WHERE "other"."team" = "player"."team") \#
                ORDER BY "id"
                """#)
            #expect(arguments.isEmpty)
            #expect(try request.fetchAll(db).map(\.id) == [1, 2, 5])

            // Existence of a better player in the same team
            let better = TableAlias<Player>(name: "better")
            let hasBetter = Player.aliased(better)
                .filter { $0.team == player.team && $0.score > player.score }
                .exists()
            let notBest = Player.aliased(player).filter(hasBetter)
            #expect(try sqlAndArguments(db, notBest).sql == #"""
                SELECT * FROM "player" WHERE EXISTS (SELECT "better".* FROM "player" "better" \#
                WHERE ("better"."team" = "player"."team") AND ("better"."score" > "player"."score"))
                """#)
            #expect(try notBest.fetchCount(db) == 0)
            #expect(try Player.aliased(player).filter(!hasBetter).fetchCount(db) == 5)
        }
    }

    @Test func correlatedSubqueryOnAnUnnamedTableOfTheSameNameIsAProgrammerError() async {
        // `"player"."team"` would read the table of the subquery.
        await #expect(processExitsWith: .failure) {
            let dbQueue = try QueryInterfaceFixtures.makeDatabase()
            let player = TableAlias<Player>()
            let teamAverage = Player.filter { $0.team == player.team }.select(average(Column("score")))
            _ = try dbQueue.read { db in try Player.aliased(player).filter { $0.score >= teamAverage }.fetchAll(db) }
        }
    }

    /// A view has no primary key: a row of it exists if a column is not NULL.
    @Test func existenceInAViewWithoutPrimaryKey() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db throws in
            try db.execute(sql: """
                CREATE TABLE team(name TEXT PRIMARY KEY, color TEXT);
                INSERT INTO team VALUES ('red', 'ff0000');
                CREATE VIEW teamView AS SELECT * FROM team;
                CREATE TABLE player(id INTEGER PRIMARY KEY, team TEXT);
                INSERT INTO player VALUES (1, 'red'), (2, 'blue');
                """)
            let association = Table("player").belongsTo(Table("teamView"), using: ForeignKey(["team"], to: ["name"]))
            let alias = TableAlias()
            let request = Table("player").joining(optional: association.aliased(alias)).filter(!alias.exists)
            let (sql, _) = try sqlAndArguments(db, request)
            #expect(
                sql
                    == #"SELECT "player".* FROM "player" LEFT JOIN "teamView" ON "teamView"."name" = "player"."team" WHERE ("teamView"."name" IS NULL) AND ("teamView"."color" IS NULL)"#
            )
            #expect(try request.fetchAll(db).map { $0["id"] as Int64 } == [2])
        }
    }

    @Test func aliasingTwiceMergesAliases() throws {
        try dbQueue.read { db throws in
            let first = TableAlias<Player>()
            let second = TableAlias<Player>(name: "q")
            let request = Player.aliased(first).aliased(second).filter(first.score > 500)
            #expect(try sqlAndArguments(db, request).sql == #"SELECT "q".* FROM "player" "q" WHERE "q"."score" > ?"#)
            #expect(try request.fetchCount(db) == 2)
        }
    }

    @Test func aliasInBatchOperations() throws {
        try dbQueue.write { db throws in
            let alias = TableAlias<Player>(name: "p")
            let request = Player.aliased(alias).filter(alias.score < 600)
            let updateSQL = try recordedSQL(db) {
                try request.updateAll(db) { $0.score.set(to: alias.score + 1) }
            }
            #expect(updateSQL == [#"UPDATE "player" AS "p" SET "score" = "p"."score" + ? WHERE "p"."score" < ?"#])
            #expect(
                try Player.filter(keys: [1, 4]).order(\.id).select(\.score, as: Int.self).fetchAll(db) == [101, 501])

            let deleteSQL = try recordedSQL(db) { try request.deleteAll(db) }
            #expect(deleteSQL == [#"DELETE FROM "player" AS "p" WHERE "p"."score" < ?"#])
            #expect(try Player.fetchCount(db) == 3)
        }
    }

    @Test func aliasForTwoTablesIsAProgrammerError() async {
        await #expect(processExitsWith: .failure) {
            let alias = TableAlias()
            _ = Table("player").aliased(alias)
            _ = Table("team").aliased(alias)
        }
    }
}
