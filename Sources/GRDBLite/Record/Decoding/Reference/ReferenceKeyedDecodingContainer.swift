import Foundation

/// The keyed container of a row, in the reference decoder: each key reads
/// the column of its name, else the row scope of its name (a joined
/// record), else the prefetched rows of its name (a to-many association);
/// a key that matches none of them decodes a nested record from the whole
/// row, once per container.
struct ReferenceKeyedDecodingContainer<Record: FetchableRecord, Key: CodingKey>: KeyedDecodingContainerProtocol {
    /// The row, when the container keeps it alive (nested containers).
    private let keptRow: Row?
    /// The row, when the container does not keep it alive (the container
    /// of a record): nil once the row is gone.
    private weak var weakRow: Row?
    let codingPath: [any CodingKey]
    /// Column names by key name, for column decoding strategies other than
    /// `.useDefaultKeys` (nil with `.useDefaultKeys`: keys are column names).
    private let columnForKey: [String: String]?
    /// The key decoded from the whole row, if any.
    private let rootKey = RootKey()

    /// The key decoded from the whole row: a class, since decoding does
    /// not mutate the container.
    private final class RootKey {
        var name: String?
    }

    init(row: Row, codingPath: [any CodingKey], keepsRowAlive: Bool) {
        keptRow = keepsRowAlive ? row : nil
        weakRow = row
        self.codingPath = codingPath
        let strategy = Record.databaseColumnDecodingStrategy
        if case .useDefaultKeys = strategy {
            columnForKey = nil
        } else {
            var columnForKey: [String: String] = [:]
            // The last column of a key wins, as in GRDB (`createdAt` and
            // `created_at` with `.convertFromSnakeCase`).
            for column in row.columnNames {
                columnForKey[strategy.keyName(forColumn: column)] = column
            }
            self.columnForKey = columnForKey
        }
    }

    /// The row; traps if the container outlived it.
    private var row: Row {
        if let keptRow { return keptRow }
        guard let weakRow else {
            fatalError("""
                A KeyedDecodingContainer of a record was used after its row was released: \
                a container given to `init(from:)` is valid while the row it decodes lives. \
                Decode values inside `init(from:)` instead of keeping the container.
                """)
        }
        return weakRow
    }

    // MARK: Keys

    private func columnName(forKey key: Key) -> String {
        guard let columnForKey else { return key.stringValue }
        return columnForKey[key.stringValue] ?? key.stringValue
    }

    private func columnIndex(forKey key: Key) -> Int? {
        row.index(forColumn: columnName(forKey: key))
    }

    var allKeys: [Key] {
        let row = self.row
        var names = columnForKey.map { Set($0.keys) } ?? Set(row.columnNames)
        names.formUnion(row.scopesTree.names)
        names.formUnion(row.prefetchedRows.keys)
        return names.compactMap(Key.init(stringValue:))
    }

    func contains(_ key: Key) -> Bool {
        columnIndex(forKey: key) != nil
            || row.scopesTree[key.stringValue] != nil
            || row.prefetchedRows[key.stringValue] != nil
    }

    func decodeNil(forKey key: Key) throws -> Bool {
        let row = self.row
        if let index = columnIndex(forKey: key) {
            return row.hasNull(atIndex: index)
        }
        if let scope = row.scopesTree[key.stringValue] {
            return !scope.containsNonNullValue
        }
        return row.prefetchedRows[key.stringValue] == nil
    }

    // MARK: Database values

    /// The value of the key's column; throws if there is no such column.
    private func column<T: DatabaseValueConvertible & StatementColumnConvertible>(
        _ type: T.Type, forKey key: Key
    ) throws -> T {
        let row = self.row
        guard let index = columnIndex(forKey: key) else {
            throw RowDecodingError.columnNotFound(columnName(forKey: key), type: T.self, row: row)
        }
        return try row.fastDecode(T.self, atUncheckedIndex: index)
    }

    /// The value of the key's column, nil if it is NULL; nil if there is
    /// no such column.
    private func columnIfPresent<T: DatabaseValueConvertible & StatementColumnConvertible>(
        _ type: T.Type, forKey key: Key
    ) throws -> T? {
        let row = self.row
        guard let index = columnIndex(forKey: key) else { return nil }
        return try row.fastDecode(Optional<T>.self, atUncheckedIndex: index)
    }

    func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool { try column(type, forKey: key) }
    func decode(_ type: String.Type, forKey key: Key) throws -> String { try column(type, forKey: key) }
    func decode(_ type: Double.Type, forKey key: Key) throws -> Double { try column(type, forKey: key) }
    func decode(_ type: Float.Type, forKey key: Key) throws -> Float { try column(type, forKey: key) }
    func decode(_ type: Int.Type, forKey key: Key) throws -> Int { try column(type, forKey: key) }
    func decode(_ type: Int8.Type, forKey key: Key) throws -> Int8 { try column(type, forKey: key) }
    func decode(_ type: Int16.Type, forKey key: Key) throws -> Int16 { try column(type, forKey: key) }
    func decode(_ type: Int32.Type, forKey key: Key) throws -> Int32 { try column(type, forKey: key) }
    func decode(_ type: Int64.Type, forKey key: Key) throws -> Int64 { try column(type, forKey: key) }
    func decode(_ type: UInt.Type, forKey key: Key) throws -> UInt { try column(type, forKey: key) }
    func decode(_ type: UInt8.Type, forKey key: Key) throws -> UInt8 { try column(type, forKey: key) }
    func decode(_ type: UInt16.Type, forKey key: Key) throws -> UInt16 { try column(type, forKey: key) }
    func decode(_ type: UInt32.Type, forKey key: Key) throws -> UInt32 { try column(type, forKey: key) }
    func decode(_ type: UInt64.Type, forKey key: Key) throws -> UInt64 { try column(type, forKey: key) }

