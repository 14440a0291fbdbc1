import Foundation
import Testing
import GRDBLite

@Suite struct DatabaseDateComponentsTests {
    static func components(
        year: Int? = nil, month: Int? = nil, day: Int? = nil,
        hour: Int? = nil, minute: Int? = nil, second: Int? = nil, nanosecond: Int? = nil) -> DateComponents
    {
        DateComponents(
            year: year, month: month, day: day, hour: hour, minute: minute, second: second, nanosecond: nanosecond)
    }

    static let full = components(year: 1973, month: 9, day: 18, hour: 7, minute: 5, second: 3, nanosecond: 123_456_789)

    @Test(arguments: [
        (DatabaseDateComponents.Format.YMD, "1973-09-18"),
        (.YMD_HM, "1973-09-18 07:05"),
        (.YMD_HMS, "1973-09-18 07:05:03"),
        (.YMD_HMSS, "1973-09-18 07:05:03.123"),
        (.HM, "07:05"),
        (.HMS, "07:05:03"),
        (.HMSS, "07:05:03.123"),
    ])
    func componentsAreStoredInTheirFormat(format: DatabaseDateComponents.Format, text: String) throws {
        let value = DatabaseDateComponents(Self.full, format: format)
        #expect(value.databaseValue == text.databaseValue)
        let dbQueue = try DatabaseQueue()
        try dbQueue.read { db throws in
            #expect(try String.fetchOne(db, sql: "SELECT ?", arguments: [value]) == text)
        }
    }

    @Test func missingComponentsAreWrittenAsZeroOrOne() {
        let value = DatabaseDateComponents(DateComponents(), format: .YMD_HMSS)
        #expect(value.databaseValue == "0000-01-01 00:00:00.000".databaseValue)
        let rounded = DatabaseDateComponents(
            Self.components(hour: 1, minute: 2, second: 3, nanosecond: 999_600_000), format: .HMSS)
        #expect(rounded.databaseValue == "01:02:03.999".databaseValue)
    }

    @Test(arguments: [
        ("1973-09-18", DatabaseDateComponents.Format.YMD, components(year: 1973, month: 9, day: 18)),
        ("1973-09-18 07:05", .YMD_HM, components(year: 1973, month: 9, day: 18, hour: 7, minute: 5)),
        ("1973-09-18T07:05", .YMD_HM, components(year: 1973, month: 9, day: 18, hour: 7, minute: 5)),
        ("1973-09-18 07:05:03", .YMD_HMS, components(year: 1973, month: 9, day: 18, hour: 7, minute: 5, second: 3)),
        (
            "1973-09-18 07:05:03.123", .YMD_HMSS,
            components(year: 1973, month: 9, day: 18, hour: 7, minute: 5, second: 3, nanosecond: 123_000_000)
        ),
        (
            "1973-09-18 07:05:03.1", .YMD_HMSS,
            components(year: 1973, month: 9, day: 18, hour: 7, minute: 5, second: 3, nanosecond: 100_000_000)
        ),
        (
            "1973-09-18 07:05:03.999123", .YMD_HMSS,
            components(year: 1973, month: 9, day: 18, hour: 7, minute: 5, second: 3, nanosecond: 999_000_000)
        ),
        ("07:05", .HM, components(hour: 7, minute: 5)),
        ("07:05:03", .HMS, components(hour: 7, minute: 5, second: 3)),
        ("07:05:03.120", .HMSS, components(hour: 7, minute: 5, second: 3, nanosecond: 120_000_000)),
    ])
    func componentsAreReadWithTheirFormat(text: String, format: DatabaseDateComponents.Format, expected: DateComponents)
        throws
    {
        let dbQueue = try DatabaseQueue()
        try dbQueue.read { db throws in
            let value = try #require(try DatabaseDateComponents.fetchOne(db, sql: "SELECT ?", arguments: [text]))
            #expect(value.format == format)
            // Only the components of the format are set, as in GRDB.
            #expect(value.dateComponents == expected)
            // Compared by their database values: like GRDB's, the type is
            // not Equatable.
            #expect(DatabaseDateComponents.fromDatabaseValue(text.databaseValue)?.databaseValue == value.databaseValue)
            let row = try #require(try Row.fetchOne(db, sql: "SELECT ? AS c", arguments: [text]))
            #expect((row["c"] as DatabaseDateComponents).databaseValue == value.databaseValue)
            // Written back in the format that was read.
            #expect(DatabaseDateComponents.fromDatabaseValue(value.databaseValue)?.databaseValue == value.databaseValue)
        }
    }

    @Test func timeZonesAreRead() throws {
        let value = try #require(DatabaseDateComponents.fromDatabaseValue("2024-01-02 03:04:05-05:30".databaseValue))
        #expect(value.format == .YMD_HMS)
        #expect(value.dateComponents.timeZone == TimeZone(secondsFromGMT: -(5 * 3600 + 30 * 60)))
        #expect(value.dateComponents.hour == 3)
        let utc = try #require(DatabaseDateComponents.fromDatabaseValue("2024-01-02T03:04Z".databaseValue))
        #expect(utc.dateComponents.timeZone == TimeZone(secondsFromGMT: 0))
        let local = try #require(DatabaseDateComponents.fromDatabaseValue("2024-01-02 03:04".databaseValue))
        #expect(local.dateComponents.timeZone == nil)
    }

    @Test(arguments: ["", "2024-13-01", "2024-02-30", "25:00", "12:60", "12", "noon", "2024-01-02 03:04:05."])
    func invalidStringsAreErrors(text: String) throws {
        #expect(DatabaseDateComponents.fromDatabaseValue(text.databaseValue) == nil)
        let dbQueue = try DatabaseQueue()
        _ = try dbQueue.read { db throws in
            #expect(throws: RowDecodingError.self) {
                try DatabaseDateComponents.fetchOne(db, sql: "SELECT ?", arguments: [text])
            }
        }
    }

    @Test func numbersAreNotDateComponents() throws {
        #expect(DatabaseDateComponents.fromDatabaseValue(0.databaseValue) == nil)
        let dbQueue = try DatabaseQueue()
        _ = try dbQueue.read { db throws in
            #expect(throws: RowDecodingError.self) { try DatabaseDateComponents.fetchOne(db, sql: "SELECT 1") }
        }
    }

    @Test func codableAsString() throws {
        let value = DatabaseDateComponents(Self.components(year: 2024, month: 1, day: 2), format: .YMD)
        let json = try JSONEncoder().encode([value])
        #expect(String(decoding: json, as: UTF8.self) == #"["2024-01-02"]"#)
        let decoded = try JSONDecoder().decode([DatabaseDateComponents].self, from: json)
        #expect(decoded.map(\.databaseValue) == [value.databaseValue])
        #expect(throws: DecodingError.self) {
            try JSONDecoder().decode([DatabaseDateComponents].self, from: Data(#"["nope"]"#.utf8))
        }
    }
}
