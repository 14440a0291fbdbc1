import Foundation
import GRDBLite

// The reference model of the record suites: random tables, the Swift values
// of their columns, and what SQLite stores and gives back. It is written
// from SQLite's documentation (type affinity, https://sqlite.org/datatype3.html)
// and GRDB's storage formats, not from GRDBLite's code.

// MARK: - Schema

/// The Swift type of a column.
enum ValueKind: String, CaseIterable, Sendable {
    case bool, int, int8, int16, int32, int64, uint, uint8, uint16, uint32, uint64
    case double, float, string, data, date, uuid, json

    var isInteger: Bool {
        switch self {
        case .int, .int8, .int16, .int32, .int64, .uint, .uint8, .uint16, .uint32, .uint64: true
        default: false
        }
    }

    /// The range of an integer kind.
    var integerRange: ClosedRange<Int128>? {
        switch self {
        case .int, .int64: Int128(Int64.min)...Int128(Int64.max)
        case .int8: Int128(Int8.min)...Int128(Int8.max)
        case .int16: Int128(Int16.min)...Int128(Int16.max)
        case .int32: Int128(Int32.min)...Int128(Int32.max)
        case .uint, .uint64: 0...Int128(UInt64.max)
        case .uint8: 0...Int128(UInt8.max)
        case .uint16: 0...Int128(UInt16.max)
        case .uint32: 0...Int128(UInt32.max)
        default: nil
        }
    }

    /// Declared SQL types that keep the values of the kind.
    var declaredTypes: [String] {
        switch self {
        case .bool: ["BOOLEAN", "INTEGER"]
        case _ where isInteger: ["INTEGER", "INT", "BIGINT", ""]
        case .double, .float: ["REAL", "DOUBLE", ""]
        case .string, .json: ["TEXT", "VARCHAR(20)"]
        case .data, .uuid: ["BLOB", ""]
        case .date: ["DATETIME"]
        default: [""]
        }
    }

    /// Kinds that can be part of a primary key.
    var canBeInPrimaryKey: Bool {
        switch self {
        case .double, .float, .json: false
        default: true
        }
    }
}

/// SQLite's column affinity, from the declared type
/// (https://sqlite.org/datatype3.html#determination_of_column_affinity).
enum Affinity: Sendable {
    case integer, text, blob, real, numeric

    init(declaredType: String) {
        let type = declaredType.uppercased()
        if type.contains("INT") {
            self = .integer
        } else if type.contains("CHAR") || type.contains("CLOB") || type.contains("TEXT") {
            self = .text
        } else if type.isEmpty || type.contains("BLOB") {
            self = .blob
        } else if type.contains("REAL") || type.contains("FLOA") || type.contains("DOUB") {
            self = .real
        } else {
            self = .numeric
        }
    }
}

struct ColumnSpec: Sendable, Hashable {
    var name: String
    var kind: ValueKind
    var declaredType: String
    /// NULL allowed, and an optional Swift property.
    var isOptional: Bool

    var affinity: Affinity { Affinity(declaredType: declaredType) }
}

enum PrimaryKeyShape: Sendable, Hashable {
    /// No declared primary key: the hidden rowid, which records read and
    /// write as a `rowid` column.
    case hiddenRowID
    /// `INTEGER PRIMARY KEY` (an alias of the rowid, auto-assigned when the
    /// record's value is nil) on this column, an optional `.int64`.
    case rowIDAlias(Int)
    /// A primary key that is not the rowid, on these columns.
    case columns([Int])
}

struct TableSpec: Sendable, Hashable {
    var name: String
    var columns: [ColumnSpec]
    var primaryKey: PrimaryKeyShape
    var withoutRowID: Bool

    /// The table of the records that run in the current task.
    @TaskLocal static var current: TableSpec?

    static var required: TableSpec {
        guard let current else { fatalError("No TableSpec.current: wrap record code in TableSpec.$current.withValue") }
        return current
    }

    var primaryKeyIndexes: [Int] {
        switch primaryKey {
        case .hiddenRowID: []
        case .rowIDAlias(let index): [index]
        case .columns(let indexes): indexes
        }
    }

    var hasHiddenRowID: Bool { primaryKey == .hiddenRowID }

