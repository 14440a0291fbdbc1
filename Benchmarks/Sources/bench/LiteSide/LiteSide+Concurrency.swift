@_spi(GRDBLite) import GRDBLite

/// The concurrency workloads on a GRDBLite `DatabasePool`, written as the
/// README shows it: reads in `read`, writes in `write`.
extension LiteSide {
    /// GRDB's setting for pools: `synchronous = NORMAL` on the writer.
    private static func openPool(_ fixture: Fixture) throws -> DatabasePool {
        var configuration = Configuration()
        configuration.prepareDatabase { db in
            if !db.configuration.readonly { try db.execute(sql: "PRAGMA synchronous = NORMAL") }
        }
        return try DatabasePool(path: fixture.concurrentPath(), configuration: configuration)
    }

    static func concurrentReads(_ fixture: Fixture, readers: Int) throws -> SideJob {
        let dbPool = try openPool(fixture)
        let digests = ReadDigests()
        return SideJob(
            run: {
                digests.reset()
                try onThreads(readers) { _ in
                    digests.record(try dbPool.read { try readAll($0)! })
                }
            },
            fetched: { digests.common },
            runsOnOtherThreads: true,
            close: { try dbPool.close() })
    }

    static func readsWhileWriting(_ fixture: Fixture) throws -> SideJob {
        let dbPool = try openPool(fixture)
        let digests = ReadDigests()
        return SideJob(
            run: {
                digests.reset()
                let stop = StopFlag()
                let writing = BackgroundThread {
                    var next = 0
                    while !stop.isRaised {
                        try insertWritten(dbPool, from: next, count: ConcurrencyPlan.rowsPerWriteTransaction)
                        next += ConcurrencyPlan.rowsPerWriteTransaction
                    }
                }
                defer { stop.raise() }
                try onThreads(ConcurrencyPlan.readerCount) { _ in
                    for _ in 0..<ConcurrencyPlan.readsPerReader {
                        digests.record(try dbPool.read { try readAll($0)! })
                    }
                }
                stop.raise()
                try writing.join()
            },
            fetched: { digests.common },
            runsOnOtherThreads: true,
            close: { try dbPool.close() })
    }

    static func writeWhileReading(_ fixture: Fixture) throws -> SideJob {
        let dbPool = try openPool(fixture)
        let count = fixture.concurrentInsertRowCount
        let expected = Digest.expected(rowCount: fixture.fetchRowCount)
        return SideJob(
            run: {
                let stop = StopFlag()
                let reading = BackgroundThread {
                    try onThreads(ConcurrencyPlan.readerCount) { _ in
                        while !stop.isRaised {
                            if let digest = try dbPool.read({ try readAll($0, until: stop) }), digest != expected {
                                throw BenchError("write-while-reading: GRDBLite read \(digest)")
                            }
                        }
                    }
                }
                defer { stop.raise() }
                var next = 0
                while next < count {
                    let rows = min(ConcurrencyPlan.rowsPerInsertTransaction, count - next)
                    try insertWritten(dbPool, from: next, count: rows)
                    next += rows
                }
                stop.raise()
                try reading.join()
            },
            runsOnOtherThreads: true,
            close: { try dbPool.close() })
    }

    /// The digest of the whole `item` table, by column index; nil if
    /// `stop` was raised before the end.
    private static func readAll(_ db: Database, until stop: StopFlag? = nil) throws -> Digest? {
        var rows = Digest()
        let cursor = try Row.fetchCursor(db, sql: BenchSQL.select)
        while let row = try cursor.next() {
            if let stop, rows.count & 1023 == 0, stop.isRaised { return nil }
            rows.add(row[0] as Int, row[1] as Int, row[2] as Int, row[3] as Int, row[4] as Int,
                     row[5] as Int, row[6] as Int, row[7] as Int, row[8] as Int, row[9] as Int)
        }
        return rows
    }

    /// Inserts rows `start..<start + count` into `written`, in one
    /// transaction.
    private static func insertWritten(_ dbPool: DatabasePool, from start: Int, count: Int) throws {
        try dbPool.write { db in
            let statement = try db.cachedStatement(sql: BenchSQL.insertWritten)
            for n in start..<(start + count) {
                try statement.execute(values: n, n, n, n, n, n, n, n, n, n)
            }
        }
    }
}
