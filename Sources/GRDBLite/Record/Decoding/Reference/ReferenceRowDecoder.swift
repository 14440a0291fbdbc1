import Foundation

// The reference decoder of `Decodable` records: the same rules as the fast
// path (see `DecodingEntryPoints.swift`), written plainly, with no unsafe
// construct and no cache. `GRDBLITE_REFERENCE_CODERS=1` selects it (see
// ``ReferenceCoders``), so that the tests can check the fast path against
// it.

/// The `Decoder` of a value decoded from a row at a coding path: a record
/// (the path is empty), a nested record, a super decoder. It keeps its row
/// alive.
struct ReferenceRowDecoder<Record: FetchableRecord>: Decoder {
    let row: Row
    let codingPath: [any CodingKey]

    var userInfo: [CodingUserInfoKey: Any] { Record.databaseDecodingUserInfo }

    /// Decodes a record of type `Record` from `row`.
    static func decodeRecord(_ type: Record.Type, from row: Row) throws -> Record where Record: Decodable {
        try Record(from: ReferenceRowDecoder(row: row, codingPath: []))
    }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        // The container of a record does not keep its row alive, as the
        // fast path's (a kept container traps once the row is gone);
        // nested containers do.
        KeyedDecodingContainer(
            ReferenceKeyedDecodingContainer<Record, Key>(
                row: row, codingPath: codingPath, keepsRowAlive: !codingPath.isEmpty))
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        throw DecodingError.typeMismatch([Any].self, DecodingError.Context(
            codingPath: codingPath,
            debugDescription: "a database row is not a list: decode a to-many association with including(all:)"))
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer {
        guard let key = codingPath.last else {
            // A single value of the whole row: its first column.
            return ReferenceColumnDecoder<Record>(row: row, columnIndex: 0, codingPath: codingPath, recordFromRow: true)
        }
        guard let index = row.index(forColumn: key.stringValue) else {
            throw RowDecodingError.columnNotFound(key.stringValue, type: Any.self, row: row)
        }
        return ReferenceColumnDecoder<Record>(
            row: row, columnIndex: index, codingPath: codingPath, recordFromRow: false)
    }
}

/// Decodes a single column, or, with `recordFromRow`, a value of the
/// whole row.
struct ReferenceColumnDecoder<Record: FetchableRecord>: Decoder, SingleValueDecodingContainer {
    let row: Row
    let columnIndex: Int
    let codingPath: [any CodingKey]
    /// Whether `decode<T>` decodes records from the whole row (a single
    /// value container of the row itself).
    let recordFromRow: Bool

    var userInfo: [CodingUserInfoKey: Any] { Record.databaseDecodingUserInfo }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        if recordFromRow {
            return try ReferenceRowDecoder<Record>(row: row, codingPath: codingPath).container(keyedBy: type)
        }
        throw JSONRequired()
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer { throw JSONRequired() }

    func singleValueContainer() throws -> any SingleValueDecodingContainer { self }

    func decodeNil() -> Bool {
        columnIndex >= row.count || row.hasNull(atIndex: columnIndex)
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
                return try ReferenceValueDecoding<Record>.decode(
                    T.self, row: row, columnIndex: 0, codingPath: codingPath)
            }
            return try ReferenceValueDecoding<Record>.decodeRecord(T.self, from: row, codingPath: codingPath)
        }
        return try ReferenceValueDecoding<Record>.decode(
            T.self, row: row, columnIndex: columnIndex, codingPath: codingPath)
    }
}

/// Decodes an array of records from prefetched rows (a to-many
/// association).
struct ReferencePrefetchedRowsDecoder<Record: FetchableRecord>: Decoder, UnkeyedDecodingContainer {
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

    /// The next row; throws at the end.
    private mutating func nextRow<T>(for type: T.Type) throws -> Row {
        guard !isAtEnd else {
            throw DecodingError.valueNotFound(
                T.self, DecodingError.Context(codingPath: codingPath, debugDescription: "no more rows"))
        }
        currentIndex += 1
        return rows[currentIndex - 1]
    }

    mutating func decode<T: Decodable>(_ type: T.Type) throws -> T {
        let row = try nextRow(for: T.self)
        if T.self is any DatabaseValueConvertible.Type {
            return try ReferenceColumnDecoder<Record>(
                row: row, columnIndex: 0, codingPath: codingPath, recordFromRow: true
            ).decode(T.self)
        }
        return try ReferenceValueDecoding<Record>.decodeRecord(T.self, from: row, codingPath: codingPath)
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type) throws
        -> KeyedDecodingContainer<NestedKey>
    {
        let row = try nextRow(for: KeyedDecodingContainer<NestedKey>.self)
        return KeyedDecodingContainer(ReferenceKeyedDecodingContainer<Record, NestedKey>(
            row: row, codingPath: codingPath, keepsRowAlive: true))
    }

    mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer {
        throw DecodingError.typeMismatch(
            [Any].self, DecodingError.Context(codingPath: codingPath, debugDescription: "rows don't nest"))
    }

    mutating func superDecoder() throws -> any Decoder { self }
}
