/// A column of a table or view, as `PRAGMA table_xinfo` describes it.
///
/// ```swift
/// let columns = try db.columns(in: "player")
/// columns.map(\.name) // ["id", "name", "score"]
/// ```
public struct ColumnInfo: Sendable {
    /// The column name.
    public let name: String
    /// The declared type (`"INTEGER"`, `"TEXT"`, or `""`).
    public let type: String
    /// Whether the column is NOT NULL.
    public let isNotNull: Bool
    /// The SQL of the default value, if any (`"'O''Brien'"`, `"0"`,
    /// `"CURRENT_TIMESTAMP"`).
    public let defaultValueSQL: String?
    /// The position in the primary key (1-based), or 0.
    public private(set) var primaryKeyIndex: Int

    /// A column from a row of `PRAGMA table_info` or `PRAGMA table_xinfo`.
    public init(row: Row) {
        // Text repaired if a damaged file holds invalid UTF-8 (see `Row.schemaText`).
        name = row.schemaText("name") ?? ""
        type = row.schemaText("type") ?? ""
        isNotNull = row["notnull"]
        defaultValueSQL = row.schemaText("dflt_value")
        primaryKeyIndex = row["pk"]
    }

    /// The column, at another position in a primary key.
    func withPrimaryKeyIndex(_ index: Int) -> ColumnInfo {
        var column = self
        column.primaryKeyIndex = index
        return column
    }

    /// The declared type, or nil when the column has none.
    var columnType: Database.ColumnType? {
        type.isEmpty ? nil : Database.ColumnType(rawValue: type)
    }
}
