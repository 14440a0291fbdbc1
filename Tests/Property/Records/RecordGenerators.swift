import Foundation
import PropertyBased

// Generators of random tables and record values, biased towards extremes.

/// A random table and the records a test inserts into it.
struct RecordCase: Sendable, CustomStringConvertible {
    struct Input: Sendable {
        var values: [ColumnValue]
        /// The rowid of hidden-rowid tables (nil: SQLite assigns it).
        var rowID: Int64?
    }

    var table: TableSpec
    var records: [Input]

    var description: String {
        "\(table)\n" + records.enumerated().map { index, record in
            "  #\(index): " + record.values.map(\.description).joined(separator: ", ")
                + (table.hasHiddenRowID ? " rowid: \(record.rowID.map(String.init) ?? "nil")" : "")
        }.joined(separator: "\n")
    }
}

/// Which record type encodes the values: `init(row:)`/`encode(to:)`
/// records trap on UInt64 above Int64.max (as GRDB), `Encodable` records
/// throw.
enum RecordPath: Sendable {
    case row, codable
}

enum RecordGenerators {
    // MARK: Cases

    static func recordCase(path: RecordPath, maxRecords: Int = 8) -> Generator<RecordCase, [RecordCase]> {
        generator(
            run: { r in
                let table = table(&r)
                let records = (0..<r.int(0...maxRecords)).map { _ in record(&r, table, path: path) }
                return RecordCase(table: table, records: records)
            },
            shrink: shrink)
    }

    /// Records of a fixed table.
    static func records(of table: TableSpec, path: RecordPath, count: ClosedRange<Int>) -> Generator<
        RecordCase, [RecordCase]
    > {
        generator(
            run: { r in
                RecordCase(table: table, records: (0..<r.int(count)).map { _ in record(&r, table, path: path) })
            },
            shrink: { shrink($0).filter { $0.table == table } })
    }

    static func record(_ r: inout Rand, _ table: TableSpec, path: RecordPath, allowsNaN: Bool = true)
        -> RecordCase.Input
    {
        var values: [ColumnValue] = []
        for (index, column) in table.columns.enumerated() {
            if case .rowIDAlias(index) = table.primaryKey {
                // Small ids, so that some collide; nil is auto-assigned.
                values.append(
                    r.chance(0.4)
                        ? .null : .int64(Int64(r.pick([-2, 0, 1, 2, 3, 5, Int(Int64.min), Int(Int64.max) - 1000]))))
            } else if table.primaryKeyIndexes.contains(index) {
                // Primary key values from a small pool, so that some collide.
                var pool = Rand(seed: UInt64(index) &* 7919 &+ UInt64(r.int(0...3)))
                values.append(value(&pool, column, path: path, allowsNaN: allowsNaN))
            } else {
                values.append(value(&r, column, path: path, allowsNaN: allowsNaN))
            }
        }
        let rowID: Int64? = table.hasHiddenRowID && r.chance(0.3) ? Int64(r.int(-2...4)) : nil
        return RecordCase.Input(values: values, rowID: rowID)
    }

    // MARK: Tables

    static let nameParts = [
        "id", "name", "Score", "order", "select", "group by", "na me", "with \"quotes\"", "it's", "[x]",
        "`y`", "é", "Ünïcødé", "日本語", "emoji 🙂", "dot.ted", "dash-ed", "1st", "%_*", "tab\tchar",
        "trailing ", "CamelCase",
    ]

