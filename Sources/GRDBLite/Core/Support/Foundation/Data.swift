import CSQLite
import Foundation

// Data is stored as a blob (an empty Data is an empty blob, not NULL). Text
// converts to its UTF-8 bytes, as SQLite does.
extension Data: DatabaseValueConvertible, StatementColumnConvertible {
    public init?(sqliteStatement: SQLiteStatement, index: CInt) {
        // One column read (see `DatabaseValue.init(sqliteStatement:index:)`).
        let value = sqlite3_column_value(sqliteStatement, index)
        switch sqlite3_value_type(value) {
        case SQLITE_BLOB:
            let start = sqlite3_value_blob(value)
            let count = Int(sqlite3_value_bytes(value))
            if count == 0 { self.init(); return }
            // Nil bytes: out of memory.
            guard let start else { return nil }
            self.init(bytes: start, count: count)
        case SQLITE_TEXT, SQLITE_INTEGER, SQLITE_FLOAT:
            // Numbers as SQLite formats them, as GRDB reads them. Nil text:
            // out of memory.
            guard let text = sqlite3_value_text(value) else { return nil }
            self.init(UnsafeBufferPointer(start: text, count: Int(sqlite3_value_bytes(value))))
        default:
            return nil
        }
    }

    public var databaseValue: DatabaseValue { DatabaseValue(storage: .blob(self)) }

    public static func fromDatabaseValue(_ dbValue: DatabaseValue) -> Data? {
        switch dbValue.storage {
        case .blob(let data): data
        case .string(let string): Data(string.utf8)
        default: nil
        }
    }

    public func bind(to sqliteStatement: SQLiteStatement, at index: CInt) -> CInt {
        bindBlob(self, to: sqliteStatement, at: index)
    }
}
