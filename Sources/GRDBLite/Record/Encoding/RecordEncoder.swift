import Foundation

/// The `Encoder` of `Encodable` records.
@usableFromInline
struct RecordEncoder: Encoder {
    @usableFromInline let cache: RecordEncoderCache
    /// The call of `encode(to:)` that the encoder serves.
    @usableFromInline let call: UInt

    @inlinable
    init(cache: RecordEncoderCache, call: UInt) {
        self.cache = cache
        self.call = call
    }

    @usableFromInline var codingPath: [any CodingKey] { [] }
    @usableFromInline var userInfo: [CodingUserInfoKey: Any] { recordType.databaseEncodingUserInfo }

    /// The type of the record; traps outside of the call of `encode(to:)`
    /// that the encoder serves (another call may have set the cache's).
    @usableFromInline var recordType: any EncodableRecord.Type {
        guard cache.call == call, cache.container != nil else { RecordEncoderCache.encoderMisuse() }
        return cache.recordType
    }

    @inlinable
    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        guard cache.call == call, let container = cache.container else {
            RecordEncoderCache.encoderMisuse()
        }
        if cache.cachedRecord == ObjectIdentifier(cache.recordType), cache.cachedKey == ObjectIdentifier(Key.self) {
            cache.target.container = container
            if cache.otherTargets.isEmpty {
                // Unretained, unsafe: the cache, alive, owns its target.
                Unmanaged.passUnretained(cache.target)._withUnsafeGuaranteedRef { $0.prepareFastPath(container) }
            }
            // Unsafe: the box is there when the record and key types are.
            let box = cache.cachedBox.unsafelyUnwrapped
            // Unsafe: its reader too.
            let reader = cache.cachedReader.unsafelyUnwrapped
            return CodingContainerBox.container(box, reader: reader)
        }
        return cache.makeKeyedContainer(keyedBy: type)
    }

    /// A record can't be a list: the container throws when it is used.
    @usableFromInline
    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        RefusingUnkeyedEncodingContainer(
            reason: "\(recordType) can't be encoded as a list: a record encodes its columns in a keyed container")
    }

    /// Encodes a value whose columns are the record's: a record, or a value
    /// encoded with a keyed container.
    @usableFromInline
    func singleValueContainer() -> any SingleValueEncodingContainer {
        RecordSingleValueEncodingContainer(encoder: self)
    }
}

/// The single-value container of a record: the value it encodes writes its
/// columns into the record's persistence container (a wrapper record that
/// encodes its wrapped model). A value that is not made of columns (a
/// string, nil...) is an error.
struct RecordSingleValueEncodingContainer: SingleValueEncodingContainer {
    let encoder: RecordEncoder
    var codingPath: [any CodingKey] { [] }

    func encode<T: Encodable>(_ value: T) throws {
        guard encoder.cache.call == encoder.call, let container = encoder.cache.container else {
            RecordEncoderCache.encoderMisuse()
        }
        if let record = value as? any EncodableRecord {
            encoder.cache.target.fastCount = 0 // it may grow the arrays
            try record.encode(to: &container.pointee)
        } else {
            try value.encode(to: encoder)
        }
    }

    func refuse(_ value: Any?) throws -> Never {
        throw EncodingError.invalidValue(value as Any, EncodingError.Context(
            codingPath: [],
            debugDescription: "\(encoder.recordType) can't encode a single value: a record encodes its columns"))
    }

    func encodeNil() throws { try refuse(nil) }
    func encode(_ value: Bool) throws { try refuse(value) }
    func encode(_ value: String) throws { try refuse(value) }
    func encode(_ value: Double) throws { try refuse(value) }
    func encode(_ value: Float) throws { try refuse(value) }
    func encode(_ value: Int) throws { try refuse(value) }
    func encode(_ value: Int8) throws { try refuse(value) }
    func encode(_ value: Int16) throws { try refuse(value) }
    func encode(_ value: Int32) throws { try refuse(value) }
    func encode(_ value: Int64) throws { try refuse(value) }
    func encode(_ value: UInt) throws { try refuse(value) }
    func encode(_ value: UInt8) throws { try refuse(value) }
    func encode(_ value: UInt16) throws { try refuse(value) }
    func encode(_ value: UInt32) throws { try refuse(value) }
    func encode(_ value: UInt64) throws { try refuse(value) }
}
