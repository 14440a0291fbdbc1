import SQLKit
import SQLiteKit

// Vapor's record workloads, through SQLKit on SQLiteKit's `sql()` database,
// as SQLKit's documentation writes them: the select builder with
// `SQLRow.decode(column:as:)` or `all(decoding:)` (`SQLRow.decode(model:)`),
// and the insert builder with `values(...)` or `model(_:)`. SQLKit has no
// transaction API: an app runs BEGIN and COMMIT as raw SQL.

extension VaporSide {
    /// Records built by hand from each row, the counterpart of `init(row:)`.
    static func fetchRowRecords(_ fixture: Fixture) throws -> SideJob {
        let connection = try open(fixture.fetchPath)
        let sql = connection.sql()
        var items: [RowItem] = []
        return SideJob(
            run: {
                items = []
                items = try awaitBlocking {
                    try await sql.select().column("*").from("item").all().map(RowItem.init(row:))
                }
            },
            fetched: {
                defer { items = [] }
                return Digest(items: items)
            },
            api: "SQLKit", runsOnOtherThreads: true,
            close: { try close(connection) })
    }

    static func fetchDecodableRecords(_ fixture: Fixture) throws -> SideJob {
        let connection = try open(fixture.fetchPath)
        let sql = connection.sql()
        var items: [DecodableItem] = []
        return SideJob(
            run: {
                items = []
                items = try awaitBlocking {
                    try await sql.select().column("*").from("item").all(decoding: DecodableItem.self)
                }
            },
            fetched: {
                defer { items = [] }
                return Digest(items: items)
            },
            api: "SQLKit", runsOnOtherThreads: true,
            close: { try close(connection) })
    }

    /// Records whose columns the app lists by hand: the counterpart of
    /// `encode(to:)`.
    static func insertRecords(_ fixture: Fixture) throws -> SideJob {
        let connection = try open(fixture.insertPath)
        let sql = connection.sql()
        let count = fixture.insertRowCount
        return SideJob(
            run: {
                try awaitBlocking {
                    try await sql.raw("BEGIN").run()
                    for i in 0..<count {
                        let item = RowItem(i0: i, i1: i, i2: i, i3: i, i4: i, i5: i, i6: i, i7: i, i8: i, i9: i)
                        try await sql.insert(into: "item")
                            .columns("i0", "i1", "i2", "i3", "i4", "i5", "i6", "i7", "i8", "i9")
                            .values(
                                item.i0, item.i1, item.i2, item.i3, item.i4, item.i5, item.i6, item.i7, item.i8, item.i9
                            )
                            .run()
                    }
                    try await sql.raw("COMMIT").run()
                }
            },
            api: "SQLKit", runsOnOtherThreads: true,
            close: { try close(connection) })
    }

    static func insertEncodableRecords(_ fixture: Fixture) throws -> SideJob {
        let connection = try open(fixture.insertPath)
        let sql = connection.sql()
        let count = fixture.insertRowCount
        return SideJob(
            run: {
                try awaitBlocking {
                    try await sql.raw("BEGIN").run()
                    for i in 0..<count {
                        let item = EncodableItem(i0: i, i1: i, i2: i, i3: i, i4: i, i5: i, i6: i, i7: i, i8: i, i9: i)
                        try await sql.insert(into: "item").model(item).run()
                    }
                    try await sql.raw("COMMIT").run()
                }
            },
            api: "SQLKit", runsOnOtherThreads: true,
            close: { try close(connection) })
    }
}

/// A record read column by column from an `SQLRow`.
private struct RowItem: BenchItem, Sendable {
    var i0, i1, i2, i3, i4, i5, i6, i7, i8, i9: Int

    init(i0: Int, i1: Int, i2: Int, i3: Int, i4: Int, i5: Int, i6: Int, i7: Int, i8: Int, i9: Int) {
        (self.i0, self.i1, self.i2, self.i3, self.i4) = (i0, i1, i2, i3, i4)
        (self.i5, self.i6, self.i7, self.i8, self.i9) = (i5, i6, i7, i8, i9)
    }

    init(row: any SQLRow) throws {
        i0 = try row.decode(column: "i0", as: Int.self)
        i1 = try row.decode(column: "i1", as: Int.self)
        i2 = try row.decode(column: "i2", as: Int.self)
        i3 = try row.decode(column: "i3", as: Int.self)
        i4 = try row.decode(column: "i4", as: Int.self)
        i5 = try row.decode(column: "i5", as: Int.self)
        i6 = try row.decode(column: "i6", as: Int.self)
        i7 = try row.decode(column: "i7", as: Int.self)
        i8 = try row.decode(column: "i8", as: Int.self)
        i9 = try row.decode(column: "i9", as: Int.self)
    }
}

/// A `Decodable` record: `SQLRow.decode(model:)`, through `all(decoding:)`.
private struct DecodableItem: Decodable, BenchItem, Sendable {
    var i0, i1, i2, i3, i4, i5, i6, i7, i8, i9: Int
}

/// An `Encodable` record: `SQLInsertBuilder.model(_:)`.
private struct EncodableItem: Encodable, Sendable {
    var i0, i1, i2, i3, i4, i5, i6, i7, i8, i9: Int
}
