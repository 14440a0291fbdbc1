import ArgumentParser
import Foundation

/// The benchmark: GRDB's performance workloads on the raw SQLite C API
/// (the floor), GRDBLite, and GRDB 7.10 (the peer), in one process, on the
/// same database files.
@main
struct Bench: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bench",
        abstract: "Measures GRDBLite against the raw SQLite C API and GRDB 7.10.",
        discussion: """
            Prints a Markdown table of durations (median, min, max) and ratios, then \
            allocations per row read from jemalloc's statistics. Workloads: \
            \(Workload.allCases.map(\.rawValue).joined(separator: ", ")).

            `--only WORKLOAD --side SIDE --once` runs one workload on one side once after one \
            warm-up, for instruction counts (Scripts/bench-instructions.sh): only the \
            function `grdblite_bench_measured_run` runs the measured run. It exits with \
            code 3 when the side doesn't implement the workload (n/a).
            """)

    @Flag(help: "Fewer rows and runs (20,000 fetched, 5,000 inserted, 1 warm-up, 5 runs): for CI.")
    var quick = false

    @Option(help: ArgumentHelp(
        "Run only the workloads whose name contains one of these words (comma-separated or repeated).",
        valueName: "words"))
    var filter: [String] = []

    @Option(help: "Measured runs per workload and side (default 10, quick 5).")
    var iterations: Int?

    @Option(help: "Warm-up runs per workload and side (default 2, quick 1).")
    var warmups: Int?

    @Option(help: "Rows fetched by the fetch workloads (default 200,000, quick 20,000).")
    var rows: Int?

    @Option(help: "Rows inserted by the insert workloads (default a quarter of --rows: 50,000, quick 5,000).")
    var insertRows: Int?

    @Option(help: ArgumentHelp(
        "The folder of the database files (default: a new temporary folder, removed at the end). A fetch file with the right rows is reused.",
        valueName: "folder"))
    var path: String?

    @Option(help: ArgumentHelp("Write report.json, report.md and ratios.svg in this folder.", valueName: "folder"))
    var output: String?

    @Flag(help: "Exit with a failure when a GRDBLite allocation figure exceeds its target, or can't be measured.")
    var checkAllocations = false

    @Flag(help: "Run one workload (--only) on one side (--side) once, after one warm-up.")
    var once = false

    @Flag(help: "Print the workload names, one per line, and exit.")
    var listWorkloads = false

    @Option(help: "With --once: the workload.")
    var only: Workload?

    @Option(help: "With --once: the side.")
    var side: Side?

    func validate() throws {
        if once {
            guard only != nil, side != nil else { throw ValidationError("--once needs --only and --side") }
            if checkAllocations || output != nil { throw ValidationError("--once measures no allocations and writes no report") }
        } else if only != nil || side != nil {
            throw ValidationError("--only and --side go with --once (use --filter to pick workloads)")
        }
        for (name, value) in [("--iterations", iterations), ("--rows", rows), ("--insert-rows", insertRows)] {
            if let value, value < 1 { throw ValidationError("\(name) must be at least 1") }
        }
        if let warmups, warmups < 0 { throw ValidationError("--warmups can't be negative") }
        if selectedWorkloads.isEmpty {
            throw ValidationError("--filter \(filter.joined(separator: ",")) matches no workload (\(Workload.allCases.map(\.rawValue).joined(separator: ", ")))")
        }
    }

    var selectedWorkloads: [Workload] {
        let words = filter.flatMap { $0.split(separator: ",") }.map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
        if words.isEmpty { return Workload.allCases }
        return Workload.allCases.filter { workload in words.contains { workload.rawValue.contains($0) } }
    }

    var fetchRowCount: Int { rows ?? (quick ? 20_000 : 200_000) }
    var insertRowCount: Int { insertRows ?? max(1, fetchRowCount / 4) }
    var plan: RunPlan { RunPlan(warmups: warmups ?? (quick ? 1 : 2), iterations: iterations ?? (quick ? 5 : 10)) }

    /// The exit code of `--once` when the side doesn't implement the workload.
    static let notAvailableExitCode = ExitCode(3)

    func run() throws {
        if listWorkloads {
            Workload.allCases.forEach { print($0.rawValue) }
            return
        }
        do {
            if once, let only, let side {
                try runOnce(only, on: side)
            } else {
                try runAll()
            }
        } catch let error as BenchError {
            progress("error: \(error)")
            throw ExitCode.failure
        }
    }

    private func runAll() throws {
        if buildConfiguration == "debug" {
            progress("warning: a debug build: its figures say nothing about performance (swift build -c release)")
        }
        var allocationsUnavailable: String?
        var allocator = "unknown"
        switch Jemalloc.probe() {
        case let .active(version, malloc):
            allocator = "jemalloc \(version) (malloc resolves to \(malloc))"
        case let .inactive(reason):
            allocationsUnavailable = reason
            progress("warning: no allocation figures: \(reason)")
        }

        progress("Preparing \(fetchRowCount) rows to fetch...")
        let fixture = try Fixture(folder: path, fetchRowCount: fetchRowCount, insertRowCount: insertRowCount)
        progress("Database files in \(fixture.folder)")
        let sqliteVersions = try sqliteVersionBySide(fixture)

        var results: [WorkloadResult] = []
        for workload in selectedWorkloads {
            progress("\(workload.rawValue)...")
            let runner = WorkloadRunner(
                workload: workload, fixture: fixture, plan: plan,
                measuresAllocations: allocationsUnavailable == nil)
            results.append(try runner.run(log: progress))
        }

        let report = BenchReport(
            date: ISO8601DateFormatter().string(from: Date()),
            machine: .current(),
            software: SoftwareInfo(
                swiftCompiler: swiftCompilerVersion,
                buildConfiguration: buildConfiguration,
                sqliteVersionBySide: sqliteVersions,
                grdbVersion: "7.10.0",
                allocator: allocator),
            plan: plan,
            fetchRowCount: fetchRowCount,
            insertRowCount: insertRowCount,
            allocationFiguresUnavailable: allocationsUnavailable,
            workloads: results)
        print(MarkdownReport.render(report), terminator: "")
        if let output {
            for file in try ReportFiles.write(report, to: output) {
                progress("Wrote \(file)")
            }
        }
        if checkAllocations {
            try checkAllocationTargets(report)
        }
    }

    /// All sides must run on the same SQLite library.
    private func sqliteVersionBySide(_ fixture: Fixture) throws -> [String: String] {
        var versions: [String: String] = [:]
        for side in Side.allCases {
            versions[side.rawValue] = try side.implementation.sqliteVersion(fixture: fixture)
        }
        if Set(versions.values).count != 1 {
            throw BenchError("the sides don't run on the same SQLite: \(versions)")
        }
        return versions
    }

    private func checkAllocationTargets(_ report: BenchReport) throws {
        if let reason = report.allocationFiguresUnavailable {
            throw BenchError("--check-allocations: allocation figures are unavailable (\(reason))")
        }
        let failures = report.workloads.compactMap { result -> String? in
            guard let target = result.liteAllocationTarget, !target.isMet,
                  let figures = result[.lite]?.allocations else { return nil }
            return "\(result.workload.rawValue): \(MarkdownReport.perRow(figures.allocationsPerRow)) allocations per row, target ≤ \(MarkdownReport.perRow(target.maximumPerRow)) (\(target.rule))"
        }
        if !failures.isEmpty {
            throw BenchError("GRDBLite exceeds its allocation targets:\n  " + failures.joined(separator: "\n  "))
        }
        progress("GRDBLite meets its allocation targets.")
    }

    /// One warm-up, then the measured run, alone in
    /// `grdblite_bench_measured_run` for callgrind's `--toggle-collect`.
    private func runOnce(_ workload: Workload, on side: Side) throws {
        let fixture = try Fixture(folder: path, fetchRowCount: fetchRowCount, insertRowCount: insertRowCount)
        guard let job = try side.implementation.job(for: workload, fixture: fixture) else {
            progress("\(workload.rawValue) is n/a on \(side.title)")
            throw Self.notAvailableExitCode
        }
        let runner = WorkloadRunner(workload: workload, fixture: fixture, plan: RunPlan(warmups: 1, iterations: 1), measuresAllocations: false)
        _ = try runner.checkedRun(job, side: side)
        try runner.prepare()
        let start = monotonicSeconds()
        try measuredRun(job)
        let duration = monotonicSeconds() - start
        try runner.check(job, side: side)
        print("\(workload.rawValue) \(side.rawValue): \(runner.rowCount) rows, \(MarkdownReport.seconds(duration)) s")
    }
}

/// The measured run of `--once`: callgrind collects instructions only
/// inside this function (`--toggle-collect=grdblite_bench_measured_run`).
/// Not optimized, so that the optimizer makes no specialized copy of it
/// under another symbol: it only calls the job.
@inline(never)
@_optimize(none)
@_silgen_name("grdblite_bench_measured_run")
func measuredRun(_ job: SideJob) throws {
    try job.run()
}

/// Progress and warnings go to stderr, the report to stdout.
func progress(_ message: String) {
    FileHandle.standardError.write(Data((message + "\n").utf8))
}
