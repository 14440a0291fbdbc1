import Foundation
import GRDBLite
import Synchronization
import Testing

// The encoder of Encodable records remembers which key wrote each position
// of the previous record (the key's bits): a key with other bits, or a
// position whose column changed, must write its own column.

/// Writes `values` under `keys`, in order: records that differ by the
/// type and the order of their keys.
private struct Keyed<Key: CodingKey>: Encodable, PersistableRecord {
    static var databaseTableName: String { "t" }
    var keys: [Key]
    var values: [Int]

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: Key.self)
        for (key, value) in zip(keys, values) {
            try container.encode(value, forKey: key)
        }
    }
}

/// Two keys, and two others of the same bits, in the other order:
/// `Reversed.second` has the bits of `Forward.first`.
private enum Forward: String, CodingKey { case first, second }
private enum Reversed: String, CodingKey { case second, first }

/// Keys of two (`UInt16`), four (`UInt32`) and eight bytes (`Int`),
/// matched by their bits as enums are: 0 is `first`, 1 is `second`, 2 is
/// `extra`. Their bits are those of `Forward`'s cases, for other columns
/// or of another type.
private struct NumberKey<Number: FixedWidthInteger & Sendable>: CodingKey {
    var column: Number
    init(_ column: Number) { self.column = column }
    var stringValue: String { ["first", "second", "extra"][Int(column)] }
    init?(stringValue: String) { nil }
    var intValue: Int? { nil }
    init?(intValue: Int) { nil }
}

private typealias ShortKey = NumberKey<UInt16>
private typealias LongKey = NumberKey<Int>

/// Writes its keys in the order that its `flip` property says, and `extra`
/// only when it is not nil.
private struct Flipping: Encodable, PersistableRecord {
    static let databaseTableName = "t"
    var flip: Bool
    var first: Int
    var second: Int
    var extra: Int?

    enum CodingKeys: CodingKey { case first, second, extra }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        if flip {
            try container.encode(second, forKey: .second)
            try container.encode(first, forKey: .first)
        } else {
            try container.encode(first, forKey: .first)
            try container.encode(second, forKey: .second)
        }
        if let extra { try container.encode(extra, forKey: .extra) }
    }
}

/// Writes `second` then `first` by hand, into the container that the
/// connection reuses for every insert.
private struct HandWritten: PersistableRecord {
    static let databaseTableName = "t"
    var first: Int
    var second: Int

    func encode(to container: inout PersistenceContainer) {
        container["second"] = second
        container["first"] = first
    }
}

/// A key with a reference: always looked up by name.
private struct NameKey: CodingKey {
    var stringValue: String
    init(stringValue: String) { self.stringValue = stringValue }
    var intValue: Int? { nil }
    init?(intValue: Int) { nil }
}

/// Writes its values under the names of `columns`.
private func byName(_ columns: [String], _ values: [Int]) -> Keyed<NameKey> {
    Keyed(keys: columns.map(NameKey.init(stringValue:)), values: values)
}

