import CSQLite

extension Statement {
    /// Binds arguments (or checks that the parameters have values) and
    /// tells the connection that the statement starts: the start of every
    /// fetch.
    @usableFromInline
    func startFetch(arguments: StatementArguments?) throws {
        try prepareToRun(arguments: arguments)
        try database.statementWillExecute(self)
    }

    /// Runs the statement for its first row, and returns what `read` reads
    /// from it; nil if there is no row. As a cursor's first element, with
    /// no cursor to allocate: the `fetchOne` of values. A statement that
    /// writes (`INSERT ... RETURNING`) runs to completion, so that its
    /// effects are complete and observed; the statement is reset at the
    /// end, as a cursor is when it goes away.
    @inlinable
    func fetchFirst<T>(arguments: StatementArguments?, _ read: (SQLiteStatement) throws -> T) throws -> T? {
        try startFetch(arguments: arguments)
        defer { sqlite3_reset(sqliteStatement) }
        let stepper = StatementStepper(self)
        var isDone = false
        var failure: (any Error)?
        guard try stepper.step(&isDone, &failure) else { return nil }
        let value: T
        do {
            value = try read(sqliteStatement)
        } catch {
            defer { try? finishWritingFetch() }
            try checkColumnAllocations()
            throw error
        }
        try checkColumnAllocations()
        if !isReadonly {
            while try stepper.step(&isDone, &failure) { }
        }
        return value
    }

    /// Runs a statement that writes (`DELETE ... RETURNING`) to its end
    /// once a fetch stops reading it (its first row, or a value that failed
    /// to decode): its changes are complete, and the connection and its
    /// observers are told how it ended (a commit, in autocommit mode) before
    /// the fetch returns or throws. Resetting it would commit as well, but
    /// nobody would be told (GRDB's observers then never hear of that
    /// commit). Nothing for a statement that reads, or that is not running
    /// (done, failed or reset).
    @usableFromInline
    func finishWritingFetch() throws {
        guard !isReadonly, sqlite3_stmt_busy(sqliteStatement) != 0 else { return }
        let stepper = StatementStepper(self)
        var isDone = false
        var failure: (any Error)?
        while try stepper.step(&isDone, &failure) { }
    }

    /// Throws `SQLITE_NOMEM` if reading a value of the current row failed
    /// to allocate (a number or a blob converted to text): SQLite then
    /// gives no text or bytes, which must not pass for a value (an empty
    /// string, a NULL).
    @usableFromInline
    func checkColumnAllocations() throws {
        if sqlite3_errcode(sqlite3_db_handle(sqliteStatement)) == SQLITE_NOMEM {
            throw DatabaseError(resultCode: .SQLITE_NOMEM, sql: sql, arguments: arguments)
        }
    }
}
