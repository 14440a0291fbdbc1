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
            try checkColumnAllocations()
            throw error
        }
        try checkColumnAllocations()
        if !isReadonly {
            while try stepper.step(&isDone, &failure) { }
        }
        return value
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
