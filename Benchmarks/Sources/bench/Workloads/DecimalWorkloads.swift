import Foundation

/// The workloads of `Decimal` columns: the money column of `wideorder`
/// (`total`, a REAL) read as `Decimal`, with the key, from its 16,000 rows.
/// The raw side reads the `Double` and converts it with Foundation's
/// `Decimal(Double)`: the floor a library's `Decimal` can reach, since the
/// conversion itself dominates the cost of a row.
extension Workload {
    static let fetchDecimalsByIndex = Workload.fetchDecimals(
        "fetch-decimals-by-index", title: "Fetch Decimal columns, init(row:) by index",
        jobs: [
            .raw: RawSide.fetchDecimals, .lite: LiteSide.fetchDecimalsByIndex,
            .grdb: GRDBSide.fetchDecimalsByIndex,
        ])

    static let fetchDecimalsByName = Workload.fetchDecimals(
        "fetch-decimals-by-name", title: "Fetch Decimal columns, init(row:) by name",
        jobs: [
            .raw: RawSide.fetchDecimals, .lite: LiteSide.fetchDecimalsByName,
            .grdb: GRDBSide.fetchDecimalsByName,
        ])

    static let fetchDecimalsDecodable = Workload.fetchDecimals(
        "fetch-decimals-decodable", title: "Fetch Decimal columns, Decodable",
        jobs: [
            .raw: RawSide.fetchDecimals, .lite: LiteSide.fetchDecimalsDecodable,
            .grdb: GRDBSide.fetchDecimalsDecodable,
        ])

    /// A workload that reads `id` and `total` of the `wideRowCount` rows of
    /// the `wideorder` table of the fetch file.
    static func fetchDecimals(
        _ name: String, title: String, jobs: [Side: @Sendable (Fixture) throws -> SideJob]) -> Workload
    {
        fetchWide(
            name, title: title, allocationRule: .noMoreThanRawSQLite,
            expected: { fixture in
                Digest(payments: WideOrderData.rows(count: fixture.wideRowCount).map {
                    RawSide.Payment(id: $0.id, total: Decimal($0.total))
                })
            },
            jobs: jobs)
    }
}

/// A record of a key and a `Decimal`, as each side declares it.
protocol BenchPayment {
    var id: Int { get }
    var total: Decimal { get }
}

enum DecimalSQL {
    static let select = "SELECT id, total FROM wideorder"
}

extension Digest {
    /// The digest of payments: the key, and the decimal in cents.
    init(payments: some Sequence<some BenchPayment>) {
        self.init()
        for payment in payments {
            let cents = NSDecimalNumber(decimal: payment.total).multiplying(byPowerOf10: 2).int64Value
            add(payment.id, Int(cents), 0, 0, 0, 0, 0, 0, 0, payment.id)
        }
    }
}