    var createSQL: String {
        var definitions = columns.enumerated().map { index, column in
            var sql = column.name.quotedDatabaseIdentifier
            if !column.declaredType.isEmpty { sql += " " + column.declaredType }
            if case .rowIDAlias(index) = primaryKey { sql += " PRIMARY KEY" }
            if !column.isOptional { sql += " NOT NULL" }
            return sql
        }
        if case .columns(let indexes) = primaryKey {
            definitions.append(
                "PRIMARY KEY (" + indexes.map { columns[$0].name.quotedDatabaseIdentifier }.joined(separator: ", ")
                    + ")")
        }
        return "CREATE TABLE \(name.quotedDatabaseIdentifier) (\(definitions.joined(separator: ", ")))"
            + (withoutRowID ? " WITHOUT ROWID" : "")
    }
}

extension TableSpec: CustomStringConvertible {
    var description: String {
        createSQL + " -- " + columns.map { "\($0.kind)\($0.isOptional ? "?" : "")" }.joined(separator: ", ")
    }
}

// MARK: - Values

/// A nested Codable value, stored as JSON.
struct Nested: Codable, Hashable, Sendable {
    enum Mood: String, Codable, Sendable { case happy, grumpy }
    var name: String
    var numbers: [Int64]
    var ratio: Double
    var mood: Mood?
    var tags: [String: Bool]
}

/// The Swift value of a column.
enum ColumnValue: Sendable {
    case null
    case bool(Bool)
    case int(Int), int8(Int8), int16(Int16), int32(Int32), int64(Int64)
    case uint(UInt), uint8(UInt8), uint16(UInt16), uint32(UInt32), uint64(UInt64)
    case double(Double), float(Float)
    case string(String)
    case data(Data)
    case date(Date)
    case uuid(UUID)
    case json(Nested)

    /// The value of an integer kind, widened.
    var integer: Int128? {
        switch self {
        case .int(let v): Int128(v)
        case .int8(let v): Int128(v)
        case .int16(let v): Int128(v)
        case .int32(let v): Int128(v)
        case .int64(let v): Int128(v)
        case .uint(let v): Int128(v)
        case .uint8(let v): Int128(v)
        case .uint16(let v): Int128(v)
        case .uint32(let v): Int128(v)
        case .uint64(let v): Int128(v)
        default: nil
        }
    }

    /// The value of `kind` for an integer in its range.
    static func integer(_ value: Int128, kind: ValueKind) -> ColumnValue? {
        guard let range = kind.integerRange, range.contains(value) else { return nil }
        switch kind {
        case .int: return .int(Int(value))
        case .int8: return .int8(Int8(value))
        case .int16: return .int16(Int16(value))
        case .int32: return .int32(Int32(value))
        case .int64: return .int64(Int64(value))
        case .uint: return .uint(UInt(value))
        case .uint8: return .uint8(UInt8(value))
        case .uint16: return .uint16(UInt16(value))
        case .uint32: return .uint32(UInt32(value))
        case .uint64: return .uint64(UInt64(value))
        default: return nil
        }
    }
}

extension ColumnValue: Equatable {
    /// Exact equality: floating point numbers and dates by bit pattern,
    /// strings by UTF-8 bytes.
    static func == (lhs: ColumnValue, rhs: ColumnValue) -> Bool {
        switch (lhs, rhs) {
        case (.null, .null): true
        case let (.bool(a), .bool(b)): a == b
        case let (.double(a), .double(b)): a.bitPattern == b.bitPattern
        case let (.float(a), .float(b)): a.bitPattern == b.bitPattern
        case let (.string(a), .string(b)): a.utf8.elementsEqual(b.utf8)
        case let (.data(a), .data(b)): a == b
        case let (.date(a), .date(b)):
            a.timeIntervalSinceReferenceDate.bitPattern == b.timeIntervalSinceReferenceDate.bitPattern
        case let (.uuid(a), .uuid(b)): a == b
        case let (.json(a), .json(b)): a == b
        default:
            // Integers of the same type.
            if let a = lhs.integer, let b = rhs.integer, lhs.integerTypeName == rhs.integerTypeName {
                a == b
            } else {
                false
            }
        }
    }

    private var integerTypeName: String? {
        integer == nil ? nil : String(describing: self).prefix { $0 != "(" }.description
    }
}

