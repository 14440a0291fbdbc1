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

    /// The decoder of `Decodable` values stored as JSON.
    static func databaseJSONDecoder() -> JSONDecoder

    /// The encoder of `Encodable` values stored as JSON.
    static func databaseJSONEncoder() -> JSONEncoder
}

extension DatabaseValueConvertible {
    public func bind(to sqliteStatement: SQLiteStatement, at index: CInt) -> CInt {
        databaseValue.bind(to: sqliteStatement, at: index)
    }

    public static func fromMissingColumn() -> Self? { nil }

    /// A JSON decoder for base64 data and dates in milliseconds since 1970;
    /// non-conforming floats are errors.
    public static func databaseJSONDecoder() -> JSONDecoder {
        let decoder = JSONDecoder()
        decoder.dataDecodingStrategy = .base64
        decoder.dateDecodingStrategy = .millisecondsSince1970
        decoder.nonConformingFloatDecodingStrategy = .throw
        return decoder
    }

    /// A JSON encoder with sorted keys (stable text, easy to compare),
    /// base64 data and dates in milliseconds since 1970; non-conforming
    /// floats are errors.
    public static func databaseJSONEncoder() -> JSONEncoder {
        let encoder = JSONEncoder()
        encoder.dataEncodingStrategy = .base64
        encoder.dateEncodingStrategy = .millisecondsSince1970
        encoder.nonConformingFloatEncodingStrategy = .throw
        encoder.outputFormatting = .sortedKeys
        return encoder
    }

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
        arguments: StatementArguments = StatementArguments(),
        adapter: (any RowAdapter)? = nil) throws -> DatabaseValueCursor<Self>
    {
        try fetchCursor(db.makeStatement(sql: sql), arguments: arguments, adapter: adapter)
    }

    /// A cursor over the values of the leftmost column.
    public static func fetchCursor(
        _ statement: Statement,
        arguments: StatementArguments? = nil,
        adapter: (any RowAdapter)? = nil) throws -> DatabaseValueCursor<Self>
    {
        try DatabaseValueCursor(statement: statement, arguments: arguments, adapter: adapter)
    }

    /// An array of the values of the leftmost column.
    ///
    /// ```swift
    /// let names = try String.fetchAll(db, sql: "SELECT name FROM player")
    /// ```
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
    ///
    /// ```swift
    /// let count = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM player")!
    /// ```
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
    public static func fetchOne(
        _ statement: Statement, arguments: StatementArguments? = nil, adapter: (any RowAdapter)? = nil
    ) throws -> Self? {
        try Optional<Self>.fetchCursor(statement, arguments: arguments, adapter: adapter)._fetchFirst { $0 } ?? nil
    }
}

extension DatabaseValueConvertible where Self: Hashable {
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

/// A cursor over the values of the leftmost column of a statement.
public final class DatabaseValueCursor<Value: DatabaseValueConvertible>: DatabaseCursor {
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
        // Release the read lock of a cursor left before its end.
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
            return try Value.decode(fromRow: row, atUncheckedIndex: 0)
        } catch {
            throw stepper.decodingFailed(error, &isDone, &failure)
        }
    }

}

@available(*, unavailable)
extension DatabaseValueCursor: Sendable { }
