import CSQLite
import Foundation

/// A value stored in a database table: NULL, an integer, a double, a
/// string, or a blob (SQLite's five storage classes).
///
/// ```swift
/// let dbValue: DatabaseValue = row["score"]
/// switch dbValue.storage {
/// case .null: print("NULL")
/// case .int64(let int64): print(int64)
/// case .double(let double): print(double)
/// case .string(let string): print(string)
/// case .blob(let data): print(data)
/// }
/// ```
public struct DatabaseValue: Hashable, Sendable {
    /// The SQLite storage class and value.
    public enum Storage: Equatable, Sendable {
        /// Whether the storages are identical: unlike ``DatabaseValue``,
        /// the integer 1 and the real 1.0 differ.
        public static func == (lhs: Storage, rhs: Storage) -> Bool {
            switch (lhs, rhs) {
            case (.null, .null): true
            case let (.int64(lhs), .int64(rhs)): lhs == rhs
            case let (.double(lhs), .double(rhs)): lhs == rhs
            case let (.string(lhs), .string(rhs)): lhs == rhs
            case let (.blob(lhs), .blob(rhs)): lhs == rhs
            default: false
            }
        }

        case null
        case int64(Int64)
        case double(Double)
        case string(String)
        case blob(Data)

        /// The stored value, as a Swift value (`Int64`, `Double`,
        /// `String`, `Data`), or nil for NULL.
        public var value: (any DatabaseValueConvertible)? {
            switch self {
            case .null: nil
            case .int64(let value): value
            case .double(let value): value
            case .string(let value): value
            case .blob(let value): value
            }
        }
    }

    /// The storage class and value.
    public let storage: Storage

    /// The NULL database value.
    public static let null = DatabaseValue(storage: .null)

    @usableFromInline
    init(storage: Storage) {
        self.storage = storage
    }

    /// Creates a `DatabaseValue` from any value: nil unless the value adopts
    /// ``DatabaseValueConvertible``.
    public init?(value: Any) {
        guard let convertible = value as? any DatabaseValueConvertible else { return nil }
        self = convertible.databaseValue
    }

    /// Whether the value is NULL.
    @inlinable
    public var isNull: Bool {
        if case .null = storage { return true }
        return false
    }

    /// Reads column `index` (0-based) of the current row of a statement.
    ///
    /// Reading a column takes one `sqlite3_column_value` call, then reads
    /// of the value: each `sqlite3_column_*` call would look the column up
    /// again. `sqlite3_value_*` calls take no lock, and neither do
    /// `sqlite3_column_*` calls on GRDBLite's connections, opened
    /// `SQLITE_OPEN_NOMUTEX`: a statement is used by one thread at a time.
    /// The value is valid until the statement steps or resets. An
    /// allocation that fails while converting it (a number read as text)
    /// gives nil text, and the statement's next step fails with
    /// `SQLITE_NOMEM`.
    public init(sqliteStatement: OpaquePointer, index: CInt) {
        self.init(sqliteValue: sqlite3_column_value(sqliteStatement, index))
    }

    /// Reads an SQLite value (function argument, pre-update value).
    init(sqliteValue: OpaquePointer) {
        switch sqlite3_value_type(sqliteValue) {
        case SQLITE_INTEGER:
            storage = .int64(sqlite3_value_int64(sqliteValue))
        case SQLITE_FLOAT:
            storage = .double(sqlite3_value_double(sqliteValue))
        case SQLITE_TEXT:
            let text = sqlite3_value_text(sqliteValue)
            storage = Self.textStorage(text, count: Int(sqlite3_value_bytes(sqliteValue)))
        case SQLITE_BLOB:
            let count = Int(sqlite3_value_bytes(sqliteValue))
            if count > 0, let start = sqlite3_value_blob(sqliteValue) {
                storage = .blob(Data(bytes: start, count: count))
            } else {
                storage = .blob(Data())
            }
        default:
            storage = .null
        }
    }

    /// The storage of a text that SQLite hands over. Text that is not valid
    /// UTF-8 is kept as bytes rather than repaired: converting it to String
    /// then fails instead of returning a different string.
    static func textStorage(_ text: UnsafePointer<UInt8>?, count: Int) -> Storage {
        // SQLite gives no text only when out of memory.
        guard let text else { return .string("") }
        if let string = String.validatingSQLiteText(text, count: count) {
            return .string(string)
        }
        return .blob(Data(bytes: text, count: count))
    }

