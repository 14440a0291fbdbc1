import Foundation
import GRDBLite

// GRDBLite's record macros (`@DatabaseRecord`, GRDBLiteMacros) on the
// record workloads: the same records as LiteSide+Records.swift and
// LiteSide+Wide.swift declare by hand, declared with the macro. GRDB has
// no record macros: these workloads have no GRDB side.

extension LiteSide {
    static func fetchMacroRecords(_ fixture: Fixture) throws -> SideJob {
        try fetchAll(MacroItem.self, fixture)
    }

    static func fetchWideMacroRecords(_ fixture: Fixture) throws -> SideJob {
        try fetchAllWide(MacroWideOrder.self, fixture)
    }

    static func insertMacroRecords(_ fixture: Fixture) throws -> SideJob {
        let dbQueue = try DatabaseQueue(path: fixture.insertPath)
        let count = fixture.insertRowCount
        return SideJob(run: {
            try dbQueue.inTransaction { db in
                for i in 0..<count {
                    try MacroItem(i0: i, i1: i, i2: i, i3: i, i4: i, i5: i, i6: i, i7: i, i8: i, i9: i).insert(db)
                }
                return .commit
            }
        })
    }
}

/// The `item` record, by the macro.
@DatabaseRecord(table: "item")
private struct MacroItem: BenchItem {
    var i0: Int
    var i1: Int
    var i2: Int
    var i3: Int
    var i4: Int
    var i5: Int
    var i6: Int
    var i7: Int
    var i8: Int
    var i9: Int
}

/// The wide record, by the macro.
@DatabaseRecord(table: "wideorder")
private struct MacroWideOrder: BenchWideOrder {
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
