import CSQLite

// Integers, floating point numbers, booleans and strings.
//
// Integer columns are read with `sqlite3_column_int64`; the storage class
// is only checked when the result is zero (to tell NULL from the integer
// 0) or an Int64 bound (a REAL out of Int64's range saturates there).
// Other values are SQLite's own integer conversion, as in GRDB: reals are
// truncated toward zero, on every path.
//
// As in GRDB, a statement's column (cursors, statement rows, `fetchOne`)
// converts as SQLite converts it: text and blobs read as numbers with
// SQLite's rules (`'12abc'` is 12, `'foo'` is 0), and numbers read as
// strings and data as SQLite formats them (`0.0` is `"0.0"`). A
// `DatabaseValue` (copied rows, `fromDatabaseValue`) converts only between
// integers and reals, and text and blobs. Both paths refuse a value out of
// an integer type's range, and text that is not valid UTF-8 as a `String`.
// Narrower types check that the value fits.

// MARK: - Int64

extension Int64: DatabaseValueConvertible, StatementColumnConvertible {
    @inlinable
    public init?(sqliteStatement: SQLiteStatement, index: CInt) {
        switch sqlite3_column_type(sqliteStatement, index) {
        case SQLITE_INTEGER:
            self = sqlite3_column_int64(sqliteStatement, index)
        case SQLITE_FLOAT:
            guard let value = Int64.truncating(sqlite3_column_double(sqliteStatement, index)) else { return nil }
            self = value
        case SQLITE_TEXT, SQLITE_BLOB:
            // SQLite's conversion of text, as GRDB reads it.
            self = sqlite3_column_int64(sqliteStatement, index)
        default:
            return nil
        }
    }

    @inlinable
    public static func fromStatement(_ sqliteStatement: SQLiteStatement, atUncheckedIndex index: CInt) -> Int64? {
        let value = sqlite3_column_int64(sqliteStatement, index)
        // 0 (NULL, REAL, TEXT?), .max and .min (a saturated REAL?) need a
        // look at the storage class. Adding 1 and rotating maps exactly
        // these three values to 1, 2 and 3: one comparison tests them all.
        let probe = (UInt64(bitPattern: value) &+ 1).rotateLeftByOne &- 1
        if _fastPath(probe >= 3) {
            return value
        }
        return Int64(sqliteStatement: sqliteStatement, index: index)
    }

    @inlinable
    public var databaseValue: DatabaseValue { DatabaseValue(storage: .int64(self)) }

    public static func fromDatabaseValue(_ dbValue: DatabaseValue) -> Int64? {
        switch dbValue.storage {
        case .int64(let value): value
        case .double(let value): truncating(value)
        default: nil
        }
    }

    /// A real truncated toward zero, as GRDB reads it; nil out of Int64's
    /// range, and for NaN.
    @inlinable
    static func truncating(_ double: Double) -> Int64? {
        guard double >= -0x1p63, double < 0x1p63 else { return nil }
        return Int64(double)
    }

    @inlinable
    public func bind(to sqliteStatement: SQLiteStatement, at index: CInt) -> CInt {
        sqlite3_bind_int64(sqliteStatement, index, self)
    }
}

/// Integers other than Int64 convert through Int64, and check that the
/// value fits.
///
/// Not an API: public because the standard integer types take their public
/// conformances to ``DatabaseValueConvertible`` and
/// ``StatementColumnConvertible`` from its extension (Swift requires public
/// witnesses of public protocols). Don't conform your own types.
public protocol _DatabaseInteger: FixedWidthInteger, DatabaseValueConvertible, StatementColumnConvertible { }

extension _DatabaseInteger {
    @inlinable
    public init?(sqliteStatement: SQLiteStatement, index: CInt) {
        guard let value = Int64(sqliteStatement: sqliteStatement, index: index) else { return nil }
        self.init(exactly: value)
    }

