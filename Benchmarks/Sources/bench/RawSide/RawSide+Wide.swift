import BenchSQLite
import Foundation

// The floor of the wide workloads: the record built from columns read by
// index, text read with `String(decoding:as:)` from the bytes SQLite hands
// over, the date parsed from its bytes; inserts bind text and the date's
// text, formatted by hand, directly.

extension RawSide {
    struct WideOrder: BenchWideOrder {
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

    static func fetchWideRecords(_ fixture: Fixture) throws -> SideJob {
        let db = try RawDatabase(path: fixture.fetchPath)
        var orders: [WideOrder] = []
        return SideJob(
            run: {
                orders = []
                orders = try db.wideOrders()
            },
            fetched: {
                defer { orders = [] }
                return Digest(orders: orders)
            })
    }

    static func insertWideRecords(_ fixture: Fixture) throws -> SideJob {
        let db = try RawDatabase(path: fixture.insertPath)
        let orders = WideOrderData.rows(count: fixture.wideInsertRowCount).map(WideOrder.init)
        return SideJob(run: {
            try db.execute("BEGIN")
            let statement = try db.prepare(WideSQL.insert)
            defer { sqlite3_finalize(statement) }
            for order in orders {
                sqlite3_reset(statement)
                sqlite3_bind_int64(statement, 1, Int64(order.id))
                bindText(statement, 2, order.reference)
                bindText(statement, 3, order.status)
                bindText(statement, 4, order.customerName)
                bindText(statement, 5, order.email)
                bindText(statement, 6, order.phone)
                bindInt(statement, 7, order.shipperId)
                bindInt(statement, 8, order.quantity)
                bindText(statement, 9, order.street)
                bindText(statement, 10, order.city)
                bindInt(statement, 11, order.couponId)
                sqlite3_bind_double(statement, 12, order.total)
                bindText(statement, 13, order.note)
                DateText.withText(order.createdAt) { bytes, count in
                    _ = sqlite3_bind_text(statement, 14, bytes, CInt(count), rawTransient)
                }
                let code = sqlite3_step(statement)
                if code != SQLITE_DONE { throw db.error(code, WideSQL.insert) }
            }
            try db.execute("COMMIT")
        })
    }

    static func fetchOneOrdered(_ fixture: Fixture) throws -> SideJob {
        let db = try RawDatabase(path: fixture.fetchPath)
        let calls = fixture.orderedFetchCount
        var digest = Digest()
        return SideJob(
            run: {
                let statement = try db.prepare(WideSQL.selectOneOrdered)
                defer { sqlite3_finalize(statement) }
                var rows = Digest()
                for _ in 0..<calls {
                    sqlite3_reset(statement)
                    let code = sqlite3_step(statement)
                    guard code == SQLITE_ROW else { throw db.error(code, WideSQL.selectOneOrdered) }
                    rows.add(
                        Int(sqlite3_column_int64(statement, 0)), Int(sqlite3_column_int64(statement, 1)),
                        Int(sqlite3_column_int64(statement, 2)), Int(sqlite3_column_int64(statement, 3)),
                        Int(sqlite3_column_int64(statement, 4)), Int(sqlite3_column_int64(statement, 5)),
                        Int(sqlite3_column_int64(statement, 6)), Int(sqlite3_column_int64(statement, 7)),
                        Int(sqlite3_column_int64(statement, 8)), Int(sqlite3_column_int64(statement, 9)))
                }
                digest = rows
            },
            fetched: { digest })
    }

    @inline(__always)
    private static func bindText(_ statement: OpaquePointer, _ index: CInt, _ text: String?) {
        guard var text else {
            sqlite3_bind_null(statement, index)
            return
        }
        text.withUTF8 { buffer in
            guard let start = buffer.baseAddress, !buffer.isEmpty else {
                _ = sqlite3_bind_text(statement, index, "", 0, rawTransient)
                return
            }
            _ = UnsafeRawPointer(start).withMemoryRebound(to: CChar.self, capacity: buffer.count) { chars in
                sqlite3_bind_text(statement, index, chars, CInt(buffer.count), rawTransient)
            }
        }
    }

