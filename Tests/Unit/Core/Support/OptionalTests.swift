import Foundation
import Testing
import GRDBLite

@Suite struct OptionalTests {
    @Test func nilIsStoredAsNull() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.read { db throws in
            let none: Int? = nil
            #expect(try String.fetchOne(db, sql: "SELECT typeof(?)", arguments: [none]) == "null")
            #expect(none.databaseValue == .null)
            #expect(Optional(3).databaseValue == 3.databaseValue)
            #expect(try Int.fetchOne(db, sql: "SELECT ?", arguments: [Optional(3)]) == 3)
        }
    }

    @Test func nullIsReadAsNil() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.read { db throws in
            #expect(try Int?.fetchAll(db, sql: "SELECT NULL UNION ALL SELECT 2") == [nil, 2])
            #expect(try String?.fetchAll(db, sql: "SELECT 'a' UNION ALL SELECT NULL") == ["a", nil])
            #expect(try Date?.fetchAll(db, sql: "SELECT NULL") == [nil])
            let row = try #require(try Row.fetchOne(db, sql: "SELECT NULL AS a, 1 AS b"))
            #expect(row["a"] as Int? == nil)
            #expect(row["b"] as Int? == 1)
            #expect(row[0] as String? == nil)
            #expect(row[Column("a")] as Data? == nil)
            #expect(try row.decode(Int?.self, atIndex: 0) == nil)
            #expect(Int?.fromDatabaseValue(.null) == .some(nil))
            // As in GRDB, the wrapped type converts first: DatabaseValue
            // reads NULL as `.null`.
            #expect(row["a"] as DatabaseValue? == .null)
            #expect(try row.decode(DatabaseValue?.self, forColumn: "a") == .null)
            #expect(try DatabaseValue?.fetchAll(db, sql: "SELECT NULL") == [.null])
        }
    }

    @Test func missingColumnIsNilForOptionalsOnly() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.read { db throws in
            let row = try #require(try Row.fetchOne(db, sql: "SELECT 1 AS a"))
            #expect(row["missing"] as Int? == nil)
            #expect(try row.decode(Int?.self, forColumn: "missing") == nil)
            #expect(try row.decode(DatabaseValue?.self, forColumn: "missing") == nil)
            let error = #expect(throws: RowDecodingError.self) { try row.decode(Int.self, forColumn: "missing") }
            #expect(error?.description.hasPrefix(#"could not decode Int: column not found: "missing""#) == true)
        }
    }

    @Test func valueThatDoesNotConvertIsAnErrorNotNil() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.read { db throws in
            #expect(throws: RowDecodingError.self) { try Int?.fetchOne(db, sql: "SELECT 1e20") }
            #expect(throws: RowDecodingError.self) { try Int?.fetchAll(db, sql: "SELECT 1e20") }
            let row = try #require(try Row.fetchOne(db, sql: "SELECT 'ten' AS n"))
            #expect(throws: RowDecodingError.self) { try row.decode(Int?.self, forColumn: "n") }
            #expect(Int?.fromDatabaseValue("ten".databaseValue) == nil)
        }
    }

    @Test func nonOptionalSubscriptOfNullTrapsNamingTheColumn() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let dbQueue = try DatabaseQueue()
            try dbQueue.read { db throws in
                let row = try Row.fetchOne(db, sql: "SELECT NULL AS score")!
                let score: Int = row["score"]
                _ = score
            }
        }
        let stderr = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
        #expect(stderr.contains(#"could not decode Int from database value NULL - column: "score""#))
    }
}

/// An optional expression is the wrapped expression, or NULL.
@Suite struct OptionalExpressionTests {
    @Test func operatorsAndMethodsApplyToOptionalExpressions() throws {
        let dbQueue = try QueryInterfaceFixtures.makeDatabase()
        try dbQueue.read { db throws in
            let score: Column? = QueryInterfaceFixtures.Player.Columns.score
            let missing: Column? = nil
            let table = Table("player")
            let (sql, arguments) = try sqlAndArguments(db, table.filter(score >= 500).order(score.desc))
            #expect(sql == #"SELECT * FROM "player" WHERE "score" >= ? ORDER BY "score" DESC"#)
            #expect(arguments == [500])
            #expect(try table.filter(score == 1000).fetchCount(db) == 2)
            #expect(try Int.fetchOne(db, table.select(missing ?? 3).limit(1)) == 3)
            #expect(try Row.fetchOne(db, table.select(missing).limit(1))?[0] as Int? == nil)

            let name: SQLExpression? = Column("name").sqlExpression
            #expect(try String.fetchOne(db, table.select(name.uppercased).order(Column("id")).limit(1)) == "ARTHUR")
            let (ordered, _) = try sqlAndArguments(db, table.select(Column("id")).order(name.ascNullsLast))
            #expect(ordered == #"SELECT "id" FROM "player" ORDER BY "name" ASC NULLS LAST"#)
            let row = try #require(try Row.fetchOne(db, table.select(name.forKey("n")).order(Column("id"))))
            #expect(row["n"] as String == "Arthur")
        }
    }
}
