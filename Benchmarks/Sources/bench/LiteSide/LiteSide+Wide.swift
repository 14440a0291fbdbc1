import Foundation
import GRDBLite

// GRDBLite's wide workloads: the same source as GRDBSide+Wide.swift,
// compiled against GRDBLite instead of GRDB.

extension LiteSide {
    static func fetchWideRecords(_ fixture: Fixture) throws -> SideJob {
        try fetchAllWide(WideRowOrder.self, fixture)
    }

    static func fetchWideDecodableRecords(_ fixture: Fixture) throws -> SideJob {
        try fetchAllWide(WideDecodableOrder.self, fixture)
    }

    static func fetchAllWide<Order: FetchableRecord & TableRecord & BenchWideOrder>(
        _ type: Order.Type, _ fixture: Fixture) throws -> SideJob
    {
        let dbQueue = try DatabaseQueue(path: fixture.fetchPath)
        var orders: [Order] = []
        return SideJob(
            run: {
                orders = []
                orders = try dbQueue.inDatabase { db in
                    try Order.fetchAll(db)
                }
            },
            fetched: {
                defer { orders = [] }
                return Digest(orders: orders)
            })
    }

    static func insertWideEncodableRecords(_ fixture: Fixture) throws -> SideJob {
        let dbQueue = try DatabaseQueue(path: fixture.insertPath)
        let orders = WideOrderData.rows(count: fixture.wideInsertRowCount).map(WideEncodableOrder.init)
        return SideJob(run: {
            try dbQueue.inTransaction { db in
                for order in orders {
                    try order.insert(db)
                }
                return .commit
            }
        })
    }

    static func fetchOneOrdered(_ fixture: Fixture) throws -> SideJob {
        let dbQueue = try DatabaseQueue(path: fixture.fetchPath)
        let calls = fixture.orderedFetchCount
        var digest = Digest()
        return SideJob(
            run: {
                var rows = Digest()
                try dbQueue.inDatabase { db in
                    for _ in 0..<calls {
                        guard let item = try OrderedItem.order(Column("i0").desc).fetchOne(db) else {
                            throw BenchError("fetch-one-ordered: no row")
                        }
                        rows.add(
                            item.i0, item.i1, item.i2, item.i3, item.i4, item.i5, item.i6, item.i7, item.i8, item.i9)
                    }
                }
                digest = rows
            },
            fetched: { digest })
    }
}

/// A wide record built with `init(row:)`, by column index.
private struct WideRowOrder: FetchableRecord, TableRecord, BenchWideOrder {
    static let databaseTableName = "wideorder"
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

    init(row: Row) {
        id = row[0]
        reference = row[1]
        status = row[2]
        customerName = row[3]
        email = row[4]
        phone = row[5]
        shipperId = row[6]
        quantity = row[7]
        street = row[8]
        city = row[9]
        couponId = row[10]
        total = row[11]
        note = row[12]
        createdAt = row[13]
    }
}

/// A `Decodable` wide record.
private struct WideDecodableOrder: Decodable, FetchableRecord, TableRecord, BenchWideOrder {
    static let databaseTableName = "wideorder"
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
}

/// An `Encodable` wide record.
private struct WideEncodableOrder: Encodable, PersistableRecord {
    static let databaseTableName = "wideorder"
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

    init(_ data: WideOrderData) {
        (id, reference, status, customerName) = (data.id, data.reference, data.status, data.customerName)
        (email, phone, shipperId, quantity) = (data.email, data.phone, data.shipperId, data.quantity)
        (street, city, couponId, total) = (data.street, data.city, data.couponId, data.total)
        (note, createdAt) = (data.note, data.createdAt)
    }
}

/// The record of `fetch-one-ordered`.
private struct OrderedItem: Decodable, FetchableRecord, TableRecord {
    static let databaseTableName = "item"
    var i0, i1, i2, i3, i4, i5, i6, i7, i8, i9: Int
}
