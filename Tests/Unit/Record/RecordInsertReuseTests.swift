import Foundation
import GRDBLite
import Testing

// Inserting records in a loop reuses the connection's container, its
// encoder's key matching by position, and the cached INSERT of the record
// type. Records whose keys change order, repeat, go missing, or fail
// midway, other record types in between, and an insert made during the
// encoding of another must still insert their own columns and values,
// and the inserted container must hold them.

/// Writes `values` under the columns of `keys`, in order (a key may
/// repeat); throws after `throwAfter` values if it is set.
private struct Listed: Encodable, PersistableRecord {
    static let databaseTableName = "t"
    enum CodingKeys: CodingKey { case a, b, c, d }
    var keys: [CodingKeys]
    var values: [Int?]
    var throwAfter: Int?
    /// Runs after the first value: an insert made during the encoding.
    var hook: (@Sendable () throws -> Void)?

    struct Failure: Error { }

    init(_ keys: [CodingKeys], _ values: [Int?], throwAfter: Int? = nil, hook: (@Sendable () throws -> Void)? = nil) {
        self.keys = keys
        self.values = values
        self.throwAfter = throwAfter
        self.hook = hook
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        for (index, (key, value)) in zip(keys, values).enumerated() {
            if index == throwAfter { throw Failure() }
            try container.encodeIfPresent(value, forKey: key)
            if index == 0 { try hook?() }
        }
    }
}

/// Keeps the container of each insert.
private final class Kept: @unchecked Sendable {
    var containers: [[String: DatabaseValue]] = []
}

/// A record of several storage classes, which keeps its inserted
/// containers.
private struct Mixed: Encodable, MutablePersistableRecord {
    static let databaseTableName = "m"
    var id: Int64?
    var text: String?
    var double: Double?
    var date: Date?
    var unsigned: UInt64?
    var kept: Kept?

    enum CodingKeys: CodingKey { case id, text, double, date, unsigned }

    mutating func didInsert(_ inserted: InsertionSuccess) {
        id = inserted.rowID
        let container = inserted.persistenceContainer
        kept?.containers.append(Dictionary(container.map { ($0.0, $0.1) }, uniquingKeysWith: { $1 }))
    }
}

/// Another record type of the same table.
private struct Other: Encodable, PersistableRecord {
    static let databaseTableName = "t"
    var d: Int
    var a: Int
}

private class Base: Record {
    var id: Int64?
    var name: String

    init(id: Int64? = nil, name: String) {
        self.id = id
        self.name = name
        super.init()
    }

    required init(row: Row) throws {
        id = row["id"]
        name = row["name"]
        try super.init(row: row)
    }

    override class var databaseTableName: String { "base" }

    override func encode(to container: inout PersistenceContainer) throws {
        container["id"] = id
        container["name"] = name
    }

    override func didInsert(_ inserted: InsertionSuccess) {
        super.didInsert(inserted)
        id = inserted.rowID
    }
}

/// The same columns, in another table.
private final class Derived: Base {
    override class var databaseTableName: String { "derived" }
}

/// Writes `a` and `b` with its keys, then `c` and `d` (when `grow`) with
/// a second keyed container of another key type, then `b` again with the
/// first one: the second container may grow the arrays that the first
/// one writes.
private struct TwoContainers: Encodable, PersistableRecord {
    static let databaseTableName = "t"
    enum CodingKeys: CodingKey { case a, b }
    enum OtherKeys: CodingKey { case c, d }
    var a: Int
    var b: Int
    var grow: Bool

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(a, forKey: .a)
        var other = encoder.container(keyedBy: OtherKeys.self)
        try other.encode(a * 10, forKey: .c)
        if grow { try other.encode(a * 100, forKey: .d) }
        try container.encode(b, forKey: .b)
    }
}

/// A record whose columns are those of a wrapped record.
private struct Wrapper: Encodable, PersistableRecord {
    static let databaseTableName = "t"
    var wrapped: Listed

