import CSQLite
import Foundation

/// The `Decoder` of `Decodable` records decoded from a whole row. It holds
/// the row only: building and destroying it for every record costs one
/// retain and one release.
@usableFromInline
struct RowDecoder<Record: FetchableRecord>: Decoder {
    @usableFromInline let row: Row

    @inlinable
    init(row: Row) {
        self.row = row
    }

    @usableFromInline
    var codingPath: [any CodingKey] { [] }

    @usableFromInline
    var userInfo: [CodingUserInfoKey: Any] { Record.databaseDecodingUserInfo }

    @inlinable
    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        // Rows of a cursor are the same object for every record: reuse the
        // container built for the first one.
        RowDecoderCache.container(Record.self, keyedBy: type, row: row)
    }

    @usableFromInline
    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        try NestedRowDecoder<Record>(row: row, codingPath: []).unkeyedContainer()
    }

    @usableFromInline
    func singleValueContainer() throws -> any SingleValueDecodingContainer {
        try NestedRowDecoder<Record>(row: row, codingPath: []).singleValueContainer()
    }
}

/// The `Decoder` of a value decoded from a row at a coding path: a nested
/// record, a super decoder. Its keyed containers own their state.
struct NestedRowDecoder<Record: FetchableRecord>: Decoder {
    let row: Row
    let codingPath: [any CodingKey]

    var userInfo: [CodingUserInfoKey: Any] { Record.databaseDecodingUserInfo }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        if codingPath.isEmpty {
            return RowDecoderCache.container(Record.self, keyedBy: type, row: row)
        }
        return KeyedDecodingContainer(OwningRowKeyedDecodingContainer<Record, Key>(row: row, codingPath: codingPath))
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        throw DecodingError.typeMismatch([Any].self, DecodingError.Context(
            codingPath: codingPath,
            debugDescription: "a database row is not a list: decode a to-many association with including(all:)"))
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer {
        guard let key = codingPath.last else {
            // A single value of the whole row: its first column.
            return ColumnDecoder<Record>(row: row, columnIndex: 0, codingPath: codingPath, recordFromRow: true)
        }
        guard let index = row.index(forColumn: key.stringValue) else {
            throw RowDecodingError.columnNotFound(key.stringValue, type: Any.self, row: row)
        }
        return ColumnDecoder<Record>(row: row, columnIndex: index, codingPath: codingPath, recordFromRow: false)
    }
}
