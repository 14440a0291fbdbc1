/// An error that tells why a value could not be read from a row: a missing
/// column, or a value that does not convert to the requested type.
///
/// Its description names the column, the value, the type, the row, the SQL
/// and the arguments:
///
/// ```
/// could not decode Int from database value "ten" - column: "score",
/// column index: 1, row: [name:"Arthur" score:"ten"],
/// sql: `SELECT * FROM player`, arguments: []
/// ```
public struct RowDecodingError: Error, CustomStringConvertible, Sendable {
    /// What went wrong.
    @_spi(GRDBLite) public enum Kind: Equatable, Sendable {
        /// The row has no such column.
        case columnNotFound
        /// The value does not convert to the requested type (or a scope
        /// that must hold a record only contains NULL).
        case valueMismatch
        /// The row has no such scope (a joined association).
        case scopeNotFound
        /// The row has no prefetched rows for this key (a to-many
        /// association included with `including(all:)`).
        case prefetchKeyNotFound
    }

    @_spi(GRDBLite) public let kind: Kind
    /// The column (or scope, or coding key) that could not be decoded.
    @_spi(GRDBLite) public let key: String
    /// The name of the requested type.
    @_spi(GRDBLite) public let typeName: String
    /// The database value, for value mismatches.
    @_spi(GRDBLite) public let databaseValue: DatabaseValue?
    /// A description of the row.
    @_spi(GRDBLite) public let rowDescription: String
    /// The SQL of the statement that produced the row, if known.
    @_spi(GRDBLite) public let sql: String?
    /// The arguments of that statement, if known.
    @_spi(GRDBLite) public let arguments: StatementArguments?
    let columnIndex: Int?

    public var description: String {
        var text: String
        switch kind {
        case .columnNotFound:
            text = "could not decode \(typeName): column not found: \(String(reflecting: key))"
            text += " - available columns: \(rowColumnList)"
        case .valueMismatch:
            text = "could not decode \(typeName) from database value \(databaseValue ?? .null)"
            // Without a column index, the key is a scope.
            text += columnIndex == nil ? " - scope: " : " - column: "
            text += String(reflecting: key)
            if let columnIndex { text += ", column index: \(columnIndex)" }
            if let underlyingDescription { text += " (\(underlyingDescription))" }
        case .scopeNotFound:
            text = "could not decode \(typeName): scope not found: \(String(reflecting: key))"
            text += " - available scopes: \(availableKeys)"
        case .prefetchKeyNotFound:
            text = "could not decode \(typeName): key for prefetched rows not found: \(String(reflecting: key))"
            text += " - available keys: \(availableKeys)"
        }
        text += ", row: \(rowDescription)"
        if let sql {
            text += ", sql: `\(sql)`, arguments: \(arguments ?? StatementArguments())"
        }
        return text
    }

    private var rowColumnList: String { columnNames.map { String(reflecting: $0) }.joined(separator: ", ") }
    let columnNames: [String]
    /// The scope names or prefetch keys of the row, for the errors that
    /// don't find one.
    private var availableKeys: [String] = []

    init(kind: Kind, key: String, typeName: String, databaseValue: DatabaseValue?, columnIndex: Int?, row: Row) {
        self.kind = kind
        self.key = key
        self.typeName = typeName
        self.databaseValue = databaseValue
        self.columnIndex = columnIndex
        self.rowDescription = row.description
        self.columnNames = row.columnNames
        self.sql = row.statement?.sql
        self.arguments = row.statement?.arguments
    }

    /// The value of column `columnIndex` of `row` is not a `type`.
    @usableFromInline
    static func valueMismatch(_ type: Any.Type, row: Row, columnIndex: Int, databaseValue: DatabaseValue) -> Self {
        RowDecodingError(
            kind: .valueMismatch,
            key: row.columnName(atUncheckedIndex: columnIndex),
            typeName: nonOptionalName(type),
            databaseValue: databaseValue,
            columnIndex: columnIndex,
            row: row)
    }

    /// The name of `type` without `Optional`: NULL always converts to an
    /// optional, so a mismatch is about the wrapped type (`fetchOne`
    /// decodes `String?` to return a `String`).
    static func nonOptionalName(_ type: Any.Type) -> String {
        var type = type
        while let optional = type as? any _OptionalType.Type { type = optional.wrappedType }
        return String(describing: type)
    }

    /// `row` has no column named `name`.
    @usableFromInline
    static func columnNotFound(_ name: String, type: Any.Type, row: Row) -> Self {
        RowDecodingError(
            kind: .columnNotFound,
            key: name,
            typeName: String(describing: type),
            databaseValue: nil,
            columnIndex: nil,
            row: row)
    }

    /// `row` has no scope named `scope`.
    static func scopeNotFound(_ scope: String, type: Any.Type, row: Row) -> Self {
        var error = RowDecodingError(
            kind: .scopeNotFound, key: scope, typeName: String(describing: type),
            databaseValue: nil, columnIndex: nil, row: row)
        error.availableKeys = row.scopesTree.names.sorted()
        return error
    }

    /// The scope `scope` of `row` only contains NULL: a record can't be
    /// decoded from it (a left join without match).
    static func nullScope(_ scope: String, type: Any.Type, row: Row) -> Self {
        var error = RowDecodingError(
            kind: .valueMismatch, key: scope, typeName: String(describing: type),
            databaseValue: .null, columnIndex: nil, row: row)
        error.underlyingDescription = "scope \(String(reflecting: scope)) only contains null values"
        return error
    }

    /// `row` has no prefetched rows for `key`.
    static func prefetchKeyNotFound(_ key: String, type: Any.Type, row: Row) -> Self {
        var error = RowDecodingError(
            kind: .prefetchKeyNotFound, key: key, typeName: String(describing: type),
            databaseValue: nil, columnIndex: nil, row: row)
        error.availableKeys = row.prefetchedRows.keys.sorted()
        return error
    }

    /// A value that decodes from the column `key` failed (JSON, custom
    /// `Decodable`): the underlying error is in the message.
    static func valueMismatch(_ type: Any.Type, row: Row, columnIndex: Int, underlying: any Error) -> Self {
        var error = valueMismatch(type, row: row, columnIndex: columnIndex,
                                  databaseValue: row.databaseValue(atUncheckedIndex: columnIndex))
        error.underlyingDescription = String(describing: underlying)
        return error
    }

    /// The error of a nested decoder (JSON), if any.
    @_spi(GRDBLite) public private(set) var underlyingDescription: String?
}

/// Gives the wrapped type of an optional type.
protocol _OptionalType {
    static var wrappedType: Any.Type { get }
}

extension Optional: _OptionalType {
    static var wrappedType: Any.Type { Wrapped.self }
}