    static func table(_ r: inout Rand) -> TableSpec {
        var columns: [ColumnSpec] = []
        for index in 0..<r.int(1...6) {
            let kind = r.pick(ValueKind.allCases)
            columns.append(ColumnSpec(
                name: uniqueName(&r, index: index, among: columns.map(\.name)),
                kind: kind,
                declaredType: r.pick(kind.declaredTypes),
                isOptional: r.chance(0.4)))
        }
        var primaryKey = PrimaryKeyShape.hiddenRowID
        switch r.int(0...3) {
        case 0:
            break
        case 1:
            let index = r.int(0...columns.count)
            columns.insert(ColumnSpec(
                name: uniqueName(&r, index: columns.count, among: columns.map(\.name)),
                kind: .int64, declaredType: "INTEGER", isOptional: true), at: index)
            primaryKey = .rowIDAlias(index)
        default:
            let candidates = columns.indices.filter { columns[$0].kind.canBeInPrimaryKey }.shuffled(using: &r)
            if !candidates.isEmpty {
                let indexes = Array(candidates.prefix(r.int(1...min(3, candidates.count)))).sorted()
                for index in indexes {
                    columns[index].isOptional = false
                    // "INTEGER PRIMARY KEY" would be the rowid.
                    if columns[index].declaredType == "INTEGER" { columns[index].declaredType = "INT" }
                }
                primaryKey = .columns(indexes)
            }
        }
        var withoutRowID = false
        if case .columns = primaryKey { withoutRowID = r.chance(0.5) }
        return TableSpec(
            name: uniqueName(&r, index: 0, among: []), columns: columns, primaryKey: primaryKey,
            withoutRowID: withoutRowID)
    }

    /// A name that needs quoting, unique among `names` even when compared
    /// case-insensitively.
    static func uniqueName(_ r: inout Rand, index: Int, among names: [String]) -> String {
        var name = r.pick(nameParts)
        if names.contains(where: { $0.lowercased() == name.lowercased() }) { name += " \(index)" }
        return name
    }

    // MARK: Values

    /// A value of the column. NaN, which SQLite stores as NULL, is left out
    /// when `allowsNaN` is false.
    static func value(_ r: inout Rand, _ column: ColumnSpec, path: RecordPath, allowsNaN: Bool = true) -> ColumnValue {
        if column.isOptional && r.chance(0.15) { return .null }
        if !allowsNaN {
            switch value(&r, column, path: path) {
            case .double(let v) where v.isNaN: return .double(0)
            case .float(let v) where v.isNaN: return .float(0)
            case .json(var v) where !v.ratio.isFinite:
                v.ratio = 1
                return .json(v)
            case let v: return v
            }
        }
        switch column.kind {
        case .bool: return .bool(r.chance(0.5))
        case .int: return .int(integer(&r))
        case .int8: return .int8(integer(&r))
        case .int16: return .int16(integer(&r))
        case .int32: return .int32(integer(&r))
        case .int64: return .int64(integer(&r))
        case .uint8: return .uint8(integer(&r))
        case .uint16: return .uint16(integer(&r))
        case .uint32: return .uint32(integer(&r))
        case .uint, .uint64:
            // Above Int64.max: an error for Encodable records, a trap for others.
            var value: UInt64 = integer(&r)
            if path == .row || r.chance(0.9) { value = min(value, UInt64(Int64.max)) }
            return column.kind == .uint ? .uint(UInt(value)) : .uint64(value)
        case .double: return .double(double(&r))
        case .float: return .float(float(&r))
        case .string: return .string(string(&r))
        case .data: return .data(data(&r))
        case .date: return .date(date(&r))
        case .uuid: return .uuid(uuid(&r))
        case .json: return .json(nested(&r))
        }
    }

    static func integer<T: FixedWidthInteger>(_ r: inout Rand) -> T {
        switch r.int(0...9) {
        case 0...3: r.pick([T.min, T.max, 0, 1, T.min &+ 1, T.max &- 1, T.isSigned ? T(truncatingIfNeeded: -1) : 2])
        case 4...5: T(truncatingIfNeeded: r.int(-100...100))
        default: T.random(in: T.min...T.max, using: &r)
        }
    }

    static let specialDoubles: [Double] = [
        0, -0.0, 1, -1, 0.1, -1.5, .infinity, -.infinity, .nan, -.nan,
        .leastNonzeroMagnitude, -.leastNonzeroMagnitude, .leastNormalMagnitude, 0x1.8p-1030, -0x1p-1070,
        .greatestFiniteMagnitude, -.greatestFiniteMagnitude, 0x1p53, 0x1p53 + 2, 0x1p62, 0x1p63, -0x1p63,
        Double(Int64.max) - 1024, 123_456_789.125,
    ]

