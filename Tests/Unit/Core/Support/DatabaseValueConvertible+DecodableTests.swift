import Foundation
import Testing
import GRDBLite

/// Decodes from a single value container.
private struct Name: Decodable, DatabaseValueConvertible, Equatable {
    var string: String
    init(string: String) { self.string = string }
    init(from decoder: any Decoder) throws {
        string = try decoder.singleValueContainer().decode(String.self)
    }
    var databaseValue: DatabaseValue { string.databaseValue }
}

/// Wraps another convertible value through a single value container.
private struct NameWrapper: Decodable, DatabaseValueConvertible {
    var name: Name
    init(from decoder: any Decoder) throws {
        name = try decoder.singleValueContainer().decode(Name.self)
    }
    var databaseValue: DatabaseValue { name.databaseValue }
}

/// Wraps a plain Decodable value, which decodes from the same value.
private struct NestedWrapper: Decodable, DatabaseValueConvertible {
    struct Nested: Decodable {
        var score: Int
        init(from decoder: any Decoder) throws {
            score = try decoder.singleValueContainer().decode(Int.self)
        }
    }
    var nested: Nested
    var databaseValue: DatabaseValue { nested.score.databaseValue }
    init(from decoder: any Decoder) throws {
        nested = try decoder.singleValueContainer().decode(Nested.self)
    }
}

/// A keyed value: JSON.
private struct Tags: Decodable, DatabaseValueConvertible, Equatable {
    var strings: [String]
    var databaseValue: DatabaseValue { .null }
}

/// An array through a single value container: JSON.
private struct List: Decodable, DatabaseValueConvertible {
    var strings: [String]
    init(from decoder: any Decoder) throws {
        strings = try decoder.singleValueContainer().decode([String].self)
    }
    var databaseValue: DatabaseValue { .null }
}

/// A dictionary decoded with the decoder itself: JSON.
private struct Scores: Decodable, DatabaseValueConvertible {
    var dictionary: [String: Int]
    init(from decoder: any Decoder) throws {
        dictionary = try .init(from: decoder)
    }
    var databaseValue: DatabaseValue { .null }
}

private struct Duration: Decodable, DatabaseValueConvertible {
    var seconds: Double
    var databaseValue: DatabaseValue { .null }
    static func databaseJSONDecoder() -> JSONDecoder {
        let decoder = JSONDecoder()
        decoder.nonConformingFloatDecodingStrategy = .convertFromString(
            positiveInfinity: "+inf", negativeInfinity: "-inf", nan: "nan")
        return decoder
    }
}

/// Its own conversion wins over Decodable's.
private struct Custom: Decodable, DatabaseValueConvertible {
    var string: String
    var databaseValue: DatabaseValue { .null }
    static func fromDatabaseValue(_ dbValue: DatabaseValue) -> Custom? {
        String.fromDatabaseValue(dbValue).map { Custom(string: $0 + " (custom)") }
    }
}

@Suite struct DatabaseValueConvertibleDecodableTests {
    @Test func singleValues() throws {
        #expect(Name.fromDatabaseValue("foo".databaseValue) == Name(string: "foo"))
        #expect(Name.fromDatabaseValue(1.databaseValue) == nil)
        #expect(Name.fromDatabaseValue(.null) == nil)
        #expect(NameWrapper.fromDatabaseValue("foo".databaseValue)?.name == Name(string: "foo"))
        #expect(NameWrapper.fromDatabaseValue(1.databaseValue) == nil)
        #expect(NestedWrapper.fromDatabaseValue(12.databaseValue)?.nested.score == 12)
        #expect(NestedWrapper.fromDatabaseValue("12".databaseValue) == nil) // no lossy conversion
        let dbQueue = try DatabaseQueue()
        try dbQueue.read { db throws in
            #expect(try Name.fetchOne(db, sql: "SELECT 'foo'") == Name(string: "foo"))
            #expect(
                try NameWrapper.fetchAll(db, sql: "SELECT 'a' UNION ALL SELECT 'b'").map(\.name.string) == ["a", "b"])
            let row = try #require(try Row.fetchOne(db, sql: "SELECT 'bar' AS name"))
            #expect(row["name"] as Name == Name(string: "bar"))
            #expect(throws: RowDecodingError.self) { try Name.fetchOne(db, sql: "SELECT 1") }
        }
    }

    @Test func containersAreReadFromJSON() throws {
        #expect(Tags.fromDatabaseValue(#"{ "strings": ["foo", "bar"] }"#.databaseValue)?.strings == ["foo", "bar"])
        #expect(Tags.fromDatabaseValue(Data(#"{"strings":[]}"#.utf8).databaseValue)?.strings == [])
        #expect(List.fromDatabaseValue(#"["foo", "bar"]"#.databaseValue)?.strings == ["foo", "bar"])
        #expect(Scores.fromDatabaseValue(#"{"foo": 1}"#.databaseValue)?.dictionary == ["foo": 1])
        for invalid: DatabaseValue in [1.databaseValue, .null, "not json".databaseValue, #"{"other": 1}"#.databaseValue]
        {
            #expect(Tags.fromDatabaseValue(invalid) == nil)
            #expect(List.fromDatabaseValue(invalid) == nil)
        }
        let dbQueue = try DatabaseQueue()
        try dbQueue.read { db throws in
            #expect(try Tags.fetchOne(db, sql: #"SELECT '{"strings": ["a"]}'"#)?.strings == ["a"])
            #expect(try Scores.fetchOne(db, sql: #"SELECT '{"b": 2}'"#)?.dictionary == ["b": 2])
        }
    }

    @Test func customJSONDecoder() {
        #expect(Duration.fromDatabaseValue(#"{"seconds": "+inf"}"#.databaseValue)?.seconds == .infinity)
        #expect(Duration.fromDatabaseValue(#"{"seconds": "nan"}"#.databaseValue)?.seconds.isNaN == true)
        #expect(Duration.fromDatabaseValue("infinity".databaseValue) == nil)
    }

    @Test func explicitConversionWins() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.read { db throws in
            #expect(try Custom.fetchOne(db, sql: "SELECT 'foo'")?.string == "foo (custom)")
        }
    }
}
