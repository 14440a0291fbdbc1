import CSQLite
import Foundation

/// Decodes a single column.
struct ColumnDecoder<Record: FetchableRecord>: Decoder, SingleValueDecodingContainer {
    let row: Row
    let columnIndex: Int
    let codingPath: [any CodingKey]
    /// Whether `decode<T>` decodes records from the whole row (a single
    /// value container of the row itself).
    let recordFromRow: Bool

    var userInfo: [CodingUserInfoKey: Any] { Record.databaseDecodingUserInfo }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        if recordFromRow {
            return try NestedRowDecoder<Record>(row: row, codingPath: codingPath).container(keyedBy: type)
        }
        throw JSONRequired()
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer { throw JSONRequired() }

    func singleValueContainer() throws -> any SingleValueDecodingContainer { self }

    func decodeNil() -> Bool {
        columnIndex >= row.count || row.hasNull(atUncheckedIndex: columnIndex)
    }

    private func value<T: DatabaseValueConvertible & StatementColumnConvertible>(_ type: T.Type) throws -> T {
        guard columnIndex < row.count else {
            throw DecodingError.valueNotFound(
                T.self, DecodingError.Context(codingPath: codingPath, debugDescription: "empty row"))
        }
        return try row.fastDecode(T.self, atUncheckedIndex: columnIndex)
    }

    func decode(_ type: Bool.Type) throws -> Bool { try value(type) }
    func decode(_ type: String.Type) throws -> String { try value(type) }
    func decode(_ type: Double.Type) throws -> Double { try value(type) }
    func decode(_ type: Float.Type) throws -> Float { try value(type) }
    func decode(_ type: Int.Type) throws -> Int { try value(type) }
    func decode(_ type: Int8.Type) throws -> Int8 { try value(type) }
    func decode(_ type: Int16.Type) throws -> Int16 { try value(type) }
    func decode(_ type: Int32.Type) throws -> Int32 { try value(type) }
    func decode(_ type: Int64.Type) throws -> Int64 { try value(type) }
    func decode(_ type: UInt.Type) throws -> UInt { try value(type) }
    func decode(_ type: UInt8.Type) throws -> UInt8 { try value(type) }
    func decode(_ type: UInt16.Type) throws -> UInt16 { try value(type) }
    func decode(_ type: UInt32.Type) throws -> UInt32 { try value(type) }
    func decode(_ type: UInt64.Type) throws -> UInt64 { try value(type) }

    func decode<T: Decodable>(_ type: T.Type) throws -> T {
        if recordFromRow {
            if T.self is any DatabaseValueConvertible.Type, row.count > 0 {
                return try RecordValueDecoding<Record>.decode(T.self, row: row, columnIndex: 0, codingPath: codingPath)
            }
            return try RecordValueDecoding<Record>.decodeRecord(T.self, from: row, codingPath: codingPath)
        }
        return try RecordValueDecoding<Record>.decode(
            T.self, row: row, columnIndex: columnIndex, codingPath: codingPath)
    }
}
