import ArgumentParser
import Foundation

/// `bench instructions`: instruction counts under valgrind's callgrind,
/// which repeat from run to run where times don't: the figures of the
/// regression report (`bench compare`).
struct Instructions: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Instruction counts of the workloads under valgrind's callgrind, and their allocations.",
        discussion: """
            Each workload runs on each side in its own process, under valgrind: \
            `bench --once --only WORKLOAD --side SIDE` runs it once as a warm-up (first page reads, \
            statement and schema caches, lazy runtime metadata), then once more inside the function \
            `grdblite_bench_measured_run`, whose instructions callgrind counts \
            (--toggle-collect): the measured run whole, SQLite, the library and the allocator \
            included, and not the process start, the database generation, the connections, the \
            warm-up or the checks of results. Callgrind's triggers count the calling thread only: \
            a side that runs SQLite on other threads (Vapor: SQLiteNIO's thread pool and event \
            loop) is counted by difference, the whole process with two runs after the warm-up \
            minus the whole process with one. The database files are generated once, before \
            valgrind runs.

            jemalloc stays the allocator under callgrind (which doesn't replace malloc), so its \
            instructions are counted, and its statistics give the allocations of the measured run. \
            SWIFT_DETERMINISTIC_HASHING=1 fixes the seed of Swift's hashing, whose collisions would \
            otherwise change the counts by several percent from one run to the next.
            """)

    @OptionGroup var selection: Selection

    @Flag(help: "The CI mode: 5,000 rows fetched, 1,250 inserted (default 20,000 and 5,000).")
    var quick = false

    @Option(
        help: ArgumentHelp(
            "Write the report as JSON to this file (the format of Benchmarks/baseline.json).", valueName: "file"))
    var output: String?

    @Option(help: "valgrind's command.")
    var valgrind = "valgrind"

    @Option(help: "valgrind processes at once (default: the number of cores). Counts don't depend on it.")
    var jobs: Int?

    var fetchRowCount: Int { selection.fetchRowCount(default: quick ? 5_000 : 20_000) }
    var insertRowCount: Int { selection.insertRowCount(default: quick ? 5_000 : 20_000) }

    func run() throws {
        do {
            try measure()
        } catch let error as BenchError {
            progress("error: \(error)")
            throw ExitCode.failure
        }
    }

    private func measure() throws {
        if buildConfiguration == "debug" {
            progress("warning: a debug build: its figures say nothing about performance (swift build -c release)")
        }
        let valgrindVersion = try runTool([valgrind, "--version"]).trimmingCharacters(in: .whitespacesAndNewlines)
        let guestCPU = guestCPUFeatures()
        let allocator: String
        switch Jemalloc.probe() {
        case let .active(version, malloc): allocator = "jemalloc \(version) (malloc resolves to \(malloc))"
        case let .inactive(reason): allocator = "unknown (\(reason))"
        }

        let work = try temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: work) }
        progress("Preparing \(fetchRowCount) rows to fetch in \(work)...")
        let fixture = try Fixture(
            folder: work + "/fixture", fetchRowCount: fetchRowCount, insertRowCount: insertRowCount)
        let sides = selection.selectedSides
        let sqlite = try sqliteInfoBySide(sides, fixture: fixture)

        var tasks: [MeasureTask] = []
        for workload in selection.selectedWorkloads.filter(\.measuresInstructions) {
            for side in sides where workload.jobs[side] != nil {
                let folder = "\(work)/\(tasks.count)"
                try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: false)
                try FileManager.default.copyItem(atPath: fixture.fetchPath, toPath: folder + "/fetch.sqlite")
                tasks.append(
                    MeasureTask(
                        workload: workload.name, side: side, folder: folder,
                        byDifference: side.runsOnOtherThreads || workload.runsOnOtherThreads))
            }
        }
        let started = monotonicSeconds()
        let results = try runAll(tasks)
        progress("callgrind: \(tasks.count) runs in \(Int(monotonicSeconds() - started)) s")

        var environment: [String: String] = ["SWIFT_DETERMINISTIC_HASHING": "1"]
        environment["GLIBC_TUNABLES"] = ProcessInfo.processInfo.environment["GLIBC_TUNABLES"]
        let report = InstructionReport(
            date: ISO8601DateFormatter().string(from: Date()),
            machine: .current(),
            software: SoftwareInfo(
                swiftCompiler: swiftCompilerVersion,
                buildConfiguration: buildConfiguration,
                sqliteBySide: sqlite,
                peers: SoftwareInfo.peerVersions,
                allocator: allocator),
            tool:
                "\(valgrindVersion) --tool=callgrind: --toggle-collect=grdblite_bench_measured_run, or by difference of whole processes for sides on several threads",
            guestCPU: guestCPU,
            environment: environment,
            fetchRowCount: fetchRowCount,
            insertRowCount: insertRowCount,
            workloads: selection.selectedWorkloads.filter(\.measuresInstructions).map { workload in
                let rowCount = workload.rowCount(fixture)
                return InstructionResult(
                    workload: workload, rowCount: rowCount,
                    sides: sides.map { side in
                        guard let result = results[MeasureTask.key(workload.name, side)] else {
                            return SideInstructions(side: side)
                        }
                        return SideInstructions(
                            side: side, api: result.once.api,
                            instructions: result.instructions,
                            instructionsPerRow: Double(result.instructions) / Double(rowCount),
                            allocations: result.once.allocations,
                            byDifference: result.byDifference ? true : nil)
                    })
            })
        printReport(MarkdownReport.render(report))
        if let output {
            try writeJSON(report, to: output)
            progress("Wrote \(output)")
        }
    }

    private struct MeasureTask {
        var workload: String
        var side: Side
        var folder: String
        /// Counted by difference of whole processes: the work runs on
        /// other threads than the caller's.
        var byDifference: Bool
        var key: String { Self.key(workload, side) }
        static func key(_ workload: String, _ side: Side) -> String { "\(workload) \(side.rawValue)" }
    }

    private struct Measured {
        var instructions: UInt64
        var once: OnceResult
        /// The calls to the allocator that callgrind counted.
        var allocatorCalls: UInt64
        /// Counted by difference of whole processes.
        var byDifference = false
    }

    /// Runs the tasks, `jobs` at a time.
    private func runAll(_ tasks: [MeasureTask]) throws -> [String: Measured] {
        let lock = NSLock()
        nonisolated(unsafe) var next = 0
        nonisolated(unsafe) var results: [String: Measured] = [:]
        nonisolated(unsafe) var failure: (any Error)?
        let executable = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().path
        let workers = max(1, min(jobs ?? ProcessInfo.processInfo.activeProcessorCount, tasks.count))
        DispatchQueue.concurrentPerform(iterations: workers) { _ in
            while true {
                let task: MeasureTask? = lock.withLock {
                    guard failure == nil, next < tasks.count else { return nil }
                    defer { next += 1 }
                    return tasks[next]
                }
                guard let task else { return }
                progress("callgrind: \(task.workload) \(task.side.rawValue)...")
                do {
                    let measured = try measure(task, executable: executable)
                    lock.withLock { results[task.key] = measured }
                } catch {
                    lock.withLock { failure = failure ?? error }
                }
            }
        }
        if let failure { throw failure }
        return results
    }

    /// One workload on one side, in valgrind processes. A side that runs
    /// on the caller's thread only is counted inside
    /// `grdblite_bench_measured_run` (`--toggle-collect`, exact). Callgrind's
    /// triggers count one thread, so a side that runs on other threads
    /// (Vapor) is counted by difference: the whole process with two runs
    /// after the warm-up, minus the whole process with one. Its allocations
    /// are then the calls to the allocator that callgrind counted, by the same
    /// difference: exact, where jemalloc's counters miss the thread caches of
    /// the other threads.
    private func measure(_ task: MeasureTask, executable: String) throws -> Measured {
        if task.byDifference {
            let one = try callgrind(task, executable: executable, options: [], measuredRuns: 1, name: "one")
            let two = try callgrind(task, executable: executable, options: [], measuredRuns: 2, name: "two")
            guard two.instructions > one.instructions else {
                throw BenchError(
                    "\(task.workload) on \(task.side.title): two runs counted \(two.instructions) instructions, one run \(one.instructions)"
                )
            }
            var once = one.once
            let calls = two.allocatorCalls - min(two.allocatorCalls, one.allocatorCalls)
            once.allocations = AllocationFigures(allocations: calls, bytes: nil, rowCount: once.rowCount)
            return Measured(
                instructions: two.instructions - one.instructions, once: once, allocatorCalls: calls,
                byDifference: true)
        }
        return try callgrind(
            task, executable: executable,
            options: ["--collect-atstart=no", "--toggle-collect=grdblite_bench_measured_run"],
            measuredRuns: 1, name: "measured")
    }

    /// A valgrind process: its result line, and callgrind's summary.
    private func callgrind(_ task: MeasureTask, executable: String, options: [String], measuredRuns: Int, name: String)
        throws -> Measured
    {
        let outFile = "\(task.folder)/callgrind.\(name)"
        let arguments = [valgrind, "--tool=callgrind", "--callgrind-out-file=\(outFile)"] + options + [
                executable, "--once", "--only", task.workload, "--side", task.side.rawValue, "--measured-runs",
                String(measuredRuns),
            "--rows", String(fetchRowCount), "--insert-rows", String(insertRowCount), "--path", task.folder,
        ]
        let logPath = "\(task.folder)/log.\(name)"
        let output: String
        do {
            output = try runTool(arguments, stderrPath: logPath, environment: ["SWIFT_DETERMINISTIC_HASHING": "1"])
        } catch {
            let log = readWholeFile(logPath) ?? ""
            throw BenchError("\(task.workload) on \(task.side.title) failed under valgrind: \(error)\n\(log)")
        }
        guard let line = output.split(separator: "\n").last(where: { $0.hasPrefix("{") }),
              let once = try? JSONDecoder().decode(OnceResult.self, from: Data(line.utf8))
        else {
            throw BenchError("\(task.workload) on \(task.side.title): no result in the output: \(output)")
        }
        guard let text = readWholeFile(outFile), let total = Self.summary(text), total > 0 else {
            throw BenchError(
                "\(task.workload) on \(task.side.title): no instructions in \(outFile) (is grdblite_bench_measured_run in the binary?)"
            )
        }
        return Measured(instructions: total, once: once, allocatorCalls: Self.allocatorCalls(text))
    }

    /// The CPU that programs see under valgrind, as glibc reads it to pick
    /// its string functions: valgrind presents a synthetic CPU of its own
    /// (on an AVX2 host, an Intel Haswell), whatever the host's. Runs
    /// `ld.so --list-diagnostics` under valgrind; nil where that fails.
    private func guestCPUFeatures() -> String? {
        guard let text = try? runTool([valgrind, "-q", "/lib64/ld-linux-x86-64.so.2", "--list-diagnostics"]) else {
            return nil
        }
        var fields: [String: String] = [:]
        for line in text.split(separator: "\n") {
            let parts = line.split(separator: "=", maxSplits: 1)
            if parts.count == 2 { fields[String(parts[0])] = String(parts[1]) }
        }
        guard let family = fields["x86.cpu_features.basic.family"], let model = fields["x86.cpu_features.basic.model"]
        else { return nil }
        let kind =
            ["0x1": "Intel", "0x2": "AMD", "0x3": "Zhaoxin"][fields["x86.cpu_features.basic.kind"] ?? ""] ?? "other"
        // The features glibc uses and prefers, summed up by an FNV-1a hash.
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for (key, value) in fields.sorted(by: { $0.key < $1.key })
        where key.contains(".active[") || key.contains(".preferred.") {
            for byte in (key + "=" + value).utf8 {
                hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3
            }
        }
        return "\(kind) family \(family) model \(model), glibc features \(String(hash, radix: 16))"
    }

    /// The functions whose calls are allocations, as jemalloc counts its
    /// requests.
    static let allocatorFunctions: Set<Substring> = [
        "malloc", "calloc", "realloc", "posix_memalign", "aligned_alloc", "memalign", "valloc",
    ]

    /// The calls to ``allocatorFunctions`` in a callgrind output file: each
    /// `calls=N` line follows the `cfn=` line of the called function, named
    /// in full at its first use as `cfn=(id) name`, then by `(id)` alone.
    static func allocatorCalls(_ dump: String) -> UInt64 {
        var names: [Substring: Substring] = [:]
        var calleeIsAllocator = false
        var total: UInt64 = 0
        for line in dump.split(separator: "\n") {
            if line.hasPrefix("fn=") || line.hasPrefix("cfn=") {
                let value = line.drop { $0 != "=" }.dropFirst()
                var name = value
                if value.hasPrefix("("), let close = value.firstIndex(of: ")") {
                    let id = value[...close]
                    let rest = value[value.index(after: close)...].drop { $0 == " " }
                    if !rest.isEmpty { names[id] = rest }
                    name = names[id] ?? rest
                }
                if line.hasPrefix("cfn=") { calleeIsAllocator = allocatorFunctions.contains(name) }
            } else if line.hasPrefix("calls="), calleeIsAllocator {
                let count = line.dropFirst("calls=".count).prefix { $0.isNumber }
                total += UInt64(count) ?? 0
            }
        }
        return total
    }

    /// The `summary:` line of a callgrind output file: the Ir of the
    /// collected code.
    static func summary(_ dump: String) -> UInt64? {
        for line in dump.split(separator: "\n") where line.hasPrefix("summary:") {
            return line.dropFirst("summary:".count).split(separator: " ").first.flatMap { UInt64($0) }
        }
        return nil
    }
}

