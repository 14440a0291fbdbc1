import GRDBLite
import Testing

private typealias Player = QueryInterfaceFixtures.Player

/// A subquery is an expression: operators, orderings, selections and the
/// methods of expressions apply to it, as in GRDB.
@Suite struct SQLSubqueryTests {
    private let maxScore = Player.select(max(Player.Columns.score)).sqlSubquery

    @Test func operatorsCompareWithTheSubquery() throws {
        let dbQueue = try QueryInterfaceFixtures.makeDatabase()
        try dbQueue.read { db throws in
            let request = Player.filter(Player.Columns.score == maxScore).order(Player.Columns.id)
            let (sql, _) = try sqlAndArguments(db, request)
            #expect(sql == #"SELECT * FROM "player" WHERE "score" = (SELECT MAX("score") FROM "player") ORDER BY "id""#)
            #expect(try request.fetchAll(db).map(\.id) == [2, 5])

            let doubled = try Int.fetchOne(db, Player.select(maxScore * 2 + 1))
            #expect(doubled == 2001)
            #expect(try Bool.fetchOne(db, Player.select(maxScore > 999)) == true)
            #expect(try Int.fetchOne(db, Player.select(-maxScore)) == -1000)
            let empty = Player.filter(Player.Columns.id > 10).select(Player.Columns.score).sqlSubquery
            #expect(try Int.fetchOne(db, Player.select(empty ?? 7)) == 7)
        }
    }

    @Test func containsExistsAndKey() throws {
        let dbQueue = try QueryInterfaceFixtures.makeDatabase()
        try dbQueue.read { db throws in
            let blueIDs = Player.filter(Player.Columns.team == "blue").select(Player.Columns.id).sqlSubquery
            let request = Player.filter(blueIDs.contains(Player.Columns.id)).order(Player.Columns.id)
            #expect(try request.fetchAll(db).map(\.id) == [2, 5])
            #expect(try Bool.fetchOne(db, Player.limit(1).select(blueIDs.exists())) == true)

            let row = try #require(try Row.fetchOne(db, Player.limit(1).select(maxScore.forKey("best"))))
            #expect(row["best"] as Int == 1000)
        }
    }

    @Test func orderingsStringsAndCollations() throws {
        let dbQueue = try QueryInterfaceFixtures.makeDatabase()
        try dbQueue.read { db throws in
            let first = Player.select(Player.Columns.name).order(Player.Columns.id).limit(1).sqlSubquery
            let (sql, _) = try sqlAndArguments(db, Player.select(Player.Columns.id).order(first.desc, first.asc))
            #expect(sql.contains(#"ORDER BY (SELECT "name" FROM "player" ORDER BY "id" LIMIT ?) DESC, "#))
            #expect(try String.fetchOne(db, Player.limit(1).select(first.uppercased)) == "ARTHUR")
            #expect(try String.fetchOne(db, Player.limit(1).select(first.lowercased)) == "arthur")
            #expect(try Bool.fetchOne(db, Player.limit(1).select(first.like("art%"))) == true)
            #expect(try Bool.fetchOne(db, Player.limit(1).select(first.collating(.nocase) == "ARTHUR")) == true)
            let (collated, _) = try sqlAndArguments(db, Player.select(first.collating(.nocase) == "x"))
            #expect(collated.contains(#"LIMIT ?) = ? COLLATE NOCASE"#))
        }
    }
}
