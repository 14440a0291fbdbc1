/// How many times to run each workload.
struct RunPlan: Codable {
    var warmups: Int
    var iterations: Int
}

/// Runs a workload on the chosen sides, interleaved, and checks every run.
struct WorkloadRunner {
    let workload: Workload
    let fixture: Fixture
    let plan: RunPlan
    /// The sides to run, in report order; those without a job are n/a.
    let sides: [Side]
    /// Measure allocations (jemalloc is the allocator).
    let measuresAllocations: Bool

    var rowCount: Int { workload.rowCount(fixture) }

    /// Warm-ups, then one run per side for allocation figures, then the
    /// timed runs, interleaved (raw, lite, grdb, vapor, raw, …) so that
    /// machine drift hits all sides alike.
    func run(log: (String) -> Void) throws -> WorkloadResult {
        let available = try jobs()
        defer { close(available) }

        for _ in 0..<plan.warmups {
            for (side, job) in available {
                _ = try checkedRun(job, side: side)
            }
        }

        var allocations: [Side: AllocationFigures] = [:]
        if measuresAllocations {
            for (side, job) in available {
                allocations[side] = try measureAllocations(job, side: side)
            }
        }

        var seconds: [Side: [Double]] = [:]
        var latencies: [Side: [Double]] = [:]
        for _ in 0..<plan.iterations {
            for (side, job) in available {
                seconds[side, default: []].append(try checkedRun(job, side: side))
                if let runLatencies = job.latencies {
                    latencies[side, default: []].append(contentsOf: runLatencies())
                }
            }
        }

        let result = WorkloadResult(
            workload: workload,
            rowCount: rowCount,
            sides: sides.map { side in
                SideResult(
                    side: side,
                    api: available.first { $0.side == side }?.job.api,
                    time: seconds[side].map(TimeStatistics.init(seconds:)),
                    allocations: allocations[side],
                    latency: latencies[side].flatMap { latencies in
                        LatencyStatistics(
                            latencies: latencies,
                            requestsPerSecond: workload.latencyGroup == .server
                                ? Double(rowCount * plan.iterations) / seconds[side]!.reduce(0, +) : nil)
                    })
            })
        for side in result.sides where side.latency != nil {
            log("  \(side.side.rawValue): \(MarkdownReport.latencySummary(side.latency!))")
        }
        log(
            "  median: "
                + result.sides.map {
                    "\($0.side.rawValue) \($0.time.map { MarkdownReport.seconds($0.median) + " s" } ?? "n/a")"
                }.joined(separator: ", "))
        return result
    }

    /// The jobs of the sides that implement the workload, ready to run.
    func jobs() throws -> [(side: Side, job: SideJob)] {
        var jobs: [(side: Side, job: SideJob)] = []
        do {
            for side in sides {
                if let makeJob = workload.jobs[side] {
                    jobs.append((side, try makeJob(fixture)))
                }
            }
        } catch {
            close(jobs)
            throw error
        }
        return jobs
    }

    func close(_ jobs: [(side: Side, job: SideJob)]) {
        for (side, job) in jobs {
            do {
                try job.close?()
            } catch {
                progress("warning: \(workload.name) on \(side.title): closing failed: \(error)")
            }
        }
    }

    /// Runs the job once, and returns its duration after checking its
    /// result.
    func checkedRun(_ job: SideJob, side: Side) throws -> Double {
        try prepare(job)
        let start = monotonicSeconds()
        try job.run()
        let duration = monotonicSeconds() - start
        try check(job, side: side)
        return duration
    }

    /// Runs the job once between two readings of jemalloc's counters.
    func measureAllocations(_ job: SideJob, side: Side, run: (SideJob) throws -> Void = { try $0.run() }) throws
        -> AllocationFigures
    {
        try prepare(job)
        let before = try Jemalloc.counters()
        try run(job)
        let after = try Jemalloc.counters()
        try check(job, side: side)
        return AllocationFigures(
            allocations: after.requests - before.requests,
            bytes: job.runsOnOtherThreads ? nil : after.allocatedBytes - before.allocatedBytes,
            rowCount: rowCount,
            approximate: job.runsOnOtherThreads)
    }

    /// Before each run, outside the timed part: the workload's
    /// preparation, then the job's.
    func prepare(_ job: SideJob) throws {
        try workload.prepare(fixture)
        try job.prepare?()
    }

    /// After each run: a wrong result fails the bench.
    func check(_ job: SideJob, side: Side) throws {
        let expected = workload.expected(fixture)
        let actual = try workload.result(job, fixture)
        if actual != expected {
            throw BenchError("wrong result: \(workload.name) on \(side.title) gave \(actual), expected \(expected)")
        }
    }
}