@Suite struct EncodableRecordKeyMatchingTests {
    private func makeDatabase() throws -> DatabaseQueue {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db in
            try db.execute(sql: "CREATE TABLE t (rowid INTEGER PRIMARY KEY, first, second, extra)")
        }
        return dbQueue
    }

    private func pairs(_ db: Database) throws -> [[Int?]] {
        try Row.fetchAll(db, sql: "SELECT first, second, extra FROM t ORDER BY rowid").map {
            [$0["first"], $0["second"], $0["extra"]]
        }
    }

    @Test func keysOfTheSameBitsAtOtherPositionsOrOfAnotherTypeFindTheirColumns() throws {
        try makeDatabase().write { (db: Database) throws in
            for index in 0..<3 {
                try Keyed<Forward>(keys: [.first, .second], values: [index, 10 + index]).insert(db)
                try Keyed<Forward>(keys: [.second, .first], values: [30 + index, 20 + index]).insert(db)
                try Keyed<Reversed>(keys: [.second, .first], values: [50 + index, 40 + index]).insert(db)
            }
            #expect(try pairs(db) == [
                [0, 10, nil], [20, 30, nil], [40, 50, nil],
                [1, 11, nil], [21, 31, nil], [41, 51, nil],
                [2, 12, nil], [22, 32, nil], [42, 52, nil],
            ])
        }
    }

    @Test func keysInAnotherOrderOrMissingFindTheirColumns() throws {
        try makeDatabase().write { (db: Database) throws in
            let records = [
                Flipping(flip: false, first: 1, second: 2, extra: nil),
                Flipping(flip: true, first: 3, second: 4, extra: 5),
                Flipping(flip: true, first: 6, second: 7, extra: nil),
                Flipping(flip: false, first: 8, second: 9, extra: 10),
                Flipping(flip: false, first: 11, second: 12, extra: 13),
            ]
            for record in records { try record.insert(db) }
            #expect(try pairs(db) == [[1, 2, nil], [3, 4, 5], [6, 7, nil], [8, 9, 10], [11, 12, 13]])
        }
    }

    @Test func keysOfTwoFourAndEightBytesFindTheirColumns() throws {
        try makeDatabase().write { (db: Database) throws in
            for index in 0..<2 {
                try Keyed(keys: [ShortKey(0), ShortKey(1)], values: [index, 10 + index]).insert(db)
                try Keyed(keys: [ShortKey(1), ShortKey(0)], values: [30 + index, 20 + index]).insert(db)
                try Keyed(keys: [LongKey(1), LongKey(2)], values: [40 + index, 50 + index]).insert(db)
                try Keyed<Forward>(keys: [.first, .second], values: [60 + index, 70 + index]).insert(db)
                let keys = [LongKey(0), LongKey(1), LongKey(2)]
                try Keyed(keys: keys, values: [80 + index, 90 + index, 100]).insert(db)
                try Keyed(keys: [NumberKey<UInt32>(2), NumberKey(0)], values: [110, 120 + index]).insert(db)
            }
            #expect(try pairs(db) == [
                [0, 10, nil], [20, 30, nil], [nil, 40, 50], [60, 70, nil], [80, 90, 100], [120, nil, 110],
                [1, 11, nil], [21, 31, nil], [nil, 41, 51], [61, 71, nil], [81, 91, 100], [121, nil, 110],
            ])
            // The rows of a cursor look columns up by the same bits.
            let rows = try Row.fetchCursor(db, sql: "SELECT first, second, extra FROM t ORDER BY rowid")
            var decoded: [[[Int?]]] = []
            while let row = try rows.next() {
                decoded.append([try NumberPair<UInt16>(row: row).values, try NumberPair<Int>(row: row).values])
                #expect(try NumberPair<UInt32>(row: row).values == decoded.last?[0])
            }
            #expect(decoded.map(\.[0]) == decoded.map(\.[1]))
            #expect(decoded.map(\.[0]) == [
                [10, 0], [30, 20], [40, nil], [70, 60], [90, 80], [nil, 120],
                [11, 1], [31, 21], [41, nil], [71, 61], [91, 81], [nil, 121],
            ])
        }
    }

    @Test func keysThatAreNotComparedByBitsUseTheirNames() throws {
        try makeDatabase().write { (db: Database) throws in
            try byName(["first", "second"], [1, 2]).insert(db)
            try byName(["second", "first"], [3, 4]).insert(db)
            try byName(["first", "extra"], [5, 6]).insert(db)
            try Flipping(flip: false, first: 7, second: 8, extra: 9).insert(db)
            try byName(["extra", "second"], [10, 11]).insert(db)
            try Flipping(flip: false, first: 12, second: 13, extra: 14).insert(db)
            #expect(try pairs(db) == [
                [1, 2, nil], [4, 3, nil], [5, nil, 6], [7, 8, 9], [nil, 11, 10], [12, 13, 14],
            ])
        }
    }

    @Test func columnsWrittenByHandInBetweenAreNotMistakenForTheKeys() throws {
        try makeDatabase().write { (db: Database) throws in
            for index in 0..<3 {
                try Flipping(flip: false, first: index, second: 10 + index, extra: nil).insert(db)
                try HandWritten(first: 20 + index, second: 30 + index).insert(db)
            }
            #expect(try pairs(db) == [
                [0, 10, nil], [20, 30, nil],
                [1, 11, nil], [21, 31, nil],
                [2, 12, nil], [22, 32, nil],
            ])
        }
    }

    @Test func containerOfAnotherRecordIsNotMistakenForThePrevious() throws {
        try makeDatabase().write { (db: Database) throws in
            try Flipping(flip: false, first: 1, second: 2, extra: 3).insert(db)
            // The same keys, encoded into a container of its own.
            let dictionary = try Flipping(flip: true, first: 4, second: 5, extra: 6).databaseDictionary
            #expect(dictionary == ["first": 4.databaseValue, "second": 5.databaseValue, "extra": 6.databaseValue])
            try Flipping(flip: false, first: 7, second: 8, extra: 9).insert(db)
            #expect(try pairs(db) == [[1, 2, 3], [7, 8, 9]])
        }
    }
}

/// Decodes `second` (which may be NULL) then `first`.
private struct NumberPair<Number: FixedWidthInteger & Sendable>: Decodable, FetchableRecord {
    var values: [Int?]
    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: NumberKey<Number>.self)
        values = try [
            container.decodeIfPresent(Int.self, forKey: NumberKey(1)),
            container.decode(Int?.self, forKey: NumberKey(0)),
        ]
    }
}

extension EncodableRecordKeyMatchingTests {
    /// Keys are matched by their bits on the assumption that a key's
    /// `stringValue` depends on them only: debug builds check each match
    /// and trap on a key that breaks it, instead of writing another column.
    @Test(.disabled(
        if: ProcessInfo.processInfo.environment["GRDBLITE_REFERENCE_CODERS"] == "1",
        "the reference coders match keys by name"))
    func aKeyWhoseStringValueChangesTrapsInDebugBuilds() async throws {
        #if DEBUG
        let exit = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let dbQueue = try DatabaseQueue()
            try dbQueue.write { db in
                try db.execute(sql: "CREATE TABLE t (a, b)")
                try ShiftingByteKeyRecord().insert(db)
                ShiftingByteKey.shifted.store(true, ordering: .relaxed)
                try ShiftingByteKeyRecord().insert(db)
            }
        }
        #expect(try String(decoding: #require(exit).standardErrorContent, as: UTF8.self)
            .contains("a key's stringValue must depend on its stored bytes only"))
        #endif
    }
}

/// A key of one byte whose `stringValue` is "a", then "b" once `shifted`
/// is set: it breaks the assumption of key matching by bits.
private struct ShiftingByteKey: CodingKey {
    static let shifted = Atomic(false)
    var byte: UInt8 = 0
    var stringValue: String { Self.shifted.load(ordering: .relaxed) ? "b" : "a" }
    var intValue: Int? { nil }
    init() { }
    init?(stringValue: String) { nil }
    init?(intValue: Int) { nil }
}

private struct ShiftingByteKeyRecord: Encodable, PersistableRecord {
    static let databaseTableName = "t"
    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: ShiftingByteKey.self)
        try container.encode(1, forKey: ShiftingByteKey())
    }
}
