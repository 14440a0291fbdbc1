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
    public enum Kind: Equatable, Sendable {
        /// The row has no such column (or scope).
        case columnNotFound
        /// The value does not convert to the requested type.
        case valueMismatch
    }

    public let kind: Kind
    /// The column (or scope, or coding key) that could not be decoded.
    public let key: String
    /// The name of the requested type.
    public let typeName: String
    /// The database value, for value mismatches.
    public let databaseValue: DatabaseValue?
    /// A description of the row.
    public let rowDescription: String
    /// The SQL of the statement that produced the row, if known.
    public let sql: String?
    /// The arguments of that statement, if known.
    public let arguments: StatementArguments?
    let columnIndex: Int?

    public var description: String {
        var text: String
        switch kind {
        case .columnNotFound:
            text = "could not decode \(typeName): column not found: \(String(reflecting: key))"
            text += " - available columns: \(rowColumnList)"
        case .valueMismatch:
            text = "could not decode \(typeName) from database value \(databaseValue ?? .null)"
            text += " - column: \(String(reflecting: key))"
            if let columnIndex { text += ", column index: \(columnIndex)" }
            if let underlyingDescription { text += " (\(underlyingDescription))" }
        }
        text += ", row: \(rowDescription)"
        if let sql {
            text += ", sql: `\(sql)`, arguments: \(arguments ?? StatementArguments())"
        }
        return text
    }

    private var rowColumnList: String { columnNames.map { String(reflecting: $0) }.joined(separator: ", ") }
    let columnNames: [String]

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

    /// A value that decodes from the column `key` failed (JSON, custom
    /// `Decodable`): the underlying error is in the message.
    static func valueMismatch(_ type: Any.Type, row: Row, columnIndex: Int, underlying: any Error) -> Self {
        var error = valueMismatch(type, row: row, columnIndex: columnIndex,
                                  databaseValue: row.databaseValue(atUncheckedIndex: columnIndex))
        error.underlyingDescription = String(describing: underlying)
        return error
    }

    /// The error of a nested decoder (JSON), if any.
    public private(set) var underlyingDescription: String?
}

/// Gives the wrapped type of an optional type.
protocol _OptionalType {
    static var wrappedType: Any.Type { get }
}

extension Optional: _OptionalType {
    static var wrappedType: Any.Type { Wrapped.self }
}