    func decodeIfPresent(_ type: Bool.Type, forKey key: Key) throws -> Bool? {
        try columnIfPresent(type, forKey: key)
    }
    func decodeIfPresent(_ type: String.Type, forKey key: Key) throws -> String? {
        try columnIfPresent(type, forKey: key)
    }
    func decodeIfPresent(_ type: Double.Type, forKey key: Key) throws -> Double? {
        try columnIfPresent(type, forKey: key)
    }
    func decodeIfPresent(_ type: Float.Type, forKey key: Key) throws -> Float? {
        try columnIfPresent(type, forKey: key)
    }
    func decodeIfPresent(_ type: Int.Type, forKey key: Key) throws -> Int? { try columnIfPresent(type, forKey: key) }
    func decodeIfPresent(_ type: Int8.Type, forKey key: Key) throws -> Int8? { try columnIfPresent(type, forKey: key) }
    func decodeIfPresent(_ type: Int16.Type, forKey key: Key) throws -> Int16? {
        try columnIfPresent(type, forKey: key)
    }
    func decodeIfPresent(_ type: Int32.Type, forKey key: Key) throws -> Int32? {
        try columnIfPresent(type, forKey: key)
    }
    func decodeIfPresent(_ type: Int64.Type, forKey key: Key) throws -> Int64? {
        try columnIfPresent(type, forKey: key)
    }
    func decodeIfPresent(_ type: UInt.Type, forKey key: Key) throws -> UInt? { try columnIfPresent(type, forKey: key) }
    func decodeIfPresent(_ type: UInt8.Type, forKey key: Key) throws -> UInt8? {
        try columnIfPresent(type, forKey: key)
    }
    func decodeIfPresent(_ type: UInt16.Type, forKey key: Key) throws -> UInt16? {
        try columnIfPresent(type, forKey: key)
    }
    func decodeIfPresent(_ type: UInt32.Type, forKey key: Key) throws -> UInt32? {
        try columnIfPresent(type, forKey: key)
    }
    func decodeIfPresent(_ type: UInt64.Type, forKey key: Key) throws -> UInt64? {
        try columnIfPresent(type, forKey: key)
    }

    // MARK: Any Decodable

    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
        let row = self.row
        if let index = columnIndex(forKey: key) {
            return try ReferenceValueDecoding<Record>.decode(
                T.self, row: row, columnIndex: index, codingPath: codingPath + [key])
        }
        if let scope = row.scopesTree[key.stringValue] {
            return try ReferenceValueDecoding<Record>.decodeRecord(T.self, from: scope, codingPath: codingPath + [key])
        }
        if let rows = row.prefetchedRows[key.stringValue] {
            return try T(from: ReferencePrefetchedRowsDecoder<Record>(rows: rows, codingPath: codingPath + [key]))
        }
        if let decodedRootKey = rootKey.name {
            // Only one key may be decoded from the whole row: either one is
            // missing. The message names both.
            throw DecodingError.keyNotFound(key, DecodingError.Context(
                codingPath: codingPath,
                debugDescription:
                    "No such key: \([decodedRootKey, key.stringValue].sorted().joined(separator: " or "))"))
        }
        rootKey.name = key.stringValue
        return try ReferenceValueDecoding<Record>.decodeRecord(T.self, from: row, codingPath: codingPath + [key])
    }

    func decodeIfPresent<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T? {
        let row = self.row
        if let index = columnIndex(forKey: key) {
            if row.hasNull(atIndex: index) { return nil }
            return try ReferenceValueDecoding<Record>.decode(
                T.self, row: row, columnIndex: index, codingPath: codingPath + [key])
        }
        if let scope = row.scopesTree[key.stringValue] {
            // A left join without match has only NULL values.
            guard scope.containsNonNullValue else { return nil }
            return try ReferenceValueDecoding<Record>.decodeRecord(T.self, from: scope, codingPath: codingPath + [key])
        }
        if let rows = row.prefetchedRows[key.stringValue] {
            return try T(from: ReferencePrefetchedRowsDecoder<Record>(rows: rows, codingPath: codingPath + [key]))
        }
        return nil
    }

    // MARK: Nested containers and decoders

    func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key) throws
        -> KeyedDecodingContainer<NestedKey>
    {
        if let scope = row.scopesTree[key.stringValue] {
            return KeyedDecodingContainer(ReferenceKeyedDecodingContainer<Record, NestedKey>(
                row: scope, codingPath: codingPath + [key], keepsRowAlive: true))
        }
        throw DecodingError.typeMismatch(KeyedDecodingContainer<NestedKey>.self, DecodingError.Context(
            codingPath: codingPath + [key],
            debugDescription: "no scope named \(String(reflecting: key.stringValue)) in row \(row)"))
    }

    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
        if let rows = row.prefetchedRows[key.stringValue] {
            return ReferencePrefetchedRowsDecoder<Record>(rows: rows, codingPath: codingPath + [key])
        }
        throw DecodingError.typeMismatch([Any].self, DecodingError.Context(
            codingPath: codingPath + [key],
            debugDescription: "no prefetched rows for key \(String(reflecting: key.stringValue))"))
    }

    func superDecoder() throws -> any Decoder {
        ReferenceRowDecoder<Record>(row: row, codingPath: codingPath)
    }

    func superDecoder(forKey key: Key) throws -> any Decoder {
        ReferenceRowDecoder<Record>(row: row, codingPath: codingPath + [key])
    }
}
