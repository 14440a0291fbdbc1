import Foundation
import Testing
import GRDBLite

/// Encodes a single value.
private struct Name: Encodable, DatabaseValueConvertible {
    var string: String
    func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(string)
    }
    static func fromDatabaseValue(_ dbValue: DatabaseValue) -> Name? { nil }
}

/// Wraps a plain Encodable value, which encodes into the same value.
private struct NestedWrapper: Encodable, DatabaseValueConvertible {
    struct Nested: Encodable {
        var score: Int
        func encode(to encoder: any Encoder) throws {
            var container = encoder.singleValueContainer()
            try container.encode(score)
        }
    }
    var nested: Nested
    func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(nested)
    }
    static func fromDatabaseValue(_ dbValue: DatabaseValue) -> NestedWrapper? { nil }
}

/// Foundation values through a single value container: their database
/// representation, not Codable's.
private struct Stamp: Encodable, DatabaseValueConvertible {
    var date: Date
    var uuid: UUID?
    func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        if let uuid { try container.encode(uuid) } else { try container.encode(date) }
    }
    static func fromDatabaseValue(_ dbValue: DatabaseValue) -> Stamp? { nil }
}

/// A keyed value: JSON with sorted keys.
private struct Point: Encodable, DatabaseValueConvertible {
    var y: Int
    var x: Int
    static func fromDatabaseValue(_ dbValue: DatabaseValue) -> Point? { nil }
}

private struct List: Encodable, DatabaseValueConvertible {
    var strings: [String]
    func encode(to encoder: any Encoder) throws {
        try strings.encode(to: encoder)
    }
    static func fromDatabaseValue(_ dbValue: DatabaseValue) -> List? { nil }
}

private struct Scores: Encodable, DatabaseValueConvertible {
    var dictionary: [String: Int]
    func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(dictionary)
    }
    static func fromDatabaseValue(_ dbValue: DatabaseValue) -> Scores? { nil }
}

private struct Duration: Encodable, DatabaseValueConvertible {
    var seconds: Double
    static func fromDatabaseValue(_ dbValue: DatabaseValue) -> Duration? { nil }
    static func databaseJSONEncoder() -> JSONEncoder {
        let encoder = JSONEncoder()
        encoder.nonConformingFloatEncodingStrategy = .convertToString(
            positiveInfinity: "+inf", negativeInfinity: "-inf", nan: "nan")
        return encoder
    }
}

/// Round trip of a Codable value stored as JSON.
private struct Settings: Codable, DatabaseValueConvertible, Equatable {
    var theme: String
    var fontSize: Double
}

@Suite struct DatabaseValueConvertibleEncodableTests {
    @Test func singleValues() throws {
        #expect(Name(string: "foo").databaseValue == "foo".databaseValue)
        #expect(NestedWrapper(nested: .init(score: 12)).databaseValue.storage == .int64(12))
        let date = Date(timeIntervalSince1970: 1)
        #expect(Stamp(date: date).databaseValue == "1970-01-01 00:00:01.000".databaseValue)
        let uuid = UUID()
        #expect(Stamp(date: date, uuid: uuid).databaseValue == uuid.databaseValue)
        let dbQueue = try DatabaseQueue()
        try dbQueue.read { db throws in
            #expect(try String.fetchOne(db, sql: "SELECT ?", arguments: [Name(string: "bar")]) == "bar")
        }
    }

    @Test func containersAreStoredAsJSON() {
        #expect(Point(y: 2, x: 1).databaseValue == #"{"x":1,"y":2}"#.databaseValue)
        #expect(List(strings: ["foo", "bar"]).databaseValue == #"["foo","bar"]"#.databaseValue)
        #expect(List(strings: []).databaseValue == "[]".databaseValue)
        #expect(Scores(dictionary: ["b": 2, "a": 1]).databaseValue == #"{"a":1,"b":2}"#.databaseValue)
        #expect(Scores(dictionary: [:]).databaseValue == "{}".databaseValue)
    }

    @Test func customJSONEncoder() {
        #expect(Duration(seconds: .infinity).databaseValue == #"{"seconds":"+inf"}"#.databaseValue)
        #expect(Duration(seconds: -.infinity).databaseValue == #"{"seconds":"-inf"}"#.databaseValue)
    }

    @Test func codableValuesRoundTrip() throws {
        let settings = Settings(theme: "dark", fontSize: 12.5)
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db throws in
            try db.execute(sql: "CREATE TABLE t (settings TEXT)")
            try db.execute(sql: "INSERT INTO t VALUES (?)", arguments: [settings])
            #expect(try String.fetchOne(db, sql: "SELECT settings FROM t") == #"{"fontSize":12.5,"theme":"dark"}"#)
            #expect(try Settings.fetchOne(db, sql: "SELECT settings FROM t") == settings)
        }
    }

    @Test func unencodableValuesTrap() async {
        await #expect(processExitsWith: .failure) {
            _ = Settings(theme: "dark", fontSize: .nan).databaseValue
        }
    }
}
