import Foundation
import GRDBLite

/// A synthesized `Codable` record with a property of each supported type,
/// optional or not, in a table and columns whose names need quoting.
struct AllValuesRecord: Codable, FetchableRecord, MutablePersistableRecord {
    static let databaseTableName = "all \"values\" 🙂"

    var id: Int64?
    var bool: Bool
    var int: Int
    var int8: Int8
    var int16: Int16
    var int32: Int32
    var int64: Int64
    var uint: UInt
    var uint8: UInt8
    var uint16: UInt16
    var uint32: UInt32
    var uint64: UInt64
    var double: Double
    var float: Float
    var string: String
    var data: Data
    var date: Date
    var uuid: UUID
    var nested: Nested
    var optionalInt8: Int8?
    var optionalUInt64: UInt64?
    var optionalDouble: Double?
    var optionalString: String?
    var optionalData: Data?
    var optionalDate: Date?
    var optionalUUID: UUID?
    var optionalNested: Nested?

    enum CodingKeys: String, CodingKey {
        case id, bool = "the bool", int = "Int", int8 = "int\"8", int16 = "int'16", int32 = "[int32]", int64 = "int 64"
        case uint = "UInt", uint8 = "ü8", uint16 = "u16", uint32 = "u32 🙂", uint64 = "u64"
        case double = "double", float = "float", string = "select", data = "from", date = "date"
        case uuid = "uuid", nested = "nested.json", optionalInt8 = "int8?", optionalUInt64 = "u64?"
        case optionalDouble = "double?", optionalString = "string?", optionalData = "data?", optionalDate = "date?"
        case optionalUUID = "uuid?", optionalNested = "nested?"
    }

    mutating func didInsert(_ inserted: InsertionSuccess) {
        id = inserted.rowID
    }

    /// The table, for the model.
    static let table: TableSpec = {
        let kinds: [(CodingKeys, ValueKind, Bool)] = [
            (.id, .int64, true), (.bool, .bool, false), (.int, .int, false), (.int8, .int8, false),
            (.int16, .int16, false), (.int32, .int32, false), (.int64, .int64, false), (.uint, .uint, false),
            (.uint8, .uint8, false), (.uint16, .uint16, false), (.uint32, .uint32, false), (.uint64, .uint64, false),
            (.double, .double, false), (.float, .float, false), (.string, .string, false), (.data, .data, false),
            (.date, .date, false), (.uuid, .uuid, false), (.nested, .json, false), (.optionalInt8, .int8, true),
            (.optionalUInt64, .uint64, true), (.optionalDouble, .double, true), (.optionalString, .string, true),
            (.optionalData, .data, true), (.optionalDate, .date, true), (.optionalUUID, .uuid, true),
            (.optionalNested, .json, true),
        ]
        return TableSpec(
            name: databaseTableName,
            columns: kinds.map { key, kind, isOptional in
                ColumnSpec(
                    name: key.rawValue, kind: kind, declaredType: key == .id ? "INTEGER" : kind.declaredTypes[0],
                    isOptional: isOptional)
            },
            primaryKey: .rowIDAlias(0),
            withoutRowID: false)
    }()

    init(values v: [ColumnValue]) {
        id = { if case .int64(let x) = v[0] { x } else { nil } }()
        bool = { if case .bool(let x) = v[1] { x } else { fatalError() } }()
        int = { if case .int(let x) = v[2] { x } else { fatalError() } }()
        int8 = { if case .int8(let x) = v[3] { x } else { fatalError() } }()
        int16 = { if case .int16(let x) = v[4] { x } else { fatalError() } }()
        int32 = { if case .int32(let x) = v[5] { x } else { fatalError() } }()
        int64 = { if case .int64(let x) = v[6] { x } else { fatalError() } }()
        uint = { if case .uint(let x) = v[7] { x } else { fatalError() } }()
        uint8 = { if case .uint8(let x) = v[8] { x } else { fatalError() } }()
        uint16 = { if case .uint16(let x) = v[9] { x } else { fatalError() } }()
        uint32 = { if case .uint32(let x) = v[10] { x } else { fatalError() } }()
        uint64 = { if case .uint64(let x) = v[11] { x } else { fatalError() } }()
        double = { if case .double(let x) = v[12] { x } else { fatalError() } }()
        float = { if case .float(let x) = v[13] { x } else { fatalError() } }()
        string = { if case .string(let x) = v[14] { x } else { fatalError() } }()
        data = { if case .data(let x) = v[15] { x } else { fatalError() } }()
        date = { if case .date(let x) = v[16] { x } else { fatalError() } }()
        uuid = { if case .uuid(let x) = v[17] { x } else { fatalError() } }()
        nested = { if case .json(let x) = v[18] { x } else { fatalError() } }()
        optionalInt8 = { if case .int8(let x) = v[19] { x } else { nil } }()
        optionalUInt64 = { if case .uint64(let x) = v[20] { x } else { nil } }()
        optionalDouble = { if case .double(let x) = v[21] { x } else { nil } }()
        optionalString = { if case .string(let x) = v[22] { x } else { nil } }()
        optionalData = { if case .data(let x) = v[23] { x } else { nil } }()
        optionalDate = { if case .date(let x) = v[24] { x } else { nil } }()
        optionalUUID = { if case .uuid(let x) = v[25] { x } else { nil } }()
        optionalNested = { if case .json(let x) = v[26] { x } else { nil } }()
    }

    var values: [ColumnValue] {
        [
            id.map(ColumnValue.int64) ?? .null, .bool(bool), .int(int), .int8(int8), .int16(int16), .int32(int32),
            .int64(int64), .uint(uint), .uint8(uint8), .uint16(uint16), .uint32(uint32), .uint64(uint64),
            .double(double), .float(float), .string(string), .data(data), .date(date), .uuid(uuid), .json(nested),
            optionalInt8.map(ColumnValue.int8) ?? .null, optionalUInt64.map(ColumnValue.uint64) ?? .null,
            optionalDouble.map(ColumnValue.double) ?? .null, optionalString.map(ColumnValue.string) ?? .null,
            optionalData.map(ColumnValue.data) ?? .null, optionalDate.map(ColumnValue.date) ?? .null,
            optionalUUID.map(ColumnValue.uuid) ?? .null, optionalNested.map(ColumnValue.json) ?? .null,
        ]
    }
}
