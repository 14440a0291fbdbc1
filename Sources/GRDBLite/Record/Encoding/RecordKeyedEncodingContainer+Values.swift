import Foundation

extension RecordKeyedEncodingContainer {
    // Each method inlines the fast path of `set` into its witness, which the
    // standard library's box calls for every value: no call chain. The
    // methods of Int64 don't: their witnesses would be the same code as
    // Int's, which the compiler merges behind a slower thunk.
    @inlinable @inline(__always)
    func encodeNil(forKey key: Key) throws { try set(.null, forKey: key) }
    @inlinable @inline(__always)
    func encode(_ value: Bool, forKey key: Key) throws { try set(value.databaseValue, forKey: key) }
    @inlinable @inline(__always)
    func encode(_ value: String, forKey key: Key) throws { try set(value.databaseValue, forKey: key) }
    @inlinable @inline(__always)
    func encode(_ value: Double, forKey key: Key) throws { try set(value.databaseValue, forKey: key) }
    @inlinable @inline(__always)
    func encode(_ value: Float, forKey key: Key) throws { try set(value.databaseValue, forKey: key) }
    @inlinable @inline(__always)
    func encode(_ value: Int, forKey key: Key) throws {
        try set(DatabaseValue(storage: .int64(Int64(value))), forKey: key)
    }
    @inlinable @inline(__always)
    func encode(_ value: Int8, forKey key: Key) throws {
        try set(DatabaseValue(storage: .int64(Int64(value))), forKey: key)
    }
    @inlinable @inline(__always)
    func encode(_ value: Int16, forKey key: Key) throws {
        try set(DatabaseValue(storage: .int64(Int64(value))), forKey: key)
    }
    @inlinable @inline(__always)
    func encode(_ value: Int32, forKey key: Key) throws {
        try set(DatabaseValue(storage: .int64(Int64(value))), forKey: key)
    }
    @inlinable
    func encode(_ value: Int64, forKey key: Key) throws {
        try set(DatabaseValue(storage: .int64(value)), forKey: key)
    }
    @inlinable @inline(__always)
    func encode(_ value: UInt8, forKey key: Key) throws {
        try set(DatabaseValue(storage: .int64(Int64(value))), forKey: key)
    }
    @inlinable @inline(__always)
    func encode(_ value: UInt16, forKey key: Key) throws {
        try set(DatabaseValue(storage: .int64(Int64(value))), forKey: key)
    }
    @inlinable @inline(__always)
    func encode(_ value: UInt32, forKey key: Key) throws {
        try set(DatabaseValue(storage: .int64(Int64(value))), forKey: key)
    }
    @inlinable @inline(__always)
    func encode(_ value: UInt, forKey key: Key) throws { try set(unsigned(value, key), forKey: key) }
    @inlinable @inline(__always)
    func encode(_ value: UInt64, forKey key: Key) throws { try set(unsigned(value, key), forKey: key) }

