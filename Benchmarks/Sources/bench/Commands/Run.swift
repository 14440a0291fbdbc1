import ArgumentParser
import Foundation

/// `bench` (`bench run`): times and allocations of every workload on every
/// side, interleaved in one process.
struct Run: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Times and allocations of the workloads on each side (the default command).",
        discussion: """
            Prints a Markdown table of durations (median, min, max) and ratios, then \
            allocations per row read from jemalloc's statistics. Workloads: \
            \(Workload.all.map(\.name).joined(separator: ", ")).

            `--only WORKLOAD --side SIDE --once` runs one workload on one side once after one \
            warm-up, for instruction counts (`bench instructions`): only the function \
            `grdblite_bench_measured_run` runs the measured run. It prints one JSON line, and \
            exits with code 3 when the side doesn't implement the workload (n/a).
            """)

    @OptionGroup var selection: Selection

    @Flag(help: "Fewer rows and runs (20,000 fetched, 5,000 inserted, 1 warm-up, 5 runs): for CI.")
    var quick = false

    @Option(help: "Requests per run of a server workload, all tasks together (default 16,384, quick 512).")
    var serverRequests: Int?

    @Option(help: "Commits per run of an observation latency workload (default 100, quick 20).")
    var latencyCommits: Int?

    @Option(help: "Measured runs per workload and side (default 10, quick 5).")
    var iterations: Int?

    @Option(help: "Warm-up runs per workload and side (default 2, quick 1).")
    var warmups: Int?

    @Option(help: ArgumentHelp("Write report.json, report.md and ratios.svg in this folder.", valueName: "folder"))
    var output: String?

    @Flag(help: "Exit with a failure when a GRDBLite allocation figure exceeds its target, or can't be measured.")
    var checkAllocations = false

    @Flag(help: "Run one workload (--only) on one side (--side) once, after one warm-up.")
    var once = false

    @Flag(help: "Print the workload names, one per line, and exit.")
    var listWorkloads = false

    @Option(help: "With --once: the workload.")
    var only: String?

    /// With --once: runs the job this many times after the warm-up; the
    /// runs after the first are neither inside `grdblite_bench_measured_run`
    /// nor checked. `bench instructions` subtracts the whole-process counts
    /// of 1 and 2 runs for the sides that run on several threads.
    @Option(help: .hidden)
    var measuredRuns = 1

    func validate() throws {
        if once {
            guard let only, selection.sides.count == 1 else {
                throw ValidationError("--once needs --only and one --side")
            }
            if Workload.named(only) == nil { throw ValidationError("no workload named \(only)") }
            if checkAllocations || output != nil {
                throw ValidationError("--once writes no report and checks no target")
            }
        } else if only != nil {
            throw ValidationError("--only goes with --once (use --filter to pick workloads)")
        }
        if let iterations, iterations < 1 { throw ValidationError("--iterations must be at least 1") }
        if let serverRequests, serverRequests < 256 { throw ValidationError("--server-requests must be at least 256") }
        if let latencyCommits, latencyCommits < 1 { throw ValidationError("--latency-commits must be at least 1") }
        if let warmups, warmups < 0 { throw ValidationError("--warmups can't be negative") }
    }

    var fetchRowCount: Int { selection.fetchRowCount(default: quick ? 20_000 : 200_000) }
    var insertRowCount: Int { selection.insertRowCount(default: quick ? 20_000 : 200_000) }
    var plan: RunPlan { RunPlan(warmups: warmups ?? (quick ? 1 : 2), iterations: iterations ?? (quick ? 5 : 10)) }

    /// The exit code of `--once` when the side doesn't implement the workload.
    static let notAvailableExitCode = ExitCode(3)

    func run() throws {
        if listWorkloads {
            Workload.all.forEach { print($0.name) }
            return
        }
        do {
            if once, let only, let workload = Workload.named(only), let side = selection.sides.first {
                try runOnce(workload, on: side)
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
        let fixture = try makeFixture()
        progress("Database files in \(fixture.folder)")
        let sides = selection.selectedSides
        let sqlite = try sqliteInfoBySide(sides, fixture: fixture)

        var results: [WorkloadResult] = []
        var skipped: [SkippedWorkload] = []
        let selected = selection.selectedWorkloads
        for workload in selected {
            if workload.needsLitestream, let reason = LitestreamSidecar.unavailableReason {
                progress("\(workload.name): skipped: \(reason)")
                skipped.append(SkippedWorkload(workload: workload.name, reason: reason))
                continue
            }
            // A workload compared with another runs interleaved with it.
            if let baseline = workload.comparedWith, selected.contains(where: { $0.name == baseline }) { continue }
            let group = [workload] + selected.filter { $0.comparedWith == workload.name }
            progress(group.map(\.name).joined(separator: " and ") + (group.count > 1 ? ", interleaved..." : "..."))
            let runners = group.map { workload in
                WorkloadRunner(
                    workload: workload, fixture: fixture, plan: plan, sides: sides,
                    measuresAllocations: allocationsUnavailable == nil)
            }
            results.append(contentsOf: try WorkloadRunner.interleaved(runners, log: progress))
        }

        let report = BenchReport(
            date: ISO8601DateFormatter().string(from: Date()),
            machine: .current(),
            software: SoftwareInfo(
                swiftCompiler: swiftCompilerVersion,
                buildConfiguration: buildConfiguration,
                sqliteBySide: sqlite,
                peers: SoftwareInfo.peerVersions,
                allocator: allocator),
            plan: plan,
            fetchRowCount: fetchRowCount,
            insertRowCount: insertRowCount,
            allocationFiguresUnavailable: allocationsUnavailable,
            workloads: results,
            skippedWorkloads: skipped.isEmpty ? nil : skipped)
        printReport(MarkdownReport.render(report))
        if let output {
            for file in try ReportFiles.write(report, to: output) {
                progress("Wrote \(file)")
            }
        }
        if checkAllocations {
            try checkAllocationTargets(report)
        }
    }

    private func checkAllocationTargets(_ report: BenchReport) throws {
        if let reason = report.allocationFiguresUnavailable {
            throw BenchError("--check-allocations: allocation figures are unavailable (\(reason))")
        }
        let failures = report.workloads.compactMap { result -> String? in
            guard let target = result.liteAllocationTarget, !target.isMet,
                  let figures = result[.lite]?.allocations else { return nil }
            return
                "\(result.workload): \(MarkdownReport.perRow(figures.allocationsPerRow)) allocations per row, target ≤ \(MarkdownReport.perRow(target.maximumPerRow)) (\(target.rule))"
        }
        if !failures.isEmpty {
            throw BenchError("GRDBLite exceeds its allocation targets:\n  " + failures.joined(separator: "\n  "))
        }
        progress("GRDBLite meets its allocation targets.")
    }

    /// One warm-up, then the measured run, alone in
    /// `grdblite_bench_measured_run` for callgrind, between two readings of
    /// jemalloc's counters (outside that function). Prints a ``OnceResult``
    /// as one JSON line.
    private func makeFixture() throws -> Fixture {
        let fixture = try Fixture(folder: selection.path, fetchRowCount: fetchRowCount, insertRowCount: insertRowCount)
        fixture.serverRequestCount = serverRequests ?? (quick ? 512 : 16_384)
        fixture.latencyCommitCount = latencyCommits ?? (quick ? 20 : 100)
        return fixture
    }

    private func runOnce(_ workload: Workload, on side: Side) throws {
        let fixture = try makeFixture()
        guard workload.jobs[side] != nil else {
            progress("\(workload.name) is n/a on \(side.title)")
            throw Self.notAvailableExitCode
        }
        let runner = WorkloadRunner(
            workload: workload, fixture: fixture, plan: RunPlan(warmups: 1, iterations: 1),
            sides: [side], measuresAllocations: false)
        let jobs = try runner.jobs()
        defer { runner.close(jobs) }
        let job = jobs[0].job
        _ = try runner.checkedRun(job, side: side)
        var allocations: AllocationFigures?
        var duration = 0.0
        if case .active = Jemalloc.probe() {
            allocations = try runner.measureAllocations(job, side: side) { job in
                let start = monotonicSeconds()
                try measuredRun(job)
                duration = monotonicSeconds() - start
            }
        } else {
            try runner.prepare(job)
            let start = monotonicSeconds()
            try measuredRun(job)
            duration = monotonicSeconds() - start
            try runner.check(job, side: side)
        }
        for _ in 1..<max(1, measuredRuns) {
            try runner.prepare(job)
            try job.run()
        }
        let result = OnceResult(
            workload: workload.name, side: side, api: job.api, rowCount: runner.rowCount,
            seconds: duration, allocations: allocations)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        print(String(decoding: try encoder.encode(result), as: UTF8.self))
    }
}

/// What `--once` prints: one JSON line.
struct OnceResult: Codable {
    var workload: String
    var side: Side
    var api: String?
    var rowCount: Int
    var seconds: Double
    var allocations: AllocationFigures?
}

/// The measured run of `--once`: callgrind counts the instructions run
/// inside this function (`--toggle-collect=grdblite_bench_measured_run`). Not
/// optimized, so that the optimizer makes no specialized copy of it under
/// another symbol: it only calls the job.
@inline(never)
@_optimize(none)
@_silgen_name("grdblite_bench_measured_run")
func measuredRun(_ job: SideJob) throws {
    try job.run()
}