    func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(wrapped)
    }
}

/// Writes text or an integer in the same column.
private struct Varying: Encodable, PersistableRecord {
    static let databaseTableName = "v"
    enum CodingKeys: CodingKey { case a, b }
    var text: String?
    var number: Int

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        if let text { try container.encode(text, forKey: .a) } else { try container.encode(number, forKey: .a) }
        try container.encode(number, forKey: .b)
    }
}

/// What `didInsert` was told, and the successes kept when `keeps` is set.
private final class Notes: @unchecked Sendable {
    var told: [String] = []
    var keeps = false
    var kept: [InsertionSuccess] = []

    func note(_ inserted: InsertionSuccess) {
        if let column = inserted.rowIDColumn {
            let value: DatabaseValue? = inserted.persistenceContainer[column]?.databaseValue
            told.append("\(column)=\(value.map { "\($0)" } ?? "missing")")
        } else {
            told.append("-")
        }
        if keeps { kept.append(inserted) }
    }
}

/// A record of table t, whose rowid column is `rowid`.
private struct InRowIDTable: Encodable, PersistableRecord {
    static let databaseTableName = "t"
    enum CodingKeys: CodingKey { case a }
    var a: Int
    var notes: Notes
    func didInsert(_ inserted: InsertionSuccess) { notes.note(inserted) }
}

/// A record of table n, whose rowid has no column.
private struct InHiddenRowIDTable: Encodable, PersistableRecord {
    static let databaseTableName = "n"
    enum CodingKeys: CodingKey { case a }
    var a: Int
    var notes: Notes
    func didInsert(_ inserted: InsertionSuccess) { notes.note(inserted) }
}

