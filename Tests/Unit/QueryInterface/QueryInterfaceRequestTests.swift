@_spi(GRDBLite) import GRDBLite
import Testing

private typealias Player = QueryInterfaceFixtures.Player
private let players = QueryInterfaceFixtures.players

@Suite struct QueryInterfaceRequestTests {
    let dbQueue: DatabaseQueue

    init() throws {
        dbQueue = try QueryInterfaceFixtures.makeDatabase()
    }

    // MARK: - All, none

    @Test func all() throws {
        try dbQueue.read { db throws in
            #expect(try sqlAndArguments(db, Player.all()).sql == #"SELECT * FROM "player""#)
            #expect(try Player.all().fetchAll(db) == players)
            #expect(try Player.all().all().fetchCount(db) == 5)
        }
    }

    @Test func none() throws {
        try dbQueue.read { db throws in
            let (sql, arguments) = try sqlAndArguments(db, Player.none())
            #expect(sql == #"SELECT * FROM "player" WHERE ?"#)
            #expect(arguments == [false])
            #expect(try Player.none().fetchAll(db).isEmpty)
            #expect(try Player.all().none().fetchCount(db) == 0)
        }
    }

    // MARK: - Filter

    @Test func filtersAreCombinedWithAnd() throws {
        try dbQueue.read { db throws in
            let request = Player.filter { $0.score > 100 }.filter(Column("team") == "blue").filter {
                $0.name != "Élodie"
            }
            let (sql, arguments) = try sqlAndArguments(db, request)
            #expect(sql == #"SELECT * FROM "player" WHERE ("score" > ?) AND ("team" = ?) AND ("name" <> ?)"#)
            #expect(arguments == [100, "blue", "Élodie"])
            #expect(try request.fetchAll(db).map(\.id) == [2])
        }
    }

    @Test func filterWithSQL() throws {
        try dbQueue.read { db throws in
            let request = Player.filter(sql: "score > ? OR score IS NULL", arguments: [500])
            #expect(try sqlAndArguments(db, request).sql == #"SELECT * FROM "player" WHERE score > ? OR score IS NULL"#)
            #expect(try request.fetchAll(db).map(\.id) == [2, 3, 5])

            let combined = request.filter { $0.team == "red" }
            let (sql, arguments) = try sqlAndArguments(db, combined)
            #expect(sql == #"SELECT * FROM "player" WHERE (score > ? OR score IS NULL) AND ("team" = ?)"#)
            #expect(arguments == [500, "red"])
            #expect(try combined.fetchAll(db).map(\.id) == [3])

            let minimum = 500
            let literal = Player.filter(literal: "\(Column("score")) >= \(minimum)")
            let (literalSQL, literalArguments) = try sqlAndArguments(db, literal)
            #expect(literalSQL == #"SELECT * FROM "player" WHERE "score" >= ?"#)
            #expect(literalArguments == [500])
            #expect(try literal.fetchCount(db) == 3)
        }
    }

    @Test func filterByPrimaryKey() throws {
        try dbQueue.write { db throws in
            let one = Player.filter(key: 2)
            let (sql, arguments) = try sqlAndArguments(db, one)
            #expect(sql == #"SELECT * FROM "player" WHERE "id" = ?"#)
            #expect(arguments == [2])
            #expect(try one.fetchOne(db)?.name == "Barbara")

            let many = Player.all().filter(keys: [1, 3, 99])
            #expect(try sqlAndArguments(db, many).sql == #"SELECT * FROM "player" WHERE "id" IN (?, ?, ?)"#)
            #expect(try many.fetchAll(db).map(\.id) == [1, 3])

            #expect(try Player.filter(id: 4).fetchOne(db)?.name == "David")
            #expect(try Set(Player.filter(ids: [4, 5]).fetchAll(db).map(\.id)) == [4, 5])

            // No key: no row, and the WHERE clause says so.
            let noKey: Int64? = nil
            #expect(try Player.filter(key: noKey).fetchAll(db).isEmpty)
            #expect(try sqlAndArguments(db, Player.filter(keys: [Int]())).sql == #"SELECT * FROM "player" WHERE ?"#)
            #expect(try Player.filter(ids: []).fetchCount(db) == 0)

            // The hidden rowid of a table without primary key
            try db.execute(sql: "CREATE TEMP TABLE item (name TEXT); INSERT INTO item VALUES ('a'), ('b')")
            let item = Table("item").filter(key: 2)
            #expect(try sqlAndArguments(db, item).sql == #"SELECT * FROM "item" WHERE "rowid" = ?"#)
            let itemRow = try #require(try item.fetchOne(db))
            #expect(itemRow["name"] as String == "b")
        }
    }

