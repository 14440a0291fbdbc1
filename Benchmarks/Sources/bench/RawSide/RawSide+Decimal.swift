import BenchSQLite
import Foundation

// The floor of the Decimal workloads: the real read by index, converted
// by Foundation's `Decimal(Double)`.

extension RawSide {
    struct Payment: BenchPayment {
        var id: Int
        var total: Decimal
    }

    static func fetchDecimals(_ fixture: Fixture) throws -> SideJob {
        let db = try RawDatabase(path: fixture.fetchPath)
        var payments: [Payment] = []
        return SideJob(
            run: {
                payments = []
                let statement = try db.prepare(DecimalSQL.select)
                defer { sqlite3_finalize(statement) }
                var result: [Payment] = []
                while true {
                    let code = sqlite3_step(statement)
                    guard code == SQLITE_ROW else {
                        if code == SQLITE_DONE { break }
                        throw db.error(code, DecimalSQL.select)
                    }
                    result.append(Payment(
                        id: Int(sqlite3_column_int64(statement, 0)),
                        total: Decimal(sqlite3_column_double(statement, 1))))
                }
                payments = result
            },
            fetched: {
                defer { payments = [] }
                return Digest(payments: payments)
            })
    }
}
