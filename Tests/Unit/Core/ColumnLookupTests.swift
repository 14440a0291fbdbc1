import Foundation
import GRDBLite
import Synchronization
import Testing

// The rows of a statement remember the n-th column lookup of the previous
// row: by name (its string's bits), or by coding key (its type and bits).
// A lookup that differs from the remembered one must find its own column.

/// Keys `x`, `y`: the first case has the bits of `YFirst`'s first case.
private struct XFirst: Decodable, FetchableRecord, Equatable {
    var x: Int
    var y: Int
}

/// Keys `y`, `x`: the same bits as `XFirst`'s keys, other columns.
private struct YFirst: Decodable, FetchableRecord, Equatable {
    var y: Int
    var x: Int
}

/// Decodes its keys in the order that its `flip` column says.
private struct Flipping: Decodable, FetchableRecord {
    var x: Int
    var y: Int

    enum CodingKeys: CodingKey { case flip, x, y }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        if try container.decode(Bool.self, forKey: .flip) {
            y = try container.decode(Int.self, forKey: .y)
            x = try container.decode(Int.self, forKey: .x)
        } else {
            x = try container.decode(Int.self, forKey: .x)
            y = try container.decode(Int.self, forKey: .y)
        }
    }
}

/// A key with a reference (its name), and one wider than eight bytes:
/// they are looked up by name.
private struct NameKey: CodingKey {
    var stringValue: String
    init(stringValue: String) { self.stringValue = stringValue }
    var intValue: Int? { nil }
    init?(intValue: Int) { nil }
}

private struct WideKey: CodingKey {
    /// The column: 0 is `x`, 1 is `y`; the padding makes the key 16 bytes.
    var column: Int
    var padding = 0
    init(column: Int) { self.column = column }
    var stringValue: String { column == 0 ? "x" : "y" }
    init?(stringValue: String) { nil }
    var intValue: Int? { nil }
    init?(intValue: Int) { nil }
}

/// Decodes `x` then `y` with the key type of `ByName` or `ByWideKey`.
private struct ByName: Decodable, FetchableRecord {
    var x: Int
    var y: Int
    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: NameKey.self)
        x = try container.decode(Int.self, forKey: NameKey(stringValue: "x"))
        y = try container.decode(Int.self, forKey: NameKey(stringValue: "y"))
    }
}

private struct ByWideKey: Decodable, FetchableRecord {
    var x: Int
    var y: Int
    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: WideKey.self)
        x = try container.decode(Int.self, forKey: WideKey(column: 0))
        y = try container.decode(Int.self, forKey: WideKey(column: 1))
    }
}

