import Foundation

/// The workloads of wide, text-heavy records: an orders-like table of 14
/// columns (an integer key, 3 nullable integers, 9 text columns, some
/// NULL, one of them a date, and a real), filled from a fixed seed with
/// realistic text lengths and NULL ratios. Real tables look like this
/// more than `item` does: what they cost is mostly reading and writing
/// text.
extension Workload {
    static let fetchWideRecords = Workload.fetchWide(
        "fetch-wide-records", title: "Fetch wide text records, init(row:) by index",
        allocationRule: .noMoreThanRawSQLite,
        jobs: [
            .raw: RawSide.fetchWideRecords, .lite: LiteSide.fetchWideRecords, .grdb: GRDBSide.fetchWideRecords,
            .vapor: VaporSide.fetchWideRecords
        ])

    /// No Vapor side: SQLiteKit decodes a `Date` from a number, not from
    /// the text the table holds.
    static let fetchWideDecodable = Workload.fetchWide(
        "fetch-wide-decodable", title: "Fetch wide text records, Decodable",
        allocationRule: .noMoreThanRawSQLite,
        jobs: [
            .raw: RawSide.fetchWideRecords, .lite: LiteSide.fetchWideDecodableRecords,
            .grdb: GRDBSide.fetchWideDecodableRecords
        ])

    /// No Vapor side: SQLiteKit encodes a `Date` as a number, not as the
    /// text the other sides write. No allocation budget yet: GRDBLite's
    /// `Date` becomes a `String` of 23 bytes (beyond the small-string
    /// size) before it is bound, one allocation per record more than raw
    /// C, which formats it on the stack.
    static let insertWideEncodable = Workload(
        name: "insert-wide-encodable", title: "Insert wide text records, Encodable",
        rowCount: { $0.wideInsertRowCount },
        prepare: { try $0.resetWideInsertTable() },
        result: { _, fixture in try fixture.insertedWideDigest() },
        expected: { Digest(orders: WideOrderData.rows(count: $0.wideInsertRowCount)) },
        allocationRule: nil,
        jobs: [
            .raw: RawSide.insertWideRecords, .lite: LiteSide.insertWideEncodableRecords,
            .grdb: GRDBSide.insertWideEncodableRecords
        ])

    /// `order(...).fetchOne` on `item`, called `orderedFetchCount` times: the
    /// cost of a one-row request, where `LIMIT 1` lets SQLite keep the best
    /// row instead of sorting them all.
    static let fetchOneOrdered = Workload(
        name: "fetch-one-ordered", title: "order(…).fetchOne, many calls",
        rowCount: { $0.orderedFetchCount },
        prepare: { _ in },
        result: { job, _ in
            guard let fetched = job.fetched else {
                throw BenchError("fetch-one-ordered: the job reports no fetched rows")
            }
            return try fetched()
        },
        expected: { fixture in
            let last = fixture.fetchRowCount - 1
            var digest = Digest()
            for _ in 0..<fixture.orderedFetchCount {
                digest.add(last, last, last, last, last, last, last, last, last, last)
            }
            return digest
        },
        allocationRule: nil,
        jobs: [
            .raw: RawSide.fetchOneOrdered, .lite: LiteSide.fetchOneOrdered, .grdb: GRDBSide.fetchOneOrdered,
            .vapor: VaporSide.fetchOneOrdered
        ])

    /// A workload that reads the `wideRowCount` rows of the `wideorder`
    /// table of the fetch file: each job's digest must be `expected`'s
    /// (by default, that of the whole records).
    static func fetchWide(
        _ name: String, title: String, allocationRule: AllocationRule?,
        expected: @escaping @Sendable (Fixture) -> Digest = {
            Digest(orders: WideOrderData.rows(count: $0.wideRowCount))
        },
        jobs: [Side: @Sendable (Fixture) throws -> SideJob]) -> Workload
    {
        Workload(
            name: name, title: title,
            rowCount: { $0.wideRowCount },
            prepare: { _ in },
            result: { job, _ in
                guard let fetched = job.fetched else { throw BenchError("\(name): the job reports no fetched rows") }
                return try fetched()
            },
            expected: expected,
            allocationRule: allocationRule, jobs: jobs)
    }
}

extension Fixture {
    /// The rows of the `wideorder` table: as many as `item` has, at most
    /// 16,000.
    var wideRowCount: Int { min(fetchRowCount, 16_000) }
    /// The rows `insert-wide-encodable` inserts.
    var wideInsertRowCount: Int { min(insertRowCount, 16_000) }
    /// The calls of `fetch-one-ordered`: each one visits every row of `item`.
    var orderedFetchCount: Int { 100 }
}