    @inlinable
    // @inline(__always): fetch-decodable, +2.6% instructions without it (callgrind, quick).
    @inline(__always)
    public static func fromStatement(_ sqliteStatement: SQLiteStatement, atUncheckedIndex index: CInt) -> Self? {
        guard let value = Int64.fromStatement(sqliteStatement, atUncheckedIndex: index) else { return nil }
        return Self(exactly: value)
    }

    /// Traps for unsigned values above `Int64.max`, which SQLite can't store.
    @inlinable
    public var databaseValue: DatabaseValue {
        guard let value = Int64(exactly: self) else { unrepresentable() }
        return DatabaseValue(storage: .int64(value))
    }

    @usableFromInline
    func unrepresentable() -> Never {
        fatalError("\(Self.self) value \(self) can't be stored in SQLite: it exceeds Int64.max")
    }

    public static func fromDatabaseValue(_ dbValue: DatabaseValue) -> Self? {
        Int64.fromDatabaseValue(dbValue).flatMap { Self(exactly: $0) }
    }

    @inlinable
    public func bind(to sqliteStatement: SQLiteStatement, at index: CInt) -> CInt {
        guard let value = Int64(exactly: self) else { unrepresentable() }
        return sqlite3_bind_int64(sqliteStatement, index, value)
    }
}

extension Int: _DatabaseInteger { }
extension Int8: _DatabaseInteger { }
extension Int16: _DatabaseInteger { }
extension Int32: _DatabaseInteger { }
extension UInt: _DatabaseInteger { }
extension UInt8: _DatabaseInteger { }
extension UInt16: _DatabaseInteger { }
extension UInt32: _DatabaseInteger { }
extension UInt64: _DatabaseInteger { }

// MARK: - Bool

extension Bool: DatabaseValueConvertible, StatementColumnConvertible {
    /// Zero is false; other numbers are true. In a statement's column,
    /// text and blobs are read as SQLite converts them to an integer
    /// (`"0"` and `"foo"` are false, `"1"` is true), as GRDB reads them.
    @inlinable
    public init?(sqliteStatement: SQLiteStatement, index: CInt) {
        switch sqlite3_column_type(sqliteStatement, index) {
        case SQLITE_INTEGER, SQLITE_TEXT, SQLITE_BLOB: self = sqlite3_column_int64(sqliteStatement, index) != 0
        case SQLITE_FLOAT: self = sqlite3_column_double(sqliteStatement, index) != 0
        default: return nil
        }
    }

    @inlinable
    public static func fromStatement(_ sqliteStatement: SQLiteStatement, atUncheckedIndex index: CInt) -> Bool? {
        if sqlite3_column_int64(sqliteStatement, index) != 0 { return true }
        return Bool(sqliteStatement: sqliteStatement, index: index)
    }

    @inlinable
    public var databaseValue: DatabaseValue { DatabaseValue(storage: .int64(self ? 1 : 0)) }

    public static func fromDatabaseValue(_ dbValue: DatabaseValue) -> Bool? {
        switch dbValue.storage {
        case .int64(let value): value != 0
        case .double(let value): value != 0
        default: nil
        }
    }

    @inlinable
    public func bind(to sqliteStatement: SQLiteStatement, at index: CInt) -> CInt {
        sqlite3_bind_int64(sqliteStatement, index, self ? 1 : 0)
    }
}

// MARK: - Double, Float

extension Double: DatabaseValueConvertible, StatementColumnConvertible {
    /// Integers and reals convert; in a statement's column, text and blobs
    /// are read as SQLite converts them (`"3.0e+5"` is 300000, `"foo"` is
    /// 0), as GRDB reads them. SQLite stores NaN as NULL.
    @inlinable
    public init?(sqliteStatement: SQLiteStatement, index: CInt) {
        switch sqlite3_column_type(sqliteStatement, index) {
        case SQLITE_INTEGER, SQLITE_FLOAT, SQLITE_TEXT, SQLITE_BLOB:
            self = sqlite3_column_double(sqliteStatement, index)
        default: return nil
        }
    }

