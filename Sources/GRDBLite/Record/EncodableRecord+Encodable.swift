import Foundation

// Encodable records: each coding key writes the column of the same name
// (through `databaseColumnEncodingStrategy`). Database values are stored as
// they are (`Date`, `Data` and `UUID` through the record's strategies); nil
// optionals store NULL; other values (nested structs, arrays...) are stored
// as JSON text.
//
// Performance: the keyed container is built once and reused with the
// persistence container of the connection, so encoding a record for an
// insert allocates nothing.

extension EncodableRecord where Self: Encodable {
    /// Encodes the record: each coding key writes the column of the same
    /// name.
    @inlinable
    public func encode(to container: inout PersistenceContainer) throws {
        let cache = container.encoderCache ?? RecordEncoderCache()
        try withUnsafeMutablePointer(to: &container) { pointer in
            cache.container = pointer
            defer { cache.container = nil }
            try encode(to: RecordEncoder<Self>(cache: cache))
        }
    }
}

/// Holds the container being filled, and the keyed encoding container that
/// writes into it.
@usableFromInline
final class RecordEncoderCache {
    @usableFromInline @exclusivity(unchecked) var container: UnsafeMutablePointer<PersistenceContainer>?
    @usableFromInline @exclusivity(unchecked) var keyedContainer: (record: ObjectIdentifier, key: ObjectIdentifier, value: AnyObject)?

    @usableFromInline init() { }
}

/// Holds a boxed keyed container in a `RecordEncoderCache`.
@usableFromInline
final class KeyedEncodingContainerBox<Key: CodingKey> {
    @usableFromInline let container: KeyedEncodingContainer<Key>
    @usableFromInline init(_ container: KeyedEncodingContainer<Key>) { self.container = container }
}

/// The `Encoder` of `Encodable` records.
@usableFromInline
struct RecordEncoder<Record: EncodableRecord>: Encoder {
    @usableFromInline let cache: RecordEncoderCache

    @inlinable
    init(cache: RecordEncoderCache) {
        self.cache = cache
    }

    @usableFromInline var codingPath: [any CodingKey] { [] }
    @usableFromInline var userInfo: [CodingUserInfoKey: Any] { Record.databaseEncodingUserInfo }

    @inlinable
    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        let recordID = ObjectIdentifier(Record.self)
        let keyID = ObjectIdentifier(Key.self)
        if let cached = cache.keyedContainer, cached.record == recordID, cached.key == keyID {
            return unsafeDowncast(cached.value, to: KeyedEncodingContainerBox<Key>.self).container
        }
        let container = KeyedEncodingContainer(RecordKeyedEncodingContainer<Record, Key>(cache: cache))
        cache.keyedContainer = (recordID, keyID, KeyedEncodingContainerBox(container))
        return container
    }

    @usableFromInline
    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        fatalError("\(Record.self) can't be encoded as a list: a record encodes its columns in a keyed container")
    }

    @usableFromInline
    func singleValueContainer() -> any SingleValueEncodingContainer {
        fatalError("\(Record.self) can't be encoded as a single value: a record encodes its columns in a keyed container")
    }
}

/// Writes the columns of a record into the current persistence container.
///
/// A struct of an unmanaged reference, so that copying it involves no
/// reference counting: the standard library's container box copies it for
/// every encoded value. The cache owns the box, and so this container.
@usableFromInline
struct RecordKeyedEncodingContainer<Record: EncodableRecord, Key: CodingKey>: KeyedEncodingContainerProtocol {
    @usableFromInline let unmanagedCache: Unmanaged<RecordEncoderCache>
    @usableFromInline let usesDefaultKeys: Bool

    @usableFromInline
    init(cache: RecordEncoderCache) {
        self.unmanagedCache = Unmanaged.passUnretained(cache)
        if case .useDefaultKeys = Record.databaseColumnEncodingStrategy {
            usesDefaultKeys = true
        } else {
            usesDefaultKeys = false
        }
    }

    @usableFromInline var codingPath: [any CodingKey] { [] }

    @inlinable
    @inline(__always)
    func column(forKey key: Key) -> String {
        usesDefaultKeys ? key.stringValue : Record.databaseColumnEncodingStrategy.column(forKey: key)
    }

    @usableFromInline
    var cache: RecordEncoderCache { unmanagedCache.takeUnretainedValue() }

    @inlinable
    @inline(__always)
    func set(_ value: consuming DatabaseValue, forKey key: Key) {
        let column = column(forKey: key)
        let container = unmanagedCache._withUnsafeGuaranteedRef { $0.container! }
        container.pointee.set(value, forColumn: column)
    }