/// The wide record, as each side declares it (each library has its own
/// protocols), so that the bench can check the fetched values.
protocol BenchWideOrder {
    var id: Int { get }
    var reference: String { get }
    var status: String { get }
    var customerName: String { get }
    var email: String? { get }
    var phone: String? { get }
    var shipperId: Int? { get }
    var quantity: Int? { get }
    var street: String { get }
    var city: String { get }
    var couponId: Int? { get }
    var total: Double { get }
    var note: String? { get }
    var createdAt: Date { get }
}

extension Digest {
    /// The digest of wide records: every value counts, text by its bytes.
    init(orders: some Sequence<some BenchWideOrder>) {
        self.init()
        for order in orders {
            if count == 0 { first = order.id }
            last = order.id
            var h = order.id
            func mix(_ value: Int) { h = (h &* 31) &+ value }
            func mixOptional(_ value: Int?) { mix(value ?? -7) }
            func mixText(_ text: String?) {
                guard let text else { return mix(-3) }
                for byte in text.utf8 { mix(Int(byte)) }
                mix(text.utf8.count)
            }
            mixText(order.reference)
            mixText(order.status)
            mixText(order.customerName)
            mixText(order.email)
            mixText(order.phone)
            mixOptional(order.shipperId)
            mixOptional(order.quantity)
            mixText(order.street)
            mixText(order.city)
            mixOptional(order.couponId)
            mix(Int((order.total * 100).rounded()))
            mixText(order.note)
            mix(Int((order.createdAt.timeIntervalSince1970 * 1000).rounded()))
            sum &+= h
            count += 1
        }
    }
}

/// The SQL of the wide workloads.
enum WideSQL {
    static let createTable = """
        CREATE TABLE wideorder (
          id INTEGER PRIMARY KEY, reference TEXT NOT NULL, status TEXT NOT NULL, customerName TEXT NOT NULL,
          email TEXT, phone TEXT, shipperId INTEGER, quantity INTEGER, street TEXT NOT NULL, city TEXT NOT NULL,
          couponId INTEGER, total REAL NOT NULL, note TEXT, createdAt TEXT NOT NULL)
        """
    static let select = "SELECT * FROM wideorder"
    static let insert = """
        INSERT INTO wideorder (id, reference, status, customerName, email, phone, shipperId, quantity, street, city, couponId, total, note, createdAt) \
        VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
        """
    /// The one-row request of `fetch-one-ordered`, as the wrappers write it.
    static let selectOneOrdered = "SELECT * FROM item ORDER BY i0 DESC LIMIT 1"
}

/// The values of the wide table, generated from a fixed seed.
struct WideOrderData: BenchWideOrder {
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

    /// The first `count` rows: the same on every call.
    static func rows(count: Int) -> [WideOrderData] {
        var random = SplitMix64(seed: 26)
        return (0..<count).map { n in WideOrderData(n: n, random: &random) }
    }

    private static let statuses = ["pending", "paid", "shipped", "delivered", "cancelled", "refunded"]
    private static let firstNames = [
        "Alice", "Bruno", "Chloé", "David", "Emma", "François", "Grace", "Hugo", "Inès", "Jonathan",
        "Katarzyna", "Léa", "Mohammed", "Nina", "Oscar", "Zoë", "Łukasz", "Maximilian", "Sofia", "Tom",
    ]
    private static let lastNames = [
        "Martin", "Bernard", "Dubois", "Smith", "Johnson", "Müller", "García", "Rossi", "Nowak", "Kowalski",
        "Nguyen", "O'Brien", "Andersson", "Fernández", "Williams", "Leroy", "Schmidt", "Brown", "Lefèvre", "Chen",
    ]
    private static let domains = ["example.com", "mail.example.org", "shop.example.net", "post.example.fr"]
    private static let streets = [
        "Rue de la Paix", "Baker Street", "Avenue des Champs-Élysées", "Main Street", "Kurfürstendamm",
        "Via del Corso", "Calle Mayor", "Station Road", "Boulevard Saint-Germain", "Elm Street",
    ]
    private static let cities = [
        "Paris", "London", "Berlin", "Roma", "Madrid", "Lyon", "Manchester", "München", "Kraków", "Amsterdam",
        "San Francisco", "Montréal",
    ]
    private static let noteWords = [
        "please", "leave", "the", "parcel", "at", "door", "ring", "twice", "gift", "wrap", "fragile",
        "deliver", "after", "6pm", "call", "before", "delivery", "neighbour", "accepts", "no", "invoice",
    ]

