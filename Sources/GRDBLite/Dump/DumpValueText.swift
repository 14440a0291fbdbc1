import CSQLite
import Foundation

// How the dump formats read the columns of the current row of a statement.
// Text is read as SQLite's C string: it ends at the first NUL byte, and
// invalid UTF-8 is replaced by U+FFFD, as GRDB prints it.

extension Statement {
    /// The indexes of the printed columns: those whose name does not start
    /// with `grdb_` (GRDBLite's own columns, e.g. in prefetch requests).
    var dumpedColumnIndexes: [CInt] {
        (0..<CInt(columnCount)).filter { !columnNames[Int($0)].hasPrefix("grdb_") }
    }

    /// The SQLite storage class of a column of the current row.
    func dumpColumnType(at index: CInt) -> CInt {
        sqlite3_column_type(sqliteStatement, index)
    }

    /// A column of the current row as text, up to its first NUL byte.
    func dumpText(at index: CInt) -> String {
        guard let text = sqlite3_column_text(sqliteStatement, index) else { return "" }
        return String(decoding: UnsafeBufferPointer(start: text, count: strlen(text)), as: UTF8.self)
    }

    /// A column of the current row as a blob (all its bytes).
    func dumpBlob(at index: CInt) -> Data {
        let count = Int(sqlite3_column_bytes(sqliteStatement, index))
        guard count > 0, let bytes = sqlite3_column_blob(sqliteStatement, index) else { return Data() }
        return Data(bytes: bytes, count: count)
    }

    /// A column of the current row as a number, as Swift prints it.
    func dumpNumber(at index: CInt) -> String {
        if dumpColumnType(at: index) == SQLITE_INTEGER {
            return String(sqlite3_column_int64(sqliteStatement, index))
        }
        return sqlite3_column_double(sqliteStatement, index).description
    }
}

extension Database {
    /// A value as SQLite's `QUOTE()` writes it: `NULL`, `1`, `1.5`,
    /// `'it''s'`, `X'80'`.
    func dumpQuotedSQL(_ value: DatabaseValue) throws -> String {
        if value.isNull { return "NULL" }
        let statement = try cachedStatement(sql: "SELECT QUOTE(?)")
        return try String.fetchOne(statement, arguments: [value]) ?? value.sqlLiteral
    }
}
