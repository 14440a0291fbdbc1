import GRDBLite
import Testing

private typealias Player = JSONFixtures.Player

@Suite struct SQLJSONExpressibleTests {
    @Test func jsonColumnIsAColumnReadAsJSON() throws {
        try DatabaseQueue().write { db throws in
            try db.execute(sql: "CREATE TABLE t (info TEXT)")
            let column = JSONColumn("info")
            #expect(column.name == "info")
            enum CodingKeys: String, CodingKey { case address = "address_json" }
            #expect(JSONColumn(CodingKeys.address).name == "address_json")
            // Plain SQL on its own; parsed by JSON-building functions (with
            // JSONB since SQLite 3.45).
            #expect(
                try evaluate(db, Database.jsonArray([column, Column("info")] as [any SQLExpressible]), from: "t").sql
                == #"SELECT JSON_ARRAY(\#(jsonParser)("info"), "info") FROM t"#)
        }
    }

    @Test func asJSONParsesOnlyWhatIsNotJSONYet() throws {
        try DatabaseQueue().write { db throws in
            try db.execute(sql: "CREATE TABLE t (name TEXT, score INTEGER, info TEXT)")
            let info = JSONColumn("info")
            let elements: [any SQLExpressible] = [
                "[1]".databaseValue.asJSON,       // parsed
                DatabaseValue.null.asJSON,        // NULL is JSON null
                Column("name").asJSON,            // parsed
                abs(Column("score")).asJSON,      // parsed
                info["a"].asJSON,                 // ->> gives SQL values: parsed
                info.jsonRepresentation(atPath: "a").asJSON, // -> gives JSON
                Database.json("[2]").asJSON,      // JSON already
                "[3]",                            // a plain string
            ]
            let (sql, _) = try evaluate(db, Database.jsonArray(elements), from: "t")
            #expect(sql == #"""
                SELECT JSON_ARRAY(\#(jsonParser)(?), ?, \#(jsonParser)("name"), \#(jsonParser)(ABS("score")), \#
                \#(jsonParser)("info" ->> ?), "info" -> ?, JSON(?), ?) FROM t
                """#)
            let value: String? = try selectValue(db, Database.jsonArray([
                "[1]".databaseValue.asJSON, DatabaseValue.null.asJSON, "[3]",
            ] as [any SQLExpressible]))
            #expect(value == #"[[1],null,"[3]"]"#)
        }
    }

    @Test func accessorsInSelect() throws {
        let dbQueue = try JSONFixtures.makeDatabase()
        try dbQueue.read { db throws in
            let info = Player.Columns.info
            let scores = Player.select(info["score"], as: Int.self).order(Column("id"))
            #expect(try sqlAndArguments(db, scores).sql == #"SELECT "info" ->> ? FROM "player" ORDER BY "id""#)
            #expect(try scores.fetchAll(db) == [100, 300, 200])

            let tags = Player.select(info.jsonRepresentation(atPath: "$.tags"), as: String.self).order(Column("id"))
            #expect(try sqlAndArguments(db, tags).sql == #"SELECT "info" -> ? FROM "player" ORDER BY "id""#)
            #expect(try tags.fetchAll(db) == [#"["a","b"]"#, "[]", #"["c"]"#])

            let firstTags = Player.select(info.jsonExtract(atPath: "$.tags[0]"), as: String?.self).order(Column("id"))
            #expect(try sqlAndArguments(db, firstTags).sql
                == #"SELECT JSON_EXTRACT("info", ?) FROM "player" ORDER BY "id""#)
            #expect(try firstTags.fetchAll(db) == ["a", nil, "c"])

            let pairs = Player.select(info.jsonExtract(atPaths: ["$.score", "$.tags"]), as: String.self)
                .order(Column("id"))
            #expect(try pairs.fetchAll(db).first == #"[100,["a","b"]]"#)

            // The `->` of a `->>`: a path into an array index.
            let second = Player.select(info.jsonRepresentation(atPath: "tags").asJSON[1], as: String?.self)
                .order(Column("id"))
            #expect(try sqlAndArguments(db, second).sql
                == #"SELECT ("info" -> ?) ->> ? FROM "player" ORDER BY "id""#)
            #expect(try second.fetchAll(db) == ["b", nil, nil])

            // Key paths of the record's columns.
            let cities = try Player.order(\.id).select({ $0.address["city"] }, as: String.self).fetchAll(db)
            #expect(cities == ["Paris", "Berlin", "Lyon"])
        }
    }

    @Test func accessorsInFilterAndOrder() throws {
        let dbQueue = try JSONFixtures.makeDatabase()
        try dbQueue.read { db throws in
            let request = Player
                .filter { $0.address["country"] == "FR" }
                .order { $0.info["score"].desc }
            #expect(try sqlAndArguments(db, request).sql == #"""
                SELECT * FROM "player" WHERE ("address" ->> ?) = ? ORDER BY "info" ->> ? DESC
                """#)
            #expect(try request.fetchAll(db).map(\.name) == ["Craig", "Arthur"])

            let withTags = Player.filter(Database.jsonArrayLength(Player.Columns.info, atPath: "$.tags") > 0)
                .order(Player.Columns.info.jsonExtract(atPath: "$.score"))
            #expect(try withTags.fetchAll(db).map(\.id) == [1, 3])

            let objects = try Player.filter(Database.jsonType(Player.Columns.address) == "object").fetchCount(db)
            #expect(objects == 3)
        }
    }

    @Test func nestedCodableIsStoredAsJSONText() throws {
        let dbQueue = try JSONFixtures.makeDatabase()
        try dbQueue.write { db throws in
            let stored = try String.fetchOne(db, sql: "SELECT address FROM player WHERE id = 2")
            #expect(try selectValue(db, Database.jsonIsValid(stored ?? ""), as: Bool.self) == true)
            // Updated with JSON_SET, read back through Codable.
            try db.execute(literal: """
                UPDATE player SET address = \(Database.jsonSet(Player.Columns.address, ["$.city": "Hamburg"]))
                WHERE id = 2
                """)
            let player = try Player.fetchOne(db, key: 2)
            #expect(player?.address == JSONFixtures.Address(city: "Hamburg", country: "DE"))
        }
    }

    @Test func aliasKeepsJSONExpressions() throws {
        let dbQueue = try JSONFixtures.makeDatabase()
        try dbQueue.read { db throws in
            let alias = TableAlias<Player>(name: "p")
            let request = Player.aliased(alias)
                .select([
                    Database.jsonArray([alias[Player.Columns.info]]),
                    alias[Player.Columns.info]["score"],
                    alias.address["city"],
                ])
                .filter(alias[Player.Columns.address.jsonExtract(atPath: "$.country")] == "DE")
            #expect(try sqlAndArguments(db, request).sql == #"""
                SELECT JSON_ARRAY(\#(jsonParser)("p"."info")), "p"."info" ->> ?, "p"."address" ->> ? \#
                FROM "player" "p" WHERE JSON_EXTRACT("p"."address", ?) = ?
                """#)
            let row = try #require(try Row.fetchOne(db, request))
            #expect(row[0] as String == #"[{"score":300,"tags":[]}]"#)
            #expect(row[1] as Int == 300)
            #expect(row[2] as String == "Berlin")
        }
    }

    @Test func indexesAndGeneratedColumns() throws {
        try DatabaseQueue().write { db throws in
            try db.create(table: "player") { t in
                t.primaryKey("id", .integer)
                t.column("address", .jsonText)
                t.column("country", .text)
                    .generatedAs(JSONColumn("address")["country"])
                    .indexed()
            }
            try db.create(index: "player_on_city", on: "player", expressions: [
                JSONColumn("address")["city"],
                JSONColumn("address").jsonExtract(atPath: "$.street"),
            ])
            let sql = try String.fetchAll(db, sql: "SELECT sql FROM sqlite_master WHERE type IN ('table', 'index')")
            #expect(sql == [
                #"""
                CREATE TABLE "player" ("id" INTEGER PRIMARY KEY, "address" TEXT, \#
                "country" TEXT GENERATED ALWAYS AS ("address" ->> 'country') VIRTUAL)
                """#,
                #"CREATE INDEX "player_on_country" ON "player"("country")"#,
                #"""
                CREATE INDEX "player_on_city" ON "player"("address" ->> 'city', JSON_EXTRACT("address", '$.street'))
                """#,
            ])
            try db.execute(sql: """
                INSERT INTO player (address) VALUES ('{"street":"Rue de Belleville","city":"Paris","country":"FR"}')
                """)
            #expect(try String.fetchOne(db, sql: "SELECT country FROM player") == "FR")
        }
    }
}
