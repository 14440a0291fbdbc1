import Foundation
import GRDBLite

// The JSON columns of `@DatabaseRecord` (`@DatabaseJSON`): what its
// expansions call. NULL is nil, never the JSON `null`.

extension FetchableRecord {
    /// The value decoded from the JSON at `index` (for `@DatabaseJSON`).
    public static func databaseJSONValue<Value: Decodable>(
        _ row: Row, atIndex index: Int, column: String) throws -> Value
    {
        let data = try row.decode(Data.self, atIndex: index)
        return try databaseJSONDecoder(for: column).decode(Value.self, from: data)
    }

    /// The value decoded from the JSON at `index`, or nil for NULL (for
    /// `@DatabaseJSON`).
    public static func databaseJSONValueIfPresent<Value: Decodable>(
        _ row: Row, atIndex index: Int, column: String) throws -> Value?
    {
        guard let data = try row.decode(Data?.self, atIndex: index) else { return nil }
        return try databaseJSONDecoder(for: column).decode(Value.self, from: data)
    }
}

extension EncodableRecord {
    /// The JSON text of `value` (for `@DatabaseJSON`).
    public static func databaseJSONText<Value: Encodable>(_ value: Value, column: String) throws -> String {
        try String(decoding: databaseJSONEncoder(for: column).encode(value), as: UTF8.self)
    }

    /// The JSON text of `value`, or nil (NULL) for nil (for `@DatabaseJSON`).
    public static func databaseJSONTextIfPresent<Value: Encodable>(_ value: Value?, column: String) throws
        -> String?
    {
        guard let value else { return nil }
        return try String(decoding: databaseJSONEncoder(for: column).encode(value), as: UTF8.self)
    }
}
