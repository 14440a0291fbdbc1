import Foundation

/// Turns any `Encodable` value into a database value, in the reference
/// encoder: `Date`, `Data` and `UUID` through the record's strategies,
/// database values as they are, single values (an enum with a raw
/// value...) as their value, other values as JSON text.
enum ReferenceValueEncoding<Record: EncodableRecord> {
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
            if let integer = value as? any FixedWidthInteger, Int64(exactly: integer) == nil {
                throw EncodingError.invalidValue(value, EncodingError.Context(
                    codingPath: [key],
                    debugDescription: "\(type(of: value)) value \(value) of column \(String(reflecting: column)) "
                        + "can't be stored in SQLite: it exceeds Int64.max"))
            }
            return value.databaseValue
        }
        let encoder = ReferenceColumnEncoder<Record>(column: column, key: key)
        try value.encode(to: encoder)
        if !encoder.requiresJSON, let dbValue = encoder.value {
            return dbValue
        }
        let json = try Record.databaseJSONEncoder(for: column).encode(value)
        return String(decoding: json, as: UTF8.self).databaseValue
    }
}

/// Captures a value encoded as a single value; any keyed or unkeyed
/// container means that the value is stored as JSON.
final class ReferenceColumnEncoder<Record: EncodableRecord>: Encoder, SingleValueEncodingContainer {
    var value: DatabaseValue?
    var requiresJSON = false
    let column: String
    let key: any CodingKey
    var codingPath: [any CodingKey] { [key] }
    var userInfo: [CodingUserInfoKey: Any] { Record.databaseEncodingUserInfo }

    init(column: String, key: some CodingKey) {
        self.column = column
        self.key = key
    }

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
        // A wrapper of a value: the value is the column's.
        self.value = try ReferenceValueEncoding<Record>.databaseValue(value, column: column, key: key)
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
                codingPath: [],
                debugDescription: "UInt64 value \(value) can't be stored in SQLite: it exceeds Int64.max"))
        }
        self.value = value.databaseValue
    }
}
