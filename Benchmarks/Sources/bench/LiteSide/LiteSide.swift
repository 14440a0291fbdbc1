@_spi(GRDBLite) import GRDBLite

/// GRDBLite, written idiomatically with the GRDB API, as GRDB's own
/// performance tests are, except where GRDBLite documents a faster API for
/// the same job: inserts by index use `Statement.execute(values:)`, and
/// inserts by name `Statement.execute(named:)`, which bind values directly,
/// without an arguments array or dictionary.
///
/// The record workloads live in `LiteSide+Records.swift`.
enum LiteSide: BenchSide {
    static func sqliteInfo(fixture: Fixture) throws -> SQLiteInfo {
        try DatabaseQueue(path: fixture.fetchPath).inDatabase { db in
            try SQLiteInfo(
                version: String.fetchOne(db, sql: "SELECT sqlite_version()") ?? "?",
                library: "system (libsqlite3)",
                threadsafe: threadsafeOption(String.fetchAll(db, sql: "PRAGMA compile_options")),
                connection: db.sqliteConnection)
        }
    }

    // MARK: - Fetch

    static func fetchByIndex(_ fixture: Fixture) throws -> SideJob {
        let dbQueue = try DatabaseQueue(path: fixture.fetchPath)
        var digest = Digest()
        return SideJob(
            run: {
                var rows = Digest()
                try dbQueue.inDatabase { db in
                    let cursor = try Row.fetchCursor(db, sql: BenchSQL.select)
                    while let row = try cursor.next() {
                        rows.add(row[0] as Int, row[1] as Int, row[2] as Int, row[3] as Int, row[4] as Int,
                                 row[5] as Int, row[6] as Int, row[7] as Int, row[8] as Int, row[9] as Int)
                    }
                }
                digest = rows
            },
            fetched: { digest })
    }

    static func fetchByName(_ fixture: Fixture) throws -> SideJob {
        let dbQueue = try DatabaseQueue(path: fixture.fetchPath)
        var digest = Digest()
        return SideJob(
            run: {
                var rows = Digest()
                try dbQueue.inDatabase { db in
                    let cursor = try Row.fetchCursor(db, sql: BenchSQL.select)
                    while let row = try cursor.next() {
                        rows.add(
                            row["i0"] as Int, row["i1"] as Int, row["i2"] as Int, row["i3"] as Int, row["i4"] as Int,
                            row["i5"] as Int, row["i6"] as Int, row["i7"] as Int, row["i8"] as Int, row["i9"] as Int)
                    }
                }
                digest = rows
            },
            fetched: { digest })
    }

    // MARK: - Insert

    static func insertByIndex(_ fixture: Fixture) throws -> SideJob {
        let dbQueue = try DatabaseQueue(path: fixture.insertPath)
        let count = fixture.insertRowCount
        return SideJob(run: {
            try dbQueue.inTransaction { db in
                let statement = try db.makeStatement(sql: BenchSQL.insertPositional)
                for i in 0..<count {
                    try statement.execute(values: i, i, i, i, i, i, i, i, i, i)
                }
                return .commit
            }
        })
    }

    static func insertByName(_ fixture: Fixture) throws -> SideJob {
        let dbQueue = try DatabaseQueue(path: fixture.insertPath)
        let count = fixture.insertRowCount
        return SideJob(run: {
            try dbQueue.inTransaction { db in
                let statement = try db.makeStatement(sql: BenchSQL.insertNamed)
                for i in 0..<count {
                    try statement.execute(named: ("i0", i), ("i1", i), ("i2", i), ("i3", i), ("i4", i),
                                          ("i5", i), ("i6", i), ("i7", i), ("i8", i), ("i9", i))
                }
                return .commit
            }
        })
    }
}
