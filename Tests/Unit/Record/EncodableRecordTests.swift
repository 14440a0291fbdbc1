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

    /// As GRDB, word for word (found by the differential harness).
    @Test func dataThatIsNotUTF8IsAnEncodingErrorAsText() throws {
        struct Blob: Encodable, PersistableRecord {
            static func databaseDataEncodingStrategy(for column: String) -> DatabaseDataEncodingStrategy { .text }
            var payload: Data
        }
        #expect(try Blob(payload: Data("é".utf8)).databaseDictionary == ["payload": "é".databaseValue])
        let error = try #require(throws: EncodingError.self) { try Blob(payload: Data([0xFF])).databaseDictionary }
        guard case .invalidValue(_, let context) = error else {
            Issue.record("\(error)")
            return
        }
        #expect(context.debugDescription == "Non-UTF8 data can't be encoded as text in the database")
    }

    @Test func snakeCaseAndStrategies() throws {
        struct Event: Encodable, PersistableRecord {
            static let databaseColumnEncodingStrategy = DatabaseColumnEncodingStrategy.convertToSnakeCase
            static func databaseDateEncodingStrategy(for column: String) -> DatabaseDateEncodingStrategy {
                .millisecondsSince1970
            }
            static func databaseUUIDEncodingStrategy(for column: String) -> DatabaseUUIDEncodingStrategy {
                .lowercaseString
            }
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
        let dbQueue = try makeDatabase(
            "CREATE TABLE player (id INTEGER PRIMARY KEY, name, nickname, status, address, birth)", recorder: recorder)
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
        #expect(
            Set(inserts) == [
                #"INSERT INTO "player" ("id", "name", "nickname", "status", "address", "birth") VALUES (?,?,?,?,?,?)"#
            ])
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

    @Test func singleValuePropertiesStoreTheirPlainValue() throws {
        struct Inner: Encodable {
            var string: String
            func encode(to encoder: any Encoder) throws {
                var container = encoder.singleValueContainer()
                try container.encode(string)
            }
        }
        struct Outer: Encodable {
            var inner: Inner
            func encode(to encoder: any Encoder) throws {
                var container = encoder.singleValueContainer()
                try container.encode(inner)
            }
        }
        struct Tagged: Encodable {
            var name: String
            func encode(to encoder: any Encoder) throws {
                var container = encoder.singleValueContainer()
                let key = encoder.codingPath.last?.stringValue ?? "nil"
                let flag = encoder.userInfo[.reverseNames] as? Bool == true
                try container.encode("\(name),\(key),\(flag)")
            }
        }
        struct Record: Encodable, PersistableRecord {
            static var databaseEncodingUserInfo: [CodingUserInfoKey: Any] { [.reverseNames: true] }
            var value: Outer
            var optional: Outer?
            var tagged: Tagged
        }
        let record = Record(value: Outer(inner: Inner(string: "foo")), optional: Outer(inner: Inner(string: "bar")),
                            tagged: Tagged(name: "baz"))
        #expect(try record.databaseDictionary == [
            "value": "foo".databaseValue,
            "optional": "bar".databaseValue,
            "tagged": "baz,tagged,true".databaseValue,
        ])
    }

    @Test func singleValueContainerOfARecordEncodesTheColumnsOfItsValue() throws {
        struct Model: Encodable { var name: String }
        struct Columns: Encodable, EncodableRecord {
            func encode(to container: inout PersistenceContainer) { container["a"] = 1; container["b"] = "two" }
        }
        struct Wrapper<M: Encodable>: Encodable, PersistableRecord {
            static var databaseTableName: String { "wrapper" }
            var model: M
            var extra: String
            enum CodingKeys: CodingKey { case extra }
            func encode(to encoder: any Encoder) throws {
                var single = encoder.singleValueContainer()
                try single.encode(model)
                var container = encoder.container(keyedBy: CodingKeys.self)
                try container.encode(extra, forKey: .extra)
            }
        }
        #expect(try Wrapper(model: Model(name: "foo"), extra: "bar").databaseDictionary
            == ["name": "foo".databaseValue, "extra": "bar".databaseValue])
        #expect(try Wrapper(model: Columns(), extra: "bar").databaseDictionary
            == ["a": 1.databaseValue, "b": "two".databaseValue, "extra": "bar".databaseValue])
        let dbQueue = try makeDatabase("CREATE TABLE wrapper (name, extra)")
        try dbQueue.write { db in
            try Wrapper(model: Model(name: "foo"), extra: "bar").insert(db)
            #expect(try Row.fetchOne(db, sql: "SELECT name, extra FROM wrapper") == ["name": "foo", "extra": "bar"])
        }
    }

    @Test func unsupportedContainersOfARecordThrow() throws {
        struct Plain: Encodable, PersistableRecord {
            func encode(to encoder: any Encoder) throws {
                var single = encoder.singleValueContainer()
                try single.encode("plain")
            }
        }
        struct List: Encodable, PersistableRecord {
            func encode(to encoder: any Encoder) throws {
                var container = encoder.unkeyedContainer()
                try container.encode(1)
            }
        }
        struct Nested: Encodable, PersistableRecord {
            enum CodingKeys: CodingKey { case a }
            func encode(to encoder: any Encoder) throws {
                var container = encoder.container(keyedBy: CodingKeys.self)
                var nested = container.nestedContainer(keyedBy: CodingKeys.self, forKey: .a)
                try nested.encode(1, forKey: .a)
            }
        }
        #expect(throws: EncodingError.self) { try Plain().databaseDictionary }
        #expect(throws: EncodingError.self) { try List().databaseDictionary }
        #expect(throws: EncodingError.self) { try Nested().databaseDictionary }
    }
}

extension CodingUserInfoKey {
    fileprivate static let reverseNames = CodingUserInfoKey(rawValue: "reverseNames")!
}