    private init(n: Int, random: inout SplitMix64) {
        id = n + 1
        reference = "ORD-2026-" + String(100_000 + n)
        status = random.pick(Self.statuses)
        let first = random.pick(Self.firstNames)
        let last = random.pick(Self.lastNames)
        customerName = first + " " + last
        email =
            random.chance(10)
            ? nil : "\(first.lowercased()).\(last.lowercased())\(random.below(100))@\(random.pick(Self.domains))"
        phone =
            random.chance(30)
            ? nil
            : "+33 6 \(10 + random.below(90)) \(10 + random.below(90)) \(10 + random.below(90)) \(10 + random.below(90))"
        shipperId = random.chance(20) ? nil : 1 + random.below(12)
        quantity = random.chance(5) ? nil : 1 + random.below(9)
        street = "\(1 + random.below(250)) \(random.pick(Self.streets))"
        city = random.pick(Self.cities)
        couponId = random.chance(80) ? nil : 1 + random.below(500)
        total = Double(100 + random.below(500_000)) / 100
        if random.chance(70) {
            note = nil
        } else {
            note = (0..<(3 + random.below(18))).map { _ in random.pick(Self.noteWords) }.joined(separator: " ")
        }
        createdAt = Date(timeIntervalSince1970: Double(1_700_000_000_000 + n * 37_013 + random.below(1000)) / 1000)
    }
}

/// A small, fast random generator whose sequence depends on its seed only.
struct SplitMix64 {
    private var state: UInt64
    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A number in 0..<bound.
    mutating func below(_ bound: Int) -> Int { Int(next() % UInt64(bound)) }
    /// True `percent` times out of 100.
    mutating func chance(_ percent: Int) -> Bool { below(100) < percent }
    mutating func pick(_ values: [String]) -> String { values[below(values.count)] }
}

/// Dates as the wide table stores them: `YYYY-MM-DD HH:MM:SS.SSS`, UTC, as
/// GRDB and GRDBLite write a `Date`. The raw side converts by hand.
enum DateText {
    /// The text of a date, to the millisecond.
    static func format(_ date: Date) -> String {
        let milliseconds = Int((date.timeIntervalSince1970 * 1000).rounded())
        let (days, dayMilliseconds) = milliseconds.quotientAndRemainder(dividingBy: 86_400_000)
        let (year, month, day) = civilDate(days)
        let seconds = dayMilliseconds / 1000
        func two(_ n: Int) -> String { n < 10 ? "0\(n)" : "\(n)" }
        func three(_ n: Int) -> String { n < 10 ? "00\(n)" : n < 100 ? "0\(n)" : "\(n)" }
        return
            "\(year)-\(two(month))-\(two(day)) \(two(seconds / 3600)):\(two(seconds / 60 % 60)):\(two(seconds % 60)).\(three(dayMilliseconds % 1000))"
    }

    /// The date of a text in the stored format, read from its bytes.
    static func parse(_ bytes: UnsafePointer<UInt8>?, count: Int) -> Date? {
        guard let bytes, count == 23 else { return nil }
        func number(_ from: Int, _ length: Int) -> Int {
            var n = 0
            for i in from..<(from + length) { n = n * 10 + Int(bytes[i] &- 48) }
            return n
        }
        let days = daysFromCivil(number(0, 4), number(5, 2), number(8, 2))
        let milliseconds =
            ((days * 24 + number(11, 2)) * 60 + number(14, 2)) * 60_000 + number(17, 2) * 1000 + number(20, 3)
        return Date(timeIntervalSince1970: Double(milliseconds) / 1000)
    }

    static func parse(_ text: String) -> Date? {
        var text = text
        return text.withUTF8 { parse($0.baseAddress!, count: $0.count) }
    }

    // Howard Hinnant's civil calendar algorithms (days since 1970-01-01).
    private static func daysFromCivil(_ y: Int, _ m: Int, _ d: Int) -> Int {
        let y = m <= 2 ? y - 1 : y
        let era = (y >= 0 ? y : y - 399) / 400
        let yoe = y - era * 400
        let doy = (153 * (m > 2 ? m - 3 : m + 9) + 2) / 5 + d - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        return era * 146_097 + doe - 719_468
    }

    static func civilDate(_ days: Int) -> (Int, Int, Int) {
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let doe = z - era * 146_097
        let yoe = (doe - doe / 1460 + doe / 36524 - doe / 146_096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let d = doy - (153 * mp + 2) / 5 + 1
        let m = mp < 10 ? mp + 3 : mp - 9
        return (yoe + era * 400 + (m <= 2 ? 1 : 0), m, d)
    }
}
