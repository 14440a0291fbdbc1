import Foundation
@_spi(GRDBLite) import GRDBLite
import Synchronization
import Testing

// The key plan of `Decodable` records: on the rows of a cursor after the
// first, each one-byte coding key finds the column that the same position
// of the previous record found. These tests decode several rows, so that
// the plan is used, and change what the rows decode, so that it misses.

private struct Author: Decodable, FetchableRecord, TableRecord, Equatable {
    static let databaseTableName = "author"
    var id: Int64
    var name: String
}

private struct Book: Decodable, FetchableRecord, TableRecord, Equatable {
    static let databaseTableName = "book"
    static let author = belongsTo(Author.self)
    var id: Int64
    var title: String
    var authorId: Int64
}

private struct BookInfo: Decodable, FetchableRecord, Equatable {
    var book: Book
    var author: Author
}

/// Counts how often its date strategy is asked.
private struct Event: Decodable, FetchableRecord, Equatable {
    static let strategyCalls = Mutex<[String]>([])
    static func databaseDateDecodingStrategy(for column: String) -> DatabaseDateDecodingStrategy {
        strategyCalls.withLock { $0.append(column) }
        return column == "ms" ? .millisecondsSince1970 : .deferredToDate
    }
    var ms: Date
    var text: Date
    var end: Date?
}

/// A coding key of eight bytes: matched by name, without a plan.
private struct WideKey: CodingKey {
    static let names = ["a", "b"]
    var intValue: Int?
    var stringValue: String { Self.names[intValue!] }
    init(_ index: Int) { intValue = index }
    init?(stringValue: String) { intValue = Self.names.firstIndex(of: stringValue) }
    init?(intValue: Int) { self.intValue = intValue }
}

private struct Pair: Decodable, FetchableRecord, Equatable {
    var a: Int
    var b: String
    init(a: Int, b: String) { (self.a, self.b) = (a, b) }
    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: WideKey.self)
        b = try container.decode(String.self, forKey: WideKey(1))
        a = try container.decode(Int.self, forKey: WideKey(0))
    }
}

@Suite struct FetchableRecordDecodableKeyPlanTests {
    /// Rows sliced by an adapter start at another column of the statement:
    /// their planned columns are the slice's, on every row.
    @Test func rowsSlicedByAnAdapterReadTheirOwnColumns() throws {
        struct Point: Decodable, FetchableRecord, Equatable {
            var x: Int
            var y: Int
        }
        let dbQueue = try DatabaseQueue()
        try dbQueue.read { db throws in
            let sql = "SELECT 1 AS x, 2 AS y, 3 AS x, 4 AS y UNION ALL SELECT 5, 6, 7, 8 UNION ALL SELECT 9, 10, 11, 12"
            let suffix = try Point.fetchAll(db, sql: sql, adapter: SuffixRowAdapter(fromIndex: 2))
            #expect(suffix == [Point(x: 3, y: 4), Point(x: 7, y: 8), Point(x: 11, y: 12)])
            let range = try Point.fetchAll(db, sql: sql, adapter: RangeRowAdapter(1..<3))
            #expect(range == [Point(x: 3, y: 2), Point(x: 7, y: 6), Point(x: 11, y: 10)])
        }
    }

