import GRDBLite
import Testing

/// The JSONB functions, on a SQLite that has them (3.45 and later, e.g.
/// `Scripts/test.sh --sqlite 3.54.1`). On an older one (Debian's 3.40.1),
/// JSONErrorsTests checks that each fails with "no such function".
@Suite(.enabled(if: Database.sqliteLibVersionNumber >= 3_045_000, "JSONB needs SQLite 3.45"))
struct JSONBFunctionsTests {
    /// Each function, and the JSON text of its result.
    static var cases: [(expression: SQLExpression, json: String)] { [
        (Database.jsonb("[1]"), "[1]"),
        (Database.jsonb(#"{"a": [1, 2]}"#), #"{"a":[1,2]}"#),
        (Database.jsonbArray([1, 2]), "[1,2]"),
        (Database.jsonbArray([1, "a"] as [any SQLExpressible]), #"[1,"a"]"#),
        (Database.jsonbExtract(#"{"a":[1]}"#, atPath: "$.a"), "[1]"),
        (Database.jsonbExtract("[1]", atPath: "$[0]"), "1"),
        (Database.jsonbExtract("[1, 2]", atPaths: ["$[1]", "$[0]"]), "[2,1]"),
        (Database.jsonbInsert("[1]", ["$[#]": 2]), "[1,2]"),
        (Database.jsonbReplace("[1]", ["$[0]": 2]), "[2]"),
        (Database.jsonbSet("[1]", ["$[1]": 2]), "[1,2]"),
        (Database.jsonbObject(["a": 1]), #"{"a":1}"#),
        (Database.jsonbPatch(#"{"a":1,"b":2}"#, with: #"{"a":null,"c":3}"#), #"{"b":2,"c":3}"#),
        (Database.jsonbRemove("[1, 2]", atPath: "$[0]"), "[2]"),
        (Database.jsonbRemove("[1, 2, 3]", atPaths: ["$[0]", "$[0]"]), "[3]"),
        (Database.jsonbGroupArray(1.databaseValue), "[1]"),
        (Database.jsonbGroupObject(key: "a", value: 1), #"{"a":1}"#),
    ] }

    @Test func jsonbFunctionsReturnTheirValue() throws {
        try DatabaseQueue().read { db throws in
            for (expression, json) in Self.cases {
                #expect(try selectValue(db, Database.json(expression), as: String.self) == json)
            }
        }
    }

    /// JSONB is a blob, that the JSON functions and accessors read as JSON.
    @Test func jsonbIsABlobThatJSONAccessorsRead() throws {
        try DatabaseQueue().write { db throws in
            let (sql, value) = try evaluate(db, Database.jsonb("[1]"))
            #expect(sql == "SELECT JSONB(?)")
            guard case .blob = value.storage else {
                Issue.record("not a blob: \(value)")
                return
            }
            try db.execute(sql: "CREATE TABLE t (info BLOB)")
            try db.execute(literal: "INSERT INTO t VALUES (\(Database.jsonb(#"{"a": {"b": 2}}"#)))")
            let info = JSONColumn("info")
            #expect(try Int.fetchOne(db, Table("t").select(info["$.a.b"])) == 2)
            #expect(try String.fetchOne(db, Table("t").select(info.jsonRepresentation(atPath: "$.a"))) == #"{"b":2}"#)
            #expect(try String.fetchOne(db, Table("t").select(Database.json(info))) == #"{"a":{"b":2}}"#)
            #expect(try Int.fetchOne(db, Table("t").select(Database.jsonIsValid(info, options: .jsonb))) == 1)
        }
    }
}
