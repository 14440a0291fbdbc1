/// The cost of Litestream (the article "Beyond one machine"): GRDBLite's
/// jobs of `insert-by-index` and `server-mix-64`, each on a WAL file of its
/// own, without (`litestream-off-*`) and with (`litestream-on-*`)
/// `litestream replicate` beside it, to a `file` replica, with the
/// article's configuration (monitor and sync every 100 ms). The report
/// divides each `on` figure by its `off` one.
///
/// Litestream starts once the file exists, and its initial snapshot is
/// waited for; before each run (outside the timed part) the job waits
/// until the replica holds what the previous run wrote, so that each run
/// starts with nothing left to ship. Each pair runs interleaved, run by
/// run (both jobs open: the `on` job's Litestream idles, with nothing to
/// ship, during the `off` runs). Not counted by `bench instructions`
/// (another process works beside the job); run only with `--litestream`,
/// and skipped, with the reason, when Litestream isn't installed.
extension Workload {
    static let litestreamOffInsert = insert(sidecar: false)
    static let litestreamOnInsert = insert(sidecar: true)
    static let litestreamOffServerMix = serverMix(sidecar: false)
    static let litestreamOnServerMix = serverMix(sidecar: true)

    private static func name(_ base: String, sidecar: Bool) -> String {
        "litestream-\(sidecar ? "on" : "off")-\(base)"
    }

    private static func insert(sidecar: Bool) -> Workload {
        Workload(
            name: name("insert", sidecar: sidecar),
            title: "Insert, positional arguments, WAL, " + (sidecar ? "Litestream replicating" : "no Litestream"),
            rowCount: { $0.insertRowCount },
            prepare: { _ in },
            result: { job, _ in
                guard let fetched = job.fetched else { throw BenchError("litestream: the job reports nothing") }
                return try fetched()
            },
            expected: { Digest.expected(rowCount: $0.insertRowCount) },
            allocationRule: nil,
            jobs: [.lite: { try LiteSide.litestreamInsert($0, sidecar: sidecar) }],
            measuresInstructions: false,
            needsLitestream: true,
            comparedWith: sidecar ? name("insert", sidecar: false) : nil)
    }

    private static func serverMix(sidecar: Bool) -> Workload {
        let tasks = 64
        return Workload(
            name: name("server-mix-\(tasks)", sidecar: sidecar),
            title: "Server mix (10% writes), \(tasks) tasks, " + (sidecar ? "Litestream replicating" : "no Litestream"),
            rowCount: { ServerPlan(.mix, tasks: tasks, fixture: $0).requestCount },
            prepare: { _ in },
            result: { job, _ in
                guard let fetched = job.fetched else { throw BenchError("litestream: the job reports nothing") }
                return try fetched()
            },
            expected: { ServerPlan(.mix, tasks: tasks, fixture: $0).expected },
            allocationRule: nil,
            jobs: [
                .lite: {
                    try LiteSide.litestreamServerMix(
                        $0, sidecar: sidecar, plan: ServerPlan(.mix, tasks: tasks, fixture: $0))
                }
            ],
            measuresInstructions: false,
            latencyGroup: .server,
            needsLitestream: true,
            comparedWith: sidecar ? name("server-mix-\(tasks)", sidecar: false) : nil)
    }
}
