import Dispatch
import GRDB

extension GRDBSide {
    /// See ``Workload/observe1``: `ValueObservation.tracking` of a count,
    /// notified on a serial queue.
    static func observe(_ fixture: Fixture, observations: Int) throws -> SideJob {
        let dbQueue = try DatabaseQueue(path: ObservationSQL.path(fixture, side: "grdb", observations: observations))
        try dbQueue.write { db in try db.execute(sql: ObservationSQL.schema) }
        let progress = ObservationProgress(observations: observations)
        let queue = DispatchQueue(label: "observations")
        let cancellables = (0..<observations).map { index in
            let sql = "SELECT COUNT(*) FROM \(ObservationSQL.table(ofObservation: index))"
            return ValueObservation
                .tracking { db in try Int.fetchOne(db, sql: sql)! }
                .start(
                    in: dbQueue, scheduling: .async(onQueue: queue),
                    onError: { error in fatalError("observation failed: \(error)") },
                    onChange: { progress.receive($0, from: index) })
        }
        try progress.wait(untilObservedCount: 0)
        var count = 0
        var digest = Digest()
        return SideJob(
            run: {
                let start = count
                for _ in 0..<Workload.observationCommits {
                    try dbQueue.write { db in try db.execute(sql: ObservationSQL.insert) }
                }
                count += Workload.observationCommits
                try progress.wait(untilObservedCount: count)
                digest = Digest(count: count - start)
            },
            fetched: { digest },
            runsOnOtherThreads: true,
            close: {
                for cancellable in cancellables { cancellable.cancel() }
                try dbQueue.close()
            })
    }
}
