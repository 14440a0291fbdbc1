import Foundation
import GRDBLite

// Records of random tables. Their table, and the Swift type of each
// column, come from `TableSpec.current`, a task-local value: a record type
// has a static table name, and a random schema is only known at runtime.
//
// Two record types cover the two ways GRDB records are written:
// - `RowRecord` reads with `init(row:)` (`row.decode(_:forColumn:)`) and
//   writes with `encode(to:)` (`container[column] = value`);
// - `CodableRecord` is `Codable`, with a `CodingKey` whose string values are
//   the column names. Its `init(from:)` and `encode(to:)` call the same
//   container methods as synthesized code (`decode(Int8.self, forKey:)`,
//   `decodeIfPresent`, `encodeIfPresent` for optionals...), with the
//   static Swift type of each column, so that GRDBLite's decoder and encoder
//   run as they do for a synthesized `Codable` record (`AllValuesRecord`
//   checks a synthesized one).

/// What both record types share: the table and its primary key.
protocol DynamicRecord: FetchableRecord, MutablePersistableRecord, Sendable {
    /// One value per column of `TableSpec.current`.
    var values: [ColumnValue] { get set }
    /// The hidden rowid, for tables without primary key (GRDB records of
    /// such tables select and persist `rowid`).
    var rowID: Int64? { get set }
    init(values: [ColumnValue], rowID: Int64?)
}

extension DynamicRecord {
    static var databaseTableName: String { TableSpec.required.name }

    static var databaseSelection: [any SQLSelectable] {
        TableSpec.required.hasHiddenRowID ? [AllColumns(), Column.rowID] : [AllColumns()]
    }

    mutating func didInsert(_ inserted: InsertionSuccess) {
        switch TableSpec.required.primaryKey {
        case .hiddenRowID: rowID = inserted.rowID
        case .rowIDAlias(let index): values[index] = .int64(inserted.rowID)
        case .columns: break
        }
    }

    /// The primary key, as `find(_:key:)` wants it.
    var keyDictionary: [String: (any DatabaseValueConvertible)?] {
        let table = TableSpec.required
        if table.hasHiddenRowID { return ["rowid": rowID] }
        var key: [String: (any DatabaseValueConvertible)?] = [:]
        for index in table.primaryKeyIndexes {
            key[table.columns[index].name] = values[index].databaseValueConvertible
        }
        return key
    }
}

extension ColumnValue {
    /// The value to store with `container[column] = value`. Nested values
    /// are JSON text.
    var databaseValueConvertible: (any DatabaseValueConvertible)? {
        switch self {
        case .null: nil
        case .bool(let v): v
        case .int(let v): v
        case .int8(let v): v
        case .int16(let v): v
        case .int32(let v): v
        case .int64(let v): v
        case .uint(let v): v
        case .uint8(let v): v
        case .uint16(let v): v
        case .uint32(let v): v
        case .uint64(let v): v
        case .double(let v): v
        case .float(let v): v
        case .string(let v): v
        case .data(let v): v
        case .date(let v): v
        case .uuid(let v): v
        case .json(let v): (try? RecordModel.jsonEncoder.encode(v)).map { String(decoding: $0, as: UTF8.self) }
        }
    }
}

// MARK: - init(row:) and encode(to:)

struct RowRecord: DynamicRecord {
    var values: [ColumnValue]
    var rowID: Int64?

    init(values: [ColumnValue], rowID: Int64?) {
        self.values = values
        self.rowID = rowID
    }

    init(row: Row) throws {
        let table = TableSpec.required
        values = try table.columns.map { try Self.decode($0, from: row) }
        rowID = table.hasHiddenRowID ? try row.decode(Int64.self, forColumn: "rowid") : nil
    }

