import CSQLite
import Foundation

/// The format of JSON arrays: one JSON object per row, one row per line.
/// Blobs are base64 strings.
///
/// ```
/// [{"id":1,"name":"Arthur","score":500},
/// {"id":2,"name":"Barbara","score":1000}]
/// ```
///
/// Values are encoded by a `JSONEncoder`; its `.prettyPrinted` output
/// formatting puts each value on its own line. Keys keep the order of the
/// columns, and duplicate columns are all printed.
public struct JSONDumpFormat: Sendable {
    /// The default encoder: slashes not escaped, infinities and NaN as
    /// the strings `"inf"`, `"-inf"` and `"nan"`, blobs in base64.
    public static var defaultEncoder: JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .withoutEscapingSlashes
        encoder.nonConformingFloatEncodingStrategy = .convertToString(
            positiveInfinity: "inf",
            negativeInfinity: "-inf",
            nan: "nan")
        encoder.dataEncodingStrategy = .base64
        return encoder
    }

    /// The encoder of values and column names.
    public var encoder: JSONEncoder

    private var hasWrittenRow = false

    /// Creates the format.
    public init(encoder: JSONEncoder = JSONDumpFormat.defaultEncoder) {
        self.encoder = encoder
    }
}

extension JSONDumpFormat: DumpFormat {
    /// Prints the current row of `statement` as a JSON object.
    public mutating func writeRow(
        _ db: Database,
        statement: Statement,
        to stream: inout DumpStream) throws
    {
        let pretty = encoder.outputFormatting.contains(.prettyPrinted)
        if hasWrittenRow {
            stream.write(",\n")
        } else {
            hasWrittenRow = true
            stream.write(pretty ? "[\n" : "[")
        }
        stream.write(pretty ? "  {" : "{")
        var isFirstColumn = true
        for index in statement.dumpedColumnIndexes {
            if !isFirstColumn { stream.write(",") }
            isFirstColumn = false
            if pretty { stream.write("\n    ") }
            try stream.write(json(statement.columnNames[Int(index)]))
            stream.write(":")
            try stream.write(json(statement, at: index))
        }
        stream.write(pretty ? "\n  }" : "}")
    }

    /// Closes the array (an empty one when there was no row, unless the
    /// statement has no columns), and prepares for the next statement.
    public mutating func finalize(
        _ db: Database,
        statement: Statement,
        to stream: inout DumpStream)
    {
        if hasWrittenRow {
            if encoder.outputFormatting.contains(.prettyPrinted) {
                stream.write("\n")
            }
            stream.writeLine("]")
        } else if statement.columnCount > 0 {
            stream.writeLine("[]")
        }
        hasWrittenRow = false
    }

    private func json(_ statement: Statement, at index: CInt) throws -> String {
        switch statement.dumpColumnType(at: index) {
        case SQLITE_NULL:
            return "null"
        case SQLITE_INTEGER:
            return try json(sqlite3_column_int64(statement.sqliteStatement, index))
        case SQLITE_FLOAT:
            return try json(sqlite3_column_double(statement.sqliteStatement, index))
        case SQLITE_BLOB:
            return try json(statement.dumpBlob(at: index))
        default:
            return try json(statement.dumpText(at: index))
        }
    }

    private func json(_ value: some Encodable) throws -> String {
        try String(decoding: encoder.encode(value), as: UTF8.self)
    }
}

extension DumpFormat where Self == JSONDumpFormat {
    /// The format of JSON arrays: one JSON object per row, values encoded
    /// by `encoder`.
    public static func json(encoder: JSONEncoder = JSONDumpFormat.defaultEncoder) -> Self {
        JSONDumpFormat(encoder: encoder)
    }
}
