import BenchSQLite

/// A connection of the SQLite C API, opened as GRDB and GRDBLite open
/// theirs: `SQLITE_OPEN_NOMUTEX`, so that SQLite takes no mutex per call
/// (in serialized mode it would, and flatter every wrapper). Used by the raw
/// side, and by the bench to generate and check the database files.
final class RawDatabase {
    let handle: OpaquePointer

    init(path: String) throws {
        var handle: OpaquePointer?
        let code = sqlite3_open_v2(path, &handle, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX, nil)
        guard code == SQLITE_OK, let handle else {
            let message = handle.map { String(cString: sqlite3_errmsg($0)) } ?? "out of memory"
            sqlite3_close_v2(handle)
            throw BenchError("can't open \(path): \(message)")
        }
        self.handle = handle
    }

    /// A connection to a file in WAL mode, that waits out the locks WAL
    /// mode can still take, as the pools' readers do
    /// (<https://www.sqlite.org/wal.html#sometimes_queries_return_sqlite_busy_in_wal_mode>):
    /// without it, a read that starts while another connection holds such a
    /// lock fails with SQLITE_BUSY.
    convenience init(walPath path: String) throws {
        try self.init(path: path)
        sqlite3_busy_timeout(handle, 10_000)
    }

    deinit {
        sqlite3_close_v2(handle)
    }

    /// The error of a failed call, with SQLite's message.
    func error(_ code: CInt, _ sql: String) -> BenchError {
        BenchError("SQLite error \(code) (\(String(cString: sqlite3_errmsg(handle)))) in `\(sql)`")
    }

    func execute(_ sql: String) throws {
        let code = sqlite3_exec(handle, sql, nil, nil, nil)
        if code != SQLITE_OK { throw error(code, sql) }
    }

    /// A prepared statement, to finalize with `sqlite3_finalize`.
    func prepare(_ sql: String) throws -> OpaquePointer {
        var statement: OpaquePointer?
        let code = sqlite3_prepare_v2(handle, sql, -1, &statement, nil)
        guard code == SQLITE_OK, let statement else { throw error(code, sql) }
        return statement
    }

    /// The integers of the first row of `sql` (NULL reads 0), or nil if it
    /// returns no row.
    func integers(_ sql: String) throws -> [Int]? {
        let statement = try prepare(sql)
        defer { sqlite3_finalize(statement) }
        switch sqlite3_step(statement) {
        case SQLITE_ROW:
            return (0..<sqlite3_column_count(statement)).map { Int(sqlite3_column_int64(statement, $0)) }
        case SQLITE_DONE:
            return nil
        case let code:
            throw error(code, sql)
        }
    }

    /// The digest of the `item` table (or another with its schema),
    /// computed by SQLite.
    func itemDigest(table: String = "item") throws -> Digest {
        let sql = """
            SELECT COUNT(*), (SELECT i0 FROM \(table) ORDER BY rowid LIMIT 1), (SELECT i9 FROM \(table) ORDER BY rowid DESC LIMIT 1),
                   TOTAL(i0) + TOTAL(i1) + TOTAL(i2) + TOTAL(i3) + TOTAL(i4) + TOTAL(i5) + TOTAL(i6) + TOTAL(i7) + TOTAL(i8) + TOTAL(i9)
            FROM \(table)
            """
        guard let values = try integers(sql) else { return Digest() }
        return Digest(count: values[0], first: values[1], last: values[2], sum: values[3])
    }

    /// The strings of the first column of `sql`.
    func strings(_ sql: String) throws -> [String] {
        let statement = try prepare(sql)
        defer { sqlite3_finalize(statement) }
        var strings: [String] = []
        while true {
            switch sqlite3_step(statement) {
            case SQLITE_ROW:
                strings.append(sqlite3_column_text(statement, 0).map { String(cString: $0) } ?? "")
            case SQLITE_DONE:
                return strings
            case let code:
                throw error(code, sql)
            }
        }
    }

    /// The version and threading mode of this connection's SQLite.
    func sqliteInfo(library: String) throws -> SQLiteInfo {
        try SQLiteInfo(
            version: strings("SELECT sqlite_version()").first ?? "?",
            library: library,
            threadsafe: threadsafeOption(strings("PRAGMA compile_options")),
            connection: handle)
    }
}

extension SQLiteInfo {
    /// The info of a connection of the system SQLite, whose mode is
    /// measured: `sqlite3_db_mutex` is NULL when the connection takes no
    /// mutex.
    init(version: String, library: String, threadsafe: Int, connection: OpaquePointer) {
        self.init(
            version: version, library: library, threadsafe: threadsafe,
            connectionMode: sqlite3_db_mutex(connection) == nil ? "multi-thread" : "serialized",
            connectionModeSource: "measured (sqlite3_db_mutex)")
    }
}

/// `SQLITE_THREADSAFE` from the lines of `PRAGMA compile_options`
/// (`THREADSAFE=1`).
func threadsafeOption(_ compileOptions: [String]) -> Int {
    compileOptions.lazy.compactMap { option in
        option.hasPrefix("THREADSAFE=") ? Int(option.dropFirst("THREADSAFE=".count)) : nil
    }.first ?? -1
}

/// A failure of the bench: a wrong result, a database error, a bad option.
struct BenchError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
