import CSQLite
import Foundation

extension RowKeyedDecodingContainer {
    // MARK: Columns with the fast path

    // The fast paths below read the planned column. Every other case
    // (the first record, a key out of plan, an error) calls an outlined
    // function in tail position, so that the witnesses keep a small frame.

    @inlinable
    // @inline(__always): fetch-decodable, +108% instructions without it and its group (callgrind, quick).
    @inline(__always)
    func decodeColumn<T: DatabaseValueConvertible & StatementColumnConvertible>(_ type: T.Type, forKey key: Key) throws
        -> T
    {
        if let (sqliteStatement, column) = plannedColumn(forKey: key) {
            if let value = T.fromStatement(sqliteStatement, atUncheckedIndex: column) { return value }
            // Unretained: the state is alive (see `unmanagedState`); a
            // retain on the error path keeps generic context out of it.
            return try unmanagedState.takeUnretainedValue().valueMismatch(T.self, column: column)
        }
        return try decodeColumnSlowly(T.self, forKey: key)
    }

    @inlinable
    // @inline(__always): fetch-wide-decodable, +157% instructions without it and its group (callgrind, quick).
    @inline(__always)
    func decodeColumnIfPresent<T: DatabaseValueConvertible & StatementColumnConvertible>(
        _ type: T.Type, forKey key: Key
    ) throws -> T? {
        if let (sqliteStatement, column) = plannedColumn(forKey: key) {
            if let value = Optional<T>.fromStatement(sqliteStatement, atUncheckedIndex: column) { return value }
            // Unretained: the state is alive (see `unmanagedState`); a
            // retain on the error path keeps generic context out of it.
            return try unmanagedState.takeUnretainedValue().valueMismatch(T?.self, column: column)
        }
        return try decodeColumnIfPresentSlowly(T.self, forKey: key)
    }

    @usableFromInline
    @inline(never)
    func decodeColumnSlowly<T: DatabaseValueConvertible & StatementColumnConvertible>(
        _ type: T.Type, forKey key: Key
    ) throws -> T {
        try withRow { row in
            guard let index = lookUpColumnIndex(forKey: key, in: row) else {
                throw RowDecodingError.columnNotFound(columnName(forKey: key), type: T.self, row: row)
            }
            return try row.fastDecode(T.self, atUncheckedIndex: index)
        }
    }

    @usableFromInline
    @inline(never)
    func decodeColumnIfPresentSlowly<T: DatabaseValueConvertible & StatementColumnConvertible>(
        _ type: T.Type, forKey key: Key
    ) throws -> T? {
        try withRow { row in
            guard let index = lookUpColumnIndex(forKey: key, in: row) else { return nil }
            return try row.fastDecode(Optional<T>.self, atUncheckedIndex: index)
        }
    }

    // Each method inlines the fast path into its witness, which the standard
    // library's box calls for every value: no call chain. Int64's methods
    // don't: their witnesses would be Int's code, which the compiler merges
    // behind a slower thunk.
    @inlinable @inline(__always)
    func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool { try decodeColumn(type, forKey: key) }
    @inlinable @inline(__always)
    func decode(_ type: String.Type, forKey key: Key) throws -> String {
        try decodeColumn(type, forKey: key)
    }
    @inlinable @inline(__always)
    func decode(_ type: Double.Type, forKey key: Key) throws -> Double {
        try decodeColumn(type, forKey: key)
    }
    @inlinable @inline(__always)
    func decode(_ type: Float.Type, forKey key: Key) throws -> Float { try decodeColumn(type, forKey: key) }
    @inlinable @inline(__always)
    func decode(_ type: Int.Type, forKey key: Key) throws -> Int { try decodeColumn(type, forKey: key) }
    @inlinable @inline(__always)
    func decode(_ type: Int8.Type, forKey key: Key) throws -> Int8 { try decodeColumn(type, forKey: key) }
    @inlinable @inline(__always)
    func decode(_ type: Int16.Type, forKey key: Key) throws -> Int16 { try decodeColumn(type, forKey: key) }
    @inlinable @inline(__always)
    func decode(_ type: Int32.Type, forKey key: Key) throws -> Int32 { try decodeColumn(type, forKey: key) }
    @inlinable func decode(_ type: Int64.Type, forKey key: Key) throws -> Int64 { try decodeColumn(type, forKey: key) }
    @inlinable @inline(__always)
    func decode(_ type: UInt.Type, forKey key: Key) throws -> UInt { try decodeColumn(type, forKey: key) }
    @inlinable @inline(__always)
    func decode(_ type: UInt8.Type, forKey key: Key) throws -> UInt8 { try decodeColumn(type, forKey: key) }
    @inlinable @inline(__always)
    func decode(_ type: UInt16.Type, forKey key: Key) throws -> UInt16 {
        try decodeColumn(type, forKey: key)
    }
    @inlinable @inline(__always)
    func decode(_ type: UInt32.Type, forKey key: Key) throws -> UInt32 {
        try decodeColumn(type, forKey: key)
    }
    @inlinable func decode(_ type: UInt64.Type, forKey key: Key) throws -> UInt64 {
        try decodeColumn(type, forKey: key)
    }

