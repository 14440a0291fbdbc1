import BenchSQLite

/// The concurrency workloads on the C API: one connection per thread, in
/// WAL mode, the writer with `synchronous = NORMAL` (as the pools).
extension RawSide {
    static func concurrentReads(_ fixture: Fixture, readers: Int) throws -> SideJob {
        let path = try fixture.concurrentPath()
        let connections = Unchecked(try (0..<readers).map { _ in try RawDatabase(walPath: path) })
        let digests = ReadDigests()
        return SideJob(
            run: {
                digests.reset()
                try onThreads(readers) { index in
                    digests.record(try readAll(connections.value[index]))
                }
            },
            fetched: { digests.common },
            runsOnOtherThreads: true)
    }

    static func readsWhileWriting(_ fixture: Fixture) throws -> SideJob {
        let path = try fixture.concurrentPath()
        let writer = Unchecked(try makeWriter(path))
        let readers = Unchecked(try (0..<ConcurrencyPlan.readerCount).map { _ in try RawDatabase(walPath: path) })
        let digests = ReadDigests()
        return SideJob(
            run: {
                digests.reset()
                let stop = StopFlag()
                let writing = BackgroundThread {
                    var next = 0
                    while !stop.isRaised {
                        try insertWritten(writer.value, from: next, count: ConcurrencyPlan.rowsPerWriteTransaction)
                        next += ConcurrencyPlan.rowsPerWriteTransaction
                    }
                }
                defer { stop.raise() }
                try onThreads(ConcurrencyPlan.readerCount) { index in
                    for _ in 0..<ConcurrencyPlan.readsPerReader {
                        digests.record(try readAll(readers.value[index]))
                    }
                }
                stop.raise()
                try writing.join()
            },
            fetched: { digests.common },
            runsOnOtherThreads: true)
    }

    static func writeWhileReading(_ fixture: Fixture) throws -> SideJob {
        let path = try fixture.concurrentPath()
        let writer = Unchecked(try makeWriter(path))
        let readers = Unchecked(try (0..<ConcurrencyPlan.readerCount).map { _ in try RawDatabase(walPath: path) })
        let count = fixture.concurrentInsertRowCount
        let expected = Digest.expected(rowCount: fixture.fetchRowCount)
        return SideJob(
            run: {
                let stop = StopFlag()
                let reading = BackgroundThread {
                    try onThreads(ConcurrencyPlan.readerCount) { index in
                        while !stop.isRaised {
                            if let digest = try readAll(readers.value[index], until: stop), digest != expected {
                                throw BenchError("write-while-reading: raw C read \(digest)")
                            }
                        }
                    }
                }
                defer { stop.raise() }
                var next = 0
                while next < count {
                    let rows = min(ConcurrencyPlan.rowsPerInsertTransaction, count - next)
                    try insertWritten(writer.value, from: next, count: rows)
                    next += rows
                }
                stop.raise()
                try reading.join()
            },
            runsOnOtherThreads: true)
    }

    // MARK: - Helpers

    private static func makeWriter(_ path: String) throws -> RawDatabase {
        let db = try RawDatabase(walPath: path)
        try db.execute("PRAGMA synchronous = NORMAL")
        return db
    }

    /// The digest of the whole `item` table, read with a plain `SELECT`
    /// (its own read transaction); nil if `stop` was raised before the end.
    static func readAll(_ db: RawDatabase, until stop: StopFlag? = nil) throws -> Digest? {
        let statement = try db.prepare(BenchSQL.select)
        defer { sqlite3_finalize(statement) }
        var rows = Digest()
        while true {
            let code = sqlite3_step(statement)
            guard code == SQLITE_ROW else {
                if code == SQLITE_DONE { return rows }
                throw db.error(code, BenchSQL.select)
            }
            if let stop, rows.count & 1023 == 0, stop.isRaised { return nil }
            rows.add(
                Int(sqlite3_column_int64(statement, 0)), Int(sqlite3_column_int64(statement, 1)),
                Int(sqlite3_column_int64(statement, 2)), Int(sqlite3_column_int64(statement, 3)),
                Int(sqlite3_column_int64(statement, 4)), Int(sqlite3_column_int64(statement, 5)),
                Int(sqlite3_column_int64(statement, 6)), Int(sqlite3_column_int64(statement, 7)),
                Int(sqlite3_column_int64(statement, 8)), Int(sqlite3_column_int64(statement, 9)))
        }
    }

    private static func readAll(_ db: RawDatabase) throws -> Digest {
        try readAll(db, until: nil)!
    }

    /// Inserts rows `start..<start + count` into `written`, in one
    /// transaction.
    static func insertWritten(_ db: RawDatabase, from start: Int, count: Int) throws {
        try db.execute("BEGIN IMMEDIATE")
        let statement = try db.prepare(BenchSQL.insertWritten)
        defer { sqlite3_finalize(statement) }
        for n in start..<(start + count) {
            sqlite3_reset(statement)
            for column in 1...CInt(10) {
                sqlite3_bind_int64(statement, column, Int64(n))
            }
            let code = sqlite3_step(statement)
            if code != SQLITE_DONE { throw db.error(code, BenchSQL.insertWritten) }
        }
        try db.execute("COMMIT")
    }
}
