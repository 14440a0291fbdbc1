import CSQLite
import Foundation

/// The format for debugging: one line per row, values separated by `|`.
/// Blobs print as text when they are UTF-8, as a UUID when they are 16
/// other bytes, as an SQL literal (`X'80'`) otherwise.
///
/// ```
/// 1|Arthur|500
/// 2|Barbara|1000
/// ```
public struct DebugDumpFormat: Sendable {
    /// Whether the first row is preceded by the column names.
    public var header: Bool

    /// The text between two values.
    public var separator: String

    /// The text of NULL.
    public var nullValue: String

    private var hasWrittenRow = false
    /// The printed columns of the current statement, computed at its first row.
    private var columnIndexes: [CInt] = []

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

extension DebugDumpFormat: DumpFormat {
    /// Prints the current row of `statement` on one line.
    public mutating func writeRow(
        _ db: Database,
        statement: Statement,
        to stream: inout DumpStream) throws
    {
        if !hasWrittenRow {
            hasWrittenRow = true
            columnIndexes = statement.dumpedColumnIndexes
            if header {
                stream.writeLine(statement.columnNames.joined(separator: separator))
            }
        }
        // One string per row: a dump of a large table allocates little.
        var line = ""
        for (position, index) in columnIndexes.enumerated() {
            if position > 0 { line += separator }
            try line += text(db, statement, at: index)
        }
        line += "\n"
        stream.write(line)
    }

    /// Prepares for the next statement.
    public mutating func finalize(
        _ db: Database,
        statement: Statement,
        to stream: inout DumpStream)
    {
        hasWrittenRow = false
    }

    private func text(_ db: Database, _ statement: Statement, at index: CInt) throws -> String {
        switch statement.dumpColumnType(at: index) {
        case SQLITE_NULL:
            return nullValue
        case SQLITE_INTEGER, SQLITE_FLOAT:
            return statement.dumpNumber(at: index)
        case SQLITE_BLOB:
            let data = statement.dumpBlob(at: index)
            if let string = String(data: data, encoding: .utf8) {
                return string
            }
            if data.count == 16 {
                // Unsafe bytes: read while `data` is alive, 16 of them.
                let uuid = data.withUnsafeBytes { UUID(uuid: $0.loadUnaligned(as: uuid_t.self)) }
                return uuid.uuidString
            }
            return try db.dumpQuotedSQL(.init(storage: .blob(data)))
        default:
            return statement.dumpText(at: index)
        }
    }
}

extension DumpFormat where Self == DebugDumpFormat {
    /// The format for debugging: one line per row, values separated by
    /// `separator`, NULL printed as `nullValue`, column names first when
    /// `header` is true.
    public static func debug(
        header: Bool = false,
        separator: String = "|",
        nullValue: String = "")
    -> Self
    {
        DebugDumpFormat(header: header, separator: separator, nullValue: nullValue)
    }
}
