import GRDBLite
import Testing

/// One JSON function call on constants: its SQL and its result on SQLite.
/// JSON values given to builders are parsed with `jsonParser`: `JSON`
/// before SQLite 3.45, `JSONB` since.
struct JSONFunctionCase: Sendable, CustomTestStringConvertible {
    var expression: SQLExpression
    var sql: String
    var result: DatabaseValue

    init(_ expression: SQLExpression, _ sql: String, _ result: some DatabaseValueConvertible) {
        self.expression = expression
        self.sql = sql
        self.result = result.databaseValue
    }

    var testDescription: String { sql }
}

@Suite struct JSONFunctionsTests {
    // Computed, not stored: see SQLOperatorsTests.
    static var cases: [JSONFunctionCase] { [
        JSONFunctionCase(Database.json(#" { "a" : [ 1 ] } "#), "JSON(?)", #"{"a":[1]}"#),
        JSONFunctionCase(Database.jsonArray(1...3), "JSON_ARRAY(?, ?, ?)", "[1,2,3]"),
        JSONFunctionCase(
            Database.jsonArray([1, "[2]", "[3]".databaseValue.asJSON] as [any SQLExpressible]),
            "JSON_ARRAY(?, ?, \(jsonParser)(?))", #"[1,"[2]",[3]]"#),
        JSONFunctionCase(Database.jsonArrayLength("[1,2,3]"), "JSON_ARRAY_LENGTH(?)", 3),
        JSONFunctionCase(
            Database.jsonArrayLength(#"{"a":[1,2]}"#, atPath: "$.a"), "JSON_ARRAY_LENGTH(?, ?)", 2),
        JSONFunctionCase(Database.jsonExtract(#"{"a":{"b":5}}"#, atPath: "$.a.b"), "JSON_EXTRACT(?, ?)", 5),
        JSONFunctionCase(
            Database.jsonExtract(#"{"a":1,"b":"x"}"#, atPaths: ["$.b", "$.a"]),
            "JSON_EXTRACT(?, ?, ?)", #"["x",1]"#),
        JSONFunctionCase(
            Database.jsonInsert("[1,2]", ["$[#]": 3, "$[0]": 9] as KeyValuePairs<String, any SQLExpressible>),
            "JSON_INSERT(?, ?, ?, ?, ?)", "[1,2,3]"),
        JSONFunctionCase(
            Database.jsonReplace(#"{"a":1}"#, ["$.a": 2, "$.b": 3] as KeyValuePairs<String, any SQLExpressible>),
            "JSON_REPLACE(?, ?, ?, ?, ?)", #"{"a":2}"#),
        JSONFunctionCase(
                Database.jsonSet(
                    #"{"a":1}"#,
                    ["$.a": 2, "$.b": #"{"c":3}"#.databaseValue.asJSON] as KeyValuePairs<String, any SQLExpressible>),
            "JSON_SET(?, ?, ?, ?, \(jsonParser)(?))", #"{"a":2,"b":{"c":3}}"#),
        JSONFunctionCase(
            Database.jsonObject(["a": 1, "b": Database.jsonArray([2])] as KeyValuePairs<String, any SQLExpressible>),
            "JSON_OBJECT(?, ?, ?, JSON_ARRAY(?))", #"{"a":1,"b":[2]}"#),
        JSONFunctionCase(
            Database.jsonPatch(#"{"a":1,"b":2}"#, with: #"{"b":null,"c":3}"#),
            "JSON_PATCH(?, ?)", #"{"a":1,"c":3}"#),
        JSONFunctionCase(Database.jsonRemove("[1,2,3]", atPath: "$[1]"), "JSON_REMOVE(?, ?)", "[1,3]"),
        JSONFunctionCase(
            Database.jsonRemove(#"{"a":1,"b":2,"c":3}"#, atPaths: ["$.a", "$.c"]),
            "JSON_REMOVE(?, ?, ?)", #"{"b":2}"#),
        JSONFunctionCase(Database.jsonType(#"{"a":[1]}"#), "JSON_TYPE(?)", "object"),
        JSONFunctionCase(Database.jsonType(#"{"a":[1]}"#, atPath: "$.a"), "JSON_TYPE(?, ?)", "array"),
        JSONFunctionCase(Database.jsonIsValid(#"{"a":1}"#), "JSON_VALID(?)", 1),
        JSONFunctionCase(Database.jsonIsValid(#"{"a":1"#), "JSON_VALID(?)", 0),
        JSONFunctionCase(Database.jsonQuote("a\"b"), "JSON_QUOTE(?)", #""a\"b""#),
        JSONFunctionCase(Database.jsonQuote("[1]".databaseValue.asJSON), "JSON_QUOTE(\(jsonParser)(?))", "[1]"),
        JSONFunctionCase(Database.jsonQuote(Database.jsonArray([1])), "JSON_QUOTE(JSON_ARRAY(?))", "[1]"),
    ] }

    @Test(arguments: cases)
    func function(_ functionCase: JSONFunctionCase) throws {
        try DatabaseQueue().read { db throws in
            let (sql, value) = try evaluate(db, functionCase.expression)
            #expect(sql == "SELECT " + functionCase.sql)
            #expect(value == functionCase.result)
        }
    }

    @Test func jsonValidationOptionsAreSQLiteFlags() {
        let options: Database.JSONValidationOptions = [.json, .jsonb]
        #expect(options.rawValue == 9)
        #expect(Database.JSONValidationOptions.json5.rawValue == 2)
        #expect(Database.JSONValidationOptions.probablyJSONB.rawValue == 4)
    }

    @Test func jsonGroupArrayAndObject() throws {
        let dbQueue = try JSONFixtures.makeDatabase()
        try dbQueue.read { db throws in
            let name = JSONFixtures.Player.Columns.name
            let address = JSONFixtures.Player.Columns.address

            let names = Table("player").select(Database.jsonGroupArray(name), as: String.self)
            #expect(try sqlAndArguments(db, names).sql == #"SELECT JSON_GROUP_ARRAY("name") FROM "player""#)
            #expect(try names.fetchOne(db) == #"["Arthur","Barbara","Craig"]"#)

            // A JSON column is parsed, not quoted as a string.
            let cities = Table("player")
                .select(Database.jsonGroupArray(address["city"], filter: address["country"] == "FR"), as: String.self)
            #expect(try sqlAndArguments(db, cities).sql == #"""
                SELECT JSON_GROUP_ARRAY("address" ->> ?) FILTER (WHERE ("address" ->> ?) = ?) FROM "player"
                """#)
            #expect(try cities.fetchOne(db) == #"["Paris","Lyon"]"#)

            let addresses = Table("player")
                .filter(Column("id") == 1)
                .select(Database.jsonGroupArray(address), as: String.self)
            #expect(try sqlAndArguments(db, addresses).sql == #"""
                SELECT JSON_GROUP_ARRAY(\#(jsonParser)("address")) FROM "player" WHERE "id" = ?
                """#)
            #expect(try addresses.fetchOne(db) == #"[{"city":"Paris","country":"FR"}]"#)

            let byName = Table("player")
                .select(Database.jsonGroupObject(key: name, value: address["country"]), as: String.self)
            #expect(try sqlAndArguments(db, byName).sql == #"""
                SELECT JSON_GROUP_OBJECT("name", "address" ->> ?) FROM "player"
                """#)
            #expect(try byName.fetchOne(db) == #"{"Arthur":"FR","Barbara":"DE","Craig":"FR"}"#)

            let filtered = Table("player").select(
                Database.jsonGroupObject(key: name, value: address, filter: Column("id") > 2), as: String.self)
            #expect(try sqlAndArguments(db, filtered).sql == #"""
                SELECT JSON_GROUP_OBJECT("name", \#(jsonParser)("address")) FILTER (WHERE "id" > ?) FROM "player"
                """#)
            #expect(try filtered.fetchOne(db) == #"{"Craig":{"city":"Lyon","country":"FR"}}"#)

            // A JSON aggregate makes the request an aggregate: one row.
            #expect(try Row.fetchAll(db, names).count == 1)
        }
    }

    /// An ordered aggregate needs SQLite 3.44: before, SQLite's own syntax
    /// error, with the SQL we wrote.
    @Test func jsonGroupArrayOrdering() throws {
        try DatabaseQueue().write { db throws in
            try db.execute(sql: "CREATE TABLE player (name TEXT); INSERT INTO player VALUES ('a'), ('c'), ('b')")
            let name = Column("name")
            let request = Table("player").select(
                Database.jsonGroupArray(name, orderBy: name.desc, filter: length(name) > 0), as: String.self)
            let sql = #"""
                SELECT JSON_GROUP_ARRAY("name" ORDER BY "name" DESC) FILTER (WHERE LENGTH("name") > ?) FROM "player"
                """#
            if Database.sqliteLibVersionNumber >= 3044000 {
                #expect(try sqlAndArguments(db, request).sql == sql)
                #expect(try request.fetchOne(db) == #"["c","b","a"]"#)
            } else {
                let error = try #require(throws: DatabaseError.self) { try request.fetchOne(db) }
                #expect(error.resultCode == .SQLITE_ERROR)
                #expect(error.message?.contains("ORDER") == true)
                #expect(error.sql == sql)
            }
        }
    }
}
