import CSQLite
import Foundation

/// Decodes an array of records from prefetched rows.
struct PrefetchedRowsDecoder<Record: FetchableRecord>: Decoder, UnkeyedDecodingContainer {
    let rows: [Row]
    let codingPath: [any CodingKey]
    var currentIndex = 0

    init(rows: [Row], codingPath: [any CodingKey]) {
        self.rows = rows
        self.codingPath = codingPath
    }

    var userInfo: [CodingUserInfoKey: Any] { Record.databaseDecodingUserInfo }
    var count: Int? { rows.count }
    var isAtEnd: Bool { currentIndex >= rows.count }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        throw DecodingError.typeMismatch(KeyedDecodingContainer<Key>.self, DecodingError.Context(
            codingPath: codingPath, debugDescription: "prefetched rows decode as an array"))
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer { self }

    func singleValueContainer() throws -> any SingleValueDecodingContainer {
        throw DecodingError.typeMismatch([Any].self, DecodingError.Context(
            codingPath: codingPath, debugDescription: "prefetched rows decode as an array"))
    }

    mutating func decodeNil() throws -> Bool { false }

    mutating func decode<T: Decodable>(_ type: T.Type) throws -> T {
        guard !isAtEnd else {
            throw DecodingError.valueNotFound(
                T.self, DecodingError.Context(codingPath: codingPath, debugDescription: "no more rows"))
        }
        defer { currentIndex += 1 }
        let row = rows[currentIndex]
        if T.self is any DatabaseValueConvertible.Type {
            return try ColumnDecoder<Record>(row: row, columnIndex: 0, codingPath: codingPath, recordFromRow: true)
                .decode(T.self)
        }
        return try RecordValueDecoding<Record>.decodeRecord(T.self, from: row, codingPath: codingPath)
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type) throws -> KeyedDecodingContainer<
        NestedKey
    > {
        guard !isAtEnd else {
            throw DecodingError.valueNotFound(
                KeyedDecodingContainer<NestedKey>.self,
                DecodingError.Context(codingPath: codingPath, debugDescription: "no more rows"))
        }
        defer { currentIndex += 1 }
        return KeyedDecodingContainer(OwningRowKeyedDecodingContainer<Record, NestedKey>(
            row: rows[currentIndex], codingPath: codingPath))
    }

    mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer {
        throw DecodingError.typeMismatch(
            [Any].self, DecodingError.Context(codingPath: codingPath, debugDescription: "rows don't nest"))
    }

    mutating func superDecoder() throws -> any Decoder { self }
}
