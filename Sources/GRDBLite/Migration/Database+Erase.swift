import CSQLite

extension Database {
    /// Erases the main database, schema and data, as if it were new: an
    /// empty in-memory database is backed up into it. Works for files and
    /// in-memory databases; must run outside of a transaction.
    func erase() throws {
        var emptyConnection: SQLiteConnection?
        let openCode = sqlite3_open_v2(":memory:", &emptyConnection, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, nil)
        defer { sqlite3_close_v2(emptyConnection) }
        guard openCode == SQLITE_OK, let emptyConnection else {
            throw DatabaseError(resultCode: ResultCode(rawValue: openCode), message: "cannot open an empty database")
        }
        // A backup into an in-memory or WAL database needs the same page size.
        let pageSize = try Int.fetchOne(self, sql: "PRAGMA main.page_size") ?? 4096
        sqlite3_exec(emptyConnection, "PRAGMA page_size = \(pageSize)", nil, nil, nil)

        guard let backup = sqlite3_backup_init(sqliteHandle, "main", emptyConnection, "main") else {
            throw DatabaseError(resultCode: lastErrorCode, message: lastErrorMessage)
        }
        let stepCode = sqlite3_backup_step(backup, -1)
        let finishCode = sqlite3_backup_finish(backup)
        clearSchemaCache()
        guard stepCode == SQLITE_DONE else {
            throw DatabaseError(resultCode: ResultCode(rawValue: stepCode), message: lastErrorMessage)
        }
        guard finishCode == SQLITE_OK else {
            throw DatabaseError(resultCode: ResultCode(rawValue: finishCode), message: lastErrorMessage)
        }
    }
}

extension DatabaseWriter {
    /// Erases the database, schema and data, as if it were new, once the
    /// running accesses are done (a barrier: the reads of a pool wait).
    @_disfavoredOverload
    public func erase() throws {
        try barrierWriteWithoutTransaction { try $0.erase() }
    }

    /// Erases the database, without blocking the task.
    public func erase() async throws {
        try await barrierWriteWithoutTransaction { try $0.erase() }
    }
}
