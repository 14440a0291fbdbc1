/// What one run of the bench measured: the JSON report, and the source of
/// the Markdown table and the SVG chart.
struct BenchReport: Codable {
    /// ISO 8601, UTC.
    var date: String
    var machine: MachineInfo
    var software: SoftwareInfo
    var plan: RunPlan
    var fetchRowCount: Int
    var insertRowCount: Int
    /// Why allocation figures are missing, if they are.
    var allocationFiguresUnavailable: String?
    var workloads: [WorkloadResult]
    /// The selected workloads that could not run, and why.
    var skippedWorkloads: [SkippedWorkload]?
}

/// A selected workload that could not run (a Litestream workload without
/// Litestream).
struct SkippedWorkload: Codable {
    var workload: String
    var reason: String
}

/// One workload on every side.
struct WorkloadResult: Codable {
    /// The workload's name (`fetch-by-index`).
    var workload: String
    var title: String
    var rowCount: Int
    var sides: [SideResult]
    /// Ratios of median durations, from the same run, keyed
    /// `"lite/raw"`...: see ``Ratio``.
    var ratios: [String: Double]
    /// The most allocations per row GRDBLite may make, and whether it does.
    var liteAllocationTarget: AllocationTarget?
    /// The latency group of the workload, if it is one: see ``LatencyGroup``.
    var latencyGroup: LatencyGroup?
    /// The workload this one's median durations are divided by in the
    /// report (``Workload/comparedWith``).
    var comparedWith: String?

    init(workload: Workload, rowCount: Int, sides: [SideResult]) {
        self.workload = workload.name
        self.title = workload.title
        self.rowCount = rowCount
        self.sides = sides
        self.ratios = Ratio.all(of: sides) { $0.time?.median }
        self.latencyGroup = workload.latencyGroup
        self.comparedWith = workload.comparedWith
        self.liteAllocationTarget = workload.allocationRule.flatMap { rule in
            AllocationTarget(rule: rule, raw: sides[.raw]?.allocations, lite: sides[.lite]?.allocations)
        }
    }

    subscript(side: Side) -> SideResult? {
        sides[side]
    }
}

/// One workload on one side: nil figures when the side doesn't implement
/// the workload (n/a), or allocations could not be measured.
struct SideResult: Codable {
    var side: Side
    /// The API the side used, when it has several (Vapor: SQLiteNIO or SQLKit).
    var api: String?
    var time: TimeStatistics?
    var allocations: AllocationFigures?
    /// The latency workloads' percentiles (``Workload/latencyGroup``).
    var latency: LatencyStatistics?
}

/// The ratios the reports show: each library to raw C, and GRDBLite to its
/// peers. A ratio is missing when a side has no figure.
enum Ratio {
    static let pairs: [(Side, Side)] = [(.lite, .raw), (.grdb, .raw), (.vapor, .raw), (.lite, .grdb), (.lite, .vapor)]

    static func key(_ lhs: Side, _ rhs: Side) -> String { "\(lhs.rawValue)/\(rhs.rawValue)" }

    static func title(_ lhs: Side, _ rhs: Side) -> String { "\(lhs.shortTitle)/\(rhs.shortTitle)" }

    /// The ratios of a figure of the sides that have it.
    static func all<S: SideFigures>(of sides: [S], _ figure: (S) -> Double?) -> [String: Double] {
        var ratios: [String: Double] = [:]
        for (lhs, rhs) in pairs {
            if let a = sides[lhs].flatMap(figure), let b = sides[rhs].flatMap(figure), b > 0 {
                ratios[key(lhs, rhs)] = a / b
            }
        }
        return ratios
    }
}

extension Side {
    /// The name in ratio columns.
    var shortTitle: String {
        switch self {
        case .raw: "raw"
        case .lite: "GRDBLite"
        case .grdb: "GRDB"
        case .vapor: "Vapor"
        }
    }
}

/// A side's figures in a workload result.
protocol SideFigures {
    var side: Side { get }
}

extension SideResult: SideFigures { }

extension Array where Element: SideFigures {
    subscript(side: Side) -> Element? {
        first { $0.side == side }
    }
}

/// Allocations made by one run of a workload (the statistics of jemalloc).
struct AllocationFigures: Codable {
    /// Allocation requests (malloc, calloc, realloc, aligned...).
    var allocations: UInt64
    /// Bytes allocated, as jemalloc's size classes round them; nil when the
    /// work runs on other threads (jemalloc counts bytes per thread).
    var bytes: UInt64?
    var allocationsPerRow: Double
    var bytesPerRow: Double?
    /// True when the work runs on other threads: their thread caches are
    /// not flushed before reading, so the count is off by up to a few
    /// hundred allocations per run.
    var approximate: Bool?

    init(allocations: UInt64, bytes: UInt64?, rowCount: Int, approximate: Bool = false) {
        self.allocations = allocations
        self.bytes = bytes
        self.allocationsPerRow = Double(allocations) / Double(max(rowCount, 1))
        self.bytesPerRow = bytes.map { Double($0) / Double(max(rowCount, 1)) }
        self.approximate = approximate ? true : nil
    }
}

/// GRDBLite's allocation budget for a workload, in allocations per row.
/// The fixed cost of a query (statement, cursor, array growth) is under
/// 0.01 per row at the bench's row counts.
enum AllocationRule: String, Codable, Sendable {
    /// Cursors allocate a fixed number of times per query, nothing per row.
    case noAllocationPerRow = "no allocation per row"
    /// `init(row:)` records allocate only the result array (a fixed number
    /// of times per query, as it grows).
    case onlyTheResultArray = "only the result array"
    /// `Decodable` records allocate at most once per record.
    case atMostOnePerRecord = "at most one per record"
    /// Inserts allocate nothing per row beyond what SQLite itself
    /// allocates on the raw C side.
    case noMoreThanRawSQLite = "no more than SQLite on the raw side"

    static let fixedCost = 0.01

    /// The budget, or nil when it depends on a raw figure that is missing.
    func maximumPerRow(raw: AllocationFigures?) -> Double? {
        switch self {
        case .noAllocationPerRow, .onlyTheResultArray: Self.fixedCost
        case .atMostOnePerRecord: 1 + Self.fixedCost
        case .noMoreThanRawSQLite: raw.map { $0.allocationsPerRow + Self.fixedCost }
        }
    }
}

/// GRDBLite's allocation budget for a workload, and whether it is met.
struct AllocationTarget: Codable {
    var maximumPerRow: Double
    var rule: String
    var isMet: Bool

    init?(rule: AllocationRule, raw: AllocationFigures?, lite: AllocationFigures?) {
        guard let lite, let maximum = rule.maximumPerRow(raw: raw) else { return nil }
        maximumPerRow = maximum
        self.rule = rule.rawValue
        isMet = lite.allocationsPerRow <= maximum
    }
}
