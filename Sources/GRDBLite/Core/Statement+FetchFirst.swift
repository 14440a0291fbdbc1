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
        let value = try read(sqliteStatement)
        if !isReadonly {
            while try stepper.step(&isDone, &failure) { }
        }
        return value
    }
}
