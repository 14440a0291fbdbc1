/// How many times to run each workload.
struct RunPlan: Codable {
    var warmups: Int
    var iterations: Int
}

/// Runs a workload on every side, interleaved, and checks every run.
struct WorkloadRunner {
    let workload: Workload
    let fixture: Fixture
    let plan: RunPlan
    /// Measure allocations (jemalloc is the allocator).
    let measuresAllocations: Bool

    var rowCount: Int { workload.isFetch ? fixture.fetchRowCount : fixture.insertRowCount }

    /// Warm-ups, then one run per side for allocation figures, then the
    /// timed runs, interleaved (raw, lite, grdb, raw, …) so that machine
    /// drift hits all sides alike.
    func run(log: (String) -> Void) throws -> WorkloadResult {
        let jobs = try Side.allCases.map { side in (side, try side.implementation.job(for: workload, fixture: fixture)) }
        let available = jobs.compactMap { side, job in job.map { (side, $0) } }

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
        for _ in 0..<plan.iterations {
            for (side, job) in available {
                seconds[side, default: []].append(try checkedRun(job, side: side))
            }
        }

        let result = WorkloadResult(
            workload: workload,
            rowCount: rowCount,
            sides: jobs.map { side, job in
                SideResult(
                    side: side,
                    time: job == nil ? nil : TimeStatistics(seconds: seconds[side]!),
                    allocations: allocations[side])
            })
        log("  median: " + result.sides.map { "\($0.side.rawValue) \($0.time.map { MarkdownReport.seconds($0.median) + " s" } ?? "n/a")" }.joined(separator: ", "))
        return result
    }

    /// Runs the job once, and returns its duration after checking its
    /// result.
    func checkedRun(_ job: SideJob, side: Side) throws -> Double {
        try prepare()
        let start = monotonicSeconds()
        try job.run()
        let duration = monotonicSeconds() - start
        try check(job, side: side)
        return duration
    }

    /// Runs the job once between two readings of jemalloc's counters.
    private func measureAllocations(_ job: SideJob, side: Side) throws -> AllocationFigures {
        try prepare()
        let before = try Jemalloc.counters()
        try job.run()
        let after = try Jemalloc.counters()
        try check(job, side: side)
        return AllocationFigures(
            allocations: after.requests - before.requests,
            bytes: after.allocatedBytes - before.allocatedBytes,
            rowCount: rowCount)
    }

    /// Before each run: inserts start from an empty table.
    func prepare() throws {
        if !workload.isFetch {
            try fixture.resetInsertTable()
        }
    }

    /// After each run: a wrong result fails the bench.
    func check(_ job: SideJob, side: Side) throws {
        let expected = Digest.expected(rowCount: rowCount)
        let actual: Digest
        if let fetched = job.fetched {
            actual = fetched()
        } else {
            actual = try fixture.insertedDigest()
        }
        if actual != expected {
            throw BenchError("wrong result: \(workload.rawValue) on \(side.title) gave \(actual), expected \(expected)")
        }
    }
}
