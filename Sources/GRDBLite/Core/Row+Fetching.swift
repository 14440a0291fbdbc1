import CSQLite

extension Row {
    /// A cursor over the rows of a query. Its rows read the statement's
    /// current row: copy them to keep them.
    ///
    /// ```swift
    /// let rows = try Row.fetchCursor(db, sql: "SELECT * FROM player")
    /// while let row = try rows.next() {
    ///     let name: String = row["name"]
    /// }
    /// ```
    public static func fetchCursor(
        _ db: Database,
        sql: String,
        arguments: StatementArguments = StatementArguments(),
        adapter: (any RowAdapter)? = nil) throws -> RowCursor
    {
        try fetchCursor(db.makeStatement(sql: sql), arguments: arguments, adapter: adapter)
    }

    /// A cursor over the rows of a prepared statement.
    public static func fetchCursor(
        _ statement: Statement, arguments: StatementArguments? = nil, adapter: (any RowAdapter)? = nil
    ) throws -> RowCursor {
        try RowCursor(statement: statement, arguments: arguments, adapter: adapter)
    }

    /// An array of copied rows.
    public static func fetchAll(
        _ db: Database,
        sql: String,
        arguments: StatementArguments = StatementArguments(),
        adapter: (any RowAdapter)? = nil) throws -> [Row]
    {
        try fetchAll(db.makeStatement(sql: sql), arguments: arguments, adapter: adapter)
    }

    /// An array of copied rows.
    public static func fetchAll(
        _ statement: Statement, arguments: StatementArguments? = nil, adapter: (any RowAdapter)? = nil
    ) throws -> [Row] {
        let cursor = try fetchCursor(statement, arguments: arguments, adapter: adapter)
        var rows: [Row] = []
        while let row = try cursor.next() {
            rows.append(row.copy())
        }
        return rows
    }

    /// A set of copied rows.
    public static func fetchSet(
        _ db: Database,
        sql: String,
        arguments: StatementArguments = StatementArguments(),
        adapter: (any RowAdapter)? = nil) throws -> Set<Row>
    {
        try Set(fetchAll(db, sql: sql, arguments: arguments, adapter: adapter))
    }

    /// A set of copied rows.
    public static func fetchSet(
        _ statement: Statement, arguments: StatementArguments? = nil, adapter: (any RowAdapter)? = nil
    ) throws -> Set<Row> {
        try Set(fetchAll(statement, arguments: arguments, adapter: adapter))
    }

    /// A copy of the first row, or nil.
    public static func fetchOne(
        _ db: Database,
        sql: String,
        arguments: StatementArguments = StatementArguments(),
        adapter: (any RowAdapter)? = nil) throws -> Row?
    {
        try fetchOne(db.makeStatement(sql: sql), arguments: arguments, adapter: adapter)
    }

    /// A copy of the first row, or nil.
    public static func fetchOne(
        _ statement: Statement, arguments: StatementArguments? = nil, adapter: (any RowAdapter)? = nil
    ) throws -> Row? {
        try fetchCursor(statement, arguments: arguments, adapter: adapter)._fetchFirst { $0.copy() }
    }
}

/// A cursor over the rows of a statement. Its single ``Row`` reads the
/// statement's current row.
public final class RowCursor: DatabaseCursor {
    public typealias Element = Row
    @usableFromInline let statement: Statement
    /// The statement, for ``DatabaseCursor``; not an API.
    public var _statement: Statement { statement }
    /// Whether the statement has no more row.
    /// Unchecked exclusivity: read and written for every row, by the thread
    /// of the cursor's database access (the stepper checks it).
    @usableFromInline @exclusivity(unchecked) var isDone = false
    /// The error of the step that failed: `next()` throws it again.
    /// Unchecked exclusivity: as `isDone`, passed to every step.
    @usableFromInline @exclusivity(unchecked) var failure: (any Error)?
    @usableFromInline let row: Row
    @usableFromInline let stepper: StatementStepper

    /// - parameter row: the row the cursor reads through: a row of the
    ///   statement, adapted or not.
    init(statement: Statement, arguments: StatementArguments?, row: Row) throws {
        self.statement = statement
        self.stepper = StatementStepper(statement)
        self.row = row
        try _start(arguments: arguments)
    }

    /// A cursor whose rows are adapted by `adapter`, if not nil.
    convenience init(statement: Statement, arguments: StatementArguments?, adapter: (any RowAdapter)? = nil) throws {
        try self.init(statement: statement, arguments: arguments, row: Row.adapted(statement: statement, by: adapter))
    }

    deinit {
        // Release the read lock of a cursor left before its end.
        sqlite3_reset(statement.sqliteStatement)
    }

    @inlinable
    public func next() throws -> Row? {
        if isDone {
            try stepper.rethrow(failure)
            return nil
        }
        guard try stepper.step(&isDone, &failure) else { return nil }
        return row
    }
}

@available(*, unavailable)
extension RowCursor: Sendable { }
