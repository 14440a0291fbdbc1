import Foundation
import Synchronization
import Testing
@_spi(GRDBLite) import GRDBLite

private struct Address: Codable, Equatable {
    var street: String
    var city: String
}

private enum Kind: String, Codable {
    case novel, essay
}

private enum Level: Int, Codable, DatabaseValueConvertible {
    case beginner = 1, expert = 2
}

private struct Everything: Codable, FetchableRecord, PersistableRecord, Equatable {
    static let databaseTableName = "everything"
    var id: Int64
    var bool: Bool
    var int8: Int8
    var uint32: UInt32
    var double: Double
    var float: Float
    var string: String
    var data: Data
    var date: Date
    var uuid: UUID
    var url: URL
    var optional: String?
    var kind: Kind
    var level: Level
    var address: Address
    var tags: [String]
}

/// A record that decodes a record of its own type from the whole row, at
/// the root only (the nested one, decoded from the same row, gets the same
/// cached container).
private struct RootedNode: Decodable, FetchableRecord {
    struct Other: Decodable, FetchableRecord { var a: Int }
    static let depth = Mutex(0)
    var a: Int
    enum CodingKeys: String, CodingKey { case a, parent, other }
    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        a = try container.decode(Int.self, forKey: .a)
        let isRoot = Self.depth.withLock { depth in
            depth += 1
            return depth == 1
        }
        defer { Self.depth.withLock { $0 -= 1 } }
        guard isRoot else { return }
        _ = try container.decode(RootedNode.self, forKey: .parent)
        _ = try container.decode(Other.self, forKey: .other)
    }
}

@Suite struct FetchableRecordDecodableTests {
    @Test func roundTripOfSupportedTypes() throws {
        let dbQueue = try makeDatabase("""
            CREATE TABLE everything (
                id INTEGER PRIMARY KEY, bool, int8, uint32, double, float, string, data,
                date, uuid, url, optional, kind, level, address, tags)
            """)
        let record = Everything(
            id: 1, bool: true, int8: -128, uint32: .max, double: -0.5, float: 1.5, string: "héllo\0world",
            data: Data([0, 1, 2]), date: Date(timeIntervalSinceReferenceDate: 721_692_800.123),
            uuid: UUID(uuidString: "E621E1F8-C36C-495A-93FC-0C247A3E6E5F")!,
            url: URL(string: "https://example.com/a?b=c")!, optional: nil, kind: .essay, level: .expert,
            address: Address(street: "1 Main St", city: "Paris"), tags: ["a", "b"])
        try dbQueue.write { db throws in
            try record.insert(db)
            let row = try #require(try Row.fetchOne(db, sql: "SELECT * FROM everything"))
            // Storage as GRDB stores values
            #expect(row["bool"] as Int == 1)
            #expect(row["date"] as String == "2023-11-14 22:13:20.123")
            #expect((row["uuid"] as Data).count == 16)
            #expect(row["url"] as String == "https://example.com/a?b=c")
            #expect(row["optional"] as DatabaseValue == .null)
            #expect(row["kind"] as String == "essay")
            #expect(row["level"] as Int == 2)
            #expect(row["address"] as String == #"{"city":"Paris","street":"1 Main St"}"#)
            #expect(row["tags"] as String == #"["a","b"]"#)
            #expect(try Everything.fetchOne(db) == record)
        }
    }