    /// Joined records read the columns of their scope, a slice of the
    /// statement's columns; the base record's are planned.
    @Test func scopedRecordsReadTheirOwnColumns() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db throws in
            try db.execute(sql: """
                CREATE TABLE author(id INTEGER PRIMARY KEY, name TEXT NOT NULL);
                CREATE TABLE book(id INTEGER PRIMARY KEY, title TEXT NOT NULL, authorId INTEGER REFERENCES author);
                INSERT INTO author VALUES (1, 'Ann'), (2, 'Bob');
                INSERT INTO book VALUES (10, 'One', 2), (11, 'Two', 1), (12, 'Three', 2);
                """)
            let infos = try Book.including(required: Book.author).order(Column("id")).asRequest(of: BookInfo.self)
                .fetchAll(db)
            #expect(infos == [
                BookInfo(book: Book(id: 10, title: "One", authorId: 2), author: Author(id: 2, name: "Bob")),
                BookInfo(book: Book(id: 11, title: "Two", authorId: 1), author: Author(id: 1, name: "Ann")),
                BookInfo(book: Book(id: 12, title: "Three", authorId: 2), author: Author(id: 2, name: "Bob")),
            ])
        }
    }

    /// A planned column whose value doesn't convert throws the error of
    /// the first record, naming the column.
    @Test func errorsOfLaterRowsNameTheirColumn() throws {
        struct Item: Decodable, FetchableRecord, Equatable {
            var id: Int
            var name: String
        }
        let dbQueue = try DatabaseQueue()
        try dbQueue.read { db throws in
            for bad in ["NULL", "CAST(x'FF' AS TEXT)"] {
                let cursor = try Item.fetchCursor(db, sql: """
                    SELECT 1 AS id, 'a' AS name UNION ALL SELECT 2, 'b' UNION ALL SELECT 3, \(bad)
                    """)
                #expect(try cursor.next() == Item(id: 1, name: "a"))
                #expect(try cursor.next() == Item(id: 2, name: "b"))
                let error = try #require(throws: RowDecodingError.self) { try cursor.next() }
                #expect(error.kind == .valueMismatch)
                #expect(error.key == "name")
                #expect(error.typeName == "String")
            }
        }
    }

    /// Each column keeps its own date strategy on every row. The strategy
    /// is asked for each decoded date, as GRDB asks it, until the plan
    /// remembers that a column uses the default one (from the third row,
    /// once a date of that column is read).
    @Test func datesFollowTheStrategyOfTheirColumnOnEveryRow() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.read { db throws in
            Event.strategyCalls.withLock { $0 = [] }
            let events = try Event.fetchAll(db, sql: """
                SELECT 1500 AS ms, '1970-01-01 00:00:02' AS text, NULL AS "end"
                UNION ALL SELECT 2500, '1970-01-01 00:00:03', '1970-01-01 00:00:04'
                UNION ALL SELECT 3500, '1970-01-01 00:00:05', NULL
                UNION ALL SELECT 4500, 6, '1970-01-01 00:00:07'
                UNION ALL SELECT 5500, '1970-01-01 00:00:08', 9.5
                """)
            #expect(events == [
                Event(ms: Date(timeIntervalSince1970: 1.5), text: Date(timeIntervalSince1970: 2), end: nil),
                Event(
                    ms: Date(timeIntervalSince1970: 2.5), text: Date(timeIntervalSince1970: 3),
                    end: Date(timeIntervalSince1970: 4)),
                Event(ms: Date(timeIntervalSince1970: 3.5), text: Date(timeIntervalSince1970: 5), end: nil),
                Event(
                    ms: Date(timeIntervalSince1970: 4.5), text: Date(timeIntervalSince1970: 6),
                    end: Date(timeIntervalSince1970: 7)),
                Event(
                    ms: Date(timeIntervalSince1970: 5.5), text: Date(timeIntervalSince1970: 8),
                    end: Date(timeIntervalSince1970: 9.5)),
            ])
            if ProcessInfo.processInfo.environment["GRDBLITE_REFERENCE_CODERS"] == "1" {
                // The reference coders have no plan: they ask for every
                // date that is not NULL.
                #expect(Event.strategyCalls.withLock { $0 } == [
                    "ms", "text", "ms", "text", "end", "ms", "text", "ms", "text", "end", "ms", "text", "end",
                ])
                return
            }
            #expect(Event.strategyCalls.withLock { $0 } == [
                "ms", "text", // the first row
                "ms", "text", "end", // the second row, which plans the columns
                "ms", "text", // "end" is NULL
                "ms", "end", // "text" uses the default strategy
                "ms",
            ])
        }
    }

    /// A column remembered as read with the default date strategy still
    /// refuses what is not a date, and reads NULL as nil only in an
    /// optional.
    @Test func datesOfARememberedColumnAreStillChecked() throws {
        struct Span: Decodable, FetchableRecord, Equatable {
            var start: Date
            var end: Date?
        }
        let dbQueue = try DatabaseQueue()
        try dbQueue.read { db throws in
            let rows = """
                SELECT '2024-01-01 00:00:00' AS start, '2024-01-02 00:00:00' AS "end"
                UNION ALL SELECT '2024-01-03 00:00:00', '2024-01-04 00:00:00'
                UNION ALL SELECT '2024-01-05 00:00:00', '2024-01-06 00:00:00'
                UNION ALL SELECT '2024-01-07 00:00:00', NULL
                """
            for (bad, key) in [("'not a date'", "start"), ("NULL", "start"), ("x'00'", "start")] {
                let cursor = try Span.fetchCursor(db, sql: "\(rows) UNION ALL SELECT \(bad), NULL")
                for _ in 0..<3 { #expect(try cursor.next()?.end != nil) }
                #expect(try cursor.next()?.end == nil)
                let error = try #require(throws: RowDecodingError.self) { try cursor.next() }
                #expect(error.key == key)
                #expect(error.typeName == "Date")
            }
        }
    }

    /// Keys that change from one row to the next (optional keys decoded on
    /// some rows only, `decodeNil` first, missing columns) are looked up by
    /// name, and the plan learns the new order.
    @Test func keysThatChangeFromRowToRowAreLookedUpByName() throws {
        struct Reading: Decodable, FetchableRecord, Equatable {
            var kind: String
            var value: Double?
            var unit: String?
            var missing: Int?
            enum CodingKeys: String, CodingKey { case kind, value, unit, missing }
            init(kind: String, value: Double?, unit: String?) {
                (self.kind, self.value, self.unit, self.missing) = (kind, value, unit, nil)
            }
            init(from decoder: any Decoder) throws {
                let container = try decoder.container(keyedBy: CodingKeys.self)
                kind = try container.decode(String.self, forKey: .kind)
                if kind == "pair" {
                    unit = try container.decodeIfPresent(String.self, forKey: .unit)
                    value = try container.decodeNil(forKey: .value)
                        ? nil : container.decode(Double.self, forKey: .value)
                } else {
                    value = try container.decodeIfPresent(Double.self, forKey: .value)
                    unit = nil
                }
                missing = try container.decodeIfPresent(Int.self, forKey: .missing)
            }
        }
        let dbQueue = try DatabaseQueue()
        try dbQueue.read { db throws in
            let readings = try Reading.fetchAll(db, sql: """
                SELECT 'one' AS kind, 1.5 AS value, 'm' AS unit
                UNION ALL SELECT 'pair', 2.5, 's'
                UNION ALL SELECT 'pair', NULL, NULL
                UNION ALL SELECT 'one', NULL, 'x'
                UNION ALL SELECT 'one', 3, 'y'
                """)
            #expect(readings == [
                Reading(kind: "one", value: 1.5, unit: nil),
                Reading(kind: "pair", value: 2.5, unit: "s"),
                Reading(kind: "pair", value: nil, unit: nil),
                Reading(kind: "one", value: nil, unit: nil),
                Reading(kind: "one", value: 3, unit: nil),
            ])
        }
    }

    /// Each cursor has its own plan: a second query of the same record
    /// type with its columns in another order reads the right columns.
    @Test func eachCursorPlansItsOwnColumns() throws {
        struct Point: Decodable, FetchableRecord, Equatable {
            var x: Int
            var y: Int
        }
        let dbQueue = try DatabaseQueue()
        try dbQueue.read { db throws in
            let first = try Point.fetchAll(db, sql: "SELECT 1 AS x, 2 AS y UNION ALL SELECT 3, 4")
            let second = try Point.fetchAll(db, sql: "SELECT 5 AS y, 6 AS x UNION ALL SELECT 7, 8")
            #expect(first == [Point(x: 1, y: 2), Point(x: 3, y: 4)])
            #expect(second == [Point(x: 6, y: 5), Point(x: 8, y: 7)])
        }
    }

    /// Keys wider than a byte are matched by name on every row.
    @Test func widerKeysAreMatchedByName() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.read { db throws in
            let pairs = try Pair.fetchAll(db, sql: "SELECT 'x' AS b, 1 AS a UNION ALL SELECT 'y', 2")
            #expect(pairs == [Pair(a: 1, b: "x"), Pair(a: 2, b: "y")])
        }
    }
}

