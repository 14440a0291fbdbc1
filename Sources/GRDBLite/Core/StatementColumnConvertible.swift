import CSQLite

/// A type that reads itself straight from a statement's column, with the
/// `sqlite3_column_*` call that matches it: the fast path of row
/// subscripts and value cursors.
///
/// ```swift
/// extension Money: StatementColumnConvertible {
///     init?(sqliteStatement: SQLiteStatement, index: CInt) {
///         self.init(cents: Int(sqlite3_column_int64(sqliteStatement, index)))
///     }
/// }
/// ```
public protocol StatementColumnConvertible {
    /// Reads a column known not to be NULL; nil if the value does not
    /// convert.
    init?(sqliteStatement: SQLiteStatement, index: CInt)

    /// Reads a column; nil for NULL or a value that does not convert.
    /// `Optional` returns `.some(nil)` for NULL.
    static func fromStatement(_ sqliteStatement: SQLiteStatement, atUncheckedIndex index: CInt) -> Self?
}

extension StatementColumnConvertible {
    @inlinable
    public static func fromStatement(_ sqliteStatement: SQLiteStatement, atUncheckedIndex index: CInt) -> Self? {
        if sqlite3_column_type(sqliteStatement, index) == SQLITE_NULL {
            return nil
        }
        return Self(sqliteStatement: sqliteStatement, index: index)
    }
}

// MARK: - Fetching

extension DatabaseValueConvertible where Self: StatementColumnConvertible {
    /// A cursor over the values of the leftmost column, read with the
    /// matching `sqlite3_column_*` call.
    public static func fetchCursor(
        _ db: Database,
        sql: String,
        arguments: StatementArguments = StatementArguments(),
        adapter: (any RowAdapter)? = nil) throws -> FastDatabaseValueCursor<Self>
    {
        try fetchCursor(db.makeStatement(sql: sql), arguments: arguments, adapter: adapter)
    }

    /// A cursor over the values of the leftmost column.
    public static func fetchCursor(
        _ statement: Statement,
        arguments: StatementArguments? = nil,
        adapter: (any RowAdapter)? = nil) throws -> FastDatabaseValueCursor<Self>
    {
        try FastDatabaseValueCursor(statement: statement, arguments: arguments, adapter: adapter)
    }

    /// An array of the values of the leftmost column.
    public static func fetchAll(
        _ db: Database,
        sql: String,
        arguments: StatementArguments = StatementArguments(),
        adapter: (any RowAdapter)? = nil) throws -> [Self]
    {
        try fetchAll(db.fetchStatement(sql: sql, adapter: adapter), arguments: arguments, adapter: adapter)
    }

    /// An array of the values of the leftmost column.
    public static func fetchAll(
        _ statement: Statement, arguments: StatementArguments? = nil, adapter: (any RowAdapter)? = nil
    ) throws -> [Self] {
        try fetchCursor(statement, arguments: arguments, adapter: adapter)._fetchAll()
    }

    /// The value of the leftmost column of the first row, or nil if there
    /// is no row or the value is NULL.
    public static func fetchOne(
        _ db: Database,
        sql: String,
        arguments: StatementArguments = StatementArguments(),
        adapter: (any RowAdapter)? = nil) throws -> Self?
    {
        try fetchOne(db.fetchStatement(sql: sql, adapter: adapter), arguments: arguments, adapter: adapter)
    }

    /// The value of the leftmost column of the first row, or nil if there
    /// is no row or the value is NULL.
    @inlinable
    public static func fetchOne(
        _ statement: Statement, arguments: StatementArguments? = nil, adapter: (any RowAdapter)? = nil
    ) throws -> Self? {
        guard adapter == nil else {
            return try Optional<Self>.fetchCursor(statement, arguments: arguments, adapter: adapter)
                ._fetchFirst { $0 } ?? nil
        }
        // Without a cursor (and its allocation), as the cursor reads.
        return try statement.fetchFirst(arguments: arguments) { sqliteStatement in
            if let value = Optional<Self>.fromStatement(sqliteStatement, atUncheckedIndex: 0) { return value }
            throw valueMismatch(statement)
        } ?? nil
    }

    /// The error of a leftmost value that does not convert, as a value
    /// cursor throws it.
    @usableFromInline
    static func valueMismatch(_ statement: Statement) -> RowDecodingError {
        let row = Row(statement: statement)
        return .valueMismatch(
            Optional<Self>.self, row: row, columnIndex: 0, databaseValue: row.databaseValue(atUncheckedIndex: 0))
    }
}

extension DatabaseValueConvertible where Self: StatementColumnConvertible & Hashable {
    /// A set of the values of the leftmost column.
    public static func fetchSet(
        _ db: Database,
        sql: String,
        arguments: StatementArguments = StatementArguments(),
        adapter: (any RowAdapter)? = nil) throws -> Set<Self>
    {
        try fetchSet(db.fetchStatement(sql: sql, adapter: adapter), arguments: arguments, adapter: adapter)
    }

    /// A set of the values of the leftmost column.
    public static func fetchSet(
        _ statement: Statement, arguments: StatementArguments? = nil, adapter: (any RowAdapter)? = nil
    ) throws -> Set<Self> {
        try Set(fetchCursor(statement, arguments: arguments, adapter: adapter))
    }
}

/// A cursor over the values of the leftmost column of a statement, read
/// with the matching `sqlite3_column_*` call.
public final class FastDatabaseValueCursor<Value>: DatabaseCursor
where Value: DatabaseValueConvertible & StatementColumnConvertible
{
    public typealias Element = Value
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

    init(statement: Statement, arguments: StatementArguments?, adapter: (any RowAdapter)? = nil) throws {
        self.statement = statement
        self.stepper = StatementStepper(statement)
        self.row = try Row.adapted(statement: statement, by: adapter)
        try checkHasColumn(row, statement)
        try _start(arguments: arguments)
    }

    deinit {
        sqlite3_reset(statement.sqliteStatement)
    }

    @inlinable
    public func next() throws -> Value? {
        if isDone {
            try stepper.rethrow(failure)
            return nil
        }
        guard try stepper.step(&isDone, &failure) else { return nil }
        do {
            return try row.fastDecode(Value.self, atUncheckedIndex: 0)
        } catch {
            throw stepper.decodingFailed(error, &isDone, &failure)
        }
    }

}

@available(*, unavailable)
extension FastDatabaseValueCursor: Sendable { }

/// Value cursors read the leftmost column of their row: an adapter that
/// selects no column is an error. A statement without columns (`CREATE`,
/// `INSERT`...) is not: it runs and gives no value, as in GRDB.
func checkHasColumn(_ row: Row, _ statement: Statement) throws {
    if row.isEmpty && statement.columnCount > 0 {
        throw DatabaseError(
            resultCode: .SQLITE_MISUSE,
            message: "the row adapter selects no column: values can't be fetched",
            sql: statement.sql)
    }
}
