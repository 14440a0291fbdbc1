/// The `quote` mode of the SQLite command line tool: one line per row,
/// values written as SQL literals (as SQLite's `QUOTE()` writes them),
/// separated by commas.
///
/// ```
/// 1,'Arthur',500
/// 2,'Barbara',1000
/// ```
public struct QuoteDumpFormat: Sendable {
    /// Whether the first row is preceded by the column names, as
    /// SQL strings.
    public var header: Bool

    /// The text between two values.
    public var separator: String

    private var hasWrittenRow = false

    /// Creates the format.
    public init(
        header: Bool = false,
        separator: String = ",")
    {
        self.header = header
        self.separator = separator
    }
}

extension QuoteDumpFormat: DumpFormat {
    /// Prints the current row of `statement` on one line.
    public mutating func writeRow(
        _ db: Database,
        statement: Statement,
        to stream: inout DumpStream) throws
    {
        if !hasWrittenRow {
            hasWrittenRow = true
            if header {
                let names = try statement.columnNames.map { try db.dumpQuotedSQL($0.databaseValue) }
                stream.writeLine(names.joined(separator: separator))
            }
        }
        var values: [String] = []
        for index in statement.dumpedColumnIndexes {
            let value = DatabaseValue(sqliteStatement: statement.sqliteStatement, index: index)
            try values.append(db.dumpQuotedSQL(value))
        }
        stream.writeLine(values.joined(separator: separator))
    }

    /// Prepares for the next statement.
    public mutating func finalize(
        _ db: Database,
        statement: Statement,
        to stream: inout DumpStream)
    {
        hasWrittenRow = false
    }
}

extension DumpFormat where Self == QuoteDumpFormat {
    /// The `quote` mode of the SQLite command line tool: one line per row,
    /// SQL literals separated by `separator`, column names first when
    /// `header` is true.
    public static func quote(header: Bool = false, separator: String = ",") -> Self {
        QuoteDumpFormat(header: header, separator: separator)
    }
}