    @inlinable func encodeNil(forKey key: Key) throws { set(.null, forKey: key) }
    @inlinable func encode(_ value: Bool, forKey key: Key) throws { set(value.databaseValue, forKey: key) }
    @inlinable func encode(_ value: String, forKey key: Key) throws { set(value.databaseValue, forKey: key) }
    @inlinable func encode(_ value: Double, forKey key: Key) throws { set(value.databaseValue, forKey: key) }
    @inlinable func encode(_ value: Float, forKey key: Key) throws { set(value.databaseValue, forKey: key) }
    @inlinable func encode(_ value: Int, forKey key: Key) throws { set(DatabaseValue(storage: .int64(Int64(value))), forKey: key) }
    @inlinable func encode(_ value: Int8, forKey key: Key) throws { set(DatabaseValue(storage: .int64(Int64(value))), forKey: key) }
    @inlinable func encode(_ value: Int16, forKey key: Key) throws { set(DatabaseValue(storage: .int64(Int64(value))), forKey: key) }
    @inlinable func encode(_ value: Int32, forKey key: Key) throws { set(DatabaseValue(storage: .int64(Int64(value))), forKey: key) }
    @inlinable func encode(_ value: Int64, forKey key: Key) throws { set(DatabaseValue(storage: .int64(value)), forKey: key) }
    @inlinable func encode(_ value: UInt8, forKey key: Key) throws { set(DatabaseValue(storage: .int64(Int64(value))), forKey: key) }
    @inlinable func encode(_ value: UInt16, forKey key: Key) throws { set(DatabaseValue(storage: .int64(Int64(value))), forKey: key) }
    @inlinable func encode(_ value: UInt32, forKey key: Key) throws { set(DatabaseValue(storage: .int64(Int64(value))), forKey: key) }
    @inlinable func encode(_ value: UInt, forKey key: Key) throws { try set(unsigned(value, key), forKey: key) }
    @inlinable func encode(_ value: UInt64, forKey key: Key) throws { try set(unsigned(value, key), forKey: key) }

    @inlinable func encodeIfPresent(_ value: Bool?, forKey key: Key) throws { set(value.databaseValue, forKey: key) }
    @inlinable func encodeIfPresent(_ value: String?, forKey key: Key) throws { set(value.databaseValue, forKey: key) }
    @inlinable func encodeIfPresent(_ value: Double?, forKey key: Key) throws { set(value.databaseValue, forKey: key) }
    @inlinable func encodeIfPresent(_ value: Float?, forKey key: Key) throws { set(value.databaseValue, forKey: key) }
    @inlinable func encodeIfPresent(_ value: Int?, forKey key: Key) throws { set(value.databaseValue, forKey: key) }
    @inlinable func encodeIfPresent(_ value: Int8?, forKey key: Key) throws { set(value.databaseValue, forKey: key) }
    @inlinable func encodeIfPresent(_ value: Int16?, forKey key: Key) throws { set(value.databaseValue, forKey: key) }
    @inlinable func encodeIfPresent(_ value: Int32?, forKey key: Key) throws { set(value.databaseValue, forKey: key) }
    @inlinable func encodeIfPresent(_ value: Int64?, forKey key: Key) throws { set(value.databaseValue, forKey: key) }
    @inlinable func encodeIfPresent(_ value: UInt8?, forKey key: Key) throws { set(value.databaseValue, forKey: key) }
    @inlinable func encodeIfPresent(_ value: UInt16?, forKey key: Key) throws { set(value.databaseValue, forKey: key) }
    @inlinable func encodeIfPresent(_ value: UInt32?, forKey key: Key) throws { set(value.databaseValue, forKey: key) }
    @inlinable func encodeIfPresent(_ value: UInt?, forKey key: Key) throws { try set(value.map { try unsigned($0, key) } ?? .null, forKey: key) }
    @inlinable func encodeIfPresent(_ value: UInt64?, forKey key: Key) throws { try set(value.map { try unsigned($0, key) } ?? .null, forKey: key) }

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
        let container = unmanagedCache._withUnsafeGuaranteedRef { $0.container! }
        container.pointee.set(dbValue, forColumn: column)
    }

    @usableFromInline
    func encodeIfPresent<T: Encodable>(_ value: T?, forKey key: Key) throws {
        guard let value else { return set(.null, forKey: key) }
        try encode(value, forKey: key)
    }

    @usableFromInline
    func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type, forKey key: Key) -> KeyedEncodingContainer<NestedKey> {
        fatalError("\(Record.self): nested containers are not supported: store nested values as Codable properties (JSON)")
    }

    @usableFromInline
    func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
        fatalError("\(Record.self): nested containers are not supported: store nested values as Codable properties (JSON)")
    }

    @usableFromInline
    func superEncoder() -> any Encoder { RecordEncoder<Record>(cache: cache) }

    @usableFromInline
    func superEncoder(forKey key: Key) -> any Encoder { RecordEncoder<Record>(cache: cache) }
}