    @inline(__always)
    private static func bindInt(_ statement: OpaquePointer, _ index: CInt, _ value: Int?) {
        if let value {
            sqlite3_bind_int64(statement, index, Int64(value))
        } else {
            sqlite3_bind_null(statement, index)
        }
    }
}

extension RawSide.WideOrder {
    init(_ data: WideOrderData) {
        self.init(
            id: data.id, reference: data.reference, status: data.status, customerName: data.customerName,
            email: data.email, phone: data.phone, shipperId: data.shipperId, quantity: data.quantity,
            street: data.street, city: data.city, couponId: data.couponId, total: data.total,
            note: data.note, createdAt: data.createdAt)
    }
}

/// SQLite copies the bound bytes (`SQLITE_TRANSIENT`).
var rawTransient: sqlite3_destructor_type { unsafeBitCast(-1, to: sqlite3_destructor_type.self) }

extension RawDatabase {
    /// The rows of the wide table (of the fetch file, or of the insert file
    /// after an insert workload), read by index.
    func wideOrders() throws -> [RawSide.WideOrder] {
        let statement = try prepare(WideSQL.select)
        defer { sqlite3_finalize(statement) }
        var result: [RawSide.WideOrder] = []
        while true {
            let code = sqlite3_step(statement)
            guard code == SQLITE_ROW else {
                if code == SQLITE_DONE { break }
                throw error(code, WideSQL.select)
            }
            guard let createdAt = DateText.parse(
                sqlite3_column_text(statement, 13), count: Int(sqlite3_column_bytes(statement, 13)))
            else { throw BenchError("wideorder: a bad date") }
            result.append(RawSide.WideOrder(
                id: Int(sqlite3_column_int64(statement, 0)),
                reference: text(statement, 1),
                status: text(statement, 2),
                customerName: text(statement, 3),
                email: optionalText(statement, 4),
                phone: optionalText(statement, 5),
                shipperId: optionalInt(statement, 6),
                quantity: optionalInt(statement, 7),
                street: text(statement, 8),
                city: text(statement, 9),
                couponId: optionalInt(statement, 10),
                total: sqlite3_column_double(statement, 11),
                note: optionalText(statement, 12),
                createdAt: createdAt))
        }
        return result
    }

    @inline(__always)
    private func text(_ statement: OpaquePointer, _ index: CInt) -> String {
        String(decoding: UnsafeBufferPointer(
            start: sqlite3_column_text(statement, index),
            count: Int(sqlite3_column_bytes(statement, index))), as: UTF8.self)
    }

    @inline(__always)
    private func optionalText(_ statement: OpaquePointer, _ index: CInt) -> String? {
        sqlite3_column_type(statement, index) == SQLITE_NULL ? nil : text(statement, index)
    }

    @inline(__always)
    private func optionalInt(_ statement: OpaquePointer, _ index: CInt) -> Int? {
        let value = sqlite3_column_int64(statement, index)
        if value == 0 && sqlite3_column_type(statement, index) == SQLITE_NULL { return nil }
        return Int(value)
    }

    /// Creates the wide table and fills it with `count` generated rows.
    func generateWideTable(count: Int) throws {
        try execute(WideSQL.createTable)
        try execute("BEGIN")
        let statement = try prepare(WideSQL.insert)
        defer { sqlite3_finalize(statement) }
        func bindText(_ index: CInt, _ text: String?) {
            if let text {
                sqlite3_bind_text(statement, index, text, -1, rawTransient)
            } else {
                sqlite3_bind_null(statement, index)
            }
        }
        func bindInt(_ index: CInt, _ value: Int?) {
            if let value {
                sqlite3_bind_int64(statement, index, Int64(value))
            } else {
                sqlite3_bind_null(statement, index)
            }
        }
        for order in WideOrderData.rows(count: count) {
            sqlite3_reset(statement)
            bindInt(1, order.id)
            bindText(2, order.reference)
            bindText(3, order.status)
            bindText(4, order.customerName)
            bindText(5, order.email)
            bindText(6, order.phone)
            bindInt(7, order.shipperId)
            bindInt(8, order.quantity)
            bindText(9, order.street)
            bindText(10, order.city)
            bindInt(11, order.couponId)
            sqlite3_bind_double(statement, 12, order.total)
            bindText(13, order.note)
            bindText(14, DateText.format(order.createdAt))
            let code = sqlite3_step(statement)
            if code != SQLITE_DONE { throw error(code, WideSQL.insert) }
        }
        try execute("COMMIT")
    }
}

extension DateText {
    /// Formats a date into a stack buffer, digit by digit, for binding
    /// without a `String`.
    static func withText(_ date: Date, _ body: (UnsafePointer<CChar>, Int) -> Void) {
        let milliseconds = Int((date.timeIntervalSince1970 * 1000).rounded())
        let (days, dayMilliseconds) = milliseconds.quotientAndRemainder(dividingBy: 86_400_000)
        let (year, month, day) = civilDate(days)
        let seconds = dayMilliseconds / 1000
        withUnsafeTemporaryAllocation(of: CChar.self, capacity: 23) { buffer in
            func put(_ value: Int, at offset: Int, digits: Int) {
                var value = value
                for i in stride(from: offset + digits - 1, through: offset, by: -1) {
                    buffer[i] = CChar(48 + value % 10)
                    value /= 10
                }
            }
            put(year, at: 0, digits: 4)
            buffer[4] = 45 // -
            put(month, at: 5, digits: 2)
            buffer[7] = 45
            put(day, at: 8, digits: 2)
            buffer[10] = 32 // space
            put(seconds / 3600, at: 11, digits: 2)
            buffer[13] = 58 // :
            put(seconds / 60 % 60, at: 14, digits: 2)
            buffer[16] = 58
            put(seconds % 60, at: 17, digits: 2)
            buffer[19] = 46 // .
            put(dayMilliseconds % 1000, at: 20, digits: 3)
            body(UnsafePointer(buffer.baseAddress!), 23)
        }
    }
}