    /// The bytes of a blob column, valid until the statement moves on; nil
    /// if SQLite could not allocate them (a `zeroblob` expanded).
    @usableFromInline
    static func blobBytes(_ sqliteStatement: OpaquePointer, _ index: CInt) -> UnsafeRawBufferPointer? {
        // One column read (see `init(sqliteStatement:index:)`).
        let value = sqlite3_column_value(sqliteStatement, index)
        let start = sqlite3_value_blob(value)
        let count = Int(sqlite3_value_bytes(value))
        if count == 0 { return UnsafeRawBufferPointer(start: nil, count: 0) }
        guard let start else { return nil }
        return UnsafeRawBufferPointer(start: start, count: count)
    }

    /// Binds the value to parameter `index` (1-based) of a statement.
    public func bind(to sqliteStatement: SQLiteStatement, at index: CInt) -> CInt {
        switch storage {
        case .null:
            return sqlite3_bind_null(sqliteStatement, index)
        case .int64(let value):
            return sqlite3_bind_int64(sqliteStatement, index, value)
        case .double(let value):
            return sqlite3_bind_double(sqliteStatement, index, value)
        case .string(let value):
            return bindText(value, to: sqliteStatement, at: index)
        case .blob(let value):
            return bindBlob(value, to: sqliteStatement, at: index)
        }
    }

    /// Equality as GRDB defines it: an integer equals a double when they
    /// represent the same number exactly; other storage classes compare
    /// by value.
    public static func == (lhs: DatabaseValue, rhs: DatabaseValue) -> Bool {
        switch (lhs.storage, rhs.storage) {
        case (.null, .null): true
        case let (.int64(lhs), .int64(rhs)): lhs == rhs
        case let (.double(lhs), .double(rhs)): lhs == rhs
        case let (.int64(lhs), .double(rhs)): Int64(exactly: rhs) == lhs
        case let (.double(lhs), .int64(rhs)): Int64(exactly: lhs) == rhs
        case let (.string(lhs), .string(rhs)): lhs == rhs
        case let (.blob(lhs), .blob(rhs)): lhs == rhs
        default: false
        }
    }

    public func hash(into hasher: inout Hasher) {
        switch storage {
        case .null: hasher.combine(0)
        case .int64(let value): hasher.combine(Double(value)) // 1 == 1.0
        case .double(let value): hasher.combine(value)
        case .string(let value): hasher.combine(value)
        case .blob(let value): hasher.combine(value)
        }
    }
}

/// Binds a Swift string (NUL characters included) as text.
@usableFromInline
func bindText(_ string: String, to sqliteStatement: OpaquePointer, at index: CInt) -> CInt {
    var string = string
    return string.withUTF8 { buffer in
        // A NULL pointer would bind NULL: empty strings need a valid one.
        guard let start = buffer.baseAddress, !buffer.isEmpty else {
            return sqlite3_bind_text64(sqliteStatement, index, "", 0, grdblite_transient(), UInt8(SQLITE_UTF8))
        }
        return sqlite3_bind_text64(
            // unsafe: UTF-8 bytes read as C chars (same size), copied by SQLite (transient) before withUTF8 returns.
            sqliteStatement, index, UnsafeRawPointer(start).assumingMemoryBound(to: CChar.self),
            sqlite3_uint64(buffer.count), grdblite_transient(), UInt8(SQLITE_UTF8))
    }
}

/// Binds bytes as a blob (an empty blob is a blob, not NULL).
@usableFromInline
func bindBlob(_ data: Data, to sqliteStatement: OpaquePointer, at index: CInt) -> CInt {
    // unsafe bytes: alive for the call; SQLite copies them (SQLITE_TRANSIENT).
    data.withUnsafeBytes { buffer in
        if let start = buffer.baseAddress, buffer.count > 0 {
            return sqlite3_bind_blob64(
                sqliteStatement, index, start, sqlite3_uint64(buffer.count), grdblite_transient())
        }
        // Empty: a non-null pointer to no byte (a null one would bind
        // NULL). Not a zeroblob, which the expanded SQL shows as
        // `zeroblob(0)` where GRDB's shows `x''`.
        var none: UInt8 = 0
        // unsafe bytes: alive for the call; SQLite reads none of them.
        return withUnsafeBytes(of: &none) {
            sqlite3_bind_blob64(sqliteStatement, index, $0.baseAddress, 0, grdblite_transient())
        }
    }
}

extension DatabaseValue: DatabaseValueConvertible {
    public var databaseValue: DatabaseValue { self }

    public static func fromDatabaseValue(_ dbValue: DatabaseValue) -> DatabaseValue? { dbValue }
}

extension DatabaseValue: CustomStringConvertible {
    /// `NULL`, `1`, `1.5`, `"text"`, `Data(3 bytes)`.
    public var description: String {
        switch storage {
        case .null: "NULL"
        case .int64(let value): String(value)
        case .double(let value): String(value)
        case .string(let value): String(reflecting: value)
        case .blob(let value): "Data(\(value.count) bytes)"
        }
    }
}
