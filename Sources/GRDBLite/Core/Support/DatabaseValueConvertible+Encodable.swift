import Foundation

// An `Encodable` type gets `databaseValue` by declaring the conformance to
// `DatabaseValueConvertible`, as in GRDB:
//
//     struct Name: Encodable, DatabaseValueConvertible {
//         static func fromDatabaseValue(_ dbValue: DatabaseValue) -> Name? { ... }
//         // databaseValue: inferred
//     }
//
// A value that encodes a single value (a string, a number, another
// database value) stores that value; a value that encodes a keyed or an
// unkeyed container (a struct, an array, a dictionary) is stored as JSON
// text, with `databaseJSONEncoder()`.

extension DatabaseValueConvertible where Self: Encodable {
    /// Traps if the value can't be encoded (a `nan` with the default
    /// `nonConformingFloatEncodingStrategy`, an error of `encode(to:)`), as
    /// GRDB does: this property can't throw.
    public var databaseValue: DatabaseValue {
        do {
            let encoder = DatabaseValueEncoder()
            try encode(to: encoder)
            if !encoder.requiresJSON, let dbValue = encoder.value {
                return dbValue
            }
            let json = try Self.databaseJSONEncoder().encode(self)
            return String(decoding: json, as: UTF8.self).databaseValue
        } catch {
            fatalError("\(Self.self) value can't be encoded as a database value: \(error)")
        }
    }
}

extension DatabaseValueConvertible where Self: Encodable & RawRepresentable, Self.RawValue: DatabaseValueConvertible {
    /// The raw value's database value, not `Encodable`'s.
    public var databaseValue: DatabaseValue {
        rawValue.databaseValue
    }
}

/// Encodes a value as one database value, through a single value
/// container; notes when the value wants a keyed or an unkeyed container.
private final class DatabaseValueEncoder: Encoder, SingleValueEncodingContainer {
    var value: DatabaseValue?
    var requiresJSON = false
    var codingPath: [any CodingKey] { [] }
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        requiresJSON = true
        return KeyedEncodingContainer(DiscardingKeyedContainer<Key>())
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        requiresJSON = true
        return DiscardingUnkeyedContainer()
    }

    func singleValueContainer() -> any SingleValueEncodingContainer { self }

    func encodeNil() { value = .null }

    func encode<T: Encodable>(_ value: T) throws {
        if let convertible = value as? any DatabaseValueConvertible {
            self.value = convertible.databaseValue
        } else {
            // A wrapper of another value: it encodes into the same value.
            try value.encode(to: self)
        }
    }
}

/// The containers of a value stored as JSON: what they receive is
/// encoded again by the JSON encoder.
private struct DiscardingKeyedContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
    var codingPath: [any CodingKey] { [] }
    func encodeNil(forKey key: Key) { }
    func encode<T: Encodable>(_ value: T, forKey key: Key) { }
    func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type, forKey key: Key)
        -> KeyedEncodingContainer<NestedKey>
    {
        KeyedEncodingContainer(DiscardingKeyedContainer<NestedKey>())
    }
    func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer { DiscardingUnkeyedContainer() }
    func superEncoder() -> any Encoder { DatabaseValueEncoder() }
    func superEncoder(forKey key: Key) -> any Encoder { DatabaseValueEncoder() }
}

private struct DiscardingUnkeyedContainer: UnkeyedEncodingContainer {
    var codingPath: [any CodingKey] { [] }
    var count: Int { 0 }
    func encodeNil() { }
    func encode<T: Encodable>(_ value: T) { }
    func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type) -> KeyedEncodingContainer<NestedKey> {
        KeyedEncodingContainer(DiscardingKeyedContainer<NestedKey>())
    }
    func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer { DiscardingUnkeyedContainer() }
    func superEncoder() -> any Encoder { DatabaseValueEncoder() }
}
