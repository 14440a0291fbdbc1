import Foundation
import Testing
import GRDBLite

private struct Address: Codable, Equatable {
    var city: String
}

private enum Status: String, Codable {
    case active, retired
}

private struct Player: Encodable, PersistableRecord {
    var id: Int64?
    var name: String
    var nickname: String?
    var status: Status
    var address: Address?
    var birth: Date
}

@Suite struct EncodableRecordTests {
    @Test func encodableWritesOneColumnPerKeyInOrder() throws {
        let player = Player(id: nil, name: "Arthur", nickname: nil, status: .retired,
                            address: Address(city: "Paris"), birth: Date(timeIntervalSince1970: 0))
        let dictionary = try player.databaseDictionary
        #expect(dictionary == [
            "id": .null,
            "name": "Arthur".databaseValue,
            "nickname": .null,
            "status": "retired".databaseValue,
            "address": #"{"city":"Paris"}"#.databaseValue,
            "birth": "1970-01-01 00:00:00.000".databaseValue,
        ])
    }

    @Test func containerSubscriptsAndOrder() throws {
        final class Log: @unchecked Sendable { var pairs: [(String, DatabaseValue)] = []; var missing: Bool? }
        struct Point: EncodableRecord {
            var x: Int
            var y: Int?
            let log: Log
            func encode(to container: inout PersistenceContainer) {
                container["x"] = x
                container[Column("y")] = y
                container["X"] = x + 1 // same column, case-insensitive: last value wins
                log.pairs = Array(container)
                log.missing = container["missing"] == nil
            }
        }
        let log = Log()
        let dictionary = try Point(x: 1, y: nil, log: log).databaseDictionary
        #expect(log.pairs.map(\.0) == ["x", "y"])
        #expect(log.pairs.map(\.1) == [2.databaseValue, .null])
        #expect(log.missing == true)
        #expect(dictionary == ["x": 2.databaseValue, "y": .null])
    }

    @Test func unsignedOverflowIsAnEncodingError() throws {
        struct Big: Encodable, PersistableRecord {
            var value: UInt64
        }
        let dbQueue = try makeDatabase("CREATE TABLE big (value INTEGER)")
        try dbQueue.write { db throws in
            try Big(value: UInt64(Int64.max)).insert(db)
            #expect(throws: EncodingError.self) { try Big(value: .max).insert(db) }
            #expect(try UInt64.fetchAll(db, sql: "SELECT value FROM big") == [UInt64(Int64.max)])
        }
    }

    @Test func snakeCaseAndStrategies() throws {
        struct Event: Encodable, PersistableRecord {
            static let databaseColumnEncodingStrategy = DatabaseColumnEncodingStrategy.convertToSnakeCase
            static func databaseDateEncodingStrategy(for column: String) -> DatabaseDateEncodingStrategy { .millisecondsSince1970 }
            static func databaseUUIDEncodingStrategy(for column: String) -> DatabaseUUIDEncodingStrategy { .lowercaseString }
            var eventDate: Date
            var eventUUID: UUID
        }
        let event = Event(eventDate: Date(timeIntervalSince1970: 1.5),
                          eventUUID: UUID(uuidString: "E621E1F8-C36C-495A-93FC-0C247A3E6E5F")!)
        #expect(try event.databaseDictionary == [
            "event_date": 1500.databaseValue,
            "event_uuid": "e621e1f8-c36c-495a-93fc-0c247a3e6e5f".databaseValue,
        ])
    }

    @Test func insertingManyRecordsReusesTheStatement() throws {
        let recorder = SQLRecorder()
        let dbQueue = try makeDatabase("CREATE TABLE player (id INTEGER PRIMARY KEY, name, nickname, status, address, birth)", recorder: recorder)
        try dbQueue.write { db throws in
            for index in 0..<50 {
                let player = Player(id: nil, name: "P\(index)", nickname: index.isMultiple(of: 2) ? nil : "n",
                                    status: .active, address: nil, birth: Date())
                try player.insert(db)
            }
            #expect(try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM player") == 50)
            #expect(try String.fetchOne(db, sql: "SELECT nickname FROM player WHERE name = 'P3'") == "n")
            #expect(try String?.fetchOne(db, sql: "SELECT nickname FROM player WHERE name = 'P4'") == .some(nil))
        }
        let inserts = recorder.sql.filter { $0.hasPrefix("INSERT") }
        #expect(inserts.count == 50)
        #expect(Set(inserts) == [#"INSERT INTO "player" ("id", "name", "nickname", "status", "address", "birth") VALUES (?,?,?,?,?,?)"#])
    }

    @Test func recordsEncodingDifferentColumnsInARow() throws {
        // A record whose columns depend on its values defeats the reused
        // container's hints: every insert must still write the right columns.
        struct Flexible: PersistableRecord {
            static let databaseTableName = "flexible"
            var a: Int?
            var b: Int?
            func encode(to container: inout PersistenceContainer) {
                if let a { container["a"] = a }
                if let b { container["b"] = b }
            }
        }
        let dbQueue = try makeDatabase("CREATE TABLE flexible (a, b)")
        try dbQueue.write { db throws in
            try Flexible(a: 1, b: 2).insert(db)
            try Flexible(a: nil, b: 3).insert(db)
            try Flexible(a: 4, b: nil).insert(db)
            try Flexible(a: 5, b: 6).insert(db)
            let rows = try Row.fetchAll(db, sql: "SELECT a, b FROM flexible ORDER BY rowid")
            #expect(rows == [["a": 1, "b": 2], ["a": nil, "b": 3], ["a": 4, "b": nil], ["a": 5, "b": 6]])
        }
    }

    @Test func userInfoReachesTheJSONEncoderOfNestedValues() throws {
        struct Name: Encodable {
            var first: String
            var last: String
            func encode(to encoder: any Encoder) throws {
                var container = encoder.container(keyedBy: CodingKeys.self)
                let reversed = encoder.userInfo[.reverseNames] as? Bool == true
                try container.encode(reversed ? last : first, forKey: .first)
            }
            enum CodingKeys: CodingKey { case first }
        }
        struct Person: Encodable, PersistableRecord {
            static var databaseEncodingUserInfo: [CodingUserInfoKey: Any] { [.reverseNames: true] }
            var name: Name
        }
        #expect(try Person(name: Name(first: "Bob", last: "Dylan")).databaseDictionary
            == ["name": #"{"first":"Dylan"}"#.databaseValue])
    }
}

extension CodingUserInfoKey {
    fileprivate static let reverseNames = CodingUserInfoKey(rawValue: "reverseNames")!
}