    @Test func decodingErrorsNameColumnAndType() throws {
        struct Player: Decodable, FetchableRecord {
            var name: String
            var score: Int
        }
        let dbQueue = try DatabaseQueue()
        try dbQueue.read { db throws in
            // Wrong type
            do {
                _ = try Player.fetchOne(db, sql: "SELECT 'Arthur' AS name, 1e20 AS score")
                Issue.record("expected an error")
            } catch let error as RowDecodingError {
                #expect(error.kind == .valueMismatch)
                #expect(error.key == "score")
                #expect(error.typeName == "Int")
                #expect(error.databaseValue == 1e20.databaseValue)
                #expect(error.sql == "SELECT 'Arthur' AS name, 1e20 AS score")
            }
            // NULL into non-optional
            #expect(throws: RowDecodingError.self) {
                try Player.fetchOne(db, sql: "SELECT 'Arthur' AS name, NULL AS score")
            }
            // Missing column
            do {
                _ = try Player.fetchOne(db, sql: "SELECT 'Arthur' AS name")
                Issue.record("expected an error")
            } catch let error as RowDecodingError {
                #expect(error.kind == .columnNotFound)
                #expect(error.key == "score")
                #expect("\(error)".contains("column not found: \"score\""))
            }
        }
    }

    @Test func invalidJSONIsADecodingErrorNamingTheColumn() throws {
        struct Player: Decodable, FetchableRecord {
            var address: Address
        }
        let dbQueue = try DatabaseQueue()
        try dbQueue.read { db throws in
            do {
                _ = try Player.fetchOne(db, sql: "SELECT '{\"street\": 1}' AS address")
                Issue.record("expected an error")
            } catch let error as RowDecodingError {
                #expect(error.key == "address")
                #expect(error.typeName == "Address")
                #expect(error.underlyingDescription != nil)
            }
        }
    }

    @Test func unknownEnumCaseIsAnError() throws {
        struct Book: Decodable, FetchableRecord {
            var kind: Kind
            var level: Level
        }
        let dbQueue = try DatabaseQueue()
        try dbQueue.read { db throws in
            #expect(throws: (any Error).self) { try Book.fetchOne(db, sql: "SELECT 'poetry' AS kind, 1 AS level") }
            #expect(throws: RowDecodingError.self) { try Book.fetchOne(db, sql: "SELECT 'novel' AS kind, 3 AS level") }
            let book = try #require(try Book.fetchOne(db, sql: "SELECT 'novel' AS kind, 1 AS level"))
            #expect(book.kind == .novel && book.level == .beginner)
        }
    }

    @Test func optionalsAndMissingColumns() throws {
        struct Player: Decodable, FetchableRecord {
            var name: String?
            var bonus: Int?
            var tags: [String]?
        }
        let dbQueue = try DatabaseQueue()
        try dbQueue.read { db throws in
            let player = try #require(try Player.fetchOne(db, sql: "SELECT NULL AS name, NULL AS tags"))
            #expect(player.name == nil && player.bonus == nil && player.tags == nil)
        }
    }

    @Test func columnsInAnyOrderAndCase() throws {
        struct Point: Decodable, FetchableRecord, Equatable {
            var x: Int
            var y: Int
        }
        let dbQueue = try DatabaseQueue()
        try dbQueue.read { db throws in
            let points = try Point.fetchAll(db, sql: "SELECT 1 AS Y, 2 AS X, 3 AS extra UNION ALL SELECT 4, 5, 6")
            #expect(points == [Point(x: 2, y: 1), Point(x: 5, y: 4)])
        }
    }

    @Test func conditionalDecodingOrderIsHandled() throws {
        // A type that reads keys in a different order depending on the row
        // defeats the lookup cache: values must still be right.
        struct Shape: Decodable, FetchableRecord, Equatable {
            var kind: String
            var size: Int
            enum CodingKeys: String, CodingKey { case kind, width, radius }
            init(from decoder: any Decoder) throws {
                let container = try decoder.container(keyedBy: CodingKeys.self)
                kind = try container.decode(String.self, forKey: .kind)
                size = kind == "circle"
                    ? try container.decode(Int.self, forKey: .radius)
                    : try container.decode(Int.self, forKey: .width)
            }
            init(kind: String, size: Int) { self.kind = kind; self.size = size }
        }
        let dbQueue = try DatabaseQueue()
        try dbQueue.read { db throws in
            let shapes = try Shape.fetchAll(db, sql: """
                SELECT 'circle' AS kind, 10 AS width, 1 AS radius
                UNION ALL SELECT 'square', 20, 2
                UNION ALL SELECT 'circle', 30, 3
                """)
            #expect(
                shapes == [
                    Shape(kind: "circle", size: 1), Shape(kind: "square", size: 20), Shape(kind: "circle", size: 3)
                ])
        }
    }

    @Test func snakeCaseColumns() throws {
        struct Player: Decodable, FetchableRecord {
            static let databaseColumnDecodingStrategy = DatabaseColumnDecodingStrategy.convertFromSnakeCase
            var playerName: String
            var highScore: Int
        }
        let dbQueue = try DatabaseQueue()
        try dbQueue.read { db throws in
            let player = try #require(try Player.fetchOne(db, sql: "SELECT 'Arthur' AS player_name, 10 AS high_score"))
            #expect(player.playerName == "Arthur" && player.highScore == 10)
        }
    }

    @Test func dateStrategies() throws {
        struct Event: Decodable, FetchableRecord {
            static func databaseDateDecodingStrategy(for column: String) -> DatabaseDateDecodingStrategy {
                column == "ms" ? .millisecondsSince1970 : .deferredToDate
            }
            var ms: Date
            var text: Date
            var unix: Date
        }
        let dbQueue = try DatabaseQueue()
        try dbQueue.read { db throws in
            let event = try #require(
                try Event.fetchOne(db, sql: "SELECT 1500 AS ms, '1970-01-01T00:00:02Z' AS text, 3 AS unix"))
            #expect(event.ms == Date(timeIntervalSince1970: 1.5))
            #expect(event.text == Date(timeIntervalSince1970: 2))
            #expect(event.unix == Date(timeIntervalSince1970: 3))
        }
    }

    /// `.iso8601` reads what GRDB's formatter reads: no fraction of a
    /// second (found by the differential harness), an offset or `Z`.
    @Test func iso8601DateStrategy() throws {
        struct Event: Decodable, FetchableRecord {
            static func databaseDateDecodingStrategy(for column: String) -> DatabaseDateDecodingStrategy { .iso8601 }
            var date: Date
        }
        let dbQueue = try DatabaseQueue()
        try dbQueue.read { db throws in
            let plain = try Event.fetchOne(db, sql: "SELECT '2001-09-09T01:46:40Z' AS date")
            #expect(plain?.date == Date(timeIntervalSince1970: 1_000_000_000))
            let offset = try Event.fetchOne(db, sql: "SELECT '2001-09-09T03:46:40+02:00' AS date")
            #expect(offset?.date == Date(timeIntervalSince1970: 1_000_000_000))
            #expect(throws: RowDecodingError.self) {
                try Event.fetchOne(db, sql: "SELECT '2001-09-09T01:46:40.125Z' AS date")
            }
            #expect(throws: RowDecodingError.self) {
                try Event.fetchOne(db, sql: "SELECT '2001-09-09 01:46:40' AS date")
            }
        }
    }

    /// With `.convertFromSnakeCase`, two columns of one key: the last one
    /// is decoded, as in GRDB (found by the differential harness).
    @Test func snakeCaseKeyOfTwoColumnsReadsTheLast() throws {
        struct Event: Decodable, FetchableRecord {
            static let databaseColumnDecodingStrategy = DatabaseColumnDecodingStrategy.convertFromSnakeCase
            var createdAt: String
        }
        let dbQueue = try DatabaseQueue()
        try dbQueue.read { db throws in
            let sql = "SELECT 'first' AS createdAt, 'last' AS created_at"
            #expect(try Event.fetchOne(db, sql: sql)?.createdAt == "last")
            let row = try #require(try Row.fetchOne(db, sql: sql))
            #expect(try Event(row: row).createdAt == "last")
        }
    }

    /// Date and data strategies read a statement's column as SQLite
    /// converts it, as GRDB does (found by the differential harness): text
    /// is a number for the numeric strategies, a number is text for
    /// `.iso8601` and bytes for `.deferredToData`. Copied rows are strict.
    @Test func strategiesConvertAStatementColumnAsSQLite() throws {
        struct Event: Decodable, FetchableRecord {
            static func databaseDateDecodingStrategy(for column: String) -> DatabaseDateDecodingStrategy {
                switch column {
                case "ms": .millisecondsSince1970
                case "seconds": .timeIntervalSince1970
                default: .iso8601
                }
            }
            var ms: Date
            var seconds: Date
            var iso: Date?
            var data: Data
        }
        let dbQueue = try DatabaseQueue()
        try dbQueue.read { db throws in
            let sql = "SELECT '1500' AS ms, '2.5e0' AS seconds, NULL AS iso, 7 AS data"
            let event = try #require(try Event.fetchOne(db, sql: sql))
            #expect(event.ms == Date(timeIntervalSince1970: 1.5))
            #expect(event.seconds == Date(timeIntervalSince1970: 2.5))
            #expect(event.iso == nil)
            #expect(event.data == Data("7".utf8))
            // A number is not ISO 8601 text, even as SQLite's text.
            #expect(throws: RowDecodingError.self) {
                try Event.fetchOne(db, sql: "SELECT 1 AS ms, 2 AS seconds, 20010909 AS iso, x'00' AS data")
            }
            let copied = try #require(try Row.fetchOne(db, sql: sql))
            let error = #expect(throws: RowDecodingError.self) { try Event(row: copied) }
            #expect(error?.key == "ms")
        }
    }

    /// With the default strategy, dates read from the column's bytes on
    /// cursor rows, and from database values on copied rows: the same
    /// dates, and the same errors.
    @Test func defaultDateStrategyOnLiveAndCopiedRows() throws {
        struct Event: Decodable, FetchableRecord {
            var at: Date
            var end: Date?
        }
        let dbQueue = try DatabaseQueue()
        try dbQueue.read { db throws in
            let sql = "SELECT '2026-11-26 12:34:56.789' AS at, NULL AS \"end\" UNION ALL SELECT 86400.5, '1970-01-02'"
            let expected: [(Date, Date?)] = [
                (Date(timeIntervalSince1970: 1_795_696_496.789), nil),
                (Date(timeIntervalSince1970: 86400.5), Date(timeIntervalSince1970: 86400)),
            ]
            let live = try Event.fetchAll(db, sql: sql)
            let copied = try Row.fetchAll(db, sql: sql).map { try Event(row: $0) }
            for events in [live, copied] {
                #expect(events.count == 2)
                for (event, (at, end)) in zip(events, expected) {
                    #expect(abs(event.at.timeIntervalSince1970 - at.timeIntervalSince1970) < 0.0005)
                    #expect(event.end == end)
                }
            }
            let bad = "SELECT 'not a date' AS at, NULL AS \"end\""
            #expect(throws: RowDecodingError.self) { try Event.fetchOne(db, sql: bad) }
            let row = try #require(try Row.fetchOne(db, sql: bad))
            #expect(throws: RowDecodingError.self) { try Event(row: row) }
        }
    }

    @Test func nestedRecordDecodedFromTheWholeRow() throws {
        struct Player: Decodable, FetchableRecord { var name: String }
        struct Info: Decodable, FetchableRecord {
            var player: Player
            var score: Int
        }
        let dbQueue = try DatabaseQueue()
        try dbQueue.read { db throws in
            let info = try #require(try Info.fetchOne(db, sql: "SELECT 'Arthur' AS name, 12 AS score"))
            #expect(info.player.name == "Arthur")
            #expect(info.score == 12)
        }
    }

    /// A cursor reuses its decoding containers for every row: a record that
    /// decodes another record from the same row, key after key, must see
    /// every row, and may decode from the whole row once per record.
    @Test func nestedRecordsFromTheWholeRowOfEachCursorRow() throws {
        struct Player: Decodable, FetchableRecord, Equatable { var name: String }
        struct Team: Decodable, FetchableRecord, Equatable { var team: String }
        struct Info: Decodable, FetchableRecord, Equatable {
            var player: Player
            var score: Int
            var label: String
        }
        struct TwoRoots: Decodable, FetchableRecord {
            var player: Player
            var team: Team
        }
        let dbQueue = try DatabaseQueue()
        try dbQueue.read { db throws in
            let sql = "SELECT 'Arthur' AS name, 12 AS score, 'a' AS label UNION ALL SELECT 'Barbara', 7, 'b'"
            #expect(try Info.fetchAll(db, sql: sql) == [
                Info(player: Player(name: "Arthur"), score: 12, label: "a"),
                Info(player: Player(name: "Barbara"), score: 7, label: "b"),
            ])
            // The second root key is an error for each row, not only the first.
            let cursor = try TwoRoots.fetchCursor(db, sql: "SELECT 'Arthur' AS name UNION ALL SELECT 'Barbara'")
            #expect(throws: DecodingError.self) { _ = try cursor.next() }
        }
    }

    /// Only one key may be decoded from the whole row, as in GRDB, even
    /// after a nested record of the same type, which decoded its own record
    /// with the same cached container: on every row of a cursor.
    @Test func secondRootKeyAfterANestedRecordOfTheSameType() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.read { db throws in
            let cursor = try RootedNode.fetchCursor(db, sql: "SELECT 1 AS a UNION ALL SELECT 2")
            for _ in 0..<2 {
                let error = try #require(throws: DecodingError.self) { _ = try cursor.next() }
                guard case .keyNotFound(let key, let context) = error else {
                    Issue.record("unexpected error: \(error)")
                    continue
                }
                #expect(key.stringValue == "other")
                #expect(context.debugDescription == "No such key: other or parent")
            }
            #expect(try cursor.next() == nil)
        }
    }

    /// A decoder may hand out several keyed containers for one record.
    @Test func severalContainersFromOneDecoder() throws {
        struct Split: Decodable, FetchableRecord, Equatable {
            enum NameKeys: String, CodingKey { case name }
            enum ScoreKeys: String, CodingKey { case score }
            var name: String
            var score: Int
            init(name: String, score: Int) { self.name = name; self.score = score }
            init(from decoder: any Decoder) throws {
                let names = try decoder.container(keyedBy: NameKeys.self)
                let scores = try decoder.container(keyedBy: ScoreKeys.self)
                score = try scores.decode(Int.self, forKey: .score)
                name = try names.decode(String.self, forKey: .name)
            }
        }
        let dbQueue = try DatabaseQueue()
        try dbQueue.read { db throws in
            let sql = "SELECT 'Arthur' AS name, 12 AS score UNION ALL SELECT 'Barbara', 7"
            #expect(
                try Split.fetchAll(db, sql: sql) == [Split(name: "Arthur", score: 12), Split(name: "Barbara", score: 7)]
            )
        }
    }

    @Test func userInfoReachesTheJSONDecoderOfNestedValues() throws {
        struct Name: Decodable {
            var value: String
            init(from decoder: any Decoder) throws {
                let container = try decoder.container(keyedBy: CodingKeys.self)
                let prefix = decoder.userInfo[.namePrefix] as? String ?? ""
                value = try prefix + container.decode(String.self, forKey: .value)
            }
            enum CodingKeys: CodingKey { case value }
        }
        struct Person: Decodable, FetchableRecord {
            static var databaseDecodingUserInfo: [CodingUserInfoKey: Any] { [.namePrefix: "Mr. "] }
            var name: Name
        }
        let person = try Person(row: ["name": #"{"value":"Dylan"}"#])
        #expect(person.name.value == "Mr. Dylan")
    }
}

extension CodingUserInfoKey {
    fileprivate static let namePrefix = CodingUserInfoKey(rawValue: "namePrefix")!
}