@Suite struct ColumnLookupTests {
    private func makeDatabase() throws -> DatabaseQueue {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db throws in
            try db.execute(sql: "CREATE TABLE t (flip BOOLEAN, x INTEGER, y INTEGER)")
            for i in 0..<6 {
                try db.execute(sql: "INSERT INTO t VALUES (?, ?, ?)", arguments: [i % 2 == 1, i, i * 10])
            }
        }
        return dbQueue
    }

    /// The [x, y] pairs that `decode` reads from each row of a statement's
    /// cursor (the rows' positions: 0, 1, 2...), in the same database access.
    private func decodePairs(
        _ db: Database, sql: String, _ decode: (_ position: Int, Row) throws -> [Int]
    ) throws -> [[Int]] {
        let rows = try Row.fetchCursor(db, sql: sql)
        var decoded: [[Int]] = []
        while let row = try rows.next() {
            decoded.append(try decode(decoded.count, row))
        }
        return decoded
    }

    /// Keys of two types with the same bits, decoded at the same position
    /// of alternate rows: each finds its own column.
    @Test func keysOfAnotherTypeWithTheSameBitsFindTheirColumn() throws {
        try makeDatabase().read { db throws in
            let decoded = try decodePairs(db, sql: "SELECT x, y FROM t ORDER BY x") { position, row in
                if position % 2 == 0 {
                    let record = try XFirst(row: row)
                    return [record.x, record.y]
                }
                let record = try YFirst(row: row)
                return [record.x, record.y]
            }
            #expect(decoded == (0..<6).map { [$0, $0 * 10] })
        }
    }

    /// Keys decoded in another order than in the previous row.
    @Test func keysInAnotherOrderFindTheirColumn() throws {
        try makeDatabase().read { db throws in
            let records = try Flipping.fetchAll(db, sql: "SELECT flip, x, y FROM t ORDER BY x")
            #expect(records.map(\.x) == Array(0..<6))
            #expect(records.map(\.y) == (0..<6).map { $0 * 10 })
        }
    }

    /// Keys with a reference or wider than eight bytes are looked up by
    /// name, mixed with the keys of synthesized `CodingKeys`.
    @Test func keysThatAreNotComparedByBitsAreLookedUpByName() throws {
        try makeDatabase().read { db throws in
            let decoded = try decodePairs(db, sql: "SELECT y, x FROM t ORDER BY x") { position, row in
                switch position % 3 {
                case 0:
                    let record = try ByName(row: row)
                    return [record.x, record.y]
                case 1:
                    let record = try ByWideKey(row: row)
                    return [record.x, record.y]
                default:
                    let record = try XFirst(row: row)
                    return [record.x, record.y]
                }
            }
            #expect(decoded == (0..<6).map { [$0, $0 * 10] })
        }
    }

    /// A key after a lookup by name at the same position, and the reverse.
    @Test func keysAndNamesShareThePositions() throws {
        try makeDatabase().read { db throws in
            let decoded = try decodePairs(db, sql: "SELECT x, y FROM t ORDER BY x") { position, row in
                if position % 2 == 0 {
                    return [row["y"], row["x"]]
                }
                let record = try XFirst(row: row)
                return [record.y, record.x]
            }
            #expect(decoded == (0..<6).map { [$0 * 10, $0] })
        }
    }

    /// A missing column is an error that names it, every row.
    @Test func missingColumnIsNamed() throws {
        try makeDatabase().read { db throws in
            let rows = try Row.fetchCursor(db, sql: "SELECT x FROM t")
            var errors = 0
            while let row = try rows.next() {
                let error = #expect(throws: (any Error).self) { try XFirst(row: row) }
                #expect("\(String(describing: error))".contains("y"))
                errors += 1
            }
            #expect(errors == 6)
        }
    }

    /// Keys are matched by their bits on the assumption that a key's
    /// `stringValue` depends on them only: debug builds check each match
    /// and trap on a key that breaks it, instead of reading another column.
    @Test func aKeyWhoseStringValueChangesTrapsInDebugBuilds() async throws {
        #if DEBUG
        let exit = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let dbQueue = try DatabaseQueue()
            _ = try dbQueue.read { db in
                try ShiftingKeyRecord.fetchAll(db, sql: "SELECT 1 AS a, 2 AS b UNION ALL SELECT 3, 4")
            }
        }
        #expect(try String(decoding: #require(exit).standardErrorContent, as: UTF8.self)
            .contains("a key's stringValue must depend on its stored bytes only"))
        #endif
    }
}

/// A key of no stored bytes whose `stringValue` is "a" the first time and
/// "b" afterwards: it breaks the assumption of key matching by bits.
private struct ShiftingKey: CodingKey {
    static let reads = Atomic(0)
    var stringValue: String { Self.reads.add(1, ordering: .relaxed).oldValue == 0 ? "a" : "b" }
    var intValue: Int? { nil }
    init() { }
    init?(stringValue: String) { nil }
    init?(intValue: Int) { nil }
}

private struct ShiftingKeyRecord: Decodable, FetchableRecord {
    var value: Int
    init(from decoder: any Decoder) throws {
        value = try decoder.container(keyedBy: ShiftingKey.self).decode(Int.self, forKey: ShiftingKey())
    }
}
