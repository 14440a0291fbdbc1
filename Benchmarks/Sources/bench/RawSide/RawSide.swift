import BenchSQLite

/// The floor: the SQLite C API written as tightly as possible. Each run
/// prepares its statement once (as the wrappers do), reads columns with
/// `sqlite3_column_int64`, binds with `sqlite3_bind_int64`, and resolves
/// column and parameter names to indexes once per statement.
enum RawSide: BenchSide {
    static func sqliteInfo(fixture: Fixture) throws -> SQLiteInfo {
        try RawDatabase(path: fixture.fetchPath).sqliteInfo(library: "system (libsqlite3)")
    }

    // MARK: - Fetch

    static func fetchByIndex(_ fixture: Fixture) throws -> SideJob {
        let db = try RawDatabase(path: fixture.fetchPath)
        var digest = Digest()
        return SideJob(
            run: {
                let statement = try db.prepare(BenchSQL.select)
                defer { sqlite3_finalize(statement) }
                var rows = Digest()
                while true {
                    let code = sqlite3_step(statement)
                    guard code == SQLITE_ROW else {
                        if code == SQLITE_DONE { break }
                        throw db.error(code, BenchSQL.select)
                    }
                    rows.add(
                        Int(sqlite3_column_int64(statement, 0)),
                        Int(sqlite3_column_int64(statement, 1)),
                        Int(sqlite3_column_int64(statement, 2)),
                        Int(sqlite3_column_int64(statement, 3)),
                        Int(sqlite3_column_int64(statement, 4)),
                        Int(sqlite3_column_int64(statement, 5)),
                        Int(sqlite3_column_int64(statement, 6)),
                        Int(sqlite3_column_int64(statement, 7)),
                        Int(sqlite3_column_int64(statement, 8)),
                        Int(sqlite3_column_int64(statement, 9)))
                }
                digest = rows
            },
            fetched: { digest })
    }

    static func fetchByName(_ fixture: Fixture) throws -> SideJob {
        let db = try RawDatabase(path: fixture.fetchPath)
        var digest = Digest()
        return SideJob(
            run: {
                let statement = try db.prepare(BenchSQL.select)
                defer { sqlite3_finalize(statement) }
                let c = try columnIndexes(statement)
                var rows = Digest()
                while true {
                    let code = sqlite3_step(statement)
                    guard code == SQLITE_ROW else {
                        if code == SQLITE_DONE { break }
                        throw db.error(code, BenchSQL.select)
                    }
                    rows.add(
                        Int(sqlite3_column_int64(statement, c.0)),
                        Int(sqlite3_column_int64(statement, c.1)),
                        Int(sqlite3_column_int64(statement, c.2)),
                        Int(sqlite3_column_int64(statement, c.3)),
                        Int(sqlite3_column_int64(statement, c.4)),
                        Int(sqlite3_column_int64(statement, c.5)),
                        Int(sqlite3_column_int64(statement, c.6)),
                        Int(sqlite3_column_int64(statement, c.7)),
                        Int(sqlite3_column_int64(statement, c.8)),
                        Int(sqlite3_column_int64(statement, c.9)))
                }
                digest = rows
            },
            fetched: { digest })
    }

    private struct Item: BenchItem {
        var i0, i1, i2, i3, i4, i5, i6, i7, i8, i9: Int
    }

    /// A record is the floor of both record workloads: a struct built
    /// from columns read by index, resolved from their names once.
    static func fetchRecords(_ fixture: Fixture) throws -> SideJob {
        let db = try RawDatabase(path: fixture.fetchPath)
        var items: [Item] = []
        return SideJob(
            run: {
                items = []
                let statement = try db.prepare(BenchSQL.select)
                defer { sqlite3_finalize(statement) }
                let c = try columnIndexes(statement)
                var result: [Item] = []
                while true {
                    let code = sqlite3_step(statement)
                    guard code == SQLITE_ROW else {
                        if code == SQLITE_DONE { break }
                        throw db.error(code, BenchSQL.select)
                    }
                    result.append(Item(
                        i0: Int(sqlite3_column_int64(statement, c.0)),
                        i1: Int(sqlite3_column_int64(statement, c.1)),
                        i2: Int(sqlite3_column_int64(statement, c.2)),
                        i3: Int(sqlite3_column_int64(statement, c.3)),
                        i4: Int(sqlite3_column_int64(statement, c.4)),
                        i5: Int(sqlite3_column_int64(statement, c.5)),
                        i6: Int(sqlite3_column_int64(statement, c.6)),
                        i7: Int(sqlite3_column_int64(statement, c.7)),
                        i8: Int(sqlite3_column_int64(statement, c.8)),
                        i9: Int(sqlite3_column_int64(statement, c.9))))
                }
                items = result
            },
            fetched: {
                defer { items = [] }
                return Digest(items: items)
            })
    }

