import CSQLite
import Foundation

/// A value that binds itself to a parameter of a prepared statement.
public protocol StatementBinding {
    /// Binds the value to parameter `index` (1-based); returns SQLite's code.
    func bind(to sqliteStatement: SQLiteStatement, at index: CInt) -> CInt
}

/// A type that converts to and from ``DatabaseValue``: it can be a statement
/// argument, be read from rows, and be fetched.
///
/// ```swift
/// struct Money: DatabaseValueConvertible {
///     var cents: Int
///     var databaseValue: DatabaseValue { cents.databaseValue }
///     static func fromDatabaseValue(_ dbValue: DatabaseValue) -> Money? {
///         Int.fromDatabaseValue(dbValue).map(Money.init)
///     }
/// }
/// ```
public protocol DatabaseValueConvertible: SQLExpressible, StatementBinding {
    /// The value to store.
    var databaseValue: DatabaseValue { get }

    /// The value for a database value, or nil if it can't be converted.
    static func fromDatabaseValue(_ dbValue: DatabaseValue) -> Self?

    /// The value for a column that is missing from a row, or nil (the
    /// default) if a missing column is an error. Optionals return `.none`.
    static func fromMissingColumn() -> Self?
}

extension DatabaseValueConvertible {
    public func bind(to sqliteStatement: SQLiteStatement, at index: CInt) -> CInt {
        databaseValue.bind(to: sqliteStatement, at: index)
    }

    public static func fromMissingColumn() -> Self? { nil }

    public var sqlExpression: SQLExpression { .value(databaseValue) }
}

// MARK: - Decoding from rows

extension DatabaseValueConvertible {
    /// Decodes column `index` of `row`, or throws a ``RowDecodingError``
    /// that names the column, the value and the type.
    @inlinable
    static func decode(fromRow row: Row, atUncheckedIndex index: Int) throws -> Self {
        let dbValue = row.databaseValue(atUncheckedIndex: index)
        if let value = fromDatabaseValue(dbValue) {
            return value
        }
        throw RowDecodingError.valueMismatch(Self.self, row: row, columnIndex: index, databaseValue: dbValue)
    }
}

// MARK: - Fetching values

extension DatabaseValueConvertible {
    /// A cursor over the values of the leftmost column.
    ///
    /// ```swift
    /// let names = try String.fetchCursor(db, sql: "SELECT name FROM player")
    /// while let name = try names.next() { print(name) }
    /// ```
    public static func fetchCursor(
        _ db: Database,
        sql: String,
        arguments: StatementArguments = StatementArguments()) throws -> DatabaseValueCursor<Self>
    {
        try fetchCursor(db.makeStatement(sql: sql), arguments: arguments)
    }

    /// A cursor over the values of the leftmost column.
    public static func fetchCursor(
        _ statement: Statement,
        arguments: StatementArguments? = nil) throws -> DatabaseValueCursor<Self>
    {
        try DatabaseValueCursor(statement: statement, arguments: arguments)
    }

    /// An array of the values of the leftmost column.
    ///
    /// ```swift
    /// let names = try String.fetchAll(db, sql: "SELECT name FROM player")
    /// ```
    public static func fetchAll(
        _ db: Database,
        sql: String,
        arguments: StatementArguments = StatementArguments()) throws -> [Self]
    {
        try fetchAll(db.makeStatement(sql: sql), arguments: arguments)
    }

    /// An array of the values of the leftmost column.
    public static func fetchAll(_ statement: Statement, arguments: StatementArguments? = nil) throws -> [Self] {
        try Array(fetchCursor(statement, arguments: arguments))
    }

    /// The value of the leftmost column of the first row, or nil if there
    /// is no row or the value is NULL.
    ///
    /// ```swift
    /// let count = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM player")!
    /// ```
    public static func fetchOne(
        _ db: Database,
        sql: String,
        arguments: StatementArguments = StatementArguments()) throws -> Self?
    {
        try fetchOne(db.makeStatement(sql: sql), arguments: arguments)
    }

    /// The value of the leftmost column of the first row, or nil if there
    /// is no row or the value is NULL.
    public static func fetchOne(_ statement: Statement, arguments: StatementArguments? = nil) throws -> Self? {
        try Optional<Self>.fetchCursor(statement, arguments: arguments)._fetchFirst { $0 } ?? nil
    }
}

extension DatabaseValueConvertible where Self: Hashable {
    /// A set of the values of the leftmost column.
    public static func fetchSet(
        _ db: Database,
        sql: String,
        arguments: StatementArguments = StatementArguments()) throws -> Set<Self>
    {
        try fetchSet(db.makeStatement(sql: sql), arguments: arguments)
    }

    /// A set of the values of the leftmost column.
    public static func fetchSet(_ statement: Statement, arguments: StatementArguments? = nil) throws -> Set<Self> {
        try Set(fetchCursor(statement, arguments: arguments))
    }
}

/// A cursor over the values of the leftmost column of a statement.
public final class DatabaseValueCursor<Value: DatabaseValueConvertible>: DatabaseCursor {
    public typealias Element = Value
    public let statement: Statement
    /// Whether the statement has no more row.
    /// Unchecked exclusivity: read and written for every row, by the thread
    /// of the cursor's database access (the stepper checks it).
    @usableFromInline @exclusivity(unchecked) var isDone = false
    @usableFromInline let row: Row
    @usableFromInline let stepper: StatementStepper

    init(statement: Statement, arguments: StatementArguments?) throws {
        self.statement = statement
        self.stepper = StatementStepper(statement)
        self.row = Row(statement: statement)
        try checkHasColumn(statement)
        try _start(arguments: arguments)
    }

    deinit {
        // Release the read lock of a cursor left before its end.
        sqlite3_reset(statement.sqliteStatement)
    }

    @inlinable
    public func next() throws -> Value? {
        if isDone { return nil }
        guard try stepper.step(&isDone) else { return nil }
        return try Value.decode(fromRow: row, atUncheckedIndex: 0)
    }

}

@available(*, unavailable)
extension DatabaseValueCursor: Sendable { }
