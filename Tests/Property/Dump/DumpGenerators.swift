import Foundation
import GRDBLite
import PropertyBased

/// A random database: a few tables of untyped columns (SQLite keeps values
/// as they are bound), filled with random values.
struct DumpCase: Sendable, CustomStringConvertible {
    struct Table: Sendable {
        var name: String
        var columnCount: Int
        /// With an index on its first column.
        var isIndexed: Bool
        /// The values of each row, after its `id` (1, 2, ...).
        var rows: [[DatabaseValue]]
    }

    var tables: [Table]
    /// The pages per step of backups (-1: all at once).
    var pagesPerStep: CInt = -1

    var description: String {
        tables.map { table in
            "\(table.name) (\(table.columnCount) columns\(table.isIndexed ? ", indexed" : "")):\n"
                + table.rows.map { "  " + $0.map(\.description).joined(separator: ", ") }.joined(separator: "\n")
        }.joined(separator: "\n")
    }

    /// Creates the tables and fills them.
    func create(in db: Database) throws {
        for table in tables {
            let columns = (0..<table.columnCount).map { "c\($0)" }
            try db.execute(
                sql:
                    "CREATE TABLE \(table.name.quotedDatabaseIdentifier) (id INTEGER PRIMARY KEY, \(columns.joined(separator: ", ")))"
            )
            if table.isIndexed {
                try db.execute(
                    sql:
                        "CREATE INDEX \((table.name + "_c0").quotedDatabaseIdentifier) ON \(table.name.quotedDatabaseIdentifier)(c0)"
                )
            }
            let marks = Array(repeating: "?", count: table.columnCount + 1).joined(separator: ", ")
            for (index, row) in table.rows.enumerated() {
                try db.execute(
                    sql: "INSERT INTO \(table.name.quotedDatabaseIdentifier) VALUES (\(marks))",
                    arguments: StatementArguments([(index + 1).databaseValue] + row))
            }
        }
    }
}

enum DumpGenerators {
    static var dumpCase: Generator<DumpCase, [DumpCase]> {
        generator(
            run: { r in
                let names = ["player", "Team", "été", "a b", "order"].shuffled(using: &r)
                let tables = (0..<r.int(1...3)).map { index in
                    let columnCount = r.int(1...4)
                    return DumpCase.Table(
                        name: names[index],
                        columnCount: columnCount,
                        isIndexed: r.chance(0.3),
                        rows: (0..<r.int(0...8)).map { _ in (0..<columnCount).map { _ in value(&r) } })
                }
                return DumpCase(tables: tables, pagesPerStep: r.pick([-1, 1, 2, 5]))
            },
            shrink: { testCase in
                var candidates: [DumpCase] = []
                for index in testCase.tables.indices where testCase.tables.count > 1 {
                    var smaller = testCase
                    smaller.tables.remove(at: index)
                    candidates.append(smaller)
                }
                for index in testCase.tables.indices {
                    for row in testCase.tables[index].rows.indices {
                        var smaller = testCase
                        smaller.tables[index].rows.remove(at: row)
                        candidates.append(smaller)
                    }
                }
                return candidates
            })
    }

    /// NULL, integers (bounds included), finite reals, text (Unicode, line
    /// breaks, quotes), blobs (empty, binary, UTF-8, 16 bytes).
    ///
    /// Left out: infinities, which SQLite 3.40's `QUOTE()` writes `Inf`, an
    /// SQL that does not read back; reals far from 1 (beyond about 1e±250),
    /// whose 21 digits SQLite 3.40 may read back one bit off; NaN, which
    /// SQLite stores as NULL; text with NUL bytes, which `QUOTE()` cuts (as
    /// GRDB prints them).
    static func value(_ r: inout Rand) -> DatabaseValue {
        switch r.int(0...9) {
        case 0:
            return .null
        case 1...2:
            return r.pick([Int64.min, Int64.max, 0, -1, 1, Int64(r.int(-1000...1000)), Int64(bitPattern: r.next())])
                .databaseValue
        case 3...4:
            if r.chance(0.5) {
                let special: [Double] = [
                    0, -0.0, 0.1, -1.5, 1, 1e300, -1e-300, .leastNormalMagnitude, .greatestFiniteMagnitude, 0x1p53 + 2,
                    123.45
                ]
                return r.pick(special).databaseValue
            }
            // Any significand, a binary exponent within ±830 (about 1e±250).
            let significand = 1 + Double(r.next() >> 11) * 0x1p-53
            return Double(sign: r.chance(0.5) ? .minus : .plus, exponent: r.int(-830...830), significand: significand)
                .databaseValue
        case 5...7:
            if r.chance(0.4) {
                return r.pick([
                    "", " ", "it's", "\"quoted\"", "line\nbreak\ttab", "é", "e\u{301}", "日本語", "🙂👍🏽🇫🇷", "\\", "NULL",
                    "X'00'"
                ]).databaseValue
            }
            let ranges: [ClosedRange<UInt32>] = [
                0x20...0x7E, 0x01...0x1F, 0xA0...0xFF, 0x4E00...0x4E80, 0x1F600...0x1F64F
            ]
            var scalars = String.UnicodeScalarView()
            for _ in 0..<r.int(0...12) {
                scalars.append(Unicode.Scalar(UInt32.random(in: r.pick(ranges), using: &r))!)
            }
            return String(scalars).databaseValue
        default:
            switch r.int(0...3) {
            case 0: return r.pick([Data(), Data([0]), Data([0x80]), Data("abc".utf8)]).databaseValue
            case 1: return Data((0..<16).map { _ in UInt8.random(in: 0...255, using: &r) }).databaseValue
            default: return Data((0..<r.int(0...40)).map { _ in UInt8.random(in: 0...255, using: &r) }).databaseValue
            }
        }
    }
}