/// Turns any `Encodable` value into a database value.
enum RecordValueEncoding<Record: EncodableRecord> {
    static func databaseValue<T: Encodable>(_ value: T, column: String, key: some CodingKey) throws -> DatabaseValue {
        if let date = value as? Date {
            return Record.databaseDateEncodingStrategy(for: column).encode(date)
        }
        if let data = value as? Data {
            return try Record.databaseDataEncodingStrategy(for: column).encode(data)
        }
        if let uuid = value as? UUID {
            return Record.databaseUUIDEncodingStrategy(for: column).encode(uuid)
        }
        if let value = value as? any DatabaseValueConvertible {
            return try checked(value, column: column, key: key)
        }
        // A single value (an enum with a raw value...), or JSON.
        let encoder = SingleValueColumnEncoder()
        try value.encode(to: encoder)
        if !encoder.requiresJSON, let dbValue = encoder.value {
            return dbValue
        }
        let json = try Record.databaseJSONEncoder(for: column).encode(value)
        return String(decoding: json, as: UTF8.self).databaseValue
    }

    /// The database value of a convertible value; unsigned integers out of
    /// Int64's range are an error instead of a trap.
    private static func checked(_ value: any DatabaseValueConvertible, column: String, key: some CodingKey) throws -> DatabaseValue {
        if let value = value as? any FixedWidthInteger, Int64(exactly: value) == nil {
            throw EncodingError.invalidValue(value, EncodingError.Context(
                codingPath: [key],
                debugDescription: "\(type(of: value)) value \(value) of column \(String(reflecting: column)) "
                    + "can't be stored in SQLite: it exceeds Int64.max"))
        }
        return value.databaseValue
    }
}

/// Captures a value encoded as a single value; any keyed or unkeyed
/// container means the value must be stored as JSON.
final class SingleValueColumnEncoder: Encoder, SingleValueEncodingContainer {
    var value: DatabaseValue?
    var requiresJSON = false
    var codingPath: [any CodingKey] { [] }
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        requiresJSON = true
        return KeyedEncodingContainer(IgnoringKeyedContainer<Key>())
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        requiresJSON = true
        return IgnoringUnkeyedContainer()
    }

    func singleValueContainer() -> any SingleValueEncodingContainer { self }

    func encodeNil() throws { value = .null }

    func encode<T: Encodable>(_ value: T) throws {
        if let value = value as? any DatabaseValueConvertible {
            self.value = value.databaseValue
        } else {
            // A wrapper of a wrapper: JSON is the safe representation.
            requiresJSON = true
        }
    }

    func encode(_ value: Bool) throws { self.value = value.databaseValue }
    func encode(_ value: String) throws { self.value = value.databaseValue }
    func encode(_ value: Double) throws { self.value = value.databaseValue }
    func encode(_ value: Float) throws { self.value = value.databaseValue }
    func encode(_ value: Int) throws { self.value = value.databaseValue }
    func encode(_ value: Int8) throws { self.value = value.databaseValue }
    func encode(_ value: Int16) throws { self.value = value.databaseValue }
    func encode(_ value: Int32) throws { self.value = value.databaseValue }
    func encode(_ value: Int64) throws { self.value = value.databaseValue }
    func encode(_ value: UInt8) throws { self.value = value.databaseValue }
    func encode(_ value: UInt16) throws { self.value = value.databaseValue }
    func encode(_ value: UInt32) throws { self.value = value.databaseValue }
    func encode(_ value: UInt) throws { try encode(UInt64(value)) }
    func encode(_ value: UInt64) throws {
        guard let value = Int64(exactly: value) else {
            throw EncodingError.invalidValue(value, EncodingError.Context(
                codingPath: [], debugDescription: "UInt64 value \(value) can't be stored in SQLite: it exceeds Int64.max"))
        }
        self.value = value.databaseValue
    }
}

/// Swallows what a JSON-bound value writes while we find out it is JSON.
private struct IgnoringKeyedContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
    var codingPath: [any CodingKey] { [] }
    mutating func encodeNil(forKey key: Key) { }
    mutating func encode<T: Encodable>(_ value: T, forKey key: Key) { }
    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type, forKey key: Key) -> KeyedEncodingContainer<NestedKey> {
        KeyedEncodingContainer(IgnoringKeyedContainer<NestedKey>())
    }
    mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer { IgnoringUnkeyedContainer() }
    mutating func superEncoder() -> any Encoder { SingleValueColumnEncoder() }
    mutating func superEncoder(forKey key: Key) -> any Encoder { SingleValueColumnEncoder() }
}

private struct IgnoringUnkeyedContainer: UnkeyedEncodingContainer {
    var codingPath: [any CodingKey] { [] }
    var count = 0
    mutating func encodeNil() { }
    mutating func encode<T: Encodable>(_ value: T) { }
    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type) -> KeyedEncodingContainer<NestedKey> {
        KeyedEncodingContainer(IgnoringKeyedContainer<NestedKey>())
    }
    mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer { IgnoringUnkeyedContainer() }
    mutating func superEncoder() -> any Encoder { SingleValueColumnEncoder() }
}
