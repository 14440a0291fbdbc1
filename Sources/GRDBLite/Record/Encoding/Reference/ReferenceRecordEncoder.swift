import Foundation

// The reference encoder of `Encodable` records: the same rules as the fast
// path (see `EncodingEntryPoint.swift`), written plainly, with no unsafe
// construct and no cache. `GRDBLITE_REFERENCE_CODERS=1` selects it (see
// ``ReferenceCoders``), so that the tests can check the fast path against
// it.

/// The persistence container that the encoder and containers of one call
/// of `encode(to:)` write into. Once the call returns, it is closed: an
/// encoder or container kept beyond the call traps when it is used.
final class ReferenceEncodingTarget {
    var container: PersistenceContainer
    var isOpen = true

    init(container: PersistenceContainer) {
        self.container = container
    }

    /// Encodes `record` into `container`.
    static func encode<Record: EncodableRecord & Encodable>(
        _ record: Record, to container: inout PersistenceContainer) throws
    {
        // The target holds the container during the call (the swap copies
        // nothing), then gives it back and closes.
        let target = ReferenceEncodingTarget(container: PersistenceContainer())
        swap(&container, &target.container)
        defer {
            swap(&container, &target.container)
            target.isOpen = false
        }
        try record.encode(to: ReferenceRecordEncoder<Record>(target: target))
    }
}

/// The `Encoder` of `Encodable` records, in the reference encoder.
struct ReferenceRecordEncoder<Record: EncodableRecord>: Encoder {
    let target: ReferenceEncodingTarget

    var codingPath: [any CodingKey] { [] }

    var userInfo: [CodingUserInfoKey: Any] {
        checkOpen()
        return Record.databaseEncodingUserInfo
    }

    /// Traps outside of the call of `encode(to:)` that the encoder serves.
    func checkOpen() {
        guard target.isOpen else {
            fatalError("""
                The Encoder of a record was used after its `encode(to:)` returned: \
                it writes into the persistence container of that call only. \
                Encode values inside `encode(to:)` instead of keeping the encoder.
                """)
        }
    }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        checkOpen()
        return KeyedEncodingContainer(ReferenceKeyedEncodingContainer<Record, Key>(target: target))
    }

    /// A record can't be a list: the container throws when it is used.
    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        RefusingUnkeyedEncodingContainer(
            reason: "\(Record.self) can't be encoded as a list: a record encodes its columns in a keyed container")
    }

    /// Encodes a value whose columns are the record's: a record, or a value
    /// encoded with a keyed container.
    func singleValueContainer() -> any SingleValueEncodingContainer {
        ReferenceRecordSingleValueEncodingContainer(encoder: self)
    }
}

/// The single-value container of a record: the value it encodes writes its
/// columns into the record's persistence container (a wrapper record that
/// encodes its wrapped model). A value that is not made of columns (a
/// string, nil...) is an error.
struct ReferenceRecordSingleValueEncodingContainer<Record: EncodableRecord>: SingleValueEncodingContainer {
    let encoder: ReferenceRecordEncoder<Record>
    var codingPath: [any CodingKey] { [] }

    func encode<T: Encodable>(_ value: T) throws {
        encoder.checkOpen()
        if let record = value as? any EncodableRecord {
            try record.encode(to: &encoder.target.container)
        } else {
            try value.encode(to: encoder)
        }
    }

    func refuse(_ value: Any?) throws -> Never {
        encoder.checkOpen()
        throw EncodingError.invalidValue(value as Any, EncodingError.Context(
            codingPath: [],
            debugDescription: "\(Record.self) can't encode a single value: a record encodes its columns"))
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
