import BenchSQLite

extension RawSide {
    /// See ``Workload/dump``: each row's columns as SQLite's text, joined by
    /// `|`, one `String` per line.
    static func dump(_ fixture: Fixture) throws -> SideJob {
        let db = try RawDatabase(path: fixture.fetchPath)
        var digest = Digest()
        return SideJob(
            run: {
                let statement = try db.prepare(BenchSQL.select)
                defer { sqlite3_finalize(statement) }
                let stream = DumpCountingStream()
                var line: [UInt8] = []
                let columnCount = sqlite3_column_count(statement)
                while true {
                    let code = sqlite3_step(statement)
                    guard code == SQLITE_ROW else {
                        if code == SQLITE_DONE { break }
                        throw db.error(code, BenchSQL.select)
                    }
                    line.removeAll(keepingCapacity: true)
                    for column in 0..<columnCount {
                        if column > 0 { line.append(UInt8(ascii: "|")) }
                        if let text = sqlite3_column_text(statement, column) {
                            let count = Int(sqlite3_column_bytes(statement, column))
                            line.append(contentsOf: UnsafeBufferPointer(start: text, count: count))
                        }
                    }
                    line.append(UInt8(ascii: "\n"))
                    stream.write(String(decoding: line, as: UTF8.self))
                }
                digest = stream.digest
            },
            fetched: { digest })
    }
}
