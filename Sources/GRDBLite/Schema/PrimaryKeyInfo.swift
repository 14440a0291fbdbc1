/// The primary key of a table: the hidden rowid, an `INTEGER PRIMARY KEY`
/// that aliases the rowid, or other columns.
///
/// ```swift
/// let primaryKey = try db.primaryKey("player")
/// primaryKey.columns     // ["id"]
/// primaryKey.rowIDColumn // "id"
/// ```
public struct PrimaryKeyInfo: Sendable {
    private enum Impl: Sendable {
        case hiddenRowID
        case rowID(ColumnInfo)
        case regular([ColumnInfo], tableHasRowID: Bool)
    }

    private let impl: Impl

    /// The primary key of a table without explicit primary key.
    static let hiddenRowID = PrimaryKeyInfo(impl: .hiddenRowID)

    /// An `INTEGER PRIMARY KEY` column, alias for the rowid.
    static func rowID(_ column: ColumnInfo) -> PrimaryKeyInfo {
        PrimaryKeyInfo(impl: .rowID(column))
    }

    /// Other primary keys; `tableHasRowID` is false for WITHOUT ROWID tables.
    static func regular(_ columns: [ColumnInfo], tableHasRowID: Bool) -> PrimaryKeyInfo {
        PrimaryKeyInfo(impl: .regular(columns, tableHasRowID: tableHasRowID))
    }

    /// The primary key columns, `["rowid"]` for the hidden rowid.
    public var columns: [String] {
        switch impl {
        case .hiddenRowID: ["rowid"]
        case .rowID(let column): [column.name]
        case .regular(let columns, _): columns.map(\.name)
        }
    }

    /// The primary key columns, nil for the hidden rowid.
    var columnInfos: [ColumnInfo]? {
        switch impl {
        case .hiddenRowID: nil
        case .rowID(let column): [column]
        case .regular(let columns, _): columns
        }
    }

    /// The `INTEGER PRIMARY KEY` column that aliases the rowid, if any
    /// (nil for the hidden rowid).
    public var rowIDColumn: String? {
        if case .rowID(let column) = impl { return column.name }
        return nil
    }

    /// Whether the primary key is the rowid, hidden or aliased.
    public var isRowID: Bool {
        switch impl {
        case .hiddenRowID, .rowID: true
        case .regular: false
        }
    }

    /// Whether the table has a rowid (it is not a WITHOUT ROWID table).
    var tableHasRowID: Bool {
        switch impl {
        case .hiddenRowID, .rowID: true
        case .regular(_, let tableHasRowID): tableHasRowID
        }
    }
}
