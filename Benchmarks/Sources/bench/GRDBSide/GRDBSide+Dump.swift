import GRDB

extension GRDBSide {
    /// See ``Workload/dump``.
    static func dump(_ fixture: Fixture) throws -> SideJob {
        let dbQueue = try DatabaseQueue(path: fixture.fetchPath)
        var digest = Digest()
        return SideJob(
            run: {
                let stream = DumpCountingStream()
                try dbQueue.dumpRequest(Table("item").all(), format: .debug(), to: stream)
                digest = stream.digest
            },
            fetched: { digest })
    }
}
