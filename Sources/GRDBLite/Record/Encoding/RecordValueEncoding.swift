import Foundation

/// Turns any `Encodable` value into a database value.
enum RecordValueEncoding<Record: EncodableRecord> {
    ///
    /// `Date`, `Data` and `UUID` are recognized by their metadata, a
    /// comparison of pointers, before any dynamic cast: `as?` costs a
    /// runtime call, for every value.
    static func databaseValue<T: Encodable>(_ value: T, column: String, key: some CodingKey) throws -> DatabaseValue {
        if T.self == Date.self {
            // Unsafe: T is Date.
            return Record.databaseDateEncodingStrategy(for: column).encode(unsafeBitCast(value, to: Date.self))
        }
        if T.self == Data.self {
            return try Record.databaseDataEncodingStrategy(for: column).encode(value as! Data)
        }
        if T.self == UUID.self {
            // Unsafe: T is UUID.
            return Record.databaseUUIDEncodingStrategy(for: column).encode(unsafeBitCast(value, to: UUID.self))
        }
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
        let encoder = SingleValueColumnEncoder<Record>(column: column, key: key)
        try value.encode(to: encoder)
        if !encoder.requiresJSON, let dbValue = encoder.value {
            return dbValue
        }
        let json = try Record.databaseJSONEncoder(for: column).encode(value)
        return String(decoding: json, as: UTF8.self).databaseValue
    }

    /// The database value of a convertible value; unsigned integers out of
    /// Int64's range are an error instead of a trap.
    private static func checked(_ value: any DatabaseValueConvertible, column: String, key: some CodingKey) throws
        -> DatabaseValue
    {
        if let value = value as? any FixedWidthInteger, Int64(exactly: value) == nil {
            throw EncodingError.invalidValue(value, EncodingError.Context(
                codingPath: [key],
                debugDescription: "\(type(of: value)) value \(value) of column \(String(reflecting: column)) "
                    + "can't be stored in SQLite: it exceeds Int64.max"))
        }
        return value.databaseValue
    }
}
