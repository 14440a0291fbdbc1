import Foundation

/// An unkeyed container that throws an `EncodingError` when it is used:
/// what a record encoder gives where it can't encode.
struct RefusingUnkeyedEncodingContainer: UnkeyedEncodingContainer {
    let reason: String
    var codingPath: [any CodingKey] { [] }
    var count: Int { 0 }

    func refuse() throws -> Never {
        throw EncodingError.invalidValue((), EncodingError.Context(codingPath: [], debugDescription: reason))
    }

    mutating func encodeNil() throws { try refuse() }
    mutating func encode<T: Encodable>(_ value: T) throws { try refuse() }
    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type) -> KeyedEncodingContainer<
        NestedKey
    > {
        KeyedEncodingContainer(RefusingKeyedEncodingContainer<NestedKey>(reason: reason))
    }
    mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer { self }
    mutating func superEncoder() -> any Encoder { RefusingEncoder(reason: reason) }
}

/// A keyed container that throws an `EncodingError` when it is used.
struct RefusingKeyedEncodingContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
    let reason: String
    var codingPath: [any CodingKey] { [] }

    func refuse() throws -> Never {
        throw EncodingError.invalidValue((), EncodingError.Context(codingPath: [], debugDescription: reason))
    }

    mutating func encodeNil(forKey key: Key) throws { try refuse() }
    mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws { try refuse() }
    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type, forKey key: Key)
        -> KeyedEncodingContainer<NestedKey>
    {
        KeyedEncodingContainer(RefusingKeyedEncodingContainer<NestedKey>(reason: reason))
    }
    mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
        RefusingUnkeyedEncodingContainer(reason: reason)
    }
    mutating func superEncoder() -> any Encoder { RefusingEncoder(reason: reason) }
    mutating func superEncoder(forKey key: Key) -> any Encoder { RefusingEncoder(reason: reason) }
}

/// An encoder whose containers throw an `EncodingError` when they are used.
struct RefusingEncoder: Encoder, SingleValueEncodingContainer {
    let reason: String
    var codingPath: [any CodingKey] { [] }
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        KeyedEncodingContainer(RefusingKeyedEncodingContainer<Key>(reason: reason))
    }
    func unkeyedContainer() -> any UnkeyedEncodingContainer { RefusingUnkeyedEncodingContainer(reason: reason) }
    func singleValueContainer() -> any SingleValueEncodingContainer { self }

    func refuse() throws -> Never {
        throw EncodingError.invalidValue((), EncodingError.Context(codingPath: [], debugDescription: reason))
    }

    mutating func encodeNil() throws { try refuse() }
    mutating func encode<T: Encodable>(_ value: T) throws { try refuse() }
}