extension FetchableRecordDecodableKeyPlanTests {
    /// The plan matches keys by their byte on the assumption that a key's
    /// `stringValue` depends on it only: debug builds check each match and
    /// trap on a key that breaks it, instead of reading another column.
    @Test(.disabled(
        if: ProcessInfo.processInfo.environment["GRDBLITE_REFERENCE_CODERS"] == "1",
        "the reference coders match keys by name"))
    func aKeyWhoseStringValueChangesTrapsInDebugBuilds() async throws {
        #if DEBUG
        let exit = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let dbQueue = try DatabaseQueue()
            _ = try dbQueue.read { db in
                try ShiftingByteKeyRecord.fetchAll(db, sql: """
                    SELECT 1 AS a, 2 AS b UNION ALL SELECT 3, 4 UNION ALL SELECT 5, 6
                    """)
            }
        }
        // The plan of the second record serves the third, whose key shifted.
        #expect(try String(decoding: #require(exit).standardErrorContent, as: UTF8.self)
            .contains("matched a coding key by its byte to the column \"a\", but its stringValue is \"b\""))
        #endif
    }
}

/// A key of one byte whose `stringValue` is "a", then "b" once two
/// records were decoded: it breaks the assumption of the plan.
private struct ShiftingByteKey: CodingKey {
    static let decodedRecords = Atomic(0)
    var byte: UInt8 = 0
    var stringValue: String { Self.decodedRecords.load(ordering: .relaxed) >= 2 ? "b" : "a" }
    var intValue: Int? { nil }
    init() { }
    init?(stringValue: String) { nil }
    init?(intValue: Int) { nil }
}

private struct ShiftingByteKeyRecord: Decodable, FetchableRecord {
    var value: Int
    init(from decoder: any Decoder) throws {
        value = try decoder.container(keyedBy: ShiftingByteKey.self).decode(Int.self, forKey: ShiftingByteKey())
        ShiftingByteKey.decodedRecords.add(1, ordering: .relaxed)
    }
}
