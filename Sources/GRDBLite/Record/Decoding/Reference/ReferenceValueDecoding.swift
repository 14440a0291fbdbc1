import Foundation

/// The values of the reference decoder: columns read with the record's
/// strategies, as database values, as single values, or from JSON; and
/// nested records.
enum ReferenceValueDecoding<Record: FetchableRecord> {
    /// Decodes column `index`: `Date` and `Data` with the record's
    /// strategies, database values directly, other types from a single
    /// value, or from the JSON of the column.
    static func decode<T: Decodable>(
        _ type: T.Type, row: Row, columnIndex index: Int, codingPath: [any CodingKey]) throws -> T
    {
        let column = row.columnName(atUncheckedIndex: index)
        if T.self == Date.self {
            let date = try Record.databaseDateDecodingStrategy(for: column).decode(row: row, columnIndex: index)
            return date as! T
        }
        if T.self == Data.self {
            return try Record.databaseDataDecodingStrategy(for: column).decode(row: row, columnIndex: index) as! T
        }
        if let type = T.self as? any (DatabaseValueConvertible & StatementColumnConvertible).Type {
            return try decodeColumn(type, row: row, index: index) as! T
        }
        if let type = T.self as? any DatabaseValueConvertible.Type {
            return try decodeValue(type, row: row, index: index) as! T
        }
        do {
            return try T(
                from: ReferenceColumnDecoder<Record>(
                    row: row, columnIndex: index, codingPath: codingPath, recordFromRow: false))
        } catch is JSONRequired {
            return try decodeJSON(T.self, row: row, columnIndex: index)
        }
    }

    private static func decodeColumn<V: DatabaseValueConvertible & StatementColumnConvertible>(
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

    /// Decodes a nested record from a row (a scope, or the whole row): a
    /// `FetchableRecord` with its own `init(row:)`, another type with the
    /// strategies of `Record`.
    static func decodeRecord<T: Decodable>(_ type: T.Type, from row: Row, codingPath: [any CodingKey]) throws -> T {
        if let type = T.self as? any FetchableRecord.Type {
            return try type.init(row: row) as! T
        }
        return try T(from: ReferenceRowDecoder<Record>(row: row, codingPath: codingPath))
    }
}
