import ArgumentParser

/// A workload: what it measures, what counts as a row, how its result is
/// checked, and each side's implementation. Sides are optional: a side
/// without a job for a workload is reported n/a.
///
/// To add a workload: write each side's job (a function of the side's
/// `enum`, in that side's folder), describe the workload with
/// ``fetch(_:title:allocationRule:jobs:)``, ``insert(_:title:allocationRule:jobs:)``
/// or the memberwise initializer, and list it in ``all``.
struct Workload: Sendable {
    /// The name on the command line and in the JSON reports (`fetch-by-index`).
    var name: String
    /// A short description for reports.
    var title: String
    /// The rows the per-row figures divide by.
    var rowCount: @Sendable (Fixture) -> Int
    /// Before each run, outside the timed part (inserts empty their table).
    var prepare: @Sendable (Fixture) throws -> Void
    /// After each run: what the run read or wrote, compared with
    /// ``expected``, so that no side can skip work or get it wrong.
    var result: @Sendable (SideJob, Fixture) throws -> Digest
    var expected: @Sendable (Fixture) -> Digest
    /// GRDBLite's allocation budget, checked by `--check-allocations`.
    var allocationRule: AllocationRule?
    /// Each side's job, for the sides that have the feature.
    var jobs: [Side: @Sendable (Fixture) throws -> SideJob]
    /// Whether `bench instructions` counts it: not the workloads whose
    /// threads run at once (callgrind serializes threads, and what they
    /// measure is how the sides use the cores).
    var measuresInstructions = true
    /// The group of the workloads that measure each request's latency
    /// (their jobs report ``SideJob/latencies``), reported apart.
    var latencyGroup: LatencyGroup?
    /// True when every side's job runs on other threads than the caller's
    /// (a pool's accesses): `bench instructions` counts it by difference of
    /// whole processes, as it counts ``Side/runsOnOtherThreads``.
    var runsOnOtherThreads = false
    /// True for the workloads that run Litestream beside the job: selected
    /// only with `--litestream`, and skipped when it isn't installed.
    var needsLitestream = false
    /// The workload whose median duration the report divides this one's by
    /// (`litestream-on-insert` by `litestream-off-insert`).
    var comparedWith: String?

    /// Every workload, in report order: add new ones here.
    static let all: [Workload] = [
        fetchByIndex, fetchByName, fetchRecords, fetchMacroRecords, fetchDecodable,
        fetchWideRecords, fetchWideMacroRecords, fetchWideDecodable, fetchOneOrdered,
        fetchDecimalsByIndex, fetchDecimalsByName, fetchDecimalsDecodable,
        insertByIndex, insertByName, insertRecords, insertMacroRecords, insertEncodable, insertWideEncodable,
        concurrentReads1, concurrentReads2, concurrentReads4, readsWhileWriting, writeWhileReading,
        observe1, observe10, observe100,
        serverRequest, serverRequestWrite,
        serverReads16, serverReads64, serverReads256, serverMix16, serverMix64, serverMix256, serverSlowRead16,
        observeLatencyQueue1, observeLatencyQueue10, observeLatencyQueue100,
        observeLatencyValues1, observeLatencyValues10, observeLatencyValues100,
        dump,
        litestreamOffInsert, litestreamOnInsert, litestreamOffServerMix, litestreamOnServerMix,
    ]

    static func named(_ name: String) -> Workload? {
        all.first { $0.name == name }
    }

    /// A workload that reads the `fetchRowCount` rows of the fetch file:
    /// each job's `fetched` digest must be the file's.
    static func fetch(
        _ name: String, title: String, allocationRule: AllocationRule?,
        jobs: [Side: @Sendable (Fixture) throws -> SideJob]) -> Workload
    {
        Workload(
            name: name, title: title,
            rowCount: { $0.fetchRowCount },
            prepare: { _ in },
            result: { job, _ in
                guard let fetched = job.fetched else { throw BenchError("\(name): the job reports no fetched rows") }
                return try fetched()
            },
            expected: { Digest.expected(rowCount: $0.fetchRowCount) },
            allocationRule: allocationRule, jobs: jobs)
    }

    /// A workload that inserts `insertRowCount` rows, in one transaction,
    /// into the emptied `item` table of the insert file, which is then
    /// checked.
    static func insert(
        _ name: String, title: String, allocationRule: AllocationRule?,
        jobs: [Side: @Sendable (Fixture) throws -> SideJob]) -> Workload
    {
        Workload(
            name: name, title: title,
            rowCount: { $0.insertRowCount },
            prepare: { try $0.resetInsertTable() },
            result: { _, fixture in try fixture.insertedDigest() },
            expected: { Digest.expected(rowCount: $0.insertRowCount) },
            allocationRule: allocationRule, jobs: jobs)
    }
}

