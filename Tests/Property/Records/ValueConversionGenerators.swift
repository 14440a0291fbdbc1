import Foundation
import PropertyBased

/// Values stored with SQL in an untyped table, and the record columns that
/// read them.
struct ConversionCase: Sendable, CustomStringConvertible {
    var table: TableSpec
    var rows: [[Stored]]

    var description: String {
        "\(table)\n"
            + rows.enumerated().map { "  #\($0.offset): \($0.element.map(\.description).joined(separator: ", "))" }
            .joined(separator: "\n")
    }
}

extension RecordGenerators {
    static var conversionCase: Generator<ConversionCase, [ConversionCase]> {
        generator(
            run: { r in
                // No declared type: SQLite keeps the values as they are bound.
                let columns = (0..<r.int(1...4)).map { index in
                    ColumnSpec(
                        name: "c\(index)", kind: r.pick(ValueKind.allCases), declaredType: "", isOptional: r.chance(0.3)
                    )
                }
                let table = TableSpec(name: "t", columns: columns, primaryKey: .hiddenRowID, withoutRowID: false)
                let rows = (0..<r.int(1...5)).map { _ in columns.map { storedValue(&r, readAs: $0.kind) } }
                return ConversionCase(table: table, rows: rows)
            },
            shrink: { testCase in
                var candidates: [ConversionCase] = []
                for index in testCase.rows.indices where testCase.rows.count > 1 {
                    var smaller = testCase
                    smaller.rows.remove(at: index)
                    candidates.append(smaller)
                }
                for index in testCase.table.columns.indices where testCase.table.columns.count > 1 {
                    var smaller = testCase
                    smaller.table.columns.remove(at: index)
                    for row in smaller.rows.indices { smaller.rows[row].remove(at: index) }
                    for column in smaller.table.columns.indices { smaller.table.columns[column].name = "c\(column)" }
                    candidates.append(smaller)
                }
                return candidates
            })
    }

    /// A stored value for a column of this kind: values that convert, and
    /// values that don't (out of range, NULL, wrong storage class).
    ///
    /// Left out: reals with a fractional part read as integers, which GRDB
    /// converts with SQLite's own rules on its fast path (statement rows)
    /// but not from copied rows. Text read as integers is letters only,
    /// which SQLite reads as 0 on the fast path.
    static func storedValue(_ r: inout Rand, readAs kind: ValueKind) -> Stored {
        if r.chance(0.1) { return .null }
        let letters = Stored.text(String((0..<r.int(1...6)).map { _ in r.pick("abcXYZé日") }))
        switch kind {
        case _ where kind.isInteger:
            switch r.int(0...9) {
            case 0...4: return .integer(integerNearBounds(&r))
            case 5...7:
                return .real(
                    r.pick([
                        0, -0.0, 1, -1, 0x1p53, -0x1p53, 0x1p62, 0x1p63, -0x1p63, 1e19, -1e19, .infinity, 255, 256,
                        -129, 65_536, 4_294_967_296
                    ]))
            case 8: return .real(Double(Int64.random(in: -(1 << 53)...(1 << 53), using: &r)))
            default: return letters
            }
        case .bool, .double, .float:
            if r.chance(0.5) { return .integer(integerNearBounds(&r)) }
            let value = double(&r)
            return .real(value.isNaN ? 0.5 : value) // NaN would be stored as NULL
        case .string:
            return r.weighted([
                (6, .text(string(&r))), (1, .integer(integerNearBounds(&r))), (1, .real(1.5)), (1, .blob(Data([0x61])))
            ])
        case .data:
            return r.weighted([(4, .blob(data(&r))), (3, .text(string(&r))), (1, .integer(1))])
        case .uuid:
            let uuid = uuid(&r)
            return r.weighted([
                (3, .blob(withUnsafeBytes(of: uuid.uuid) { Data($0) })),
                (2, .text(r.chance(0.5) ? uuid.uuidString : uuid.uuidString.lowercased())),
                (1, .blob(Data(repeating: 1, count: r.pick([0, 15, 17])))),
                (1, letters), (1, .integer(16)),
            ])
        case .date:
            let milliseconds = Int64.random(in: -62_167_219_200_000...253_402_300_799_999, using: &r)
            return r.weighted([
                (3, .text(RecordModel.dateText(milliseconds: milliseconds)!)),
                (2, .integer(Int64.random(in: -100_000_000_000...100_000_000_000, using: &r))),
                (2, .real(Double(milliseconds) / 1000)),
                (1, letters), (1, .blob(Data([1, 2]))),
            ])
        case .json:
            return r.weighted([
                (
                    3,
                    .text(
                        String(decoding: try! RecordModel.jsonEncoder.encode(nested(&r, finite: true)), as: UTF8.self))
                ),
                (1, .text("{}")), (1, letters), (1, .integer(1)),
            ])
        default:
            fatalError("unreachable")
        }
    }

    /// Integers at and around the bounds of every integer width.
    static func integerNearBounds(_ r: inout Rand) -> Int64 {
        let bounds: [Int64] = [
            0, Int64(Int8.min), Int64(Int8.max), Int64(UInt8.max), Int64(Int16.min), Int64(Int16.max),
            Int64(UInt16.max),
            Int64(Int32.min), Int64(Int32.max), Int64(UInt32.max), Int64.min, Int64.max,
        ]
        if r.chance(0.2) { return Int64.random(in: .min ... .max, using: &r) }
        return r.pick(bounds) &+ Int64(r.int(-1...1))
    }
}