    /// The indexes of columns i0 … i9, found once per statement.
    private static func columnIndexes(_ statement: OpaquePointer) throws -> (
        CInt, CInt, CInt, CInt, CInt, CInt, CInt, CInt, CInt, CInt
    ) {
        let names = (0..<sqlite3_column_count(statement)).map { String(cString: sqlite3_column_name(statement, $0)) }
        let indexes = try BenchSQL.columnNames.map { name in
            guard let index = names.firstIndex(of: name) else { throw BenchError("no column \(name)") }
            return CInt(index)
        }
        return (indexes[0], indexes[1], indexes[2], indexes[3], indexes[4],
                indexes[5], indexes[6], indexes[7], indexes[8], indexes[9])
    }

    // MARK: - Insert

    static func insertByIndex(_ fixture: Fixture) throws -> SideJob {
        let db = try RawDatabase(path: fixture.insertPath)
        let count = Int64(fixture.insertRowCount)
        return SideJob(run: {
            try db.execute("BEGIN")
            let statement = try db.prepare(BenchSQL.insertPositional)
            defer { sqlite3_finalize(statement) }
            for i in 0..<count {
                sqlite3_reset(statement)
                sqlite3_bind_int64(statement, 1, i)
                sqlite3_bind_int64(statement, 2, i)
                sqlite3_bind_int64(statement, 3, i)
                sqlite3_bind_int64(statement, 4, i)
                sqlite3_bind_int64(statement, 5, i)
                sqlite3_bind_int64(statement, 6, i)
                sqlite3_bind_int64(statement, 7, i)
                sqlite3_bind_int64(statement, 8, i)
                sqlite3_bind_int64(statement, 9, i)
                sqlite3_bind_int64(statement, 10, i)
                let code = sqlite3_step(statement)
                if code != SQLITE_DONE { throw db.error(code, BenchSQL.insertPositional) }
            }
            try db.execute("COMMIT")
        })
    }

    static func insertByName(_ fixture: Fixture) throws -> SideJob {
        let db = try RawDatabase(path: fixture.insertPath)
        let count = Int64(fixture.insertRowCount)
        return SideJob(run: {
            try db.execute("BEGIN")
            let statement = try db.prepare(BenchSQL.insertNamed)
            defer { sqlite3_finalize(statement) }
            let p = BenchSQL.columnNames.map { sqlite3_bind_parameter_index(statement, ":" + $0) }
            if p.contains(0) { throw BenchError("missing parameter in \(BenchSQL.insertNamed)") }
            let (p0, p1, p2, p3, p4, p5, p6, p7, p8, p9) = (p[0], p[1], p[2], p[3], p[4], p[5], p[6], p[7], p[8], p[9])
            for i in 0..<count {
                sqlite3_reset(statement)
                sqlite3_bind_int64(statement, p0, i)
                sqlite3_bind_int64(statement, p1, i)
                sqlite3_bind_int64(statement, p2, i)
                sqlite3_bind_int64(statement, p3, i)
                sqlite3_bind_int64(statement, p4, i)
                sqlite3_bind_int64(statement, p5, i)
                sqlite3_bind_int64(statement, p6, i)
                sqlite3_bind_int64(statement, p7, i)
                sqlite3_bind_int64(statement, p8, i)
                sqlite3_bind_int64(statement, p9, i)
                let code = sqlite3_step(statement)
                if code != SQLITE_DONE { throw db.error(code, BenchSQL.insertNamed) }
            }
            try db.execute("COMMIT")
        })
    }

    /// The floor of both record insert workloads.
    static func insertRecords(_ fixture: Fixture) throws -> SideJob {
        let db = try RawDatabase(path: fixture.insertPath)
        let count = fixture.insertRowCount
        return SideJob(run: {
            try db.execute("BEGIN")
            let statement = try db.prepare(BenchSQL.insertPositional)
            defer { sqlite3_finalize(statement) }
            for i in 0..<count {
                let item = Item(i0: i, i1: i, i2: i, i3: i, i4: i, i5: i, i6: i, i7: i, i8: i, i9: i)
                sqlite3_reset(statement)
                sqlite3_bind_int64(statement, 1, Int64(item.i0))
                sqlite3_bind_int64(statement, 2, Int64(item.i1))
                sqlite3_bind_int64(statement, 3, Int64(item.i2))
                sqlite3_bind_int64(statement, 4, Int64(item.i3))
                sqlite3_bind_int64(statement, 5, Int64(item.i4))
                sqlite3_bind_int64(statement, 6, Int64(item.i5))
                sqlite3_bind_int64(statement, 7, Int64(item.i6))
                sqlite3_bind_int64(statement, 8, Int64(item.i7))
                sqlite3_bind_int64(statement, 9, Int64(item.i8))
                sqlite3_bind_int64(statement, 10, Int64(item.i9))
                let code = sqlite3_step(statement)
                if code != SQLITE_DONE { throw db.error(code, BenchSQL.insertPositional) }
            }
            try db.execute("COMMIT")
        })
    }
}