    @Test func filterByUniqueKey() throws {
        try dbQueue.read { db throws in
            let one = Player.filter(key: ["name": "Arthur"])
            let (sql, arguments) = try sqlAndArguments(db, one)
            #expect(sql == #"SELECT * FROM "player" WHERE "name" = ?"#)
            #expect(arguments == ["Arthur"])
            #expect(try one.fetchOne(db)?.id == 1)

            let many = Player.filter(keys: [["name": "Arthur"], ["id": 4, "name": "David"], ["name": nil]])
            let (manySQL, manyArguments) = try sqlAndArguments(db, many)
            #expect(
                manySQL
                    == #"SELECT * FROM "player" WHERE ("name" = ?) OR (("id" = ?) AND ("name" = ?)) OR ("name" IS NULL)"#
            )
            #expect(manyArguments == ["Arthur", 4, "David"])
            #expect(try many.fetchAll(db).map(\.id) == [1, 4])

            let noKey: [String: (any DatabaseValueConvertible)?]? = nil
            #expect(try Player.filter(key: noKey).fetchCount(db) == 0)
            #expect(try Player.filter(keys: []).fetchCount(db) == 0)
        }
    }

    @Test func filterByNonUniqueKeyIsAProgrammerError() async {
        await #expect(processExitsWith: .failure) {
            let dbQueue = try QueryInterfaceFixtures.makeDatabase()
            _ = try dbQueue.read { db in try Player.filter(key: ["team": "red"]).fetchAll(db) }
        }
    }

    // MARK: - Order

    @Test func order() throws {
        try dbQueue.read { db throws in
            let byName = Player.order(\.name)
            #expect(try sqlAndArguments(db, byName).sql == #"SELECT * FROM "player" ORDER BY "name""#)

            let byScoreThenName = Player.all().order { [$0.score.desc, $0.name] }
            #expect(
                try sqlAndArguments(db, byScoreThenName).sql == #"SELECT * FROM "player" ORDER BY "score" DESC, "name""#
            )
            #expect(try byScoreThenName.fetchAll(db).map(\.id) == [2, 5, 4, 1, 3])

            let variadic = Player.order(Column("team").asc, Column("id").desc)
            #expect(try sqlAndArguments(db, variadic).sql == #"SELECT * FROM "player" ORDER BY "team" ASC, "id" DESC"#)
            #expect(try variadic.fetchAll(db).map(\.id) == [4, 5, 2, 3, 1])

            let nullsLast = Player.order { $0.score.ascNullsLast }
            #expect(
                try sqlAndArguments(db, nullsLast).sql == #"SELECT * FROM "player" ORDER BY "score" ASC NULLS LAST"#)
            #expect(try nullsLast.fetchAll(db).map(\.id).prefix(2) == [1, 4])
            #expect(try nullsLast.fetchAll(db).last?.id == 3)

            let nullsFirst = Player.order { $0.score.descNullsFirst }
            #expect(
                try sqlAndArguments(db, nullsFirst).sql == #"SELECT * FROM "player" ORDER BY "score" DESC NULLS FIRST"#)
            #expect(try nullsFirst.fetchAll(db).first?.id == 3)

            // A new ordering replaces the previous one.
            let replaced = Player.order(\.name).order(\.id)
            #expect(try sqlAndArguments(db, replaced).sql == #"SELECT * FROM "player" ORDER BY "id""#)

            let collated = Player.order { $0.name.collating(.localizedCaseInsensitiveCompare) }
            #expect(try sqlAndArguments(db, collated).sql
                == #"SELECT * FROM "player" ORDER BY "name" COLLATE swiftLocalizedCaseInsensitiveCompare"#)
            #expect(try collated.fetchAll(db).map(\.id) == [1, 2, 3, 4, 5])

            let bySQL = Player.order(sql: "score IS NULL, name DESC")
            #expect(try sqlAndArguments(db, bySQL).sql == #"SELECT * FROM "player" ORDER BY score IS NULL, name DESC"#)
            #expect(try bySQL.fetchAll(db).map(\.id) == [5, 4, 2, 1, 3])

            #expect(try sqlAndArguments(db, Player.orderByPrimaryKey()).sql == #"SELECT * FROM "player" ORDER BY "id""#)
        }
    }

    @Test func reversedAndUnordered() throws {
        try dbQueue.read { db throws in
            let reversed = Player.order { [$0.score.desc, $0.name, $0.team.ascNullsLast] }.reversed()
            #expect(try sqlAndArguments(db, reversed).sql
                == #"SELECT * FROM "player" ORDER BY "score" ASC, "name" DESC, "team" DESC NULLS FIRST"#)
            #expect(try reversed.fetchAll(db).map(\.id) == [3, 1, 4, 5, 2])

            let twice = Player.order(\.name).reversed().reversed()
            #expect(try sqlAndArguments(db, twice).sql == #"SELECT * FROM "player" ORDER BY "name""#)

            // Reversing an unordered request does nothing.
            #expect(try sqlAndArguments(db, Player.all().reversed()).sql == #"SELECT * FROM "player""#)

            let unordered = Player.order(\.name).unordered()
            #expect(try sqlAndArguments(db, unordered).sql == #"SELECT * FROM "player""#)

            // A new ordering is not reversed.
            let reordered = Player.order(\.name).reversed().order(\.id)
            #expect(try sqlAndArguments(db, reordered).sql == #"SELECT * FROM "player" ORDER BY "id""#)

            let stable = Player.order(\.team).withStableOrder()
            #expect(try sqlAndArguments(db, stable).sql == #"SELECT * FROM "player" ORDER BY "team", "id""#)
            #expect(
                try sqlAndArguments(db, stable.reversed()).sql
                    == #"SELECT * FROM "player" ORDER BY "team" DESC, "id" DESC"#)
            #expect(try stable.fetchAll(db).map(\.id) == [4, 2, 5, 1, 3])
        }
    }

    @Test func stableOrderOfAViewWithoutPrimaryKey() throws {
        let dbQueue = try QueryInterfaceFixtures.makeDatabase()
        try dbQueue.write { db in
            try db.execute(sql: "CREATE VIEW teamView AS SELECT team, name FROM player")
            // All the columns of the view, by position.
            let stable = Table("teamView").all().withStableOrder()
            #expect(try sqlAndArguments(db, stable).sql == #"SELECT * FROM "teamView" ORDER BY 1, 2"#)
            let ordered = Table("teamView").order(Column("name")).withStableOrder()
            #expect(try sqlAndArguments(db, ordered).sql == #"SELECT * FROM "teamView" ORDER BY "name", 1, 2"#)
            let rows = try Row.fetchAll(db, stable)
            #expect(rows.count == 5)
        }
    }

    @Test func reversingAnSQLOrderingIsAProgrammerError() async {
        await #expect(processExitsWith: .failure) {
            let dbQueue = try QueryInterfaceFixtures.makeDatabase()
            _ = try dbQueue.read { db in try Player.order(sql: "name").reversed().fetchAll(db) }
        }
    }

    // MARK: - Limit

    @Test func limit() throws {
        try dbQueue.read { db throws in
            let request = Player.order(\.id).limit(2)
            let (sql, arguments) = try sqlAndArguments(db, request)
            #expect(sql == #"SELECT * FROM "player" ORDER BY "id" LIMIT ?"#)
            #expect(arguments == [2])
            #expect(try request.fetchAll(db).map(\.id) == [1, 2])

            let offset = Player.order(\.id).limit(2, offset: 3)
            let (offsetSQL, offsetArguments) = try sqlAndArguments(db, offset)
            #expect(offsetSQL == #"SELECT * FROM "player" ORDER BY "id" LIMIT ? OFFSET ?"#)
            #expect(offsetArguments == [2, 3])
            #expect(try offset.fetchAll(db).map(\.id) == [4, 5])

            // The last limit wins.
            #expect(try Player.limit(1).limit(3).fetchCount(db) == 3)
        }
    }

    // MARK: - Selection

    @Test func select() throws {
        try dbQueue.read { db throws in
            let names = Player.order(\.id).select(\.name, as: String.self)
            #expect(try sqlAndArguments(db, names).sql == #"SELECT "name" FROM "player" ORDER BY "id""#)
            #expect(try names.fetchAll(db) == ["Arthur", "Barbara", "Craig", "David", "Élodie"])

            let rows = Player.select({ [$0.id, $0.name] }, as: Row.self).filter(key: 1)
            #expect(try sqlAndArguments(db, rows).sql == #"SELECT "id", "name" FROM "player" WHERE "id" = ?"#)
            #expect(try rows.fetchOne(db) == ["id": 1, "name": "Arthur"])

            let variadic = Player.select(Column("name"), Column("score")).asRequest(of: Row.self).filter(key: 2)
            #expect(try variadic.fetchOne(db) == ["name": "Barbara", "score": 1000])

            let sql = Player.select(sql: "name, score * ? AS double", arguments: [2], as: Row.self).filter(key: 1)
            #expect(
                try sqlAndArguments(db, sql).sql == #"SELECT name, score * ? AS double FROM "player" WHERE "id" = ?"#)
            #expect(try sql.fetchOne(db) == ["name": "Arthur", "double": 200])

            let literal = Player.select(literal: "\(Column("score")) + \(1)", as: Int.self).filter(key: 1)
            #expect(try literal.fetchOne(db) == 101)

            // The last selection wins.
            let replaced = Player.select(\.name).select(\.id)
            #expect(try sqlAndArguments(db, replaced).sql == #"SELECT "id" FROM "player""#)

            // Selecting primary keys and ids
            #expect(try Player.selectPrimaryKey(as: Int64.self).fetchAll(db) == [1, 2, 3, 4, 5])
            #expect(try sqlAndArguments(db, Player.selectID()).sql == #"SELECT "id" FROM "player""#)
            #expect(try Player.filter { $0.team == "blue" }.selectID().fetchSet(db) == [2, 5])
        }
    }

    @Test func selectIntoAnotherRecord() throws {
        struct NameAndScore: Decodable, FetchableRecord, Equatable {
            var name: String
            var score: Int?
        }
        try dbQueue.read { db throws in
            let request = Player.order(\.id).select({ [$0.name, $0.score] }, as: NameAndScore.self).limit(2)
            #expect(try request.fetchAll(db) == [
                NameAndScore(name: "Arthur", score: 100),
                NameAndScore(name: "Barbara", score: 1000),
            ])
        }
    }

    @Test func annotated() throws {
        try dbQueue.read { db throws in
            let request = Player.annotated { ($0.score * 2).forKey("double") }.filter(key: 1)
            #expect(
                try sqlAndArguments(db, request).sql
                    == #"SELECT *, "score" * ? AS "double" FROM "player" WHERE "id" = ?"#)
            let row = try #require(try request.asRequest(of: Row.self).fetchOne(db))
            #expect(row["double"] as Int == 200)
            #expect(row["name"] as String == "Arthur")

            let twice = Player.select(\.name).annotated(with: Column("id")).annotated(with: [
                Column("score").forKey("points")
            ])
            #expect(try sqlAndArguments(db, twice).sql == #"SELECT "name", "id", "score" AS "points" FROM "player""#)
        }
    }

    @Test func distinct() throws {
        try dbQueue.read { db throws in
            let teams = Player.order(\.team).select(\.team, as: String?.self).distinct()
            #expect(try sqlAndArguments(db, teams).sql == #"SELECT DISTINCT "team" FROM "player" ORDER BY "team""#)
            #expect(try teams.fetchAll(db) == [nil, "blue", "red"])
            // COUNT(DISTINCT "team"), as in GRDB: NULL is not counted.
            #expect(try teams.fetchCount(db) == 2)
        }
    }

    @Test func groupAndHaving() throws {
        try dbQueue.read { db throws in
            let request = Player.all()
                .group(\.team)
                .having(count(Column("id")) > 1)
                .order(\.team)
                .select(
                    [Column("team"), count(Column("id")).forKey("n"), max(Column("score")).forKey("best")], as: Row.self
                )
            let (sql, arguments) = try sqlAndArguments(db, request)
            #expect(sql == #"""
                SELECT "team", COUNT("id") AS "n", MAX("score") AS "best" FROM "player" \#
                GROUP BY "team" HAVING COUNT("id") > ? ORDER BY "team"
                """#)
            #expect(arguments == [1])
            #expect(try request.fetchAll(db) == [
                ["team": "blue", "n": 2, "best": 1000],
                ["team": "red", "n": 2, "best": 100],
            ])
            #expect(try request.fetchCount(db) == 2)

            let havings = Player.all().group { [$0.team] }
                .having { sum($0.score) > 1000 }.having(sql: "COUNT(*) > ?", arguments: [1])
                .select(\.team, as: String.self)
            #expect(try sqlAndArguments(db, havings).sql
                == #"SELECT "team" FROM "player" GROUP BY "team" HAVING (SUM("score") > ?) AND (COUNT(*) > ?)"#)
            #expect(try havings.fetchAll(db) == ["blue"])

            let bySQL = Player.select(\.team, as: String?.self).group(sql: "team").having(
                literal: "\(Column("team")) IS NULL")
            #expect(
                try sqlAndArguments(db, bySQL).sql
                    == #"SELECT "team" FROM "player" GROUP BY team HAVING "team" IS NULL"#)
            #expect(try bySQL.fetchAll(db) == [nil])
            #expect(try Player.all().groupByPrimaryKey().fetchCount(db) == 5)
        }
    }

    // MARK: - Aggregates

    @Test func aggregates() throws {
        try dbQueue.read { db throws in
            func value(_ expression: SQLExpression) throws -> DatabaseValue {
                try Player.select([expression], as: DatabaseValue.self).fetchOne(db)!
            }
            #expect(
                try sqlAndArguments(db, Player.select(count(Column("score")))).sql
                    == #"SELECT COUNT("score") FROM "player""#)
            #expect(try value(count(Column("score"))) == 4.databaseValue)
            #expect(try value(count(distinct: Column("score"))) == 3.databaseValue)
            #expect(try value(sum(Column("score"))) == 2600.databaseValue)
            #expect(try value(total(Column("score"))) == 2600.0.databaseValue)
            #expect(try value(min(Column("score"))) == 100.databaseValue)
            #expect(try value(max(Column("score"))) == 1000.databaseValue)
            #expect(try value(average(Column("score"))) == 650.0.databaseValue)
            #expect(try value(sum(Column("score"), filter: Column("team") == "red")) == 100.databaseValue)
            #expect(try value(total(Column("score"), filter: Column("team") == "green")) == 0.0.databaseValue)
            #expect(try value(max(Column("score"), filter: Column("team") == "red")) == 100.databaseValue)
            #expect(try value(min(Column("score"), filter: Column("team") == "blue")) == 1000.databaseValue)
            #expect(try value(average(Column("score"), filter: Column("team") == "blue")) == 1000.0.databaseValue)
            #expect(try sqlAndArguments(db, Player.select(sum(Column("score"), filter: Column("team") == "red"))).sql
                == #"SELECT SUM("score") FILTER (WHERE "team" = ?) FROM "player""#)
            #expect(try sqlAndArguments(db, Player.select(count(distinct: Column("team")))).sql
                == #"SELECT COUNT(DISTINCT "team") FROM "player""#)
            // No row
            #expect(try Player.none().select([sum(Column("score"))], as: Int?.self).fetchOne(db) == .some(nil))
        }
    }

    // MARK: - Counting

    @Test func fetchCount() throws {
        try dbQueue.read { db throws in
            func countSQL(_ request: QueryInterfaceRequest<some Any>) throws -> [String] {
                try recordedSQL(db) { _ = try request.fetchCount(db) }
            }
            #expect(try countSQL(Player.all()) == [#"SELECT COUNT(*) FROM "player""#])
            #expect(try countSQL(Player.filter { $0.score > 100 }.order(\.name))
                == [#"SELECT COUNT(*) FROM "player" WHERE "score" > ?"#])
            #expect(try countSQL(Player.select(\.name)) == [#"SELECT COUNT(*) FROM "player""#])
            #expect(try countSQL(Player.limit(2)) == [#"SELECT COUNT(*) FROM (SELECT * FROM "player" LIMIT ?)"#])
            // As in GRDB: COUNT(DISTINCT ...) does not count NULL.
            #expect(try countSQL(Player.select(\.team).distinct()) == [#"SELECT COUNT(DISTINCT "team") FROM "player""#])
            #expect(try Player.select(\.team).distinct().fetchCount(db) == 2)
            #expect(
                try countSQL(Player.select((Column("score") * 2).forKey("double")).distinct().filter { $0.score > 100 })
                == [#"SELECT COUNT(DISTINCT "score" * ?) FROM "player" WHERE "score" > ?"#])
            #expect(
                try countSQL(Player.all().distinct()) == [#"SELECT COUNT(*) FROM (SELECT DISTINCT * FROM "player")"#])
            #expect(try countSQL(Player.select(Column("score").forKey("s")).filter(sql: "s > 500"))
                == [#"SELECT COUNT(*) FROM (SELECT "score" AS "s" FROM "player" WHERE s > 500)"#])

            #expect(try Player.filter { $0.score > 100 }.fetchCount(db) == 3)
            #expect(try Player.limit(2, offset: 4).fetchCount(db) == 1)
            #expect(try Player.select(Column("score").forKey("s")).filter(sql: "s > 500").fetchCount(db) == 2)
        }
    }

    // MARK: - fetchOne and LIMIT 1

    @Test func fetchOneAddsLimitUnlessSingleResultIsGuaranteed() throws {
        try dbQueue.read { db throws in
            func singleSQL(_ request: some FetchRequest) throws -> String {
                try sqlAndArguments(db, request, singleResult: true).sql
            }
            #expect(try singleSQL(Player.all()) == #"SELECT * FROM "player" LIMIT 1"#)
            #expect(
                try singleSQL(Player.filter { $0.team == "red" }) == #"SELECT * FROM "player" WHERE "team" = ? LIMIT 1"#
            )
            // Primary key, unique index, aggregate: one row at most.
            #expect(try singleSQL(Player.filter(key: 1)) == #"SELECT * FROM "player" WHERE "id" = ?"#)
            #expect(
                try singleSQL(Player.filter { $0.id == 1 && $0.score > 0 })
                    == #"SELECT * FROM "player" WHERE ("id" = ?) AND ("score" > ?)"#)
            #expect(try singleSQL(Player.filter { $0.name == "Arthur" }) == #"SELECT * FROM "player" WHERE "name" = ?"#)
            #expect(try singleSQL(Player.select(max(Column("score")))) == #"SELECT MAX("score") FROM "player""#)
            #expect(
                try singleSQL(Player.select(max(Column("score"))).group(\.team))
                    == #"SELECT MAX("score") FROM "player" GROUP BY "team" LIMIT 1"#)
            // An explicit limit is kept.
            #expect(try singleSQL(Player.limit(3, offset: 1)) == #"SELECT * FROM "player" LIMIT ? OFFSET ?"#)

            #expect(try Player.order(\.name).fetchOne(db)?.name == "Arthur")
            #expect(try Player.filter { $0.score > 5000 }.fetchOne(db) == nil)
        }
    }

    // MARK: - Existence

    @Test func isEmpty() throws {
        try dbQueue.read { db throws in
            let empty = Player.filter { $0.score > 5000 }
            var isEmpty = false
            let sql = try recordedSQL(db) { isEmpty = try empty.isEmpty(db) }
            #expect(sql == [#"SELECT EXISTS (SELECT * FROM "player" WHERE "score" > ?)"#])
            #expect(isEmpty)
            #expect(try !Player.filter { $0.score > 500 }.isEmpty(db))
            #expect(try Player.none().isEmpty(db))
        }
    }

    // MARK: - Fetching rows, values, records

    @Test func fetchingRecords() throws {
        try dbQueue.read { db throws in
            let request = Player.filter { $0.team == "blue" }.order(\.id)
            #expect(try request.fetchAll(db).map(\.name) == ["Barbara", "Élodie"])
            #expect(try request.fetchOne(db)?.name == "Barbara")
            #expect(try request.fetchSet(db) == [players[1], players[4]])
            let cursor = try request.fetchCursor(db)
            #expect(try cursor.next()?.id == 2)
            #expect(try cursor.next()?.id == 5)
            #expect(try cursor.next() == nil)
            #expect(try Player.fetchAll(db, request) == [players[1], players[4]])
            #expect(try Player.fetchOne(db, request) == players[1])
            #expect(try Player.fetchSet(db, request).count == 2)
            #expect(try Player.fetchCursor(db, request).map(\.id).reduce(0, +) == 7)
        }
    }

    @Test func fetchingRows() throws {
        try dbQueue.read { db throws in
            let request = Player.filter { $0.team == "red" }.order(\.id).asRequest(of: Row.self)
            let rows = try request.fetchAll(db)
            #expect(rows.map { $0["name"] as String } == ["Arthur", "Craig"])
            #expect(try request.fetchOne(db).map { $0["id"] as Int64 } == 1)
            #expect(try request.fetchSet(db).count == 2)
            #expect(try request.fetchCursor(db).map { $0["id"] as Int64 }.reduce(0, +) == 4)
            #expect(try Row.fetchAll(db, request) == rows)
            #expect(try Row.fetchOne(db, request) == rows[0])
            #expect(try Row.fetchSet(db, request) == Set(rows))
            let cursor = try Row.fetchCursor(db, request)
            let first = try withExtendedLifetime(cursor) { try cursor.next()?.copy() }
            #expect(first == rows[0])
        }
    }

    @Test func fetchingValues() throws {
        try dbQueue.read { db throws in
            // StatementColumnConvertible fast path
            let names = Player.order(\.id).select(\.name, as: String.self)
            #expect(try names.fetchAll(db).first == "Arthur")
            #expect(try names.fetchOne(db) == "Arthur")
            #expect(try names.fetchSet(db).count == 5)
            #expect(try names.fetchCursor(db).next() == "Arthur")
            #expect(try String.fetchAll(db, names).count == 5)
            #expect(try String.fetchOne(db, names) == "Arthur")
            #expect(try String.fetchSet(db, names).contains("Élodie"))
            #expect(try String.fetchCursor(db, names).next() == "Arthur")

            // Optionals
            let scores = Player.order(\.id).select(\.score, as: Int?.self)
            #expect(try scores.fetchAll(db) == [100, 1000, nil, 500, 1000])
            #expect(try scores.filter(key: 3).fetchOne(db) == .some(nil))
            #expect(try scores.filter(key: 42).fetchOne(db) == nil)

            // The DatabaseValueConvertible path (no fast path)
            let values = Player.order(\.id).select(\.score, as: DatabaseValue.self)
            #expect(try values.fetchAll(db) == [100, 1000, nil, 500, 1000].map { ($0 as Int?).databaseValue })
            #expect(try values.fetchOne(db) == 100.databaseValue)
            #expect(try values.fetchSet(db).count == 4)
            #expect(try values.fetchCursor(db).next() == 100.databaseValue)
            #expect(try DatabaseValue.fetchAll(db, values).count == 5)
            #expect(try DatabaseValue.fetchOne(db, values) == 100.databaseValue)
            #expect(try DatabaseValue.fetchSet(db, values).contains(.null))
            #expect(try DatabaseValue.fetchCursor(db, values).next() == 100.databaseValue)

            // A NULL value in a non-optional fetch throws, naming the column.
            #expect(throws: RowDecodingError.self) {
                try Player.select(\.score, as: Int.self).filter(key: 3).fetchAll(db)
            }
        }
    }

    @Test func decodingErrorOfARecordNamesTheColumn() throws {
        try dbQueue.read { db throws in
            let error = try #require(throws: RowDecodingError.self) {
                try Player.select(\.name).fetchAll(db)
            }
            #expect(error.key == "id")
        }
    }

    // MARK: - Subqueries

    @Test func subqueries() throws {
        try dbQueue.read { db throws in
            let best = Player.filter { $0.score == Player.select(max(Column("score"))) }.order(\.id)
            #expect(try sqlAndArguments(db, best).sql
                == #"SELECT * FROM "player" WHERE "score" = (SELECT MAX("score") FROM "player") ORDER BY "id""#)
            #expect(try best.fetchAll(db).map(\.id) == [2, 5])

            let blueIDs = Player.filter { $0.team == "blue" }.select(\.id)
            let inBlue = Player.filter { blueIDs.contains($0.id) }.order(\.id)
            let (sql, arguments) = try sqlAndArguments(db, inBlue)
            #expect(
                sql
                    == #"SELECT * FROM "player" WHERE "id" IN (SELECT "id" FROM "player" WHERE "team" = ?) ORDER BY "id""#
            )
            #expect(arguments == ["blue"])
            #expect(try inBlue.fetchAll(db).map(\.id) == [2, 5])

            let notInBlue = Player.filter { !blueIDs.contains($0.id) }
            #expect(try notInBlue.fetchCount(db) == 3)

            let sqlSubquery = SQLRequest<Int64>(sql: "SELECT id FROM player WHERE score < ?", arguments: [600])
            let small = Player.filter { sqlSubquery.contains($0.id) }.order(\.id)
            #expect(
                try sqlAndArguments(db, small).sql
                    == #"SELECT * FROM "player" WHERE "id" IN (SELECT id FROM player WHERE score < ?) ORDER BY "id""#)
            #expect(try small.fetchAll(db).map(\.id) == [1, 4])

            let exists = Player.filter(Player.filter { $0.score > 900 }.exists())
            #expect(try sqlAndArguments(db, exists).sql
                == #"SELECT * FROM "player" WHERE EXISTS (SELECT * FROM "player" WHERE "score" > ?)"#)
            #expect(try exists.fetchCount(db) == 5)
            #expect(try Player.filter(!Player.filter { $0.score > 900 }.exists()).fetchCount(db) == 0)

            // A subquery as a selected value
            let withMax = Player.select(
                [Column("name"), Player.select(max(Column("score"))).forKey("best")], as: Row.self
            ).filter(key: 1)
            #expect(try withMax.fetchOne(db) == ["name": "Arthur", "best": 1000])
        }
    }
}
