import GRDBLite
import Testing

/// SQLite reports what is wrong with JSON, and functions it lacks, as
/// `DatabaseError`s with its own code and message; nothing is changed.
@Suite struct JSONErrorsTests {
    @Test func malformedJSONThrowsSQLiteError() throws {
        try DatabaseQueue().write { db throws in
            let error = try #require(throws: DatabaseError.self) {
                try selectValue(db, Database.json("{foo"), as: String.self)
            }
            #expect(error.resultCode == .SQLITE_ERROR)
            #expect(error.message == "malformed JSON")
            #expect(error.sql == "SELECT JSON(?)")

            // Through an accessor of a JSON column too.
            try db.execute(sql: "CREATE TABLE t (info TEXT); INSERT INTO t VALUES ('[1,')")
            let request = Table("t").select(JSONColumn("info")["a"])
            let accessorError = try #require(throws: DatabaseError.self) { try Row.fetchAll(db, request) }
            #expect(accessorError.message == "malformed JSON")
            #expect(accessorError.sql == #"SELECT "info" ->> ? FROM "t""#)
        }
    }

    @Test func malformedJSONInAnUpdateChangesNothing() throws {
        let dbQueue = try JSONFixtures.makeDatabase()
        try dbQueue.write { db throws in
            let address = JSONFixtures.Player.Columns.address
            let error = try #require(throws: DatabaseError.self) {
                try Table("player").updateAll(db, [
                    address.set(to: Database.jsonPatch(address, with: "{not json")),
                ])
            }
            #expect(error.message == "malformed JSON")
            let players = try JSONFixtures.Player.order(Column("id")).fetchAll(db)
            #expect(players == JSONFixtures.players)
        }
    }

    /// Every JSONB function, on a SQLite that lacks it (< 3.45), fails when
    /// its statement is prepared with "no such function"; on a newer SQLite
    /// it runs.
    static var jsonbCases: [(name: String, expression: SQLExpression)] { [
        ("JSONB", Database.jsonb("[1]")),
        ("JSONB_ARRAY", Database.jsonbArray([1, 2])),
        ("JSONB_ARRAY", Database.jsonbArray([1, "a"] as [any SQLExpressible])),
        ("JSONB_EXTRACT", Database.jsonbExtract("[1]", atPath: "$[0]")),
        ("JSONB_EXTRACT", Database.jsonbExtract("[1]", atPaths: ["$[0]"])),
        ("JSONB_INSERT", Database.jsonbInsert("[1]", ["$[#]": 2])),
        ("JSONB_REPLACE", Database.jsonbReplace("[1]", ["$[0]": 2])),
        ("JSONB_SET", Database.jsonbSet("[1]", ["$[0]": 2])),
        ("JSONB_OBJECT", Database.jsonbObject(["a": 1])),
        ("JSONB_PATCH", Database.jsonbPatch("{}", with: #"{"a":1}"#)),
        ("JSONB_REMOVE", Database.jsonbRemove("[1]", atPath: "$[0]")),
        ("JSONB_REMOVE", Database.jsonbRemove("[1]", atPaths: ["$[0]"])),
        ("JSONB_GROUP_ARRAY", Database.jsonbGroupArray(1.databaseValue)),
        ("JSONB_GROUP_OBJECT", Database.jsonbGroupObject(key: "a", value: 1)),
    ] }

    @Test func jsonbFunctionsFailWithSQLiteErrorBefore3_45() throws {
        try DatabaseQueue().read { db throws in
            for (name, expression) in Self.jsonbCases {
                if Database.sqliteLibVersionNumber >= 3045000 {
                    _ = try selectValue(db, expression, as: DatabaseValue.self)
                } else {
                    let error = try #require(throws: DatabaseError.self) {
                        try selectValue(db, expression, as: DatabaseValue.self)
                    }
                    #expect(error.resultCode == .SQLITE_ERROR)
                    #expect(error.message == "no such function: \(name)")
                    #expect(error.sql?.hasPrefix("SELECT \(name)(") == true)
                }
            }
        }
    }

    @Test func jsonVersionDependentFunctionsFailWithSQLiteError() throws {
        try DatabaseQueue().read { db throws in
            if Database.sqliteLibVersionNumber < 3042000 {
                let error = try #require(throws: DatabaseError.self) {
                    try selectValue(db, Database.jsonErrorPosition("[1,"), as: Int.self)
                }
                #expect(error.message == "no such function: JSON_ERROR_POSITION")
            } else {
                #expect(try selectValue(db, Database.jsonErrorPosition("[1,"), as: Int.self) == 4)
            }
            if Database.sqliteLibVersionNumber < 3045000 {
                let error = try #require(throws: DatabaseError.self) {
                    try selectValue(db, Database.jsonIsValid("[1]", options: .json), as: Int.self)
                }
                #expect(error.message == "wrong number of arguments to function JSON_VALID()")
            } else {
                #expect(try selectValue(db, Database.jsonIsValid("[1]", options: .json), as: Int.self) == 1)
            }
        }
    }

    @Test func jsonBuildersParseJSONExpressionsWithTheFunctionOfThisSQLite() throws {
        try DatabaseQueue().read { db throws in
            let parser = Database.sqliteLibVersionNumber >= 3045000 ? "JSONB" : "JSON"
            let (sql, value) = try evaluate(db, Database.jsonArray(["[1]".databaseValue.asJSON]))
            #expect(sql == "SELECT JSON_ARRAY(\(parser)(?))")
            #expect(value == "[[1]]".databaseValue)
        }
    }
}