    static func double(_ r: inout Rand) -> Double {
        switch r.int(0...9) {
        case 0...3: r.pick(specialDoubles)
        case 4...6: Double(bitPattern: r.next())
        default: Double.random(in: -1e6...1e6, using: &r)
        }
    }

    static func float(_ r: inout Rand) -> Float {
        switch r.int(0...9) {
        case 0...3:
            r.pick([
                0, -0.0, 1, -1.5, .infinity, -.infinity, .nan, .leastNonzeroMagnitude, .leastNormalMagnitude,
                            .greatestFiniteMagnitude, -.greatestFiniteMagnitude, 0x1p24, 0.1])
        case 4...6: Float(bitPattern: UInt32(truncatingIfNeeded: r.next()))
        default: Float.random(in: -1e6...1e6, using: &r)
        }
    }

    static let specialStrings = [
        "", " ", "a", "\0", "a\0b", "end\0", "é", "e\u{301}", "日本語", "🙂👍🏽🇫🇷", "quote ' \" `",
        "line\nbreak\ttab", "\u{FEFF}bom", "\u{10FFFF}", "Ω≈ç√", String(repeating: "long ", count: 400),
    ]

    static let scalarRanges: [ClosedRange<UInt32>] = [
        0x20...0x7E, 0x01...0x1F, 0xA0...0xFF, 0x300...0x36F, 0x4E00...0x4E80, 0x1F600...0x1F64F
    ]

    static func string(_ r: inout Rand) -> String {
        if r.chance(0.4) { return r.pick(specialStrings) }
        var scalars = String.UnicodeScalarView()
        for _ in 0..<r.int(0...20) {
            scalars.append(Unicode.Scalar(UInt32.random(in: r.pick(scalarRanges), using: &r))!)
        }
        return String(scalars)
    }

    static func data(_ r: inout Rand) -> Data {
        switch r.int(0...19) {
        case 0...3: r.pick([Data(), Data([0]), Data([0xFF, 0]), Data(repeating: 0, count: 16)])
        case 4: (0..<r.int(12_500...37_500)).map { _ in r.next() }.withUnsafeBytes { Data($0) }
        default: Data((0..<r.int(0...40)).map { _ in UInt8.random(in: 0...255, using: &r) })
        }
    }

    /// Dates at millisecond precision, from before year 0 to after 9999.
    static func date(_ r: inout Rand) -> Date {
        let milliseconds: Int64 = switch r.int(0...9) {
        case 0...2: r.pick([
            0, -1, 1, 946_684_800_000, -62_167_219_200_000, -62_167_219_200_001, 253_402_300_799_999,
            253_402_300_800_000, -12_219_292_800_000, 951_782_400_000, -2_208_988_800_000, 4_102_444_800_000,
        ])
        case 3...5: Int64.random(in: -400_000_000_000_000...400_000_000_000_000, using: &r)
        default: Int64.random(in: -5_000_000_000_000...5_000_000_000_000, using: &r)
        }
        // Dates stored as text read back as counted from 2001 (`Date`'s
        // origin); the others are stored as Unix timestamps.
        if (-62_167_219_200_000...253_402_300_799_999).contains(milliseconds) {
            return Date(timeIntervalSinceReferenceDate: Double(milliseconds - 978_307_200_000) / 1000)
        }
        return Date(timeIntervalSince1970: Double(milliseconds) / 1000)
    }

    static func uuid(_ r: inout Rand) -> UUID {
        switch r.int(0...9) {
        case 0: UUID(uuid: (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0))
        case 1: UUID(uuidString: "FFFFFFFF-FFFF-FFFF-FFFF-FFFFFFFFFFFF")!
        default: UUID(uuid: withUnsafeBytes(of: (r.next(), r.next())) { $0.loadUnaligned(as: uuid_t.self) })
        }
    }

    static func nested(_ r: inout Rand, finite: Bool = false) -> Nested {
        Nested(
            name: string(&r),
            numbers: (0..<r.int(0...3)).map { _ in integer(&r) },
            // Non-finite numbers can't be JSON: an error.
            ratio: !finite && r.chance(0.05) ? r.pick([Double.nan, .infinity])
                : r.chance(0.3) ? r.pick([0, 0.1, 0x1.8p-1030, 1e300, -2.5]) : Double.random(in: -1e9...1e9, using: &r),
            mood: r.chance(0.5) ? r.pick([.happy, .grumpy]) : nil,
            tags: Dictionary((0..<r.int(0...2)).map { _ in (string(&r), r.chance(0.5)) }, uniquingKeysWith: { $1 }))
    }

