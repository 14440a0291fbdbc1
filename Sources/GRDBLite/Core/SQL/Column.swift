import Foundation

/// A type that identifies a database column by name.
public protocol ColumnExpression: SQLSpecificExpressible {
    /// The column name.
    var name: String { get }
}

extension ColumnExpression {
    public var sqlExpression: SQLExpression { .column(name) }

    /// The column, never qualified with a table: for a column that
    /// belongs to no table, such as the alias of an annotation.
    ///
    /// ```swift
    /// // SELECT player.*, (score + bonus) AS total, team.* ... ORDER BY total
    /// Player.annotated { ($0.score + $0.bonus).forKey("total") }
    ///     .including(required: Player.team)
    ///     .order(Column("total").detached)
    /// ```
    public var detached: SQLExpression {
        SQL(sql: name.quotedDatabaseIdentifier).sqlExpression
    }
}

extension ColumnExpression where Self: RawRepresentable, Self.RawValue == String {
    /// The raw value: `enum Columns: String, ColumnExpression { case name }`.
    public var name: String { rawValue }
}

/// A database column.
///
/// ```swift
/// let nameColumn = Column("name")
/// let name: String = row[nameColumn]
/// let players = try Player.order(Column("score").desc).fetchAll(db)
/// ```
///
/// Not `Equatable`, as in GRDB: `Column("a") != Column("b")` is the SQL
/// expression `"a" <> "b"`, never Swift's `Bool`.
public struct Column: ColumnExpression, Sendable {
    /// The hidden `rowid` column.
    public static let rowID = Column("rowid")

    public let name: String

    /// A column named `name`.
    public init(_ name: String) {
        self.name = name
    }

    /// A column named after a coding key: `Column(CodingKeys.name)`.
    public init(_ codingKey: some CodingKey) {
        self.name = codingKey.stringValue
    }
}

extension SQLExpressible where Self == Column {
    /// The hidden `rowid` column: `Player.filter(.rowID == 1)`.
    public static var rowID: Self { Column.rowID }
}

extension SQLSelectable where Self == Column {
    /// The hidden `rowid` column: `Player.select(.rowID)`.
    public static var rowID: Self { Column.rowID }
}

extension ColumnExpression where Self == Column {
    /// The hidden `rowid` column.
    public static var rowID: Self { Column.rowID }
}

/// All columns of a table: `*`.
public struct AllColumns: SQLSelectable, Sendable {
    public init() { }

    public var sqlSelection: SQLSelection { .allColumns }
}

extension SQLSelectable where Self == AllColumns {
    /// All columns: `*`.
    public static var allColumns: AllColumns { AllColumns() }
}

/// All columns of a table but some: `.allColumns(excluding: ["secret"])`.
///
/// ```swift
/// struct Player: TableRecord {
///     static var databaseSelection: [any SQLSelectable] {
///         [.allColumns(excluding: ["generatedColumn"])]
///     }
/// }
/// // SELECT "id", "name" FROM "player"
/// ```
public struct AllColumnsExcluding: SQLSelectable, Sendable {
    let excludedColumns: Set<CaseInsensitiveIdentifier>

    /// All columns but `excludedColumns` (compared case-insensitively).
    public init(_ excludedColumns: some Collection<String>) {
        self.excludedColumns = Set(excludedColumns.map(CaseInsensitiveIdentifier.init))
    }

    public var sqlSelection: SQLSelection { SQLSelection(impl: .allColumnsExcluding(excludedColumns)) }
}

extension SQLSelectable where Self == AllColumnsExcluding {
    /// All columns of the table but the named ones.
    public static func allColumns(excluding excludedColumns: some Collection<String>) -> Self {
        AllColumnsExcluding(excludedColumns)
    }

    /// All columns of the table but the given ones.
    public static func allColumns(excluding excludedColumns: some Collection<any ColumnExpression>) -> Self {
        AllColumnsExcluding(excludedColumns.map(\.name))
    }
}

extension Row {
    /// The value of `column`, or nil for NULL or a missing column.
    public subscript(_ column: some ColumnExpression) -> (any DatabaseValueConvertible)? {
        self[column.name]
    }

    /// The value of `column`. Traps if the column is missing or NULL and
    /// the type is not optional, or if the value does not convert.
    @inlinable
    public subscript<Value: DatabaseValueConvertible>(_ column: some ColumnExpression) -> Value {
        self[column.name]
    }

    /// The value of `column`. Traps if the column is missing or NULL and
    /// the type is not optional, or if the value does not convert.
    @inlinable
    public subscript<Value: DatabaseValueConvertible & StatementColumnConvertible>(
        _ column: some ColumnExpression) -> Value
    {
        self[column.name]
    }

    /// The value of `column` as the requested type, or throws a
    /// ``RowDecodingError``.
    @inlinable
    public func decode<Value: DatabaseValueConvertible>(
        _ type: Value.Type = Value.self,
        forColumn column: some ColumnExpression) throws -> Value
    {
        try decode(type, forColumn: column.name)
    }

    /// The bytes of the blob of `column`, without copy.
    public func dataNoCopy(_ column: some ColumnExpression) -> Data? {
        dataNoCopy(named: column.name)
    }
}
