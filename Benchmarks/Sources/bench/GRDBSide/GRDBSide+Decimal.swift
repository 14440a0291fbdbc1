import Foundation
import GRDB

// GRDB's Decimal workloads: the same source as LiteSide+Decimal.swift,
// compiled against GRDB instead of GRDBLite.

extension GRDBSide {
    static func fetchDecimalsByIndex(_ fixture: Fixture) throws -> SideJob {
        try fetchAllPayments(IndexedPayment.self, fixture)
    }

    static func fetchDecimalsByName(_ fixture: Fixture) throws -> SideJob {
        try fetchAllPayments(NamedPayment.self, fixture)
    }

    static func fetchDecimalsDecodable(_ fixture: Fixture) throws -> SideJob {
        try fetchAllPayments(DecodablePayment.self, fixture)
    }

    private static func fetchAllPayments<Payment: FetchableRecord & TableRecord & BenchPayment>(
        _ type: Payment.Type, _ fixture: Fixture) throws -> SideJob
    {
        let dbQueue = try DatabaseQueue(path: fixture.fetchPath)
        var payments: [Payment] = []
        return SideJob(
            run: {
                payments = []
                payments = try dbQueue.inDatabase { db in
                    try Payment.fetchAll(db)
                }
            },
            fetched: {
                defer { payments = [] }
                return Digest(payments: payments)
            })
    }
}

/// `SELECT id, total FROM wideorder`, read by column index.
private struct IndexedPayment: FetchableRecord, TableRecord, BenchPayment {
    static let databaseTableName = "wideorder"
    static var databaseSelection: [any SQLSelectable] { [Column("id"), Column("total")] }
    var id: Int
    var total: Decimal

    init(row: Row) {
        id = row[0]
        total = row[1]
    }
}

/// The same, read by column name.
private struct NamedPayment: FetchableRecord, TableRecord, BenchPayment {
    static let databaseTableName = "wideorder"
    static var databaseSelection: [any SQLSelectable] { [Column("id"), Column("total")] }
    var id: Int
    var total: Decimal

    init(row: Row) {
        id = row["id"]
        total = row["total"]
    }
}

/// The same, decoded by `Decodable`.
private struct DecodablePayment: Decodable, FetchableRecord, TableRecord, BenchPayment {
    static let databaseTableName = "wideorder"
    static var databaseSelection: [any SQLSelectable] { [Column("id"), Column("total")] }
    var id: Int
    var total: Decimal
}
