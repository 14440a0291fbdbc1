import Foundation
@testable import GRDBLite
import Testing

// Row adapters: the built-in adapters, scopes, copies, and the adapter
// argument of every fetching method.

@Suite struct RowAdapterTests {
    private static let sql = "SELECT 0 AS basea, 'XXX' AS extra, 1 AS baseb, 2 AS basec"
    private static let mapping = ColumnMapping(["a": "basea", "b": "baseb", "c": "basec"])

    @Test func columnMappingRenamesAndHidesColumns() throws {
        try DatabaseQueue().read { db throws in
            let row = try #require(try Row.fetchOne(db, sql: Self.sql, adapter: Self.mapping))
            #expect(row.count == 3)
            #expect(row.columnNames == ["a", "b", "c"])
            #expect(row.databaseValues == [0.databaseValue, 1.databaseValue, 2.databaseValue])
            #expect(row["b"] as Int == 1)
            #expect(row["B"] as Int == 1)
            #expect(row[2] as Int == 2)
            #expect(row["extra"] as String? == nil)
            #expect(!row.hasColumn("basea"))
            #expect(row.unadapted.columnNames == ["basea", "extra", "baseb", "basec"])
            #expect(row.description == "[a:0 b:1 c:2]")
            #expect(row.debugDescription == """
                ▿ [a:0 b:1 c:2]
                  unadapted: [basea:0 extra:"XXX" baseb:1 basec:2]
                """)
        }
    }

    @Test func columnMappingKeepsTheOrderOfTheFetchedRow() throws {
        try DatabaseQueue().read { db throws in
            let adapter = ColumnMapping(["id": "baseid", "val": "baseval"])
            let first = try #require(
                try Row.fetchOne(db, sql: "SELECT 1 AS baseid, 'foo' AS baseval", adapter: adapter))
            let second = try #require(
                try Row.fetchOne(db, sql: "SELECT 'foo' AS baseval, 1 AS baseid", adapter: adapter))
            #expect(first == ["id": 1, "val": "foo"])
            #expect(second == ["val": "foo", "id": 1])
            #expect(first != second)
        }
    }

    @Test func columnMappingPicksTheLeftmostColumnCaseInsensitively() throws {
        try DatabaseQueue().read { db throws in
            let row = try #require(try Row.fetchOne(
                db, sql: "SELECT 1 AS basename, 2 AS baseNaMe", adapter: ColumnMapping(["name": "BASENAME"])))
            #expect(row["name"] as Int == 1)
        }
    }

    @Test func missingMappedColumnIsAnError() throws {
        try DatabaseQueue().read { db throws in
            let error = try #require(throws: DatabaseError.self) {
                try Row.fetchOne(db, sql: "SELECT 1 AS a", adapter: ColumnMapping(["x": "missing"]))
            }
            #expect(error.resultCode == .SQLITE_MISUSE)
            // GRDB's message, word for word.
            #expect(error.message == "Mapping references missing column missing. Valid column names are: a.")
        }
    }

    @Test(arguments: [
        (0, ["a0", "a1", "a2", "a3"]),
        (1, ["a1", "a2", "a3"]),
        (4, []),
    ])
    func suffixAdapter(index: Int, names: [String]) throws {
        try DatabaseQueue().read { db throws in
            let row = try #require(try Row.fetchOne(
                db, sql: "SELECT 0 AS a0, 1 AS a1, 2 AS a2, 3 AS a3", adapter: SuffixRowAdapter(fromIndex: index)))
            #expect(row.columnNames == names)
            #expect(row.databaseValues == names.map { Int($0.dropFirst())!.databaseValue })
        }
    }

    @Test func rangeAdapters() throws {
        try DatabaseQueue().read { db throws in
            let sql = "SELECT 0 AS a0, 1 AS a1, 2 AS a2, 3 AS a3"
            #expect(try Row.fetchOne(db, sql: sql, adapter: RangeRowAdapter(1..<3))?.columnNames == ["a1", "a2"])
            #expect(try Row.fetchOne(db, sql: sql, adapter: RangeRowAdapter(1...2))?.columnNames == ["a1", "a2"])
            #expect(try Row.fetchOne(db, sql: sql, adapter: RangeRowAdapter(4..<4))?.columnNames == [])
            #expect(try Row.fetchOne(db, sql: sql, adapter: EmptyRowAdapter())?.isEmpty == true)
        }
    }

    @Test func outOfRangeAdaptersAreErrors() throws {
        try DatabaseQueue().read { db throws in
            #expect(throws: DatabaseError.self) {
                try Row.fetchOne(db, sql: "SELECT 1, 2", adapter: SuffixRowAdapter(fromIndex: 3))
            }
            #expect(throws: DatabaseError.self) {
                try Row.fetchOne(db, sql: "SELECT 1, 2", adapter: RangeRowAdapter(1..<3))
            }
        }
    }

    @Test func negativeIndexesTrap() async {
        await #expect(processExitsWith: .failure) { _ = SuffixRowAdapter(fromIndex: -1) }
        await #expect(processExitsWith: .failure) { _ = RangeRowAdapter(-1..<2) }
    }

    @Test func renameColumnAdapter() throws {
        try DatabaseQueue().read { db throws in
            let row = try #require(try Row.fetchOne(
                db, sql: #"SELECT 1 AS "id:1", 'foo' AS name"#,
                adapter: RenameColumnAdapter { String($0.prefix { $0 != ":" }) }))
            #expect(row == ["id": 1, "name": "foo"])
            #expect(row.unadapted == ["id:1": 1, "name": "foo"])
        }
    }

    @Test func scopesSeeTheColumnsOfTheFetchedRow() throws {
        try DatabaseQueue().read { db throws in
            // Nested scopes count columns from the fetched row, not from
            // their parent scope.
            let adapter = ColumnMapping(["id": "id0"]).addingScopes([
                "sub1": RangeRowAdapter(1..<3).addingScopes(["sub2": SuffixRowAdapter(fromIndex: 2)]),
            ])
            let row = try #require(
                try Row.fetchOne(db, sql: "SELECT 0 AS id0, 1 AS a1, 2 AS a2, 3 AS a3", adapter: adapter))
            // Rows with scopes are not equal to rows without.
            #expect(row != ["id": 0])
            #expect(row.unscoped == ["id": 0])
            #expect(row.scopes.names == ["sub1"])
            let sub1 = try #require(row.scopes["sub1"])
            #expect(sub1.unscoped == ["a1": 1, "a2": 2])
            #expect(sub1.scopes["sub2"] == ["a2": 2, "a3": 3])
            #expect(row.scopes["sub2"] == nil)
            #expect(row.scopesTree.names == ["sub1", "sub2"])
            #expect(row.scopesTree["sub2"] == ["a2": 2, "a3": 3])
            #expect(row.debugDescription == """
                ▿ [id:0]
                  unadapted: [id0:0 a1:1 a2:2 a3:3]
                  - sub1: [a1:1 a2:2]
                    - sub2: [a2:2 a3:3]
                """)
        }
    }

    @Test func addedScopesReplaceScopesOfTheSameName() throws {
        try DatabaseQueue().read { db throws in
            let adapter = ScopeAdapter(["a": RangeRowAdapter(0..<1), "b": RangeRowAdapter(0..<1)])
                .addingScopes(["b": RangeRowAdapter(1..<2)])
            let row = try #require(try Row.fetchOne(db, sql: "SELECT 0 AS x, 1 AS y", adapter: adapter))
            #expect(row.unscoped == ["x": 0, "y": 1])
            #expect(row.scopes["a"] == ["x": 0])
            #expect(row.scopes["b"] == ["y": 1])
        }
    }

    @Test func equalityComparesScopes() throws {
        try DatabaseQueue().read { db throws in
            let sql = "SELECT 0 AS a, 1 AS b, 1 AS c"
            let row1 = try #require(
                try Row.fetchOne(db, sql: sql, adapter: ScopeAdapter(["s": ColumnMapping(["x": "b"])])))
            let row2 = try #require(
                try Row.fetchOne(db, sql: sql, adapter: ScopeAdapter(["s": ColumnMapping(["x": "c"])])))
            let row3 = try #require(
                try Row.fetchOne(db, sql: sql, adapter: ScopeAdapter(["s": ColumnMapping(["y": "c"])])))
            #expect(row1 == row2)
            #expect(row1 != row3)
            #expect(row1 != row1.unscoped)
        }
    }

    @Test func cursorRowsAreViewsAndCopiesKeepTheirScopes() throws {
        try DatabaseQueue().read { db throws in
            let adapter = Self.mapping.addingScopes(["sub": ColumnMapping(["a": "baseb"])])
            let cursor = try Row.fetchCursor(
                db, sql: Self.sql + " UNION ALL SELECT 10, 'YYY', 11, 12", adapter: adapter)
            let first = try #require(try cursor.next())
            let copy = first.copy()
            #expect(first == copy)
            let second = try #require(try cursor.next())
            #expect(second["a"] as Int == 10)
            #expect(copy.unscoped == ["a": 0, "b": 1, "c": 2])
            #expect(copy.scopes["sub"] == ["a": 1])
            #expect(copy.unadapted == ["basea": 0, "extra": "XXX", "baseb": 1, "basec": 2])
            #expect(try cursor.next() == nil)
        }
    }

    @Test func adaptedRowsReadNullsBlobsAndErrors() throws {
        try DatabaseQueue().read { db throws in
            let data = Data("foo".utf8)
            let row = try #require(try Row.fetchOne(
                    db, sql: "SELECT 1, ? AS b, NULL AS n", arguments: [data],
                    adapter: ColumnMapping(["blob": "b", "null": "n"])))
            #expect(row.dataNoCopy(named: "blob") == data)
            #expect(row.hasNull(atIndex: 1))
            #expect(!row.hasNull(atIndex: 0))
            #expect(row["null"] as Int? == nil)
            let error = try #require(throws: RowDecodingError.self) { try row.decode(Int.self, forColumn: "null") }
            #expect("\(error)".contains("null"))
        }
    }

    /// An adapted row of a statement converts its values as SQLite does,
    /// as the statement's row does (GRDB decodes an adapted row through its
    /// base); an adapted copy is as strict as the copy. Found by the
    /// differential harness: a `Decodable` record with a nested record
    /// decoded from an adapted row read the text "" of an integer property.
    @Test func adaptedStatementRowsConvertAsSQLite() throws {
        struct Score: Decodable, FetchableRecord { var score: Int }
        struct Info: Decodable, FetchableRecord {
            var player: Score
            var team: Score?
        }
        try DatabaseQueue().read { db throws in
            // Renamed columns: the adapted row is not a slice of the statement.
            let sql = "SELECT 'x' AS extra, '' AS score, '12abc' AS other, NULL AS n"
            let adapter = ColumnMapping(["points": "score", "more": "other", "none": "n"])
            let rows = try Row.fetchCursor(db, sql: sql, adapter: adapter)
            let row = try #require(try rows.next())
            #expect(row["points"] as Int == 0)
            #expect(row["more"] as Int64 == 12)
            #expect(try row.decode(Int.self, forColumn: "more") == 12)
            #expect(row["none"] as Int? == nil)
            #expect(try Score.fetchOne(db, sql: sql, adapter: ColumnMapping(["score": "score"]))?.score == 0)
            // The differential's case: a nested scope that renames makes
            // the whole row adapted; `player` is decoded from it.
            let scopes = ScopeAdapter([
                "team": ScopeAdapter(base: SuffixRowAdapter(fromIndex: 3), scopes: ["place": ColumnMapping(["town": "n"])]),
            ])
            let info = try #require(try Info.fetchOne(db, sql: sql, adapter: scopes))
            #expect(info.player.score == 0)
            #expect(info.team == nil)
            // A copy is strict, adapted or not.
            let copy = row.copy()
            let error = try #require(throws: RowDecodingError.self) { try copy.decode(Int.self, forColumn: "points") }
            #expect("\(error)".contains("points"))
        }
    }

    @Test func fetchingValuesRecordsAndSets() throws {
        struct Item: FetchableRecord, Decodable, Hashable {
            var a: Int
            var b: Int
        }
        try DatabaseQueue().read { db throws in
            let sql = "SELECT 1 AS x, 2 AS y, 3 AS z UNION ALL SELECT 4, 5, 6"
            let adapter = ColumnMapping(["a": "y", "b": "z"])
            let suffix = SuffixRowAdapter(fromIndex: 1)
            let statement = try db.makeStatement(sql: sql)
            #expect(try Int.fetchAll(db, sql: sql, adapter: suffix) == [2, 5])
            #expect(try Int.fetchAll(statement, adapter: adapter) == [2, 5])
            #expect(try Int.fetchOne(db, sql: sql, adapter: ColumnMapping(["a": "z"])) == 3)
            #expect(try Int?.fetchAll(db, sql: sql, adapter: suffix) == [2, 5])
            #expect(try Int.fetchSet(db, sql: sql, adapter: suffix) == [2, 5])
            #expect(try Array(Int.fetchCursor(db, sql: sql, adapter: adapter)) == [2, 5])
            #expect(try Item.fetchAll(db, sql: sql, adapter: adapter) == [Item(a: 2, b: 3), Item(a: 5, b: 6)])
            #expect(try Item.fetchOne(statement, adapter: adapter) == Item(a: 2, b: 3))
            #expect(try Item.fetchSet(db, sql: sql, adapter: adapter).count == 2)
            #expect(try Row.fetchSet(db, sql: sql, adapter: adapter) == [["a": 2, "b": 3], ["a": 5, "b": 6]])
            #expect(throws: DatabaseError.self) { try Int.fetchAll(db, sql: sql, adapter: EmptyRowAdapter()) }
        }
    }

    @Test func splittingRowAdapters() throws {
        let adapters = GRDBLite.splittingRowAdapters(columnCounts: [1, 2])
        #expect(adapters.count == 3)
        try DatabaseQueue().read { db throws in
            let adapter = ScopeAdapter(["a": adapters[0], "b": adapters[1], "rest": adapters[2]])
            let row = try #require(try Row.fetchOne(db, sql: "SELECT 1 AS x, 2 AS y, 3 AS z, 4 AS t", adapter: adapter))
            #expect(row.scopes["a"] == ["x": 1])
            #expect(row.scopes["b"] == ["y": 2, "z": 3])
            #expect(row.scopes["rest"] == ["t": 4])
            // Consecutive columns with their names are slices of the
            // statement, like the rows of joined requests.
            #expect(row.adaptation == nil)
            #expect(row.scopes["b"]!.adaptation == nil)
        }
    }

    @Test func requestAdapters() throws {
        try DatabaseQueue().read { db throws in
            let request = SQLRequest<Row>(
                sql: "SELECT 0 AS a0, 1 AS a1, 2 AS a2", adapter: SuffixRowAdapter(fromIndex: 1))
            #expect(try request.fetchOne(db) == ["a1": 1, "a2": 2])
            // An adapted request adapts the rows of the request's adapter.
            let twice = request.adapted { _ in SuffixRowAdapter(fromIndex: 1) }
            #expect(try twice.fetchOne(db) == ["a2": 2])
            #expect(try twice.fetchAll(db) == [["a2": 2]])
            #expect(try twice.fetchCount(db) == 1)
            #expect(try twice.makePreparedRequest(db, forSingleResult: false).adapter != nil)
            let renamed = SQLRequest<Row>(sql: "SELECT 0 AS a0", adapter: ColumnMapping(["a1": "a0"]))
                .adapted { _ in ColumnMapping(["a2": "a1"]) }
                .adapted { _ in ColumnMapping(["a3": "a2"]) }
            #expect(try renamed.fetchOne(db) == ["a3": 0])
            #expect(
                try Int.fetchOne(db, SQLRequest<Int>(sql: "SELECT 1, 2", adapter: SuffixRowAdapter(fromIndex: 1))) == 2)
            let literal: SQL = "SELECT \(1) AS a, \(2) AS b"
            #expect(try SQLRequest<Row>(literal: literal, adapter: ColumnMapping(["c": "b"])).fetchOne(db) == ["c": 2])
        }
    }

    @Test func numberOfSelectedColumns() throws {
        struct Player: TableRecord { }
        struct PlayerName: TableRecord {
            static let databaseTableName = "player"
            static var databaseSelection: [any SQLSelectable] { [Column("name")] }
        }
        try DatabaseQueue().write { db throws in
            try db.execute(sql: "CREATE TABLE player (id INTEGER PRIMARY KEY, name TEXT, score INTEGER)")
            #expect(try Player.numberOfSelectedColumns(db) == 3)
            #expect(try PlayerName.numberOfSelectedColumns(db) == 1)
        }
    }
}