@Suite struct RecordInsertReuseTests {
    private func makeDatabase() throws -> DatabaseQueue {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db in
            try db.execute(sql: """
                CREATE TABLE t (rowid INTEGER PRIMARY KEY, a, b, c, d);
                CREATE TABLE m (id INTEGER PRIMARY KEY, text, double, date, unsigned);
                CREATE TABLE base (id INTEGER PRIMARY KEY, name TEXT NOT NULL);
                CREATE TABLE derived (id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE);
                CREATE TABLE v (rowid INTEGER PRIMARY KEY, a, b);
                CREATE TABLE n (a);
                """)
        }
        return dbQueue
    }

    private func rows(_ db: Database) throws -> [[Int?]] {
        try Row.fetchAll(db, sql: "SELECT a, b, c, d FROM t ORDER BY rowid").map {
            [$0["a"], $0["b"], $0["c"], $0["d"]]
        }
    }

    @Test func keysThatChangeHalfwayInsertTheirOwnColumns() throws {
        try makeDatabase().write { (db: Database) throws in
            try Listed([.a, .b, .c], [1, 2, 3]).insert(db)
            try Listed([.a, .b, .c], [4, 5, 6]).insert(db)
            // Mismatch at the second position, after the first was bound.
            try Listed([.a, .c, .b], [7, 8, 9]).insert(db)
            try Listed([.a, .b, .c], [10, 11, 12]).insert(db)
            // Fewer columns, then more columns.
            try Listed([.a, .b], [13, 14]).insert(db)
            try Listed([.a, .b, .c, .d], [15, 16, 17, 18]).insert(db)
            try Listed([.a, .b, .c, .d], [19, 20, 21, 22]).insert(db)
            #expect(try rows(db) == [
                [1, 2, 3, nil], [4, 5, 6, nil], [7, 9, 8, nil], [10, 11, 12, nil],
                [13, 14, nil, nil], [15, 16, 17, 18], [19, 20, 21, 22],
            ])
        }
    }

    @Test func aKeySetTwiceInsertsItsLastValue() throws {
        try makeDatabase().write { (db: Database) throws in
            try Listed([.a, .b], [1, 2]).insert(db)
            try Listed([.a, .b, .a], [3, 4, 5]).insert(db)
            try Listed([.a, .b], [6, 7]).insert(db)
            try Listed([.a, .b, .b], [8, 9, 10]).insert(db)
            #expect(try rows(db) == [[1, 2, nil, nil], [5, 4, nil, nil], [6, 7, nil, nil], [8, 10, nil, nil]])
        }
    }

    @Test func nilOptionalsInsertNull() throws {
        try makeDatabase().write { (db: Database) throws in
            try Listed([.a, .b, .c], [1, nil, 3]).insert(db)
            try Listed([.a, .b, .c], [nil, 5, nil]).insert(db)
            try Listed([.a, .b, .c], [7, 8, 9]).insert(db)
            #expect(try rows(db) == [[1, nil, 3, nil], [nil, 5, nil, nil], [7, 8, 9, nil]])
        }
    }

    @Test func storageClassesAndInsertedContainers() throws {
        let kept = Kept()
        let date = Date(timeIntervalSince1970: 1_000_000)
        try makeDatabase().write { (db: Database) throws in
            var records = [
                Mixed(text: "one", double: 1.5, date: date, unsigned: 1, kept: kept),
                Mixed(text: nil, double: nil, date: nil, unsigned: nil, kept: kept),
                Mixed(text: "three", double: 3.5, date: date, unsigned: 3, kept: kept),
                Mixed(id: 10, text: "ten", double: 10.5, date: nil, unsigned: 10, kept: kept),
            ]
            for index in records.indices { try records[index].insert(db) }
            #expect(records.map(\.id) == [1, 2, 3, 10])
            let stored = try Row.fetchAll(db, sql: "SELECT * FROM m ORDER BY id")
            #expect(stored.map { $0["text"] as String? } == ["one", nil, "three", "ten"])
            #expect(stored.map { $0["double"] as Double? } == [1.5, nil, 3.5, 10.5])
            #expect(stored.map { $0["unsigned"] as Int? } == [1, nil, 3, 10])
            #expect(stored.map { $0["date"] as Date? } == [date, nil, date, nil])
        }
        #expect(kept.containers.count == 4)
        #expect(kept.containers.map { $0["id"] } == [1, 2, 3, 10].map(\.databaseValue))
        #expect(
            kept.containers.map { $0["text"] }
                == ["one".databaseValue, .null, "three".databaseValue, "ten".databaseValue])
        #expect(kept.containers.map { $0["unsigned"] } == [1, nil, 3, 10].map { $0?.databaseValue ?? .null })
        #expect(kept.containers.map(\.count) == [5, 5, 5, 5])
    }

    @Test func unsignedOverflowInsertsNothing() throws {
        try makeDatabase().write { (db: Database) throws in
            var first = Mixed(text: "one", double: 1, date: nil, unsigned: 1)
            try first.insert(db)
            var overflow = Mixed(text: "two", double: 2, date: nil, unsigned: .max)
            #expect(throws: EncodingError.self) { try overflow.insert(db) }
            var third = Mixed(text: "three", double: 3, date: nil, unsigned: 3)
            try third.insert(db)
            #expect(try String.fetchAll(db, sql: "SELECT text FROM m ORDER BY id") == ["one", "three"])
        }
    }

    @Test func anEncodingErrorMidwayInsertsNothing() throws {
        try makeDatabase().write { (db: Database) throws in
            try Listed([.a, .b, .c], [1, 2, 3]).insert(db)
            #expect(throws: Listed.Failure.self) { try Listed([.a, .b, .c], [4, 5, 6], throwAfter: 2).insert(db) }
            try Listed([.a, .b, .c], [7, 8, 9]).insert(db)
            #expect(throws: Listed.Failure.self) { try Listed([.a, .b, .c], [4, 5, 6], throwAfter: 1).insert(db) }
            try Listed([.a, .b], [10, 11]).insert(db)
            #expect(try rows(db) == [[1, 2, 3, nil], [7, 8, 9, nil], [10, 11, nil, nil]])
        }
    }

    @Test func aFailingInsertThenAGoodOne() throws {
        try makeDatabase().write { (db: Database) throws in
            let arthur = Derived(name: "Arthur")
            try arthur.insert(db)
            let duplicate = Derived(name: "Arthur")
            let error = try #require(throws: DatabaseError.self) { try duplicate.insert(db) }
            #expect(error.resultCode == .SQLITE_CONSTRAINT)
            #expect(error.sql == #"INSERT INTO "derived" ("id", "name") VALUES (?,?)"#)
            #expect(error.arguments == [nil, "Arthur"])
            let barbara = Derived(name: "Barbara")
            try barbara.insert(db)
            #expect(try String.fetchAll(db, sql: "SELECT name FROM derived ORDER BY id") == ["Arthur", "Barbara"])
            #expect(barbara.id == 2)
        }
    }

    @Test func recordTypesThatAlternate() throws {
        try makeDatabase().write { (db: Database) throws in
            for index in 0..<3 {
                try Listed([.a, .d], [index, 10 + index]).insert(db)
                try Other(d: 20 + index, a: 30 + index).insert(db)
                try Listed([.a, .d], [40 + index, 50 + index]).insert(db, onConflict: .replace)
                try Base(name: "base \(index)").insert(db)
                try Derived(name: "derived \(index)").insert(db)
            }
            #expect(try rows(db) == [
                [0, nil, nil, 10], [30, nil, nil, 20], [40, nil, nil, 50],
                [1, nil, nil, 11], [31, nil, nil, 21], [41, nil, nil, 51],
                [2, nil, nil, 12], [32, nil, nil, 22], [42, nil, nil, 52],
            ])
            #expect(try String.fetchAll(db, sql: "SELECT name FROM base") == ["base 0", "base 1", "base 2"])
            #expect(try String.fetchAll(db, sql: "SELECT name FROM derived") == ["derived 0", "derived 1", "derived 2"])
        }
    }

    @Test func recordSubclassesTrackTheirInsertedValues() throws {
        try makeDatabase().write { (db: Database) throws in
            let records = [Base(name: "a"), Derived(name: "b"), Base(name: "c"), Base(name: "d")]
            for record in records {
                try record.insert(db)
                #expect(!record.hasDatabaseChanges)
            }
            #expect(records.map(\.id) == [1, 1, 2, 3])
            records[2].name = "changed"
            #expect(try records[2].databaseChanges == ["name": "c".databaseValue])
        }
    }

    @Test func anInsertDuringTheEncodingOfAnother() throws {
        let dbQueue = try makeDatabase()
        try dbQueue.write { (db: Database) throws in
            try Listed([.a, .b, .c], [1, 2, 3]).insert(db)
            // The statement is the same: the nested insert must not leave
            // its values in the outer one.
            nonisolated(unsafe) let db = db
            try Listed([.a, .b, .c], [4, 5, 6], hook: {
                try Listed([.a, .b, .c], [7, 8, 9]).insert(db)
            }).insert(db)
            try Listed([.a, .b, .c], [10, 11, 12]).insert(db)
            #expect(try rows(db) == [[1, 2, 3, nil], [7, 8, 9, nil], [4, 5, 6, nil], [10, 11, 12, nil]])
        }
    }

    @Test func aSecondKeyedContainerInTheSameRecord() throws {
        try makeDatabase().write { (db: Database) throws in
            for index in 1...4 {
                try TwoContainers(a: index, b: -index, grow: index % 2 == 0).insert(db)
                try TwoContainers(a: index + 10, b: -index - 10, grow: true).insert(db)
            }
            var expected: [[Int?]] = []
            for index in 1...4 {
                let d: Int? = index % 2 == 0 ? index * 100 : nil
                expected.append([index, -index, index * 10, d])
                let other = index + 10
                expected.append([other, -other, other * 10, other * 100])
            }
            #expect(try rows(db) == expected)
        }
    }

    @Test func wrappedRecordsWriteTheContainer() throws {
        try makeDatabase().write { (db: Database) throws in
            try Listed([.a, .b], [1, 2]).insert(db)
            try Wrapper(wrapped: Listed([.a, .b], [3, 4])).insert(db)
            try Listed([.a, .b], [5, 6]).insert(db)
            try Wrapper(wrapped: Listed([.b, .a, .c], [7, 8, 9])).insert(db)
            try Wrapper(wrapped: Listed([.b, .a, .c], [10, 11, 12])).insert(db)
            try Listed([.a, .b], [13, 14]).insert(db)
            #expect(try rows(db) == [
                [1, 2, nil, nil], [3, 4, nil, nil], [5, 6, nil, nil], [8, 7, 9, nil], [11, 10, 12, nil],
                [13, 14, nil, nil],
            ])
        }
    }

    @Test func textAndIntegersInTurnInTheSameColumn() throws {
        try makeDatabase().write { (db: Database) throws in
            let records = [
                Varying(text: nil, number: 1), Varying(text: "two", number: 2), Varying(text: "three", number: 3),
                Varying(text: nil, number: 4), Varying(text: "five", number: 5),
            ]
            for record in records { try record.insert(db) }
            let stored = try Row.fetchAll(db, sql: "SELECT a, b FROM v ORDER BY rowid")
            #expect(stored.map { $0[0] as DatabaseValue } == [
                1.databaseValue, "two".databaseValue, "three".databaseValue, 4.databaseValue, "five".databaseValue,
            ])
            #expect(stored.map { $0[1] as Int } == [1, 2, 3, 4, 5])
        }
    }

    @Test func successesTellTheRowIDColumnOfTheirTable() throws {
        try makeDatabase().write { (db: Database) throws in
            let notes = Notes()
            // Successes that no one keeps: the connection reuses their values.
            for index in 1...2 {
                try InRowIDTable(a: index, notes: notes).insert(db)
                try InHiddenRowIDTable(a: index, notes: notes).insert(db)
                try InRowIDTable(a: index + 10, notes: notes).insert(db)
            }
            #expect(notes.told == ["rowid=1", "-", "rowid=2", "rowid=3", "-", "rowid=4"])
            // Kept successes, of values that differ from their rowids.
            notes.keeps = true
            try InHiddenRowIDTable(a: 30, notes: notes).insert(db)
            try InRowIDTable(a: 50, notes: notes).insert(db)
            try InHiddenRowIDTable(a: 40, notes: notes).insert(db)
            #expect(notes.kept.map(\.rowIDColumn) == [nil, "rowid", nil])
            #expect(notes.kept.map(\.rowID) == [3, 5, 4])
            #expect(notes.kept[1].persistenceContainer["rowid"] == 5.databaseValue)
            #expect(notes.kept[1].persistenceContainer["a"] == 50.databaseValue)
            // A column set on a copy is the copy's only.
            var copy = notes.kept[2]
            copy.rowIDColumn = "a"
            #expect(copy.persistenceContainer["a"] == 4.databaseValue)
            #expect(notes.kept[2].rowIDColumn == nil)
            #expect(notes.kept[2].persistenceContainer["a"] == 40.databaseValue)
            #expect(notes.kept[0].persistenceContainer["a"] == 30.databaseValue)
            // A container set on a success is kept as it is: the rowid is
            // not set into it, even when the rowid column changes.
            var replaced = notes.kept[1]
            replaced.persistenceContainer = notes.kept[0].persistenceContainer
            #expect(replaced.rowIDColumn == "rowid")
            #expect(replaced.persistenceContainer["a"] == 30.databaseValue)
            #expect(replaced.persistenceContainer["rowid"] == nil)
            replaced.rowIDColumn = "a"
            #expect(replaced.persistenceContainer["a"] == 30.databaseValue)
            #expect(notes.kept[1].persistenceContainer["a"] == 50.databaseValue)
        }
    }
}
