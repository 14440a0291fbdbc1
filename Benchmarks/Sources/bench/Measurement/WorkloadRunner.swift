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
        try Self.interleaved([self], log: log)[0]
    }

    /// Runs workloads run by run, interleaved as the sides of one are (the
    /// jobs of `a`, then of `b`, then of `a`...): a workload and the one
    /// it is compared with (``Workload/comparedWith``). Their jobs are all
    /// open at once.
    static func interleaved(_ runners: [WorkloadRunner], log: (String) -> Void) throws -> [WorkloadResult] {
        var available: [[(side: Side, job: SideJob)]] = []
        defer {
            for (runner, jobs) in zip(runners, available) { runner.close(jobs) }
        }
        for runner in runners {
            available.append(try runner.jobs())
        }
        let plan = runners[0].plan

        for _ in 0..<plan.warmups {
            for (runner, jobs) in zip(runners, available) {
                for (side, job) in jobs {
                    _ = try runner.checkedRun(job, side: side)
                }
            }
        }

        var allocations = [[Side: AllocationFigures]](repeating: [:], count: runners.count)
        for (index, (runner, jobs)) in zip(runners, available).enumerated() where runner.measuresAllocations {
            for (side, job) in jobs {
                allocations[index][side] = try runner.measureAllocations(job, side: side)
            }
        }

        var seconds = [[Side: [Double]]](repeating: [:], count: runners.count)
        var latencies = [[Side: [Double]]](repeating: [:], count: runners.count)
        for _ in 0..<plan.iterations {
            for (index, (runner, jobs)) in zip(runners, available).enumerated() {
                for (side, job) in jobs {
                    seconds[index][side, default: []].append(try runner.checkedRun(job, side: side))
                    if let runLatencies = job.latencies {
                        latencies[index][side, default: []].append(contentsOf: runLatencies())
                    }
                }
            }
        }

        return zip(runners, available).enumerated().map { index, element in
            element.0.result(
                jobs: element.1, seconds: seconds[index], allocations: allocations[index],
                latencies: latencies[index], log: log)
        }
    }

    /// The figures of the runs, logged.
    private func result(
        jobs available: [(side: Side, job: SideJob)], seconds: [Side: [Double]],
        allocations: [Side: AllocationFigures], latencies: [Side: [Double]], log: (String) -> Void) -> WorkloadResult
    {
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