    @inlinable
    public static func fromStatement(_ sqliteStatement: SQLiteStatement, atUncheckedIndex index: CInt) -> Double? {
        let value = sqlite3_column_double(sqliteStatement, index)
        if value != 0 { return value }
        return Double(sqliteStatement: sqliteStatement, index: index)
    }

    @inlinable
    public var databaseValue: DatabaseValue { DatabaseValue(storage: .double(self)) }

    public static func fromDatabaseValue(_ dbValue: DatabaseValue) -> Double? {
        switch dbValue.storage {
        case .int64(let value): Double(value)
        case .double(let value): value
        default: nil
        }
    }

    @inlinable
    public func bind(to sqliteStatement: SQLiteStatement, at index: CInt) -> CInt {
        sqlite3_bind_double(sqliteStatement, index, self)
    }
}

extension Float: DatabaseValueConvertible, StatementColumnConvertible {
    @inlinable
    public init?(sqliteStatement: SQLiteStatement, index: CInt) {
        guard let value = Double(sqliteStatement: sqliteStatement, index: index) else { return nil }
        self.init(value)
    }

    @inlinable
    public static func fromStatement(_ sqliteStatement: SQLiteStatement, atUncheckedIndex index: CInt) -> Float? {
        Double.fromStatement(sqliteStatement, atUncheckedIndex: index).map(Float.init)
    }

    public var databaseValue: DatabaseValue { DatabaseValue(storage: .double(Double(self))) }

    public static func fromDatabaseValue(_ dbValue: DatabaseValue) -> Float? {
        Double.fromDatabaseValue(dbValue).map(Float.init)
    }

    @inlinable
    public func bind(to sqliteStatement: SQLiteStatement, at index: CInt) -> CInt {
        sqlite3_bind_double(sqliteStatement, index, Double(self))
    }
}

// MARK: - String

extension String: DatabaseValueConvertible, StatementColumnConvertible {
    /// Text and blobs convert when they are valid UTF-8 (never repaired).
    /// In a statement's column, numbers read as SQLite formats them (`0`
    /// is `"0"`, `1e20` is `"1.0e+20"`), as GRDB reads them.
    @inlinable
    public init?(sqliteStatement: SQLiteStatement, index: CInt) {
        // One column read (see `DatabaseValue.init(sqliteStatement:index:)`).
        let value = sqlite3_column_value(sqliteStatement, index)
        // The text first, with no look at the storage class: SQLite gives
        // NULL for NULL only (or when out of memory), and "" for an empty
        // text or blob.
        guard let text = sqlite3_value_text(value) else { return nil }
        guard let string = String.validatingSQLiteText(text, count: Int(sqlite3_value_bytes(value))) else { return nil }
        self = string
    }

    @inlinable
    public static func fromStatement(_ sqliteStatement: SQLiteStatement, atUncheckedIndex index: CInt) -> String? {
        String(sqliteStatement: sqliteStatement, index: index)
    }

    @inlinable
    public var databaseValue: DatabaseValue { DatabaseValue(storage: .string(self)) }

    /// Text, and blobs of valid UTF-8, as in GRDB; numbers are not strings.
    public static func fromDatabaseValue(_ dbValue: DatabaseValue) -> String? {
        switch dbValue.storage {
        case .string(let value): value
        // Unsafe: the bytes are alive for the call, and copied into the string.
        case .blob(let data): data.withUnsafeBytes { String.validatingUTF8Bytes($0) }
        default: nil
        }
    }

    @inlinable
    public func bind(to sqliteStatement: SQLiteStatement, at index: CInt) -> CInt {
        bindText(self, to: sqliteStatement, at: index)
    }
}

extension UInt64 {
    @inlinable
    var rotateLeftByOne: UInt64 { (self << 1) | (self >> 63) }
}
