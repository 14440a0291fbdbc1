import GRDBLite
import Testing

private typealias Player = QueryInterfaceFixtures.Player

@Suite struct SQLRequestTests {
    let dbQueue: DatabaseQueue

    init() throws {
        dbQueue = try QueryInterfaceFixtures.makeDatabase()
    }

    @Test func sqlAndArguments() throws {
        try dbQueue.read { db throws in
            let request = SQLRequest<Player>(sql: "SELECT * FROM player WHERE score > ? ORDER BY id", arguments: [500])
            let statement = try request.makePreparedRequest(db, forSingleResult: false).statement
            #expect(statement.sql == "SELECT * FROM player WHERE score > ? ORDER BY id")
            #expect(statement.arguments == [500])
            #expect(try request.fetchAll(db).map(\.id) == [2, 5])
            #expect(try request.fetchOne(db)?.id == 2)
            #expect(try request.fetchSet(db).count == 2)
            #expect(try request.fetchCursor(db).next()?.id == 2)
            #expect(try request.fetchCount(db) == 2)
        }
    }

    /// An interpolated request is written without parentheses, as in GRDB.
    @Test func interpolatedRequests() throws {
        try dbQueue.read { db throws in
            let maxScore = Player.select(max(Column("score")))
            let request = SQLRequest<Player>(literal: "SELECT * FROM player WHERE score = (\(maxScore)) AND id > \(1)")
            let statement = try request.makePreparedRequest(db, forSingleResult: false).statement
            #expect(
                statement.sql == #"SELECT * FROM player WHERE score = (SELECT MAX("score") FROM "player") AND id > ?"#)
            #expect(try request.fetchAll(db).map(\.id) == [2, 5])
            let sqlSubquery: SQLRequest<Int> = "SELECT id FROM player WHERE score > \(500)"
            let outer = SQLRequest<Int>(literal: "SELECT COUNT(*) FROM (\(sqlSubquery))")
            #expect(try outer.makePreparedRequest(db, forSingleResult: false).statement.sql
                == "SELECT COUNT(*) FROM (SELECT id FROM player WHERE score > ?)")
            #expect(try outer.fetchOne(db) == 2)
        }
    }

    @Test func interpolatedSelectionsAndRowID() throws {
        try dbQueue.read { db throws in
            let request = SQLRequest<Row>(
                literal: "SELECT \(AllColumns()), \(Column.rowID) FROM player WHERE \(Column("id")) = \(1)")
            #expect(try request.makePreparedRequest(db, forSingleResult: false).statement.sql
                == #"SELECT *, "rowid" FROM player WHERE "id" = ?"#)
            let existential: any SQLSelectable = AllColumns()
            #expect(try SQL("SELECT \(existential) FROM player").build(db).sql == "SELECT * FROM player")
            // `.rowID` as an implicit member.
            // (`order` takes `Column.rowID`: GRDB has no implicit member there.)
            #expect(
                try Player.select(.rowID, as: Int64.self).filter(Column.rowID > 3).order(Column.rowID)
                    .fetchAll(db) == [4, 5])
        }
    }

    @Test func literal() throws {
        try dbQueue.read { db throws in
            let name = "O'Brien' OR 1=1 --"
            let request = SQLRequest<Player>(
                literal: "SELECT * FROM player WHERE name = \(name) OR \(Column("id")) = \(1)")
            let statement = try request.makePreparedRequest(db, forSingleResult: false).statement
            #expect(statement.sql == #"SELECT * FROM player WHERE name = ? OR "id" = ?"#)
            #expect(statement.arguments == [name, 1])
            #expect(try request.fetchAll(db).map(\.id) == [1])

            let interpolated: SQLRequest<String> = "SELECT name FROM player WHERE id = \(2)"
            #expect(try interpolated.fetchOne(db) == "Barbara")
        }
    }

    @Test func rowsAndValues() throws {
        try dbQueue.read { db throws in
            // SQLRequest without type parameter: rows.
            let rows = SQLRequest(sql: "SELECT id, name FROM player WHERE team = ? ORDER BY id", arguments: ["red"])
            #expect(try rows.fetchAll(db) == [["id": 1, "name": "Arthur"], ["id": 3, "name": "Craig"]])
            #expect(try rows.fetchOne(db) == ["id": 1, "name": "Arthur"])
            #expect(try rows.fetchSet(db).count == 2)
            let cursor = try rows.fetchCursor(db)
            let first = try withExtendedLifetime(cursor) { try cursor.next()?.copy() }
            #expect(first == ["id": 1, "name": "Arthur"])
            #expect(try SQLRequest(literal: "SELECT \(42) AS answer").fetchOne(db) == ["answer": 42])

            let names = SQLRequest<String>(sql: "SELECT name FROM player ORDER BY id")
            #expect(try names.fetchAll(db).first == "Arthur")
            #expect(try names.fetchCount(db) == 5)
            #expect(try String.fetchAll(db, names).count == 5)
            #expect(try String.fetchSet(db, names).count == 5)
            #expect(try String.fetchOne(db, names) == "Arthur")
            #expect(try Int.fetchOne(db, SQLRequest<Int>(sql: "SELECT NULL")) == nil)
            #expect(try Row.fetchAll(db, names).count == 5)
            #expect(try Player.fetchAll(db, SQLRequest<Player>(sql: "SELECT * FROM player")).count == 5)
        }
    }

    @Test func cachedStatements() throws {
        try dbQueue.read { db throws in
            let request = SQLRequest<Int>(sql: "SELECT COUNT(*) FROM player", cached: true)
            let first = try request.makePreparedRequest(db, forSingleResult: true).statement
            let second = try request.makePreparedRequest(db, forSingleResult: true).statement
            #expect(first === second)
            let uncached = SQLRequest<Int>(sql: "SELECT COUNT(*) FROM player")
            #expect(try uncached.makePreparedRequest(db, forSingleResult: true).statement
                !== uncached.makePreparedRequest(db, forSingleResult: true).statement)
        }
    }

    @Test func invalidSQLThrowsADatabaseError() throws {
        try dbQueue.read { db throws in
            let error = try #require(throws: DatabaseError.self) {
                try SQLRequest<Row>(sql: "SELECT * FROM nowhere").fetchAll(db)
            }
            #expect(error.resultCode == .SQLITE_ERROR)
            #expect(error.message == "no such table: nowhere")
            #expect(error.sql == "SELECT * FROM nowhere")
        }
    }

    @Test func queryInterfaceRequestsAreFetchRequests() throws {
        func names(_ db: Database, _ request: some FetchRequest<String>) throws -> [String] {
            try request.fetchAll(db)
        }
        try dbQueue.read { db throws in
            #expect(try names(db, Player.order(\.id).select(\.name, as: String.self)).first == "Arthur")
            #expect(try names(db, SQLRequest(sql: "SELECT name FROM player ORDER BY id DESC")).first == "Élodie")
        }
    }
}
