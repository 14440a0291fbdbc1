import Dispatch
import GRDBLite

// GRDBLite's observation latency workloads: the same source as
// GRDBSide+ObservationLatency.swift, compiled against GRDBLite.

extension LiteSide {
    /// See ``Workload/observeLatencyQueue1``: observations of a count on a
    /// pool with `synchronous = NORMAL`.
    static func observeLatency(
        _ fixture: Fixture, mode: ObservationLatencyMode, observations: Int) throws -> SideJob
    {
        var configuration = Configuration()
        configuration.prepareDatabase { db in
            if !db.configuration.readonly { try db.execute(sql: "PRAGMA synchronous = NORMAL") }
        }
        let path = ObservationSQL.path(fixture, side: "lite-latency", observations: observations)
        let dbPool = try DatabasePool(path: path, configuration: configuration)
        return try observeLatency(
            dbPool, mode: mode, observations: observations, commits: fixture.latencyCommitCount)
    }

    private static func observeLatency(
        _ dbPool: DatabasePool, mode: ObservationLatencyMode, observations: Int, commits: Int) throws -> SideJob
    {
        try dbPool.write { db in try db.execute(sql: ObservationSQL.schema) }
        let probe = ObservationLatencyProbe(observations: observations)
        let queue = DispatchQueue(label: "observations")
        var cancellables: [AnyDatabaseCancellable] = []
        var tasks: [Task<Void, Never>] = []
        for index in 0..<observations {
            let sql = "SELECT COUNT(*) FROM \(ObservationSQL.table(ofObservation: index))"
            let observation = ValueObservation.tracking { db in try Int.fetchOne(db, sql: sql)! }
            switch mode {
            case .queue:
                cancellables.append(observation.start(
                    in: dbPool, scheduling: .async(onQueue: queue),
                    onError: { error in fatalError("observation failed: \(error)") },
                    onChange: { probe.receive($0, from: index) }))
            case .values:
                tasks.append(Task {
                    do {
                        for try await value in observation.values(in: dbPool) {
                            probe.receive(value, from: index)
                        }
                    } catch is CancellationError {
                    } catch {
                        fatalError("observation failed: \(error)")
                    }
                })
            }
        }
        try probe.waitForInitialValues()
        var count = 0
        var latencies: [Double] = []
        var digest = Digest()
        return SideJob(
            run: {
                latencies.removeAll(keepingCapacity: true)
                for _ in 0..<commits {
                    latencies += try probe.latencies(ofCommitAfter: count) {
                        try dbPool.write { db in
                            try db.execute(sql: ObservationSQL.insert)
                            return ContinuousClock.now
                        }
                    }
                    count += 1
                }
                digest = Digest(count: commits)
            },
            fetched: { digest },
            runsOnOtherThreads: true,
            close: {
                for cancellable in cancellables { cancellable.cancel() }
                for task in tasks { task.cancel() }
                try dbPool.close()
            },
            latencies: { latencies })
    }
}
