/// What `bench instructions` measured: the JSON of a regression report,
/// and of the committed baseline (Benchmarks/baseline.json).
struct InstructionReport: Codable {
    /// ISO 8601, UTC.
    var date: String
    var machine: MachineInfo
    var software: SoftwareInfo
    /// The counting tool: valgrind's version and options.
    var tool: String
    /// The CPU the program sees under valgrind, whose features choose
    /// glibc's string functions (`memcpy`...): nil if unknown.
    var guestCPU: String?
    /// The environment variables that change the counts (hash seed, glibc
    /// tunables), as they were.
    var environment: [String: String]
    var fetchRowCount: Int
    var insertRowCount: Int
    var workloads: [InstructionResult]
}

/// One workload on every side.
struct InstructionResult: Codable {
    var workload: String
    var title: String
    var rowCount: Int
    var sides: [SideInstructions]
    /// Ratios of instruction counts, keyed `"lite/raw"`...: see ``Ratio``.
    var ratios: [String: Double]

    init(workload: Workload, rowCount: Int, sides: [SideInstructions]) {
        self.workload = workload.name
        self.title = workload.title
        self.rowCount = rowCount
        self.sides = sides
        self.ratios = Ratio.all(of: sides) { $0.instructionsPerRow }
    }
}

/// One workload on one side; nil figures when the side doesn't implement
/// the workload (n/a).
struct SideInstructions: Codable, SideFigures {
    var side: Side
    var api: String?
    /// Instructions of the measured run, all threads.
    var instructions: UInt64?
    var instructionsPerRow: Double?
    /// Allocations of the same run.
    var allocations: AllocationFigures?
    /// True when counted by difference of whole processes (the work runs
    /// on other threads): the threads' interleaving moves the figures a
    /// little from run to run (about 2% for `server-request`).
    var byDifference: Bool?
}
