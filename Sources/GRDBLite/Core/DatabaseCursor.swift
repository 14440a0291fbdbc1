import CSQLite

/// A cursor that iterates the rows of a prepared statement.
///
/// Its elements are read from the statement's current row: iterate it
/// inside the database access that created it. Using it elsewhere is a
/// programmer error that traps with an explanation.
public protocol DatabaseCursor<Element>: Cursor {
    /// The statement that the cursor runs, under GRDB's name; not an API.
    var _statement: Statement { get }
}

extension DatabaseCursor {
    /// The statement that the cursor runs.
    @usableFromInline var statement: Statement { _statement }
    /// The SQL of the statement.
    public var sql: String { statement.sql }
    /// The arguments of the statement.
    public var arguments: StatementArguments { statement.arguments }
    /// The column names of the statement.
    public var columnNames: [String] { statement.columnNames }
    /// The number of columns of the statement.
    public var columnCount: Int { statement.columnCount }

    /// Binds arguments and tells the connection that the statement starts.
    func _start(arguments: StatementArguments?) throws {
        try statement.startFetch(arguments: arguments)
    }

    /// The first element, transformed. A statement that writes (`INSERT
    /// ... RETURNING`) then runs to completion, so that its effects are
    /// complete and observed, even when its element fails to decode.
    @inlinable
    func _fetchFirst<T>(_ transform: (Element) throws -> T) throws -> T? {
        guard let element = try next() else { return nil }
        let result: T
        do {
            result = try transform(element)
        } catch {
            defer { try? statement.finishWritingFetch() }
            try statement.checkColumnAllocations()
            throw error
        }
        // A value SQLite could not convert (out of memory) must not pass
        // for an empty string or a NULL.
        try statement.checkColumnAllocations()
        try statement.finishWritingFetch()
        return result
    }

    /// All remaining elements, each moved into the array. `Array(cursor)`
    /// iterates through `forEach`, whose closure borrows each element: the
    /// array would hold a copy (a retain and a release of every string of
    /// a record).
    @inlinable
    func _fetchAll() throws -> [Element] {
        var elements: [Element] = []
        while let element = try next() {
            elements.append(element)
        }
        return elements
    }

    /// Calls `body` on each element.
    @inlinable
    public func forEach(_ body: (Element) throws -> Void) throws {
        while let element = try next() {
            try body(element)
        }
    }
}

/// Steps a statement for a cursor: one row at a time, telling the
/// connection when the statement ends or fails.
///
/// Its references are unowned (the cursor keeps the statement, which keeps
/// the connection), so that copying it or reading through it involves no
/// reference counting on the hot path of cursors.
@usableFromInline
struct StatementStepper {
    @usableFromInline let sqliteStatement: SQLiteStatement
    // Unmanaged and borrowed: the cursor retains the statement, which owns
    // `columnLookup` and keeps the connection's memory (unowned reference);
    // `step` checks the access before anything else uses the connection.
    @usableFromInline let statement: Unmanaged<Statement>
    // Unmanaged, unretained: the statement retains its connection's memory.
    @usableFromInline let database: Unmanaged<Database>
    @usableFromInline let columnLookup: UnsafeMutablePointer<ColumnLookup>

    @usableFromInline
    init(_ statement: Statement) {
        self.sqliteStatement = statement.sqliteStatement
        // Unmanaged, unretained: the cursor that owns this stepper retains
        // the statement, which keeps its connection's memory.
        self.statement = Unmanaged.passUnretained(statement)
        // Unmanaged, unretained: the statement, which the cursor retains, keeps its connection's memory.
        self.database = Unmanaged.passUnretained(statement.database)
        self.columnLookup = statement.columnLookup
    }

    /// Moves to the next row; false at the end, which sets `isDone` (as
    /// does a failure: the cursor keeps the error, see `rethrow`).
    @inlinable
    // @inline(__always): fetch-records, +2.8% instructions without it (callgrind, quick).
    @inline(__always)
    func step(_ isDone: inout Bool, _ failure: inout (any Error)?) throws -> Bool {
        // Unmanaged, unretained: the statement keeps the connection alive.
        database._withUnsafeGuaranteedRef { $0.preconditionValidAccess("A database cursor") }
        columnLookup.pointee.position = 0
        let code = sqlite3_step(sqliteStatement)
        if _fastPath(code == SQLITE_ROW) { return true }
        isDone = true
        try finish(code, &failure)
        return false
    }

    /// The current row failed to decode: a statement that writes (`DELETE
    /// ... RETURNING`) runs to its end at once, so that the connection and
    /// its observers are told how it ended (see
    /// `Statement.finishWritingFetch()`), and the cursor ends with the
    /// error (another step would run the statement again). Returns the
    /// error, for the cursor to throw.
    @usableFromInline
    @inline(never)
    func decodingFailed(_ error: any Error, _ isDone: inout Bool, _ failure: inout (any Error)?) -> any Error {
        let statement = self.statement.takeUnretainedValue()
        if !statement.isReadonly {
            try? statement.finishWritingFetch()
            isDone = true
            failure = error
        }
        return error
    }

    /// After the end: throws the error of the step that failed, if any,
    /// so that a failed cursor never looks finished.
    @usableFromInline
    func rethrow(_ failure: (any Error)?) throws {
        if let failure { throw failure }
    }

    /// `finish(_:)`, which keeps its error in `failure`.
    @usableFromInline
    func finish(_ code: CInt, _ failure: inout (any Error)?) throws {
        do {
            try finish(code)
        } catch {
            failure = error
            throw error
        }
    }

    /// The statement is done or failed: tell the connection.
    @usableFromInline
    func finish(_ code: CInt) throws {
        let statement = self.statement.takeUnretainedValue()
        let database = self.database.takeUnretainedValue()
        if code == SQLITE_DONE {
            try database.statementDidExecute(statement)
        } else {
            try database.statementDidFail(statement, code: code)
        }
    }
}
