import Foundation
@_spi(GRDBLite) import GRDBLite

// GRDBLite's Litestream workloads (LitestreamWorkloads.swift): each job on
// a WAL file of its own, with or without `litestream replicate` beside it.

extension LiteSide {
    /// The positional insert of `insert-by-index` into a WAL file of its
    /// own, through a pool configured as the article "Beyond one machine"
    /// says (a busy timeout of 5 s, which waits out Litestream's
    /// checkpoints); each run empties the table first, outside the timed
    /// part.
    static func litestreamInsert(_ fixture: Fixture, sidecar: Bool) throws -> SideJob {
        try withLitestream(fixture, name: "insert", sidecar: sidecar) { path in
            var configuration = Configuration()
            configuration.busyMode = .timeout(5)
            let dbPool = try DatabasePool(path: path, configuration: configuration)
            try dbPool.write { try $0.execute(sql: BenchSQL.createTable) }
            let count = fixture.insertRowCount
            return SideJob(
                run: {
                    try dbPool.write { db in
                        let statement = try db.makeStatement(sql: BenchSQL.insertPositional)
                        for i in 0..<count {
                            try statement.execute(values: i, i, i, i, i, i, i, i, i, i)
                        }
                    }
                },
                fetched: {
                    try dbPool.read { db in
                        var digest = Digest()
                        let cursor = try Row.fetchCursor(db, sql: BenchSQL.select)
                        while let row = try cursor.next() {
                            digest.add(
                                row[0] as Int, row[1] as Int, row[2] as Int, row[3] as Int, row[4] as Int,
                                row[5] as Int, row[6] as Int, row[7] as Int, row[8] as Int, row[9] as Int)
                        }
                        return digest
                    }
                },
                close: { try dbPool.close() },
                prepare: { try dbPool.write { try $0.execute(sql: "DELETE FROM item") } })
        }
    }

    /// `server-mix-64`'s job (``server(_:plan:path:)``) on a copy of the
    /// server file.
    static func litestreamServerMix(_ fixture: Fixture, sidecar: Bool, plan: ServerPlan) throws -> SideJob {
        try withLitestream(fixture, name: "server", sidecar: sidecar) { path in
            try DatabaseQueue(path: fixture.serverPath()).inDatabase { db in
                try db.execute(sql: "VACUUM INTO ?", arguments: [path])
            }
            return try server(fixture, plan: plan, path: path)
        }
    }

    /// The job that `makeJob` makes on a new file in a folder of its own,
    /// with Litestream replicating the file when `sidecar` is true: started
    /// once the file exists, waited for before each run (until the
    /// replica holds what the previous run and the preparation wrote), and
    /// stopped on close, which removes the folder.
    private static func withLitestream(
        _ fixture: Fixture, name: String, sidecar: Bool, makeJob: (String) throws -> SideJob) throws -> SideJob
    {
        let folder = fixture.folder + "/litestream-\(name)-\(sidecar ? "on" : "off")"
        try? FileManager.default.removeItem(atPath: folder)
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let removeFolder = { try? FileManager.default.removeItem(atPath: folder) }
        var job: SideJob
        do {
            job = try makeJob(folder + "/db.sqlite")
        } catch {
            removeFolder()
            throw error
        }
        let litestream: LitestreamSidecar?
        do {
            litestream = sidecar ? try LitestreamSidecar(database: folder + "/db.sqlite") : nil
        } catch {
            try? job.close?()
            removeFolder()
            throw error
        }
        let prepare = job.prepare
        let close = job.close
        job.prepare = {
            try prepare?()
            try litestream?.waitUntilCaughtUp()
        }
        job.close = {
            defer {
                litestream?.stop()
                removeFolder()
            }
            try close?()
        }
        return job
    }
}