extension ColumnValue: CustomStringConvertible {
    var description: String {
        switch self {
        case .null: "nil"
        case .bool(let v): "\(v)"
        case .int(let v): "Int(\(v))"
        case .int8(let v): "Int8(\(v))"
        case .int16(let v): "Int16(\(v))"
        case .int32(let v): "Int32(\(v))"
        case .int64(let v): "Int64(\(v))"
        case .uint(let v): "UInt(\(v))"
        case .uint8(let v): "UInt8(\(v))"
        case .uint16(let v): "UInt16(\(v))"
        case .uint32(let v): "UInt32(\(v))"
        case .uint64(let v): "UInt64(\(v))"
        case .double(let v): "Double(\(v))"
        case .float(let v): "Float(\(v))"
        case .string(let v): String(reflecting: v.count > 40 ? String(v.prefix(40)) + "…(\(v.count) chars)" : v)
        case .data(let v):
            "Data(\(v.count) bytes\(v.isEmpty ? "" : ": " + v.prefix(8).map { String(format: "%02x", $0) }.joined()))"
        case .date(let v):
            "Date(\(RecordModel.dateText(milliseconds: Int64((v.timeIntervalSince1970 * 1000).rounded())) ?? "\(v.timeIntervalSince1970)"))"
        case .uuid(let v): "UUID(\(v.uuidString))"
        case .json(let v): "\(v)"
        }
    }
}

// MARK: - Storage

/// A value as SQLite stores it. Reals compare by bit pattern, text by bytes.
enum Stored: Sendable, Equatable, CustomStringConvertible {
    case null
    case integer(Int64)
    case real(Double)
    case text(String)
    case blob(Data)

    init(_ dbValue: DatabaseValue) {
        switch dbValue.storage {
        case .null: self = .null
        case .int64(let v): self = .integer(v)
        case .double(let v): self = .real(v)
        case .string(let v): self = .text(v)
        case .blob(let v): self = .blob(v)
        }
    }

    static func == (lhs: Stored, rhs: Stored) -> Bool {
        switch (lhs, rhs) {
        case (.null, .null): true
        case let (.integer(a), .integer(b)): a == b
        case let (.real(a), .real(b)): a.bitPattern == b.bitPattern
        case let (.text(a), .text(b)): a.utf8.elementsEqual(b.utf8)
        case let (.blob(a), .blob(b)): a == b
        default: false
        }
    }

    var description: String {
        switch self {
        case .null: "NULL"
        case .integer(let v): "\(v)"
        case .real(let v): "REAL(\(v))"
        case .text(let v): "TEXT(\(String(reflecting: v.count > 40 ? String(v.prefix(40)) + "…" : v)))"
        case .blob(let v): "BLOB(\(v.count) bytes)"
        }
    }
}

/// Why a record can't be inserted.
enum InsertFailure: Error, Equatable, Sendable {
    /// The value can't be encoded (UInt64 above Int64.max, NaN in JSON).
    case encoding
    /// SQLITE_CONSTRAINT_NOTNULL: a NULL (or NaN) in a NOT NULL column.
    case notNull
    /// SQLITE_CONSTRAINT_PRIMARYKEY: the primary key is taken.
    case primaryKey
    /// SQLITE_CONSTRAINT_ROWID: the hidden rowid is taken.
    case rowID
}

enum RecordModel {
    /// The database value a record encodes, before SQLite applies the
    /// column affinity, or nil if the value can't be encoded (UInt64 above
    /// Int64.max, non-finite numbers in JSON). Dates are text in years
    /// 0000...9999, Unix timestamps otherwise; UUIDs are 16-byte blobs;
    /// nested values are JSON text with sorted keys.
    static func encoded(_ value: ColumnValue) -> Stored? {
        switch value {
        case .null: return .null
        case .bool(let v): return .integer(v ? 1 : 0)
        case .double(let v): return .real(v)
        case .float(let v): return .real(Double(v))
        case .string(let v): return .text(v)
        case .data(let v): return .blob(v)
        case .uuid(let v): return .blob(withUnsafeBytes(of: v.uuid) { Data($0) })
        case .date(let v):
            let milliseconds = (v.timeIntervalSince1970 * 1000).rounded()
            if let text = dateText(milliseconds: Int64(exactly: milliseconds)) { return .text(text) }
            return .real(v.timeIntervalSince1970)
        case .json(let v):
            guard v.ratio.isFinite, let data = try? jsonEncoder.encode(v) else { return nil }
            return .text(String(decoding: data, as: UTF8.self))
        default:
            guard let integer = value.integer, let v = Int64(exactly: integer) else { return nil }
            return .integer(v)
        }
    }

    /// What SQLite stores for a value of the column, or nil if the value
    /// can't be encoded.
    static func stored(_ value: ColumnValue, in column: ColumnSpec) -> Stored? {
        guard let encoded = encoded(value) else { return nil }
        if case .real(let v) = encoded { return real(v, column.affinity) }
        return encoded
    }

