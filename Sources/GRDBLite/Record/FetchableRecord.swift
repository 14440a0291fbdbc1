import CSQLite
import Foundation

/// A type that can be built from a database row.
///
/// ```swift
/// struct Player: FetchableRecord {
///     var id: Int64
///     var name: String
///     init(row: Row) throws {
///         id = row["id"]
///         name = row["name"]
///     }
/// }
/// let players = try Player.fetchAll(db, sql: "SELECT * FROM player")
/// ```
///
/// `Decodable` types get `init(row:)` for free: each coding key reads the
/// column of the same name. The row given to `init(row:)` may be the live
/// row of a cursor: copy it (`row.copy()`) to keep it.
public protocol FetchableRecord {
    /// Builds a record from a row.
    init(row: Row) throws

    /// The user info of the `Decoder` that decodes `Decodable` records.
    static var databaseDecodingUserInfo: [CodingUserInfoKey: Any] { get }

    /// The decoder of nested `Decodable` values stored as JSON in `column`.
    static func databaseJSONDecoder(for column: String) -> JSONDecoder

    /// How `Data` properties are read from `column`.
    static func databaseDataDecodingStrategy(for column: String) -> DatabaseDataDecodingStrategy

    /// How `Date` properties are read from `column`. The answer must
    /// depend on the column only: a cursor that finds `.deferredToDate`
    /// for a column asks no more for it.
    static func databaseDateDecodingStrategy(for column: String) -> DatabaseDateDecodingStrategy

    /// How coding keys map to column names.
    static var databaseColumnDecodingStrategy: DatabaseColumnDecodingStrategy { get }
}

extension FetchableRecord {
    public static var databaseDecodingUserInfo: [CodingUserInfoKey: Any] { [:] }

    /// A JSON decoder for base64 data and dates in milliseconds since 1970.
    public static func databaseJSONDecoder(for column: String) -> JSONDecoder {
        let decoder = JSONDecoder()
        decoder.dataDecodingStrategy = .base64
        decoder.dateDecodingStrategy = .millisecondsSince1970
        decoder.nonConformingFloatDecodingStrategy = .throw
        decoder.userInfo = databaseDecodingUserInfo.sendableUserInfo
        return decoder
    }

    public static func databaseDataDecodingStrategy(for column: String) -> DatabaseDataDecodingStrategy {
        .deferredToData
    }

    public static func databaseDateDecodingStrategy(for column: String) -> DatabaseDateDecodingStrategy {
        .deferredToDate
    }

    public static var databaseColumnDecodingStrategy: DatabaseColumnDecodingStrategy { .useDefaultKeys }
}

// MARK: - Fetching from SQL

extension FetchableRecord {
    /// A cursor over the records of a query.
    ///
    /// ```swift
    /// let players = try Player.fetchCursor(db, sql: "SELECT * FROM player")
    /// while let player = try players.next() { ... }
    /// ```
    public static func fetchCursor(
        _ db: Database,
        sql: String,
        arguments: StatementArguments = StatementArguments(),
        adapter: (any RowAdapter)? = nil) throws -> RecordCursor<Self>
    {
        try fetchCursor(db.makeStatement(sql: sql), arguments: arguments, adapter: adapter)
    }

    /// A cursor over the records of a prepared statement.
    public static func fetchCursor(
        _ statement: Statement,
        arguments: StatementArguments? = nil,
        adapter: (any RowAdapter)? = nil) throws -> RecordCursor<Self>
    {
        try RecordCursor(statement: statement, arguments: arguments, adapter: adapter)
    }

    /// An array of the records of a query.
    @inlinable
    public static func fetchAll(
        _ db: Database,
        sql: String,
        arguments: StatementArguments = StatementArguments(),
        adapter: (any RowAdapter)? = nil) throws -> [Self]
    {
        try fetchAll(db.makeStatement(sql: sql), arguments: arguments, adapter: adapter)
    }

    /// An array of the records of a prepared statement.
    @inlinable
    public static func fetchAll(
        _ statement: Statement, arguments: StatementArguments? = nil, adapter: (any RowAdapter)? = nil
    ) throws -> [Self] {
        try fetchCursor(statement, arguments: arguments, adapter: adapter)._fetchAll()
    }

    /// The first record of a query, or nil.
    @inlinable
    public static func fetchOne(
        _ db: Database,
        sql: String,
        arguments: StatementArguments = StatementArguments(),
        adapter: (any RowAdapter)? = nil) throws -> Self?
    {
        try fetchOne(db.makeStatement(sql: sql), arguments: arguments, adapter: adapter)
    }

    /// The first record of a prepared statement, or nil.
    @inlinable
    public static func fetchOne(
        _ statement: Statement, arguments: StatementArguments? = nil, adapter: (any RowAdapter)? = nil
    ) throws -> Self? {
        try fetchCursor(statement, arguments: arguments, adapter: adapter)._fetchFirst { $0 }
    }
}

extension FetchableRecord where Self: Hashable {
    /// A set of the records of a query.
    public static func fetchSet(
        _ db: Database,
        sql: String,
        arguments: StatementArguments = StatementArguments(),
        adapter: (any RowAdapter)? = nil) throws -> Set<Self>
    {
        try fetchSet(db.makeStatement(sql: sql), arguments: arguments, adapter: adapter)
    }

    /// A set of the records of a prepared statement.
    public static func fetchSet(
        _ statement: Statement, arguments: StatementArguments? = nil, adapter: (any RowAdapter)? = nil
    ) throws -> Set<Self> {
        try Set(fetchCursor(statement, arguments: arguments, adapter: adapter))
    }
}

/// A cursor over the records of a statement: each record is built from the
/// statement's current row.
public final class RecordCursor<Record: FetchableRecord>: DatabaseCursor {
    public typealias Element = Record
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

    /// A cursor whose rows are adapted by `adapter`, if not nil.
    convenience init(statement: Statement, arguments: StatementArguments?, adapter: (any RowAdapter)? = nil) throws {
        try self.init(statement: statement, arguments: arguments, row: Row.adapted(statement: statement, by: adapter))
    }

    /// A cursor that reads `row`, a row of the statement, adapted or not.
    init(statement: Statement, arguments: StatementArguments?, row: Row) throws {
        self.statement = statement
        self.stepper = StatementStepper(statement)
        self.row = row
        try _start(arguments: arguments)
    }

    deinit {
        sqlite3_reset(statement.sqliteStatement)
    }

    @inlinable
    public func next() throws -> Record? {
        if isDone {
            try stepper.rethrow(failure)
            return nil
        }
        guard try stepper.step(&isDone, &failure) else { return nil }
        do {
            return try Record(row: row)
        } catch {
            throw stepper.decodingFailed(error, &isDone, &failure)
        }
    }

}

@available(*, unavailable)
extension RecordCursor: Sendable { }

extension Dictionary where Key == CodingUserInfoKey, Value == Any {
    /// GRDB's user info is `[CodingUserInfoKey: Any]`, Foundation's coders
    /// want Sendable values: the values are the user's, handed over as is
    /// (both existentials have the same layout). The dictionary is cast
    /// whole: casting each value would open its existential, and cast the
    /// value itself (a `String`, of another size).
    var sendableUserInfo: [CodingUserInfoKey: any Sendable] {
        // Unsafe: the values are the user's, handed over as they are.
        unsafeBitCast(self, to: [CodingUserInfoKey: any Sendable].self)
    }
}
