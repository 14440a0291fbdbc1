import Foundation
import SQLKit
import SQLiteNIO

// Vapor's wide workloads: rows of SQLiteNIO read by index into the wide
// record (the date parsed from its text as the raw side does: SQLiteNIO
// reads dates from numbers), and the one-row request through SQLKit's
// select builder.

extension VaporSide {
    static func fetchWideRecords(_ fixture: Fixture) throws -> SideJob {
        let connection = try open(fixture.fetchPath)
        var orders: [WideOrder] = []
        return SideJob(
            run: {
                orders = []
                orders = try awaitBlocking {
                    try await connection.query(WideSQL.select).map { row in try WideOrder(row.columns.map(\.data)) }
                }
            },
            fetched: {
                defer { orders = [] }
                return Digest(orders: orders)
            },
            api: "SQLiteNIO", runsOnOtherThreads: true,
            close: { try close(connection) })
    }

    static func fetchOneOrdered(_ fixture: Fixture) throws -> SideJob {
        let connection = try open(fixture.fetchPath)
        let sql = connection.sql()
        let calls = fixture.orderedFetchCount
        var digest = Digest()
        return SideJob(
            run: {
                digest = try awaitBlocking {
                    var rows = Digest()
                    for _ in 0..<calls {
                        guard let item = try await sql.select().column("*").from("item")
                            .orderBy("i0", .descending).limit(1).first(decoding: OrderedItem.self)
                        else { throw BenchError("fetch-one-ordered: no row") }
                        rows.add(
                            item.i0, item.i1, item.i2, item.i3, item.i4, item.i5, item.i6, item.i7, item.i8, item.i9)
                    }
                    return rows
                }
            },
            fetched: { digest },
            api: "SQLKit", runsOnOtherThreads: true,
            close: { try close(connection) })
    }
}

/// The record of `fetch-one-ordered`.
private struct OrderedItem: Decodable, Sendable {
    var i0, i1, i2, i3, i4, i5, i6, i7, i8, i9: Int
}

/// A wide record read by index from SQLiteNIO's values.
private struct WideOrder: BenchWideOrder, Sendable {
    var id: Int
    var reference: String
    var status: String
    var customerName: String
    var email: String?
    var phone: String?
    var shipperId: Int?
    var quantity: Int?
    var street: String
    var city: String
    var couponId: Int?
    var total: Double
    var note: String?
    var createdAt: Date

    init(_ values: [SQLiteData]) throws {
        func text(_ i: Int) throws -> String {
            guard let value = values[i].string else { throw BenchError("SQLiteNIO: not text: \(values[i])") }
            return value
        }
        func int(_ i: Int) throws -> Int {
            guard let value = values[i].integer else { throw BenchError("SQLiteNIO: not an integer: \(values[i])") }
            return value
        }
        id = try int(0)
        reference = try text(1)
        status = try text(2)
        customerName = try text(3)
        email = try values[4].isNull ? nil : text(4)
        phone = try values[5].isNull ? nil : text(5)
        shipperId = try values[6].isNull ? nil : int(6)
        quantity = try values[7].isNull ? nil : int(7)
        street = try text(8)
        city = try text(9)
        couponId = try values[10].isNull ? nil : int(10)
        guard let total = values[11].double else { throw BenchError("SQLiteNIO: not a real: \(values[11])") }
        self.total = total
        note = try values[12].isNull ? nil : text(12)
        guard let createdAt = DateText.parse(try text(13)) else { throw BenchError("SQLiteNIO: a bad date") }
        self.createdAt = createdAt
    }
}
