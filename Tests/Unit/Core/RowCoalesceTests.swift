import GRDBLite
import Testing

@Suite struct RowCoalesceTests {
    @Test func coalesce() throws {
        let rows: [Row] = [
            ["nickname": "Artie", "name": "Arthur"],
            ["nickname": nil, "name": "Jacob"],
            ["nickname": nil, "name": nil],
        ]
        let values = rows.map { row in
            [
                row.coalesce([String]()) as String?,
                row.coalesce(["nickname"]) as String?,
                row.coalesce(["missing", "NICKNAME", "name"]) as String?,
                row.coalesce([Column("nickname"), Column("name")]) as String?,
            ]
        }
        #expect(values == [
            [nil, "Artie", "Artie", "Artie"],
            [nil, nil, "Jacob", "Jacob"],
            [nil, nil, nil, nil],
        ])
        // Rows of a cursor too.
        try DatabaseQueue().read { db throws in
            let cursor = try Row.fetchCursor(db, sql: "SELECT NULL AS a, 2 AS b")
            let row = try #require(try cursor.next())
            #expect(row.coalesce(["a", "b"]) as Int? == 2)
            #expect(cursor.databaseRegion.isEmpty)
        }
    }
}