    /// The simplest value of a column, for shrinking.
    static func simplest(_ column: ColumnSpec) -> ColumnValue {
        switch column.kind {
        case .bool: .bool(false)
        case .int: .int(0)
        case .int8: .int8(0)
        case .int16: .int16(0)
        case .int32: .int32(0)
        case .int64: .int64(0)
        case .uint: .uint(0)
        case .uint8: .uint8(0)
        case .uint16: .uint16(0)
        case .uint32: .uint32(0)
        case .uint64: .uint64(0)
        case .double: .double(0)
        case .float: .float(0)
        case .string: .string("")
        case .data: .data(Data())
        case .date: .date(Date(timeIntervalSince1970: 0))
        case .uuid: .uuid(UUID(uuid: (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)))
        case .json: .json(Nested(name: "", numbers: [], ratio: 0, mood: nil, tags: [:]))
        }
    }

    // MARK: Shrinking

    /// Simpler values: NULL or the simplest value, half a blob or string.
    static func simpler(_ value: ColumnValue, _ column: ColumnSpec) -> [ColumnValue] {
        if value == .null { return [] }
        var candidates: [ColumnValue] = []
        let simplest = column.isOptional ? ColumnValue.null : simplest(column)
        if value != simplest { candidates.append(simplest) }
        switch value {
        case .data(let data) where data.count > 1: candidates.append(.data(data.prefix(data.count / 2)))
        case .string(let string) where string.count > 1:
            candidates.append(.string(String(string.prefix(string.count / 2))))
        default: break
        }
        return candidates
    }

    /// The table without a column that is not in the primary key.
    static func removing(column index: Int, from table: TableSpec) -> TableSpec? {
        guard !table.primaryKeyIndexes.contains(index), table.columns.count > 1 else { return nil }
        var table = table
        table.columns.remove(at: index)
        let shift = { (i: Int) in i > index ? i - 1 : i }
        switch table.primaryKey {
        case .hiddenRowID: break
        case .rowIDAlias(let i): table.primaryKey = .rowIDAlias(shift(i))
        case .columns(let indexes): table.primaryKey = .columns(indexes.map(shift))
        }
        return table
    }

    /// Fewer records, fewer columns, simpler keys, names and values.
    static func shrink(_ testCase: RecordCase) -> [RecordCase] {
        var candidates: [RecordCase] = []
        for index in testCase.records.indices {
            var smaller = testCase
            smaller.records.remove(at: index)
            candidates.append(smaller)
        }
        let table = testCase.table
        for index in table.columns.indices {
            guard let smallerTable = removing(column: index, from: table) else { continue }
            var smaller = testCase
            smaller.table = smallerTable
            for record in smaller.records.indices { smaller.records[record].values.remove(at: index) }
            candidates.append(smaller)
        }
        if table.withoutRowID {
            var simpler = testCase
            simpler.table.withoutRowID = false
            candidates.append(simpler)
        }
        if case .columns = table.primaryKey {
            var simpler = testCase
            simpler.table.primaryKey = .hiddenRowID
            simpler.table.withoutRowID = false
            candidates.append(simpler)
        }
        for (index, column) in table.columns.enumerated() where column.name != "c\(index)" {
            var simpler = testCase
            simpler.table.columns[index].name = "c\(index)"
            if !table.columns.contains(where: { $0.name.lowercased() == "c\(index)" }) { candidates.append(simpler) }
        }
        if table.name != "t" {
            var simpler = testCase
            simpler.table.name = "t"
            candidates.append(simpler)
        }
        for (recordIndex, record) in testCase.records.enumerated() {
            for (index, value) in record.values.enumerated() {
                for simpler in simpler(value, table.columns[index]) {
                    var smaller = testCase
                    smaller.records[recordIndex].values[index] = simpler
                    candidates.append(smaller)
                }
            }
        }
        return candidates
    }
}