/// Runs a command and returns its standard output; throws when it fails.
/// Its standard error goes to `stderrPath`, or is discarded.
func runTool(_ arguments: [String], stderrPath: String? = nil, environment: [String: String] = [:]) throws -> String {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = arguments
    process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
    let stdout = Pipe()
    process.standardOutput = stdout
    if let stderrPath {
        _ = FileManager.default.createFile(atPath: stderrPath, contents: nil)
        process.standardError = FileHandle(forWritingAtPath: stderrPath)
    } else {
        process.standardError = FileHandle.nullDevice
    }
    process.standardInput = FileHandle.nullDevice
    do {
        try process.run()
    } catch {
        throw BenchError("can't run \(arguments[0]): \(error)")
    }
    let data = stdout.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    guard process.terminationReason == .exit, process.terminationStatus == 0 else {
        throw BenchError("\(arguments.joined(separator: " ")) exited with \(process.terminationStatus)")
    }
    return String(decoding: data, as: UTF8.self)
}

/// A new temporary folder.
func temporaryFolder() throws -> String {
    var template = Array(
        (NSTemporaryDirectory() as NSString).appendingPathComponent("grdblite-bench-XXXXXX").utf8CString)
    guard let created = mkdtemp(&template) else {
        throw BenchError("can't create a temporary folder in \(NSTemporaryDirectory())")
    }
    return String(cString: created)
}

/// Writes a value as pretty-printed, sorted JSON.
func writeJSON(_ value: some Encodable, to path: String) throws {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
    try (encoder.encode(value) + Data("\n".utf8)).write(to: URL(fileURLWithPath: path))
}
