import CSQLite

/// The `list` mode of the SQLite command line tool: one line per row,
/// values separated by `|`, blobs printed as text.
///
/// ```
/// 1|Arthur|500
/// 2|Barbara|1000
/// ```
public struct ListDumpFormat: Sendable {
    /// Whether the first row is preceded by the column names.
    public var header: Bool

    /// The text between two values.
    public var separator: String

    /// The text of NULL.
    public var nullValue: String

    private var hasWrittenRow = false

    /// Creates the format.
    public init(
        header: Bool = false,
        separator: String = "|",
        nullValue: String = "")
    {
        self.header = header
        self.separator = separator
        self.nullValue = nullValue
    }
}

extension ListDumpFormat: DumpFormat {
    /// Prints the current row of `statement` on one line.
    public mutating func writeRow(
        _ db: Database,
        statement: Statement,
        to stream: inout DumpStream)
    {
        if !hasWrittenRow {
            hasWrittenRow = true
            if header {
                stream.writeLine(statement.columnNames.joined(separator: separator))
            }
        }
        let values = statement.dumpedColumnIndexes.map { index in
            switch statement.dumpColumnType(at: index) {
            case SQLITE_NULL: nullValue
            case SQLITE_INTEGER, SQLITE_FLOAT: statement.dumpNumber(at: index)
            default: statement.dumpText(at: index)
            }
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

extension DumpFormat where Self == ListDumpFormat {
    /// The `list` mode of the SQLite command line tool: one line per row,
    /// values separated by `separator`, NULL printed as `nullValue`,
    /// column names first when `header` is true.
    public static func list(
        header: Bool = false,
        separator: String = "|",
        nullValue: String = "")
    -> Self
    {
        ListDumpFormat(header: header, separator: separator, nullValue: nullValue)
    }
}
