import ArgumentParser

/// The workloads, after GRDB's own performance suite
/// (Tests/Performance/GRDBPerformance in GRDB 7.10): a table
/// `item(i0 … i9 INTEGER)` whose row number `n` holds `n` in every column.
enum Workload: String, CaseIterable, ExpressibleByArgument, Codable {
    /// `SELECT * FROM item` through a cursor, values read by column index.
    case fetchByIndex = "fetch-by-index"
    /// `SELECT * FROM item` through a cursor, values read by column name.
    case fetchByName = "fetch-by-name"
    /// An array of `FetchableRecord` structs built with `init(row:)`.
    case fetchRecords = "fetch-records"
    /// An array of `Decodable` records, with `fetchAll`.
    case fetchDecodable = "fetch-decodable"
    /// INSERT with positional parameters, in one transaction.
    case insertByIndex = "insert-by-index"
    /// INSERT with named parameters, in one transaction.
    case insertByName = "insert-by-name"
    /// Records that `encode(to:)` a persistence container, `insert(db)`.
    case insertRecords = "insert-records"
    /// `Encodable` records, `insert(db)`.
    case insertEncodable = "insert-encodable"

    var isFetch: Bool {
        switch self {
        case .fetchByIndex, .fetchByName, .fetchRecords, .fetchDecodable: true
        case .insertByIndex, .insertByName, .insertRecords, .insertEncodable: false
        }
    }

    /// A short description for reports.
    var title: String {
        switch self {
        case .fetchByIndex: "Fetch, values by column index"
        case .fetchByName: "Fetch, values by column name"
        case .fetchRecords: "Fetch records, init(row:)"
        case .fetchDecodable: "Fetch Decodable records"
        case .insertByIndex: "Insert, positional arguments"
        case .insertByName: "Insert, named arguments"
        case .insertRecords: "Insert records, encode(to:)"
        case .insertEncodable: "Insert Encodable records"
        }
    }
}

/// Who runs a workload.
enum Side: String, CaseIterable, ExpressibleByArgument, Codable {
    /// The SQLite C API, as tight as possible: the floor.
    case raw
    /// GRDBLite.
    case lite
    /// GRDB 7.10, the peer.
    case grdb

    var title: String {
        switch self {
        case .raw: "raw C"
        case .lite: "GRDBLite"
        case .grdb: "GRDB 7.10"
        }
    }
}

/// One side's implementation of one workload, ready to run: the database
/// is open, and nothing is timed but `run`.
struct SideJob {
    /// Runs the workload once: the timed part.
    var run: () throws -> Void
    /// The digest of what the last run fetched. Inserts have none: the
    /// bench checks what they wrote in the database file.
    var fetched: (() -> Digest)?
}

/// A side of the benchmark: the code that runs each workload.
protocol BenchSide {
    /// The job that runs `workload` on the database files of `fixture`,
    /// or nil if this side doesn't implement the workload (reported n/a).
    static func job(for workload: Workload, fixture: Fixture) throws -> SideJob?
    /// `sqlite_version()` as this side's connections see it: all sides
    /// must run on the same SQLite.
    static func sqliteVersion(fixture: Fixture) throws -> String
}

extension Side {
    var implementation: any BenchSide.Type {
        switch self {
        case .raw: RawSide.self
        case .lite: LiteSide.self
        case .grdb: GRDBSide.self
        }
    }
}

/// A summary of the rows a workload read or wrote, compared with the
/// expected one after every run so that no side can skip work or get it
/// wrong: row count, first value, last value, and the sum of all values.
struct Digest: Equatable, Codable, CustomStringConvertible {
    var count = 0
    /// `i0` of the first row.
    var first = 0
    /// `i9` of the last row.
    var last = 0
    /// The wrapping sum of every value of every row.
    var sum = 0

    /// The digest of `count` rows as the fixture writes them: row `n`
    /// holds `n` in each of its ten columns.
    static func expected(rowCount count: Int) -> Digest {
        Digest(count: count, first: 0, last: count - 1, sum: 10 &* (count &* (count - 1) / 2))
    }

    /// Adds a row: cheap and identical for all sides.
    @inline(__always)
    mutating func add(_ v0: Int, _ v1: Int, _ v2: Int, _ v3: Int, _ v4: Int,
                      _ v5: Int, _ v6: Int, _ v7: Int, _ v8: Int, _ v9: Int)
    {
        if count == 0 { first = v0 }
        last = v9
        sum &+= v0 &+ v1 &+ v2 &+ v3 &+ v4 &+ v5 &+ v6 &+ v7 &+ v8 &+ v9
        count += 1
    }

    /// The digest of fetched records.
    init(items: some Sequence<some BenchItem>) {
        for item in items {
            add(item.i0, item.i1, item.i2, item.i3, item.i4, item.i5, item.i6, item.i7, item.i8, item.i9)
        }
    }

    init(count: Int = 0, first: Int = 0, last: Int = 0, sum: Int = 0) {
        self.count = count
        self.first = first
        self.last = last
        self.sum = sum
    }

    var description: String { "\(count) rows, first \(first), last \(last), sum \(sum)" }
}

/// The record of the record workloads: each side declares its own struct
/// (each library has its own protocols), and conforms it to this protocol
/// so that the bench can check the fetched values.
protocol BenchItem {
    var i0: Int { get }
    var i1: Int { get }
    var i2: Int { get }
    var i3: Int { get }
    var i4: Int { get }
    var i5: Int { get }
    var i6: Int { get }
    var i7: Int { get }
    var i8: Int { get }
    var i9: Int { get }
}

/// The SQL of the workloads, shared by all sides.
enum BenchSQL {
    static let createTable = "CREATE TABLE item (i0 INTEGER, i1 INTEGER, i2 INTEGER, i3 INTEGER, i4 INTEGER, i5 INTEGER, i6 INTEGER, i7 INTEGER, i8 INTEGER, i9 INTEGER)"
    static let select = "SELECT * FROM item"
    static let insertPositional = "INSERT INTO item (i0, i1, i2, i3, i4, i5, i6, i7, i8, i9) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"
    static let insertNamed = "INSERT INTO item (i0, i1, i2, i3, i4, i5, i6, i7, i8, i9) VALUES (:i0, :i1, :i2, :i3, :i4, :i5, :i6, :i7, :i8, :i9)"
    static let columnNames = ["i0", "i1", "i2", "i3", "i4", "i5", "i6", "i7", "i8", "i9"]
}