    /// A real stored in a column of this affinity: NaN is NULL; a real
    /// column keeps reals (an integral real is stored as an integer and read
    /// back as a real, so -0.0 comes back as 0.0); integer and numeric
    /// columns turn integral reals into integers.
    static func real(_ value: Double, _ affinity: Affinity) -> Stored {
        if value.isNaN { return .null }
        let integral = value.rounded(.towardZero) == value && value > -0x1p63 && value < 0x1p63 ? Int64(value) : nil
        switch affinity {
        case .real: return .real(integral.map(Double.init) ?? value)
        case .integer, .numeric: return integral.map(Stored.integer) ?? .real(value)
        case .blob, .text: return .real(value)
        }
    }

    /// Whether two encoded values are different for SQLite: `a IS NOT b`,
    /// with NaN as NULL, and text compared byte by byte (BINARY collation).
    static func isDistinct(_ a: Stored, _ b: Stored) -> Bool {
        switch (a, b) {
        case (.real(let x), _) where x.isNaN: isDistinct(.null, b)
        case (_, .real(let y)) where y.isNaN: isDistinct(a, .null)
        case (.null, .null): false
        case let (.integer(x), .integer(y)): x != y
        case let (.real(x), .real(y)): x != y
        case let (.integer(x), .real(y)), let (.real(y), .integer(x)): Double(x) != y || Int64(exactly: y) != x
        case let (.text(x), .text(y)): !x.utf8.elementsEqual(y.utf8)
        case let (.blob(x), .blob(y)): x != y
        default: true
        }
    }

    /// The value a record reads from a stored value, or nil if it can't
    /// (NULL for a non-optional column, or a value that doesn't convert).
    ///
    /// Integer columns read integers and integral reals in their range
    /// (fractional reals are left out: GRDB converts them with SQLite's
    /// rules on the fast path only).
    ///
    /// `fromStatement`: the value is read from a statement's column (the
    /// fast path of statement rows), where, as in GRDB, numbers read as
    /// strings and data as SQLite formats them, and text as numbers as
    /// SQLite converts it. Copied rows (database values) refuse both.
    static func read(_ stored: Stored, as column: ColumnSpec, fromStatement: Bool = false) -> ColumnValue? {
        if case .null = stored { return column.isOptional ? .null : nil }
        if fromStatement, let value = readWithSQLiteConversion(stored, as: column.kind) {
            return value
        }
        switch (column.kind, stored) {
        case (.bool, .integer(let v)): return .bool(v != 0)
        case (.bool, .real(let v)): return .bool(v != 0)
        case (let kind, .integer(let v)) where kind.isInteger: return .integer(Int128(v), kind: kind)
        case (let kind, .real(let v)) where kind.isInteger:
            guard let v = Int64(exactly: v) else { return nil }
            return .integer(Int128(v), kind: kind)
        case (.double, .integer(let v)): return .double(Double(v))
        case (.double, .real(let v)): return .double(v)
        case (.float, .integer(let v)): return .float(Float(Double(v)))
        case (.float, .real(let v)): return .float(Float(v))
        case (.string, .text(let v)): return .string(v)
        case (.string, .blob(let v)): return String(validating: v, as: UTF8.self).map(ColumnValue.string)
        case (.data, .blob(let v)): return .data(v)
        case (.data, .text(let v)): return .data(Data(v.utf8))
        case (.uuid, .blob(let v)) where v.count == 16:
            return .uuid(UUID(uuid: v.withUnsafeBytes { $0.loadUnaligned(as: uuid_t.self) }))
        case (.uuid, .text(let v)): return UUID(uuidString: v).map(ColumnValue.uuid)
        case (.date, .integer(let v)): return .date(Date(timeIntervalSince1970: Double(v)))
        case (.date, .real(let v)): return .date(Date(timeIntervalSince1970: v))
        case (.date, .text(let v)): return date(fromText: v).map(ColumnValue.date)
        case (.json, .text(let v)):
            return (try? jsonDecoder.decode(Nested.self, from: Data(v.utf8))).map(ColumnValue.json)
        default: return nil
        }
    }