/// Who runs a workload.
enum Side: String, CaseIterable, ExpressibleByArgument, Codable, Sendable, Comparable {
    /// The SQLite C API, as tight as possible: the floor.
    case raw
    /// GRDBLite.
    case lite
    /// GRDB 7.10, the peer whose API GRDBLite keeps.
    case grdb
    /// Vapor's SQLite stack: SQLiteNIO 1.13 for rows, SQLiteKit 4.5 and
    /// SQLKit 3.36 for records.
    case vapor

    var title: String {
        switch self {
        case .raw: "raw C"
        case .lite: "GRDBLite"
        case .grdb: "GRDB 7.10"
        case .vapor: "Vapor"
        }
    }

    /// The SQLite library and connection this side runs on.
    var implementation: any BenchSide.Type {
        switch self {
        case .raw: RawSide.self
        case .lite: LiteSide.self
        case .grdb: GRDBSide.self
        case .vapor: VaporSide.self
        }
    }

    /// True when the side's work runs on other threads than the caller's
    /// (SQLiteNIO's thread pool and event loop): callgrind's function
    /// triggers count one thread only, so `bench instructions` measures
    /// such a side by difference of whole processes.
    var runsOnOtherThreads: Bool { self == .vapor }

    static func < (lhs: Side, rhs: Side) -> Bool {
        allCases.firstIndex(of: lhs)! < allCases.firstIndex(of: rhs)!
    }
}

/// One side's implementation of one workload, ready to run: the database
/// is open, and nothing is timed but `run`.
struct SideJob {
    /// Runs the workload once: the timed part.
    var run: () throws -> Void
    /// The digest of what the last run fetched (fetch workloads).
    var fetched: (() throws -> Digest)?
    /// The API that runs the workload, when the side has several (Vapor:
    /// SQLiteNIO or SQLKit), for the reports.
    var api: String?
    /// True when the work runs on other threads than the caller's: their
    /// allocations are counted approximately, and their bytes not at all.
    var runsOnOtherThreads = false
    /// Releases what the job holds (connections), after its last run.
    var close: (() throws -> Void)?
    /// Before each run, after the workload's ``Workload/prepare``, outside
    /// the timed part (the Litestream workloads wait for their sidecar).
    var prepare: (() throws -> Void)?
    /// The latencies of the last run, in seconds (latency workloads).
    var latencies: (() -> [Double])?
}

/// The groups of latency workloads, each with a table of its own.
enum LatencyGroup: String, Codable, Sendable {
    /// `server-reads-T` and `server-mix-T`: requests per second, and each
    /// request's latency.
    case server
    /// `observe-latency-*`: from a commit's return to each `onChange`.
    case observation
}

/// A side of the benchmark: the SQLite library its jobs run on.
protocol BenchSide {
    /// The SQLite library and connection mode of this side, asked through
    /// its own connection to the fixture's files.
    static func sqliteInfo(fixture: Fixture) throws -> SQLiteInfo
}

/// The SQLite a side runs on: the version its connections report, and its
/// threading mode, which sets the mutexes each SQLite call takes.
struct SQLiteInfo: Codable, Equatable, Sendable {
    /// `sqlite_version()`.
    var version: String
    /// The library: the system's, or a copy compiled into a package.
    var library: String
    /// `SQLITE_THREADSAFE`, as compiled (`PRAGMA compile_options`):
    /// 0 single-thread, 1 serialized, 2 multi-thread by default.
    var threadsafe: Int
    /// The connection's mode: "multi-thread" (opened with
    /// SQLITE_OPEN_NOMUTEX: no mutex per call) or "serialized"
    /// (SQLITE_OPEN_FULLMUTEX, or the default of THREADSAFE=1).
    var connectionMode: String
    /// How `connectionMode` is known: measured (`sqlite3_db_mutex` of the
    /// connection is NULL without mutexes) or read in the library's source.
    var connectionModeSource: String
}

/// A summary of the rows a workload read or wrote, compared with the
/// expected one after every run so that no side can skip work or get it
/// wrong: row count, first value, last value, and the sum of all values.
struct Digest: Equatable, Codable, Sendable, CustomStringConvertible {
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
    static let createTable =
        "CREATE TABLE item (i0 INTEGER, i1 INTEGER, i2 INTEGER, i3 INTEGER, i4 INTEGER, i5 INTEGER, i6 INTEGER, i7 INTEGER, i8 INTEGER, i9 INTEGER)"
    static let select = "SELECT * FROM item"
    static let insertPositional =
        "INSERT INTO item (i0, i1, i2, i3, i4, i5, i6, i7, i8, i9) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"
    static let insertNamed =
        "INSERT INTO item (i0, i1, i2, i3, i4, i5, i6, i7, i8, i9) VALUES (:i0, :i1, :i2, :i3, :i4, :i5, :i6, :i7, :i8, :i9)"
    static let columnNames = ["i0", "i1", "i2", "i3", "i4", "i5", "i6", "i7", "i8", "i9"]
}
