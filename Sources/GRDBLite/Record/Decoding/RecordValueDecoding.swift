import CSQLite
import Foundation

/// Decoding of values and nested records that are not the fast path.
enum RecordValueDecoding<Record: FetchableRecord> {
    /// Decodes column `columnIndex`: `Date` and `Data` with the record's
    /// strategies, database values directly, other types from a single
    /// value, or from JSON.
    ///
    /// `codingPath` is only built for values decoded with a decoder: an
    /// array of one more key costs an allocation per decoded value.
    static func decode<T: Decodable>(
        _ type: T.Type, row: Row, columnIndex index: Int,
        codingPath: @autoclosure () -> [any CodingKey]) throws -> T
    {
        if T.self == Date.self {
            let strategy = Record.databaseDateDecodingStrategy(for: row.columnName(atUncheckedIndex: index))
            // Unsafe: T is Date (a cast with `as!` is a runtime call).
            return unsafeBitCast(try strategy.decode(row: row, columnIndex: index), to: T.self)
        }
        if T.self == Data.self {
            let strategy = Record.databaseDataDecodingStrategy(for: row.columnName(atUncheckedIndex: index))
            let data = try strategy.decode(row: row, columnIndex: index)
            // Unsafe: T is Data.
            return unsafeBitCast(data, to: T.self)
        }
        if let type = T.self as? any (DatabaseValueConvertible & StatementColumnConvertible).Type {
            return try decodeFast(type, row: row, index: index) as! T
        }
        if let type = T.self as? any DatabaseValueConvertible.Type {
            return try decodeValue(type, row: row, index: index) as! T
        }
        do {
            return try T(
                from: ColumnDecoder<Record>(
                    row: row, columnIndex: index, codingPath: codingPath(), recordFromRow: false))
        } catch is JSONRequired {
            return try decodeJSON(T.self, row: row, columnIndex: index)
        }
    }

    private static func decodeFast<V: DatabaseValueConvertible & StatementColumnConvertible>(
        _ type: V.Type, row: Row, index: Int
    ) throws -> V {
        try row.fastDecode(V.self, atUncheckedIndex: index)
    }

    private static func decodeValue<V: DatabaseValueConvertible>(_ type: V.Type, row: Row, index: Int) throws -> V {
        try V.decode(fromRow: row, atUncheckedIndex: index)
    }

    /// Decodes a value stored as JSON text (or a blob of JSON).
    static func decodeJSON<T: Decodable>(_ type: T.Type, row: Row, columnIndex index: Int) throws -> T {
        let dbValue = row.databaseValue(atUncheckedIndex: index)
        let data: Data
        switch dbValue.storage {
        case .string(let string): data = Data(string.utf8)
        case .blob(let blob): data = blob
        default: throw RowDecodingError.valueMismatch(T.self, row: row, columnIndex: index, databaseValue: dbValue)
        }
        do {
            return try Record.databaseJSONDecoder(for: row.columnName(atUncheckedIndex: index)).decode(
                T.self, from: data)
        } catch {
            throw RowDecodingError.valueMismatch(T.self, row: row, columnIndex: index, underlying: error)
        }
    }

    /// Decodes a nested record from a row (a scope, or the whole row).
    static func decodeRecord<T: Decodable>(_ type: T.Type, from row: Row, codingPath: [any CodingKey]) throws -> T {
        if let type = T.self as? any FetchableRecord.Type {
            return try type.init(row: row) as! T
        }
        return try T(from: NestedRowDecoder<Record>(row: row, codingPath: codingPath))
    }
}

/// Thrown when a value wants a keyed or unkeyed container: it is decoded
/// from JSON instead.
struct JSONRequired: Error { }
