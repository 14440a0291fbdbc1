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
}

/// One workload on every side.
struct WorkloadResult: Codable {
    var workload: Workload
    var title: String
    var rowCount: Int
    var sides: [SideResult]
    /// Ratios of median durations, from the same run.
    var ratios: Ratios
    /// The most allocations per row GRDBLite may make, and whether it does.
    var liteAllocationTarget: AllocationTarget?

    struct Ratios: Codable {
        var liteToRaw: Double?
        var grdbToRaw: Double?
        var liteToGRDB: Double?
    }

    init(workload: Workload, rowCount: Int, sides: [SideResult]) {
        self.workload = workload
        self.title = workload.title
        self.rowCount = rowCount
        self.sides = sides
        func median(_ side: Side) -> Double? {
            sides.first { $0.side == side }?.time?.median
        }
        func ratio(_ lhs: Side, _ rhs: Side) -> Double? {
            guard let lhs = median(lhs), let rhs = median(rhs), rhs > 0 else { return nil }
            return lhs / rhs
        }
        self.ratios = Ratios(liteToRaw: ratio(.lite, .raw), grdbToRaw: ratio(.grdb, .raw), liteToGRDB: ratio(.lite, .grdb))
        self.liteAllocationTarget = AllocationTarget(
            workload: workload,
            raw: self[.raw]?.allocations,
            lite: self[.lite]?.allocations)
    }

    subscript(side: Side) -> SideResult? {
        sides.first { $0.side == side }
    }
}

/// One workload on one side: nil figures when the side doesn't implement
/// the workload (n/a), or allocations could not be measured.
struct SideResult: Codable {
    var side: Side
    var time: TimeStatistics?
    var allocations: AllocationFigures?
}

/// Allocations made by one run of a workload (the statistics of jemalloc).
struct AllocationFigures: Codable {
    /// Allocation requests (malloc, calloc, realloc, aligned...).
    var allocations: UInt64
    /// Bytes allocated, as jemalloc's size classes round them.
    var bytes: UInt64
    var allocationsPerRow: Double
    var bytesPerRow: Double

    init(allocations: UInt64, bytes: UInt64, rowCount: Int) {
        self.allocations = allocations
        self.bytes = bytes
        self.allocationsPerRow = Double(allocations) / Double(max(rowCount, 1))
        self.bytesPerRow = Double(bytes) / Double(max(rowCount, 1))
    }
}

/// GRDBLite's allocation budget for a workload, in allocations per row:
///
/// - cursors allocate a fixed number of times per query, nothing per row;
/// - `init(row:)` records allocate only the result array (a fixed number of
///   times per query, as it grows);
/// - `Decodable` records allocate at most once per record;
/// - inserts allocate nothing per row beyond what SQLite itself allocates
///   on the raw C side.
///
/// The fixed cost of a query (statement, cursor, array growth) is under
/// 0.01 per row at the bench's row counts.
struct AllocationTarget: Codable {
    var maximumPerRow: Double
    var rule: String
    var isMet: Bool

    init?(workload: Workload, raw: AllocationFigures?, lite: AllocationFigures?) {
        guard let lite else { return nil }
        let fixedCost = 0.01
        switch workload {
        case .fetchByIndex, .fetchByName:
            maximumPerRow = fixedCost
            rule = "no allocation per row"
        case .fetchRecords:
            maximumPerRow = fixedCost
            rule = "only the result array"
        case .fetchDecodable:
            maximumPerRow = 1 + fixedCost
            rule = "at most one per record"
        case .insertByIndex, .insertByName, .insertRecords, .insertEncodable:
            guard let raw else { return nil }
            maximumPerRow = raw.allocationsPerRow + fixedCost
            rule = "no more than SQLite on the raw side"
        }
        isMet = lite.allocationsPerRow <= maximumPerRow
    }
}
