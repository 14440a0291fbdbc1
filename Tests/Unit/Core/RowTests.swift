import Foundation
import Testing
@_spi(GRDBLite) @testable import GRDBLite

@Suite struct RowTests {
    static let sql = "SELECT 1 AS id, 'Arthur' AS name, NULL AS email, 1.5 AS score, x'0102' AS data"

    /// Runs `body` with a row read from a cursor, then with a copied row.
    private func withBothRows(sql: String = sql, arguments: StatementArguments = [], _ body: (Row) throws -> Void)
        throws
    {
        let dbQueue = try DatabaseQueue()
        try dbQueue.read { db throws in
            let cursor = try Row.fetchCursor(db, sql: sql, arguments: arguments)
            let row = try #require(try cursor.next())
            try body(row)
            let copied = try #require(try Row.fetchOne(db, sql: sql, arguments: arguments))
            try body(copied)
        }
    }

    @Test func fetchOneReturnsACopyOfTheFirstRow() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.read { db throws in
            let row = try #require(try Row.fetchOne(db, sql: "SELECT 1 AS a, 'x' AS b UNION ALL SELECT 2, 'y'"))
            #expect(row == ["a": 1, "b": "x"])
            #expect(try row.decode(Int.self, forColumn: "a") == 1)
            #expect(try Row.fetchOne(db, sql: "SELECT 1 WHERE 0") == nil)
        }
    }

    @Test func subscriptsByIndex() throws {
        try withBothRows { row throws in
            #expect(row.count == 5)
            #expect(row[0] as Int == 1)
            #expect(row[0] as Int64 == 1)
            #expect(row[1] as String == "Arthur")
            #expect(row[2] as String? == nil)
            #expect(row[3] as Double == 1.5)
            #expect(row[4] as Data == Data([1, 2]))
            #expect(row[0] as DatabaseValue == 1.databaseValue)
            // Untyped: the stored Swift value
            #expect(row[0] as? Int64 == 1)
            #expect(row[1] as? String == "Arthur")
            #expect(row[2] == nil)
            #expect(row[3] as? Double == 1.5)
            #expect(try row.decode(String.self, atIndex: 1) == "Arthur")
            #expect(try row.decode(atIndex: 0) as Int == 1)
        }
    }

    @Test func subscriptsByNameAreCaseInsensitive() throws {
        try withBothRows { row throws in
            #expect(row["id"] as Int == 1)
            #expect(row["ID"] as Int == 1)
            #expect(row["Name"] as String == "Arthur")
            #expect(row["NAME"] as? String == "Arthur")
            #expect(row["email"] as String? == nil)
            #expect(row["missing"] == nil)
            #expect(row["missing"] as Int? == nil)
            #expect(try row.decode(String.self, forColumn: "nAmE") == "Arthur")
            #expect(row.index(forColumn: "SCORE") == 3)
            #expect(row.index(forColumn: "missing") == nil)
        }
    }

    @Test func subscriptsByColumn() throws {
        try withBothRows { row throws in
            #expect(row[Column("id")] as Int == 1)
            #expect(row[Column("NAME")] as String == "Arthur")
            #expect(row[Column("name")] as? String == "Arthur")
            #expect(row[Column("email")] as String? == nil)
            #expect(row[Column("missing")] == nil)
            #expect(try row.decode(Double.self, forColumn: Column("score")) == 1.5)
            #expect(row.dataNoCopy(Column("data")) == Data([1, 2]))
        }
    }

    @Test func duplicateColumnNamesLeftmostWins() throws {
        try withBothRows(sql: "SELECT 1 AS a, 2 AS A, 3 AS b, 4 AS a") { row throws in
            #expect(Array(row.columnNames) == ["a", "A", "b", "a"])
            #expect(row["a"] as Int == 1)
            #expect(row["A"] as Int == 1)
            #expect(row[Column("a")] as Int == 1)
            #expect(row.index(forColumn: "a") == 0)
            #expect(try row.decode(Int.self, forColumn: "a") == 1)
            #expect(row[1] as Int == 2)
            #expect(row[3] as Int == 4)
        }
        let literal: Row = ["a": 1, "b": 2, "a": 3]
        #expect(literal["a"] as Int == 1)
        #expect(literal.count == 3)
    }

    @Test func columnsAndValues() throws {
        try withBothRows { row throws in
            #expect(Array(row.columnNames) == ["id", "name", "email", "score", "data"])
            #expect(
                Array(row.databaseValues) == [
                    1.databaseValue, "Arthur".databaseValue, .null, 1.5.databaseValue, Data([1, 2]).databaseValue
                ])
            #expect(row.hasColumn("id"))
            #expect(row.hasColumn("Email"))
            #expect(!row.hasColumn("missing"))
            #expect(!row.hasColumn(""))
            #expect(row.hasNull(atIndex: 2))
            #expect(!row.hasNull(atIndex: 0))
            #expect(row.containsNonNullValue)
        }
        try withBothRows(sql: "SELECT NULL AS a, NULL AS b") { row throws in
            #expect(!row.containsNonNullValue)
        }
    }

    @Test func iterationYieldsColumnNamesAndValues() throws {
        try withBothRows(sql: "SELECT 1 AS a, 'x' AS b, NULL AS c") { row throws in
            var pairs: [(String, DatabaseValue)] = []
            for (name, value) in row {
                pairs.append((name, value))
            }
            #expect(pairs.map(\.0) == ["a", "b", "c"])
            #expect(pairs.map(\.1) == [1.databaseValue, "x".databaseValue, .null])
            #expect(row.map(\.0) == ["a", "b", "c"])
            #expect(row.startIndex < row.endIndex)
            #expect(row.distance(from: row.startIndex, to: row.endIndex) == 3)
            #expect(row[row.index(after: row.startIndex)].0 == "b")
        }
    }

    @Test func outOfRangeIndexTraps() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let row: Row = ["a": 1]
            _ = row[1] as Int
        }
        let stderr = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
        #expect(stderr.contains("Row index out of range"))
    }

    @Test func missingColumnOfANonOptionalTraps() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let row: Row = ["a": 1]
            _ = row["b"] as Int
        }
        let stderr = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
        #expect(stderr.contains(#"column not found: "b""#))
    }

    @Test func impossibleConversionTrapsNamingTheColumn() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let dbQueue = try DatabaseQueue()
            try dbQueue.read { db in
                let rows = try Row.fetchCursor(db, sql: "SELECT 1e20 AS score")
                while let row = try rows.next() {
                    _ = row["score"] as Int
                }
            }
        }
        let stderr = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
        #expect(stderr.contains(#"could not decode Int from database value 1e+20 - column: "score", column index: 0"#))
    }

    @Test func dictionaryInitializers() {
        let row = Row(["a": 1, "b": "x", "c": nil])
        #expect(row.count == 3)
        #expect(Set(row.columnNames) == ["a", "b", "c"])
        #expect(row["a"] as Int == 1)
        #expect(row["B"] as String == "x")
        #expect(row["c"] == nil)
        #expect(row.hasColumn("c"))

        let anyRow = Row(["a": 1, "b": "x"] as [AnyHashable: Any])
        #expect(anyRow?["a"] as Int? == 1)
        #expect(anyRow?["b"] as String? == "x")
        #expect(Row([1: 1] as [AnyHashable: Any]) == nil)
        #expect(Row(["a": NSObject()] as [AnyHashable: Any]) == nil)
        #expect(Row([NSNumber(value: 1): "bar"] as [AnyHashable: Any]) == nil)
    }

    /// Foundation objects are database values.
    @Test func dictionaryOfFoundationObjects() throws {
        let dictionary: [AnyHashable: Any] = [
            "a": NSString(string: "foo"), "b": NSNumber(value: 1), "c": NSNull(),
            "d": NSDate(timeIntervalSince1970: 1_443_642_439), "e": NSData(data: Data("foo".utf8)),
        ]
        let row = try #require(Row(dictionary))
        #expect(row.count == 5)
        #expect(row["a"] as String == "foo")
        #expect(row["b"] as Int == 1)
        #expect((row["c"] as DatabaseValue).isNull)
        #expect(row["d"] as String == "2015-09-30 19:47:19.000")
        #expect(row["e"] as Data == Data("foo".utf8))
    }

    @Test func literalsKeepTheirOrder() {
        let row: Row = ["z": 1, "a": "x", "m": nil, "b": 2.5]
        #expect(Array(row.columnNames) == ["z", "a", "m", "b"])
        #expect(Array(row.databaseValues) == [1.databaseValue, "x".databaseValue, .null, 2.5.databaseValue])
        let empty = Row()
        #expect(empty.count == 0)
        #expect(empty.isEmpty)
        #expect(empty.description == "[]")
    }

    @Test func copyDoesNotChangeWhenTheCursorMoves() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.read { db throws in
            let cursor = try Row.fetchCursor(db, sql: "SELECT 1 AS a UNION ALL SELECT 2")
            let live = try #require(try cursor.next())
            let copy = live.copy()
            #expect(copy == live)
            _ = try cursor.next()
            #expect(live["a"] as Int == 2)
            #expect(copy["a"] as Int == 1)
            #expect(copy != live)
            #expect(copy.copy() == copy)
        }
    }

    @Test func equalityAndHashing() {
        let a: Row = ["a": 1, "b": "x"]
        #expect(a == ["a": 1, "b": "x"])
        #expect(a == ["a": 1.0, "b": "x"])
        #expect(a != ["b": "x", "a": 1])
        #expect(a != ["A": 1, "b": "x"])
        #expect(a != ["a": 1])
        #expect(a != ["a": 2, "b": "x"])
        let set: Set<Row> = [a, ["a": 1, "b": "x"], ["a": 1.0, "b": "x"], ["a": 2]]
        #expect(set.count == 2)
    }

    @Test func description() throws {
        try withBothRows { row throws in
            #expect(row.description == #"[id:1 name:"Arthur" email:NULL score:1.5 data:Data(2 bytes)]"#)
            #expect("\(row)" == row.description)
        }
    }

    @Test func debugDescriptionOfAPlainRowIsItsDescription() {
        let row: Row = ["id": 1, "name": "Arthur"]
        #expect(row.debugDescription == #"[id:1 name:"Arthur"]"#)
        #expect(String(describing: [row]) == #"[[id:1 name:"Arthur"]]"#)
    }

    @Test func decodeErrorsNameTheColumnAndType() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.read { db throws in
            let sql = "SELECT ? AS name, 1e20 AS score"
            let cursor = try Row.fetchCursor(db, sql: sql, arguments: ["Arthur"])
            let row = try #require(try cursor.next())

            let mismatch = try #require(
                #expect(throws: RowDecodingError.self) { try row.decode(Int.self, forColumn: "score") })
            #expect(mismatch.kind == .valueMismatch)
            #expect(mismatch.key == "score")
            #expect(mismatch.typeName == "Int")
            #expect(mismatch.databaseValue == 1e20.databaseValue)
            #expect(mismatch.sql == sql)
            #expect(mismatch.arguments == ["Arthur"])
            #expect(mismatch.description == #"""
                could not decode Int from database value 1e+20 - column: "score", column index: 1, \#
                row: [name:"Arthur" score:1e+20], sql: `SELECT ? AS name, 1e20 AS score`, arguments: ["Arthur"]
                """#)

            let byIndex = try #require(#expect(throws: RowDecodingError.self) { try row.decode(Date.self, atIndex: 0) })
            #expect(byIndex.key == "name")
            #expect(byIndex.typeName == "Date")
            #expect(
                byIndex.description.hasPrefix(
                    #"could not decode Date from database value "Arthur" - column: "name", column index: 0"#))

            let missing = try #require(
                #expect(throws: RowDecodingError.self) { try row.decode(String.self, forColumn: "email") })
            #expect(missing.kind == .columnNotFound)
            #expect(missing.key == "email")
            #expect(missing.typeName == "String")
            #expect(missing.databaseValue == nil)
            #expect(
                missing.description.hasPrefix(
                    #"could not decode String: column not found: "email" - available columns: "name", "score""#))

            let copied = row.copy()
            let copiedError = try #require(
                #expect(throws: RowDecodingError.self) { try copied.decode(Int.self, forColumn: "score") })
            #expect(copiedError.key == "score")
            #expect(
                copiedError.description.hasPrefix(
                    #"could not decode Int from database value 1e+20 - column: "score", column index: 1, row: [name:"Arthur" score:1e+20]"#
                ))
        }
    }

    @Test func nameLookupsInAnyOrderAcrossRows() throws {
        // Cursor rows remember name lookups from row to row: lookups in a
        // different order, of missing columns, or with other spellings,
        // must still find the right columns.
        let dbQueue = try DatabaseQueue()
        try dbQueue.read { db throws in
            let cursor = try Row.fetchCursor(
                db,
                sql:
                    "SELECT 1 AS a, 2 AS b, 3 AS c UNION ALL SELECT 10, 20, 30 UNION ALL SELECT 100, 200, 300 UNION ALL SELECT 1000, 2000, 3000"
            )
            var results: [[Int?]] = []
            var index = 0
            while let row = try cursor.next() {
                switch index {
                case 0: results.append([row["a"], row["b"], row["c"]])
                case 1: results.append([row["c"], row["missing"], row["a"], row["b"]])
                case 2: results.append([row["B"], row[Column("a")], row["b"], row["b"]])
                default: results.append([row["a"], row["b"], row["c"]])
                }
                index += 1
            }
            #expect(results == [[1, 2, 3], [30, nil, 10, 20], [200, 100, 200, 200], [1000, 2000, 3000]])
        }
    }

    @Test func dataNoCopy() throws {
        try withBothRows(sql: "SELECT x'0102' AS b, NULL AS n, 'ab' AS t, x'' AS e") { row throws in
            #expect(row.dataNoCopy(atIndex: 0) == Data([1, 2]))
            #expect(row.dataNoCopy(named: "n") == nil)
            #expect(row.dataNoCopy(named: "t") == Data("ab".utf8))
            #expect(row.dataNoCopy(named: "e") == Data())
            #expect(row.dataNoCopy(named: "missing") == nil)
        }
    }

    @Test func withUnsafeData() throws {
        try withBothRows(sql: "SELECT x'0102' AS b, NULL AS n, 'ab' AS t, x'' AS e, 12 AS i") { row throws in
            #expect(try row.withUnsafeData(atIndex: 0) { $0 } == Data([1, 2]))
            #expect(try row.withUnsafeData(named: "n") { $0 } == nil)
            #expect(try row.withUnsafeData(named: "t") { $0 } == Data("ab".utf8))
            #expect(try row.withUnsafeData(at: Column("e")) { $0 } == Data())
            #expect(try row.withUnsafeData(named: "missing") { $0 } == nil)
            let error = #expect(throws: RowDecodingError.self) { try row.withUnsafeData(named: "i") { $0 } }
            #expect(error.map { "\($0)" }?.contains("column: \"i\"") == true)
        }
    }
}