    @inlinable @inline(__always)
    func decodeIfPresent(_ type: Bool.Type, forKey key: Key) throws -> Bool? {
        try decodeColumnIfPresent(type, forKey: key)
    }
    @inlinable @inline(__always)
    func decodeIfPresent(_ type: String.Type, forKey key: Key) throws -> String? {
        try decodeColumnIfPresent(type, forKey: key)
    }
    @inlinable @inline(__always)
    func decodeIfPresent(_ type: Double.Type, forKey key: Key) throws -> Double? {
        try decodeColumnIfPresent(type, forKey: key)
    }
    @inlinable @inline(__always)
    func decodeIfPresent(_ type: Float.Type, forKey key: Key) throws -> Float? {
        try decodeColumnIfPresent(type, forKey: key)
    }
    @inlinable @inline(__always)
    func decodeIfPresent(_ type: Int.Type, forKey key: Key) throws -> Int? {
        try decodeColumnIfPresent(type, forKey: key)
    }
    @inlinable @inline(__always)
    func decodeIfPresent(_ type: Int8.Type, forKey key: Key) throws -> Int8? {
        try decodeColumnIfPresent(type, forKey: key)
    }
    @inlinable @inline(__always)
    func decodeIfPresent(_ type: Int16.Type, forKey key: Key) throws -> Int16? {
        try decodeColumnIfPresent(type, forKey: key)
    }
    @inlinable @inline(__always)
    func decodeIfPresent(_ type: Int32.Type, forKey key: Key) throws -> Int32? {
        try decodeColumnIfPresent(type, forKey: key)
    }
    @inlinable func decodeIfPresent(_ type: Int64.Type, forKey key: Key) throws -> Int64? {
        try decodeColumnIfPresent(type, forKey: key)
    }
    @inlinable @inline(__always)
    func decodeIfPresent(_ type: UInt.Type, forKey key: Key) throws -> UInt? {
        try decodeColumnIfPresent(type, forKey: key)
    }
    @inlinable @inline(__always)
    func decodeIfPresent(_ type: UInt8.Type, forKey key: Key) throws -> UInt8? {
        try decodeColumnIfPresent(type, forKey: key)
    }
    @inlinable @inline(__always)
    func decodeIfPresent(_ type: UInt16.Type, forKey key: Key) throws -> UInt16? {
        try decodeColumnIfPresent(type, forKey: key)
    }
    @inlinable @inline(__always)
    func decodeIfPresent(_ type: UInt32.Type, forKey key: Key) throws -> UInt32? {
        try decodeColumnIfPresent(type, forKey: key)
    }
    @inlinable func decodeIfPresent(_ type: UInt64.Type, forKey key: Key) throws -> UInt64? {
        try decodeColumnIfPresent(type, forKey: key)
    }
}
