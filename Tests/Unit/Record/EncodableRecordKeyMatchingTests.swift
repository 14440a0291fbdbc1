import GRDBLite
import Testing

// The encoder of Encodable records remembers which key wrote each position
// of the previous record (the key's bits): a key with other bits, or a
// position whose column changed, must write its own column.

/// Keys shared by two record types: the same bits, other columns.
private enum SharedKeys: String, CodingKey { case first, second }

/// Writes `x` with `.first` and `y` with `.second`.
private struct XFirst: Encodable, PersistableRecord {
    static let databaseTableName = "t"
    var x: Int
    var y: Int

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: SharedKeys.self)
        try container.encode(x, forKey: .first)
        try container.encode(y, forKey: .second)
    }
}

/// Writes `second` then `first`: the same key bits as `XFirst` at other
/// positions.
private struct SecondFirst: Encodable, PersistableRecord {
    static let databaseTableName = "t"
    var first: Int
    var second: Int

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: SharedKeys.self)
        try container.encode(second, forKey: .second)
        try container.encode(first, forKey: .first)
    }
}

/// Keys with the bits of `SharedKeys`, in the other order: `.second` has
/// the bits of `SharedKeys.first`.
private enum ReversedKeys: String, CodingKey { case second, first }

/// Writes `second` then `first` with keys of another type than `XFirst`'s,
/// of the same bits.
private struct Reversed: Encodable, PersistableRecord {
    static let databaseTableName = "t"
    var first: Int
    var second: Int

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: ReversedKeys.self)
        try container.encode(second, forKey: .second)
        try container.encode(first, forKey: .first)
    }
}

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

/// Writes its values under names from its `columns` property.
private struct ByName: Encodable, PersistableRecord {
    static let databaseTableName = "t"
    var columns: [String]
    var values: [Int]

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: NameKey.self)
        for (column, value) in zip(columns, values) {
            try container.encode(value, forKey: NameKey(stringValue: column))
        }
    }
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

    @Test func keysOfTheSameBitsWrittenByOtherRecordTypesFindTheirColumns() throws {
        try makeDatabase().write { (db: Database) throws in
            for index in 0..<3 {
                try XFirst(x: index, y: 10 + index).insert(db)
                try SecondFirst(first: 20 + index, second: 30 + index).insert(db)
                try Reversed(first: 40 + index, second: 50 + index).insert(db)
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

    @Test func keysThatAreNotComparedByBitsUseTheirNames() throws {
        try makeDatabase().write { (db: Database) throws in
            try ByName(columns: ["first", "second"], values: [1, 2]).insert(db)
            try ByName(columns: ["second", "first"], values: [3, 4]).insert(db)
            try ByName(columns: ["first", "extra"], values: [5, 6]).insert(db)
            try Flipping(flip: false, first: 7, second: 8, extra: 9).insert(db)
            try ByName(columns: ["extra", "second"], values: [10, 11]).insert(db)
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