    private static func decode(_ column: ColumnSpec, from row: Row) throws -> ColumnValue {
        func value<T: DatabaseValueConvertible & StatementColumnConvertible>(
            _ type: T.Type, _ wrap: (T) throws -> ColumnValue) throws -> ColumnValue
        {
            if column.isOptional {
                return try row.decode(T?.self, forColumn: column.name).map(wrap) ?? .null
            }
            return try wrap(row.decode(T.self, forColumn: column.name))
        }
        switch column.kind {
        case .bool: return try value(Bool.self, ColumnValue.bool)
        case .int: return try value(Int.self, ColumnValue.int)
        case .int8: return try value(Int8.self, ColumnValue.int8)
        case .int16: return try value(Int16.self, ColumnValue.int16)
        case .int32: return try value(Int32.self, ColumnValue.int32)
        case .int64: return try value(Int64.self, ColumnValue.int64)
        case .uint: return try value(UInt.self, ColumnValue.uint)
        case .uint8: return try value(UInt8.self, ColumnValue.uint8)
        case .uint16: return try value(UInt16.self, ColumnValue.uint16)
        case .uint32: return try value(UInt32.self, ColumnValue.uint32)
        case .uint64: return try value(UInt64.self, ColumnValue.uint64)
        case .double: return try value(Double.self, ColumnValue.double)
        case .float: return try value(Float.self, ColumnValue.float)
        case .string: return try value(String.self, ColumnValue.string)
        case .data: return try value(Data.self, ColumnValue.data)
        case .date: return try value(Date.self, ColumnValue.date)
        case .uuid: return try value(UUID.self, ColumnValue.uuid)
        case .json:
            return try value(String.self) { json in
                try .json(databaseJSONDecoder(for: column.name).decode(Nested.self, from: Data(json.utf8)))
            }
        }
    }

    func encode(to container: inout PersistenceContainer) throws {
        let table = TableSpec.required
        for (column, value) in zip(table.columns, values) {
            if case .json(let nested) = value {
                container[column.name] = try String(
                    decoding: Self.databaseJSONEncoder(for: column.name).encode(nested), as: UTF8.self)
            } else {
                container[column.name] = value.databaseValueConvertible
            }
        }
        if table.hasHiddenRowID {
            container["rowid"] = rowID
        }
    }
}

// MARK: - Codable

struct CodableRecord: DynamicRecord, Codable {
    var values: [ColumnValue]
    var rowID: Int64?