    /// SQLite's conversions that only statement columns make: text and
    /// blobs to numbers (the leading integer, whose text the generators
    /// keep simple), numbers to text.
    private static func readWithSQLiteConversion(_ stored: Stored, as kind: ValueKind) -> ColumnValue? {
        func sqliteText(_ stored: Stored) -> String? {
            switch stored {
            case .integer(let v): String(v)
            case .real(let v): sqliteRealText(v)
            default: nil
            }
        }
        switch (kind, stored) {
        case (.string, _): return sqliteText(stored).map(ColumnValue.string)
        case (.data, _): return sqliteText(stored).map { .data(Data($0.utf8)) }
        case (let kind, .text(let v)) where kind.isInteger: return integer(leadingInteger(Array(v.utf8)), kind: kind)
        case (let kind, .blob(let v)) where kind.isInteger: return integer(leadingInteger(v), kind: kind)
        case (.bool, .text(let v)): return .bool(leadingInteger(Array(v.utf8)) != 0)
        case (.bool, .blob(let v)): return .bool(leadingInteger(v) != 0)
        default: return nil
        }
    }

    /// SQLite's integer of a text or blob: the leading integer, after
    /// whitespace.
    static func leadingInteger(_ bytes: some Collection<UInt8>) -> Int64 {
        var digits = bytes.drop { [0x20, 0x09, 0x0A, 0x0B, 0x0C, 0x0D].contains($0) }
        var sign: Int64 = 1
        if let first = digits.first, first == 0x2D || first == 0x2B {
            sign = first == 0x2D ? -1 : 1
            digits = digits.dropFirst()
        }
        var value: Int64 = 0
        for byte in digits {
            guard (0x30...0x39).contains(byte) else { break }
            value = value &* 10 &+ Int64(byte - 0x30)
        }
        return sign * value
    }

    private static func integer(_ value: Int64, kind: ValueKind) -> ColumnValue? {
        read(.integer(value), as: ColumnSpec(name: "", kind: kind, declaredType: "", isOptional: false))
    }

    /// A real as SQLite prints it: 15 significant digits, `.0` for
    /// integral values, an exponent from 1e15 (the generators store 1.5).
    private static func sqliteRealText(_ value: Double) -> String {
        if value == value.rounded(), abs(value) < 1e15 { return String(format: "%.1f", value) }
        return String(format: "%.15g", value)
    }

    // MARK: Dates

    /// "yyyy-MM-dd HH:mm:ss.SSS" in UTC on the proleptic Gregorian
    /// calendar, as SQLite's date functions, for years 0000...9999.
    static func dateText(milliseconds: Int64?) -> String? {
        guard let milliseconds,
              milliseconds >= -62_167_219_200_000, milliseconds <= 253_402_300_799_999 else { return nil }
        let (days, rest) = divideFloor(milliseconds, 86_400_000)
        let (year, month, day) = civilDate(days: days)
        return String(format: "%04d-%02d-%02d %02d:%02d:%02d.%03d",
                      year, month, day, rest / 3_600_000, rest / 60_000 % 60, rest / 1000 % 60, rest % 1000)
    }

    /// Reads back our own format only: other date formats are GRDBLite's
    /// date parser's business, tested elsewhere.
    static func date(fromText text: String) -> Date? {
        let scanner = text.split(whereSeparator: { "- :.".contains($0) }).compactMap { Int($0) }
        guard scanner.count == 7, text.count == 23 else { return nil }
        let days = daysFromCivil(year: scanner[0], month: scanner[1], day: scanner[2])
        let milliseconds =
            Int64(days) * 86_400_000
            + Int64(scanner[3] * 3_600_000 + scanner[4] * 60_000 + scanner[5] * 1000 + scanner[6])
        // Counted from 2001, as `Date` counts: the nearest date to the text.
        return Date(timeIntervalSinceReferenceDate: Double(milliseconds - 978_307_200_000) / 1000)
    }

    private static func divideFloor(_ a: Int64, _ b: Int64) -> (Int, Int) {
        let q = a >= 0 ? a / b : -((-a + b - 1) / b)
        return (Int(q), Int(a - q * b))
    }

    /// Days since 1970-01-01 to a civil date (proleptic Gregorian), after
    /// Howard Hinnant's `civil_from_days`.
    private static func civilDate(days: Int) -> (Int, Int, Int) {
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let mp = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * mp + 2) / 5 + 1
        let month = mp < 10 ? mp + 3 : mp - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }

    /// The inverse of `civilDate` (Hinnant's `days_from_civil`).
    private static func daysFromCivil(year: Int, month: Int, day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    // MARK: JSON

    static var jsonEncoder: JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        encoder.nonConformingFloatEncodingStrategy = .throw
        return encoder
    }

    static var jsonDecoder: JSONDecoder { JSONDecoder() }
}
