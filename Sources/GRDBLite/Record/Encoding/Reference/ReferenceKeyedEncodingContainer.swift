import Foundation

/// Writes the columns of a record into the persistence container of the
/// running `encode(to:)`, in the reference encoder: each key writes the
/// column of its name (through `databaseColumnEncodingStrategy`).
struct ReferenceKeyedEncodingContainer<Record: EncodableRecord, Key: CodingKey>: KeyedEncodingContainerProtocol {
    let target: ReferenceEncodingTarget

    var codingPath: [any CodingKey] { [] }

    func column(forKey key: Key) -> String {
        Record.databaseColumnEncodingStrategy.column(forKey: key)
    }

    /// Traps outside of the call of `encode(to:)` that gave out the
    /// container.
    func checkOpen() {
        guard target.isOpen else {
            fatalError("""
                A KeyedEncodingContainer of a record was used after its `encode(to:)` returned: \
                it writes into the persistence container of that call only. \
                Encode values inside `encode(to:)` instead of keeping the container.
                """)
        }
    }

    /// Stores the value of a key.
    func set(_ value: DatabaseValue, forKey key: Key) {
        checkOpen()
        target.container.set(value, forColumn: column(forKey: key))
    }

    /// Unsigned values above Int64.max can't be stored: an error.
    func unsigned<T: FixedWidthInteger>(_ value: T, _ key: Key) throws -> DatabaseValue {
        guard let value = Int64(exactly: value) else {
            throw EncodingError.invalidValue(value, EncodingError.Context(
                codingPath: [key],
                debugDescription: "\(T.self) value \(value) of column \(String(reflecting: column(forKey: key))) "
                    + "can't be stored in SQLite: it exceeds Int64.max"))
        }
        return DatabaseValue(storage: .int64(value))
    }

    func encodeNil(forKey key: Key) throws { set(.null, forKey: key) }
    func encode(_ value: Bool, forKey key: Key) throws { set(value.databaseValue, forKey: key) }
    func encode(_ value: String, forKey key: Key) throws { set(value.databaseValue, forKey: key) }
    func encode(_ value: Double, forKey key: Key) throws { set(value.databaseValue, forKey: key) }
    func encode(_ value: Float, forKey key: Key) throws { set(value.databaseValue, forKey: key) }
    func encode(_ value: Int, forKey key: Key) throws { set(value.databaseValue, forKey: key) }
    func encode(_ value: Int8, forKey key: Key) throws { set(value.databaseValue, forKey: key) }
    func encode(_ value: Int16, forKey key: Key) throws { set(value.databaseValue, forKey: key) }
    func encode(_ value: Int32, forKey key: Key) throws { set(value.databaseValue, forKey: key) }
    func encode(_ value: Int64, forKey key: Key) throws { set(value.databaseValue, forKey: key) }
    func encode(_ value: UInt8, forKey key: Key) throws { set(value.databaseValue, forKey: key) }
    func encode(_ value: UInt16, forKey key: Key) throws { set(value.databaseValue, forKey: key) }
    func encode(_ value: UInt32, forKey key: Key) throws { set(value.databaseValue, forKey: key) }
    func encode(_ value: UInt, forKey key: Key) throws { set(try unsigned(value, key), forKey: key) }
    func encode(_ value: UInt64, forKey key: Key) throws { set(try unsigned(value, key), forKey: key) }

    func encodeIfPresent(_ value: Bool?, forKey key: Key) throws { set(value.databaseValue, forKey: key) }
    func encodeIfPresent(_ value: String?, forKey key: Key) throws { set(value.databaseValue, forKey: key) }
    func encodeIfPresent(_ value: Double?, forKey key: Key) throws { set(value.databaseValue, forKey: key) }
    func encodeIfPresent(_ value: Float?, forKey key: Key) throws { set(value.databaseValue, forKey: key) }
    func encodeIfPresent(_ value: Int?, forKey key: Key) throws { set(value.databaseValue, forKey: key) }
    func encodeIfPresent(_ value: Int8?, forKey key: Key) throws { set(value.databaseValue, forKey: key) }
    func encodeIfPresent(_ value: Int16?, forKey key: Key) throws { set(value.databaseValue, forKey: key) }
    func encodeIfPresent(_ value: Int32?, forKey key: Key) throws { set(value.databaseValue, forKey: key) }
    func encodeIfPresent(_ value: Int64?, forKey key: Key) throws { set(value.databaseValue, forKey: key) }
    func encodeIfPresent(_ value: UInt8?, forKey key: Key) throws { set(value.databaseValue, forKey: key) }
    func encodeIfPresent(_ value: UInt16?, forKey key: Key) throws { set(value.databaseValue, forKey: key) }
    func encodeIfPresent(_ value: UInt32?, forKey key: Key) throws { set(value.databaseValue, forKey: key) }
    func encodeIfPresent(_ value: UInt?, forKey key: Key) throws {
        set(try value.map { try unsigned($0, key) } ?? .null, forKey: key)
    }
    func encodeIfPresent(_ value: UInt64?, forKey key: Key) throws {
        set(try value.map { try unsigned($0, key) } ?? .null, forKey: key)
    }

    func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
        let column = column(forKey: key)
        set(try ReferenceValueEncoding<Record>.databaseValue(value, column: column, key: key), forKey: key)
    }

    func encodeIfPresent<T: Encodable>(_ value: T?, forKey key: Key) throws {
        guard let value else { return set(.null, forKey: key) }
        try encode(value, forKey: key)
    }

    /// Not supported: the container throws when it is used.
    func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type, forKey key: Key)
        -> KeyedEncodingContainer<NestedKey>
    {
        KeyedEncodingContainer(RefusingKeyedEncodingContainer<NestedKey>(reason: Self.nestedContainerReason))
    }

    /// Not supported: the container throws when it is used.
    func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
        RefusingUnkeyedEncodingContainer(reason: Self.nestedContainerReason)
    }

    static var nestedContainerReason: String {
        "\(Record.self): nested containers are not supported: store nested values as Codable properties (JSON)"
    }

    func superEncoder() -> any Encoder {
        checkOpen()
        return ReferenceRecordEncoder<Record>(target: target)
    }

    func superEncoder(forKey key: Key) -> any Encoder { superEncoder() }
}