    /// A column name.
    struct Key: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(_ name: String) { stringValue = name }
        init?(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    init(values: [ColumnValue], rowID: Int64?) {
        self.values = values
        self.rowID = rowID
    }

    init(from decoder: any Decoder) throws {
        let table = TableSpec.required
        let container = try decoder.container(keyedBy: Key.self)
        values = try table.columns.map { column in
            column.isOptional
                ? try Self.decodeIfPresent(column.kind, Key(column.name), container)
                : try Self.decode(column.kind, Key(column.name), container)
        }
        rowID = table.hasHiddenRowID ? try container.decodeIfPresent(Int64.self, forKey: Key("rowid")) : nil
    }

    private static func decode(_ kind: ValueKind, _ key: Key, _ c: KeyedDecodingContainer<Key>) throws -> ColumnValue {
        switch kind {
        case .bool: .bool(try c.decode(Bool.self, forKey: key))
        case .int: .int(try c.decode(Int.self, forKey: key))
        case .int8: .int8(try c.decode(Int8.self, forKey: key))
        case .int16: .int16(try c.decode(Int16.self, forKey: key))
        case .int32: .int32(try c.decode(Int32.self, forKey: key))
        case .int64: .int64(try c.decode(Int64.self, forKey: key))
        case .uint: .uint(try c.decode(UInt.self, forKey: key))
        case .uint8: .uint8(try c.decode(UInt8.self, forKey: key))
        case .uint16: .uint16(try c.decode(UInt16.self, forKey: key))
        case .uint32: .uint32(try c.decode(UInt32.self, forKey: key))
        case .uint64: .uint64(try c.decode(UInt64.self, forKey: key))
        case .double: .double(try c.decode(Double.self, forKey: key))
        case .float: .float(try c.decode(Float.self, forKey: key))
        case .string: .string(try c.decode(String.self, forKey: key))
        case .data: .data(try c.decode(Data.self, forKey: key))
        case .date: .date(try c.decode(Date.self, forKey: key))
        case .uuid: .uuid(try c.decode(UUID.self, forKey: key))
        case .json: .json(try c.decode(Nested.self, forKey: key))
        }
    }

    private static func decodeIfPresent(_ kind: ValueKind, _ key: Key, _ c: KeyedDecodingContainer<Key>) throws
        -> ColumnValue
    {
        let value: ColumnValue? = switch kind {
        case .bool: try c.decodeIfPresent(Bool.self, forKey: key).map(ColumnValue.bool)
        case .int: try c.decodeIfPresent(Int.self, forKey: key).map(ColumnValue.int)
        case .int8: try c.decodeIfPresent(Int8.self, forKey: key).map(ColumnValue.int8)
        case .int16: try c.decodeIfPresent(Int16.self, forKey: key).map(ColumnValue.int16)
        case .int32: try c.decodeIfPresent(Int32.self, forKey: key).map(ColumnValue.int32)
        case .int64: try c.decodeIfPresent(Int64.self, forKey: key).map(ColumnValue.int64)
        case .uint: try c.decodeIfPresent(UInt.self, forKey: key).map(ColumnValue.uint)
        case .uint8: try c.decodeIfPresent(UInt8.self, forKey: key).map(ColumnValue.uint8)
        case .uint16: try c.decodeIfPresent(UInt16.self, forKey: key).map(ColumnValue.uint16)
        case .uint32: try c.decodeIfPresent(UInt32.self, forKey: key).map(ColumnValue.uint32)
        case .uint64: try c.decodeIfPresent(UInt64.self, forKey: key).map(ColumnValue.uint64)
        case .double: try c.decodeIfPresent(Double.self, forKey: key).map(ColumnValue.double)
        case .float: try c.decodeIfPresent(Float.self, forKey: key).map(ColumnValue.float)
        case .string: try c.decodeIfPresent(String.self, forKey: key).map(ColumnValue.string)
        case .data: try c.decodeIfPresent(Data.self, forKey: key).map(ColumnValue.data)
        case .date: try c.decodeIfPresent(Date.self, forKey: key).map(ColumnValue.date)
        case .uuid: try c.decodeIfPresent(UUID.self, forKey: key).map(ColumnValue.uuid)
        case .json: try c.decodeIfPresent(Nested.self, forKey: key).map(ColumnValue.json)
        }
        return value ?? .null
    }

    func encode(to encoder: any Encoder) throws {
        let table = TableSpec.required
        var container = encoder.container(keyedBy: Key.self)
        for (column, value) in zip(table.columns, values) {
            if column.isOptional {
                try Self.encodeIfPresent(value, column.kind, Key(column.name), &container)
            } else {
                try Self.encode(value, Key(column.name), &container)
            }
        }
        if table.hasHiddenRowID {
            try container.encodeIfPresent(rowID, forKey: Key("rowid"))
        }
    }

    private static func encode(_ value: ColumnValue, _ key: Key, _ c: inout KeyedEncodingContainer<Key>) throws {
        switch value {
        case .null: try c.encodeNil(forKey: key)
        case .bool(let v): try c.encode(v, forKey: key)
        case .int(let v): try c.encode(v, forKey: key)
        case .int8(let v): try c.encode(v, forKey: key)
        case .int16(let v): try c.encode(v, forKey: key)
        case .int32(let v): try c.encode(v, forKey: key)
        case .int64(let v): try c.encode(v, forKey: key)
        case .uint(let v): try c.encode(v, forKey: key)
        case .uint8(let v): try c.encode(v, forKey: key)
        case .uint16(let v): try c.encode(v, forKey: key)
        case .uint32(let v): try c.encode(v, forKey: key)
        case .uint64(let v): try c.encode(v, forKey: key)
        case .double(let v): try c.encode(v, forKey: key)
        case .float(let v): try c.encode(v, forKey: key)
        case .string(let v): try c.encode(v, forKey: key)
        case .data(let v): try c.encode(v, forKey: key)
        case .date(let v): try c.encode(v, forKey: key)
        case .uuid(let v): try c.encode(v, forKey: key)
        case .json(let v): try c.encode(v, forKey: key)
        }
    }

    /// As synthesized code encodes an optional property: `encodeIfPresent`
    /// with the optional type, nil included.
    private static func encodeIfPresent(
        _ value: ColumnValue, _ kind: ValueKind, _ key: Key, _ c: inout KeyedEncodingContainer<Key>
    ) throws {
        guard case .null = value else {
            switch value {
            case .bool(let v): try c.encodeIfPresent(v as Bool?, forKey: key)
            case .int(let v): try c.encodeIfPresent(v as Int?, forKey: key)
            case .int8(let v): try c.encodeIfPresent(v as Int8?, forKey: key)
            case .int16(let v): try c.encodeIfPresent(v as Int16?, forKey: key)
            case .int32(let v): try c.encodeIfPresent(v as Int32?, forKey: key)
            case .int64(let v): try c.encodeIfPresent(v as Int64?, forKey: key)
            case .uint(let v): try c.encodeIfPresent(v as UInt?, forKey: key)
            case .uint8(let v): try c.encodeIfPresent(v as UInt8?, forKey: key)
            case .uint16(let v): try c.encodeIfPresent(v as UInt16?, forKey: key)
            case .uint32(let v): try c.encodeIfPresent(v as UInt32?, forKey: key)
            case .uint64(let v): try c.encodeIfPresent(v as UInt64?, forKey: key)
            case .double(let v): try c.encodeIfPresent(v as Double?, forKey: key)
            case .float(let v): try c.encodeIfPresent(v as Float?, forKey: key)
            case .string(let v): try c.encodeIfPresent(v as String?, forKey: key)
            case .data(let v): try c.encodeIfPresent(v as Data?, forKey: key)
            case .date(let v): try c.encodeIfPresent(v as Date?, forKey: key)
            case .uuid(let v): try c.encodeIfPresent(v as UUID?, forKey: key)
            case .json(let v): try c.encodeIfPresent(v as Nested?, forKey: key)
            case .null: break
            }
            return
        }
        switch kind {
        case .bool: try c.encodeIfPresent(nil as Bool?, forKey: key)
        case .int: try c.encodeIfPresent(nil as Int?, forKey: key)
        case .int8: try c.encodeIfPresent(nil as Int8?, forKey: key)
        case .int16: try c.encodeIfPresent(nil as Int16?, forKey: key)
        case .int32: try c.encodeIfPresent(nil as Int32?, forKey: key)
        case .int64: try c.encodeIfPresent(nil as Int64?, forKey: key)
        case .uint: try c.encodeIfPresent(nil as UInt?, forKey: key)
        case .uint8: try c.encodeIfPresent(nil as UInt8?, forKey: key)
        case .uint16: try c.encodeIfPresent(nil as UInt16?, forKey: key)
        case .uint32: try c.encodeIfPresent(nil as UInt32?, forKey: key)
        case .uint64: try c.encodeIfPresent(nil as UInt64?, forKey: key)
        case .double: try c.encodeIfPresent(nil as Double?, forKey: key)
        case .float: try c.encodeIfPresent(nil as Float?, forKey: key)
        case .string: try c.encodeIfPresent(nil as String?, forKey: key)
        case .data: try c.encodeIfPresent(nil as Data?, forKey: key)
        case .date: try c.encodeIfPresent(nil as Date?, forKey: key)
        case .uuid: try c.encodeIfPresent(nil as UUID?, forKey: key)
        case .json: try c.encodeIfPresent(nil as Nested?, forKey: key)
        }
    }
}