    @inlinable @inline(__always)
    func encodeIfPresent(_ value: Bool?, forKey key: Key) throws { try set(value.databaseValue, forKey: key) }
    @inlinable @inline(__always)
    func encodeIfPresent(_ value: String?, forKey key: Key) throws { try set(value.databaseValue, forKey: key) }
    @inlinable @inline(__always)
    func encodeIfPresent(_ value: Double?, forKey key: Key) throws { try set(value.databaseValue, forKey: key) }
    @inlinable @inline(__always)
    func encodeIfPresent(_ value: Float?, forKey key: Key) throws { try set(value.databaseValue, forKey: key) }
    @inlinable @inline(__always)
    func encodeIfPresent(_ value: Int?, forKey key: Key) throws { try set(value.databaseValue, forKey: key) }
    @inlinable @inline(__always)
    func encodeIfPresent(_ value: Int8?, forKey key: Key) throws { try set(value.databaseValue, forKey: key) }
    @inlinable @inline(__always)
    func encodeIfPresent(_ value: Int16?, forKey key: Key) throws { try set(value.databaseValue, forKey: key) }
    @inlinable @inline(__always)
    func encodeIfPresent(_ value: Int32?, forKey key: Key) throws { try set(value.databaseValue, forKey: key) }
    @inlinable
    func encodeIfPresent(_ value: Int64?, forKey key: Key) throws { try set(value.databaseValue, forKey: key) }
    @inlinable @inline(__always)
    func encodeIfPresent(_ value: UInt8?, forKey key: Key) throws { try set(value.databaseValue, forKey: key) }
    @inlinable @inline(__always)
    func encodeIfPresent(_ value: UInt16?, forKey key: Key) throws { try set(value.databaseValue, forKey: key) }
    @inlinable @inline(__always)
    func encodeIfPresent(_ value: UInt32?, forKey key: Key) throws { try set(value.databaseValue, forKey: key) }
    @inlinable @inline(__always)
    func encodeIfPresent(_ value: UInt?, forKey key: Key) throws {
        try set(value.map { try unsigned($0, key) } ?? .null, forKey: key)
    }
    @inlinable @inline(__always)
    func encodeIfPresent(_ value: UInt64?, forKey key: Key) throws {
        try set(value.map { try unsigned($0, key) } ?? .null, forKey: key)
    }

    /// Unsigned values above Int64.max can't be stored: an error.
    @usableFromInline
    func unsigned<T: FixedWidthInteger>(_ value: T, _ key: Key) throws -> DatabaseValue {
        guard let value = Int64(exactly: value) else {
            throw EncodingError.invalidValue(value, EncodingError.Context(
                codingPath: [key],
                debugDescription: "\(T.self) value \(value) of column \(String(reflecting: column(forKey: key))) "
                    + "can't be stored in SQLite: it exceeds Int64.max"))
        }
        return DatabaseValue(storage: .int64(value))
    }

    @usableFromInline
    func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
        let column = column(forKey: key)
        let dbValue = try RecordValueEncoding<Record>.databaseValue(value, column: column, key: key)
        // The column is known (its strategies needed it): no key matching.
        let container = persistenceContainer
        let position = container.pointee.setCount
        if position < target.fastCount,
            container.pointee.names.stringBits(at: position) == column.storageBits
        {
            #if DEBUG
            target.checkFastPath(container)
            #endif
            // Unsafe: below `fastCount` (see `RecordEncodingTarget.fastCount`).
            (target.fastValues.unsafelyUnwrapped + position).pointee = dbValue
            container.pointee.setCount = position &+ 1
            return
        }
        target.fastCount = 0 // the arrays may change below
        container.pointee.set(dbValue, forColumn: column)
    }

    @usableFromInline
    func encodeIfPresent<T: Encodable>(_ value: T?, forKey key: Key) throws {
        guard let value else { return try set(.null, forKey: key) }
        try encode(value, forKey: key)
    }

    /// Not supported: the container throws when it is used.
    @usableFromInline
    func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type, forKey key: Key)
        -> KeyedEncodingContainer<NestedKey>
    {
        KeyedEncodingContainer(RefusingKeyedEncodingContainer<NestedKey>(reason: Self.nestedContainerReason))
    }

    /// Not supported: the container throws when it is used.
    @usableFromInline
    func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
        RefusingUnkeyedEncodingContainer(reason: Self.nestedContainerReason)
    }

    static var nestedContainerReason: String {
        "\(Record.self): nested containers are not supported: store nested values as Codable properties (JSON)"
    }

    @usableFromInline
    func superEncoder() -> any Encoder {
        _ = persistenceContainer // traps outside of the call
        let cache = target.cache.unsafelyUnwrapped // alive during the call
        return RecordEncoder(cache: cache, call: cache.call)
    }

    @usableFromInline
    func superEncoder(forKey key: Key) -> any Encoder { superEncoder() }
}
