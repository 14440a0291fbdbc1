import CSQLite

/// The `line` mode of the SQLite command line tool: one line per value,
/// `column = value`, column names aligned on the right, rows separated by
/// an empty line.
///
/// ```
///    id = 1
///  name = Arthur
/// score = 500
///
///    id = 2
///  name = Barbara
/// score = 1000
/// ```
public struct LineDumpFormat: Sendable {
    /// The text of NULL.
    public var nullValue: String

    private var hasWrittenRow = false

    /// Creates the format.
    public init(
        nullValue: String = "")
    {
        self.nullValue = nullValue
    }
}

extension LineDumpFormat: DumpFormat {
    /// Prints the current row of `statement`, one line per column.
    public mutating func writeRow(
        _ db: Database,
        statement: Statement,
        to stream: inout DumpStream)
    {
        let indexes = statement.dumpedColumnIndexes
        if indexes.isEmpty { return }
        if hasWrittenRow {
            stream.write("\n")
        }
        hasWrittenRow = true

        let names = indexes.map { statement.columnNames[Int($0)] }
        let width = names.map(\.count).max() ?? 0
        for (name, index) in zip(names, indexes) {
            let value = switch statement.dumpColumnType(at: index) {
            case SQLITE_NULL: nullValue
            case SQLITE_INTEGER, SQLITE_FLOAT: statement.dumpNumber(at: index)
            default: statement.dumpText(at: index)
            }
            stream.write(String(repeating: " ", count: width - name.count))
            stream.write(name)
            stream.write(" = ")
            stream.writeLine(value)
        }
    }

    /// Asks for an empty line before what comes next, if rows were
    /// printed, and prepares for the next statement.
    public mutating func finalize(
        _ db: Database,
        statement: Statement,
        to stream: inout DumpStream)
    {
        if hasWrittenRow {
            stream.margin()
        }
        hasWrittenRow = false
    }
}

extension DumpFormat where Self == LineDumpFormat {
    /// The `line` mode of the SQLite command line tool: one line per
    /// value, NULL printed as `nullValue`.
    public static func line(
        nullValue: String = "")
    -> Self
    {
        LineDumpFormat(nullValue: nullValue)
    }
}
