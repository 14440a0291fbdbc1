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
        arguments: StatementArguments = StatementArguments()) throws -> RowCursor
    {
        try fetchCursor(db.makeStatement(sql: sql), arguments: arguments)
    }

    /// A cursor over the rows of a prepared statement.
    public static func fetchCursor(_ statement: Statement, arguments: StatementArguments? = nil) throws -> RowCursor {
        try RowCursor(statement: statement, arguments: arguments)
    }

    /// An array of copied rows.
    public static func fetchAll(
        _ db: Database,
        sql: String,
        arguments: StatementArguments = StatementArguments()) throws -> [Row]
    {
        try fetchAll(db.makeStatement(sql: sql), arguments: arguments)
    }

    /// An array of copied rows.
    public static func fetchAll(_ statement: Statement, arguments: StatementArguments? = nil) throws -> [Row] {
        let cursor = try fetchCursor(statement, arguments: arguments)
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
        arguments: StatementArguments = StatementArguments()) throws -> Set<Row>
    {
        try Set(fetchAll(db, sql: sql, arguments: arguments))
    }

    /// A set of copied rows.
    public static func fetchSet(_ statement: Statement, arguments: StatementArguments? = nil) throws -> Set<Row> {
        try Set(fetchAll(statement, arguments: arguments))
    }

    /// A copy of the first row, or nil.
    public static func fetchOne(
        _ db: Database,
        sql: String,
        arguments: StatementArguments = StatementArguments()) throws -> Row?
    {
        try fetchOne(db.makeStatement(sql: sql), arguments: arguments)
    }

    /// A copy of the first row, or nil.
    public static func fetchOne(_ statement: Statement, arguments: StatementArguments? = nil) throws -> Row? {
        try fetchCursor(statement, arguments: arguments)._fetchFirst { $0.copy() }
    }
}

/// A cursor over the rows of a statement. Its single ``Row`` reads the
/// statement's current row.
public final class RowCursor: DatabaseCursor {
    public typealias Element = Row
    public let statement: Statement
    /// Whether the statement has no more row.
    /// Unchecked exclusivity: read and written for every row, by the thread
    /// of the cursor's database access (the stepper checks it).
    @usableFromInline @exclusivity(unchecked) var isDone = false
    @usableFromInline let row: Row
    @usableFromInline let stepper: StatementStepper

    /// - parameter row: the row the cursor reads through; by default a
    ///   plain row of the statement, or one with scopes (requests that
    ///   join associations).
    init(statement: Statement, arguments: StatementArguments?, row: Row? = nil) throws {
        self.statement = statement
        self.stepper = StatementStepper(statement)
        self.row = row ?? Row(statement: statement)
        try _start(arguments: arguments)
    }

    deinit {
        // Release the read lock of a cursor left before its end.
        sqlite3_reset(statement.sqliteStatement)
    }

    @inlinable
    public func next() throws -> Row? {
        if isDone { return nil }
        guard try stepper.step(&isDone) else { return nil }
        return row
    }
}

@available(*, unavailable)
extension RowCursor: Sendable { }
