import Foundation
import Testing
@testable import GRDBLite
import TestSupport

@Suite struct DateTests {
    // 2024-01-02 00:00:00 UTC
    static let day: TimeInterval = 1_704_153_600

    static let storedCases: [(TimeInterval, String)] = [
        (0.0, "1970-01-01 00:00:00.000"),
        (1_700_000_000.123, "2023-11-14 22:13:20.123"),
        (1_700_000_000.0004, "2023-11-14 22:13:20.000"),
        (1_700_000_000.9996, "2023-11-14 22:13:21.000"), // rounded to the millisecond
        (-0.001, "1969-12-31 23:59:59.999"),
        (-62_167_219_200.0, "0000-01-01 00:00:00.000"),
        (253_402_300_799.999, "9999-12-31 23:59:59.999"),
        (951_782_400.5, "2000-02-29 00:00:00.500"),
    ]

    @Test(arguments: storedCases)
    func datesAreStoredAsUTCTextWithMilliseconds(interval: TimeInterval, text: String) throws {
        let date = Date(timeIntervalSince1970: interval)
        #expect(date.databaseValue == text.databaseValue)
        let dbQueue = try DatabaseQueue()
        try dbQueue.read { db throws in
            #expect(try String.fetchOne(db, sql: "SELECT ?", arguments: [date]) == text)
            // SQLite understands the format.
            let sqliteSeconds = try #require(
                try Double.fetchOne(db, sql: "SELECT (julianday(?) - 2440587.5) * 86400.0", arguments: [date]))
            #expect(abs(sqliteSeconds - (interval * 1000).rounded() / 1000) < 0.001)
        }
    }

    @Test func storedDatesRoundTripAtMillisecondPrecision() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db throws in
            try db.execute(sql: "CREATE TABLE t (d DATETIME)")
            // Dates of whole milliseconds since 2001 (`Date`'s origin)
            // round-trip exactly.
            for interval in [0, 722_000_000.123, -1_000_000.5, 252_423_993_599.999, -978_307_200.004] {
                let date = Date(timeIntervalSinceReferenceDate: interval)
                try db.execute(sql: "DELETE FROM t")
                try db.execute(sql: "INSERT INTO t VALUES (?)", arguments: [date])
                let read = try #require(try Date.fetchOne(db, sql: "SELECT d FROM t"))
                #expect(read == date)
                let row = try #require(try Row.fetchOne(db, sql: "SELECT d FROM t"))
                #expect(row["d"] as Date == date)
                #expect(Date.fromDatabaseValue(date.databaseValue) == date)
            }
        }
    }

    @Test func datesReadAreTheNearestToTheirText() throws {
        // GRDB reads "2015-07-22 01:02:03.00456" through Calendar, 4_000_008
        // nanoseconds after the second: the nearest `Date`. From 1970, the
        // division would give 3_999_948.
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(secondsFromGMT: 0)!
        let dbQueue = try DatabaseQueue()
        try dbQueue.read { db throws in
            for (text, hour) in [
                ("2015-07-22 01:02:03.00456", 1), ("2015-07-22T01:02:03.00456", 1),
                ("2015-07-22 01:02:03.00456+01:15", 23)
            ] {
                let date = try #require(try Date.fetchOne(db, sql: "SELECT ?", arguments: [text]))
                #expect(calendar.component(.hour, from: date) == hour)
                #expect(calendar.component(.second, from: date) == 3)
                #expect(abs(calendar.component(.nanosecond, from: date) - 4_000_000) < 10, "\(text)")
                #expect(
                    date.timeIntervalSinceReferenceDate == Double(459_219_723_004 - (hour == 23 ? 4_500_000 : 0)) / 1000
                )
                #expect(Date.fromDatabaseValue(text.databaseValue) == date)
                #expect(NSDate.fromDatabaseValue(text.databaseValue).map { $0 as Date } == date)
            }
        }
    }

    @Test func datesOutOfTheTextRangeAreStoredAsTimestamps() throws {
        let date = Date(timeIntervalSince1970: 253_402_300_800) // 10000-01-01
        #expect(date.databaseValue.storage == .double(253_402_300_800))
        let early = Date(timeIntervalSince1970: -62_167_219_201)
        #expect(early.databaseValue.storage == .double(-62_167_219_201))
        #expect(Date.fromDatabaseValue(date.databaseValue) == date)
    }

    // 2024-01-02 03:04 and 03:04:05 UTC
    static let hm: TimeInterval = 1_704_164_640
    static let hms: TimeInterval = 1_704_164_645

    static let readCases: [(String, TimeInterval)] = [
        ("2024-01-02", day),
        ("2024-01-02 03:04", hm),
        ("2024-01-02 03:04:05", hms),
        ("2024-01-02 03:04:05.6", hms + 0.6),
        ("2024-01-02 03:04:05.67", hms + 0.67),
        ("2024-01-02 03:04:05.678", hms + 0.678),
        ("2024-01-02 03:04:05.678901", hms + 0.678), // milliseconds are kept
        ("2024-01-02 03:04:05.0045", hms + 0.004),
        ("2024-01-02T03:04", hm),
        ("2024-01-02T03:04:05", hms),
        ("2024-01-02T03:04:05.678", hms + 0.678),
        ("2024-01-02 03:04Z", hm),
        ("2024-01-02T03:04:05Z", hms),
        ("2024-01-02T03:04:05.678Z", hms + 0.678),
        ("2024-01-02 03:04:05+01:00", hms - 3600),
        ("2024-01-02 03:04:05-05:30", hms + 19_800),
        ("2024-01-02T00:30+02:00", day - 5400),
        ("2024-02-29", 1_709_164_800),
        ("2000-02-29 12:00:00", 951_825_600),
        ("1969-12-31 23:59:59", -1),
        ("0000-01-01 00:00:00.000", -62_167_219_200),
        ("9999-12-31 23:59:59.999", 253_402_300_799.999),
        ("2024-02-29 23:59:59.999", 1_709_251_199.999),
    ]

    @Test(arguments: readCases)
    func datesAreReadFromEverySQLiteFormat(text: String, interval: TimeInterval) throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.read { db throws in
            let date = try #require(try Date.fetchOne(db, sql: "SELECT ?", arguments: [text]))
            #expect(abs(date.timeIntervalSince1970 - interval) < 1e-6)
            #expect(Date.fromDatabaseValue(text.databaseValue) == date)
            let row = try #require(try Row.fetchOne(db, sql: "SELECT ? AS d", arguments: [text]))
            #expect(row["d"] as Date == date)
            // SQLite agrees (to the millisecond, which it rounds where
            // GRDB truncates)
            let sqliteSeconds = try #require(
                try Double.fetchOne(db, sql: "SELECT (julianday(?) - 2440587.5) * 86400.0", arguments: [text]))
            #expect(abs(sqliteSeconds - interval) < 0.0011)
        }
    }

    /// Found by the DateParsing fuzz target: SQLite's `julianday()` reads no
    /// fraction of 310 digits or more (its double overflows); GRDBLite, as
    /// GRDB, keeps the milliseconds of a fraction of any length.
    @Test func aLongFractionKeepsItsMilliseconds() throws {
        let text = "2023-01-01T12:00:00.112" + String(repeating: "3", count: 400)
        let date = try #require(Date.fromDatabaseValue(text.databaseValue))
        #expect(date == Date(timeIntervalSince1970: 1_672_574_400.112))
        let components = try #require(DatabaseDateComponents.fromDatabaseValue(text.databaseValue))
        #expect(components.dateComponents.nanosecond == 112_000_000)
        let dbQueue = try DatabaseQueue()
        #expect(try dbQueue.read { db in try Date.fetchOne(db, sql: "SELECT ?", arguments: [text]) } == date)
    }

    @Test func numbersAreUnixTimestamps() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.read { db throws in
            #expect(try Date.fetchOne(db, sql: "SELECT 0") == Date(timeIntervalSince1970: 0))
            #expect(try Date.fetchOne(db, sql: "SELECT 1700000000") == Date(timeIntervalSince1970: 1_700_000_000))
            #expect(try Date.fetchOne(db, sql: "SELECT 1.5") == Date(timeIntervalSince1970: 1.5))
            #expect(try Date.fetchOne(db, sql: "SELECT -86400") == Date(timeIntervalSince1970: -86400))
            #expect(Date.fromDatabaseValue(10.databaseValue) == Date(timeIntervalSince1970: 10))
            #expect(Date.fromDatabaseValue(2.5.databaseValue) == Date(timeIntervalSince1970: 2.5))
            let row = try #require(try Row.fetchOne(db, sql: "SELECT 12 AS d"))
            #expect(row["d"] as Date == Date(timeIntervalSince1970: 12))
        }
    }

    @Test(arguments: [
        "", "yesterday", "2024", "2024-01", "2024-1-02", "2024-13-01", "2024-00-10", "2024-01-00", "2024-01-32",
        "2023-02-29", "1900-02-29", "2024-04-31", "2024-01-02 24:00", "2024-01-02 03:60", "2024-01-02 03:04:60",
        "2024-01-02 03:04:05.", "2024-01-02X03:04", "2024-01-02 03", "2024-01-02 03:04:05 ", " 2024-01-02",
        "2024-01-02 03:04+0100", "2024-01-02 03:04+01", "2024-01-02 03:04:05Zjunk", "12:00", "12:00:00.000",
        "2024-01-02T", "2024/01/02",
        // The storage format, read at fixed offsets
        "2023-02-29 00:00:00.000", "2024-13-01 00:00:00.000", "2024-00-01 00:00:00.000", "2024-01-00 00:00:00.000",
        "2024-01-02 24:00:00.000", "2024-01-02 03:60:00.000", "2024-01-02 03:04:60.000", "2024-01-02 03:04:05.0x0",
        "2024-0a-02 03:04:05.000", "2024-01-02 03:04:05.-00", "+024-01-02 03:04:05.000", "2024-01-02 03:04:05/000",
    ])
    func invalidStringsAreErrors(text: String) throws {
        #expect(Date.fromDatabaseValue(text.databaseValue) == nil)
        let dbQueue = try DatabaseQueue()
        try dbQueue.read { db throws in
            let error = #expect(throws: RowDecodingError.self) {
                try Date.fetchAll(db, sql: "SELECT ? AS date", arguments: [text])
            }
            #expect(
                error?.description.hasPrefix(
                    "could not decode Date from database value \(String(reflecting: text)) - column: \"date\"") == true)
            #expect(throws: RowDecodingError.self) { try Date.fetchOne(db, sql: "SELECT ?", arguments: [text]) }
            let row = try #require(try Row.fetchOne(db, sql: "SELECT ? AS date", arguments: [text]))
            #expect(throws: RowDecodingError.self) { try row.decode(Date.self, forColumn: "date") }
            #expect(throws: RowDecodingError.self) { try row.decode(Date?.self, forColumn: "date") }
        }
    }

    @Test func blobsAreNotDates() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.read { db throws in
            #expect(throws: RowDecodingError.self) { try Date.fetchOne(db, sql: "SELECT CAST('2024-01-02' AS BLOB)") }
            #expect(Date.fromDatabaseValue(Data("2024-01-02".utf8).databaseValue) == nil)
        }
    }

    @Test func currentTimestampIsReadable() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.read { db throws in
            let text = try #require(try String.fetchOne(db, sql: "SELECT CURRENT_TIMESTAMP"))
            let date = try #require(try Date.fetchOne(db, sql: "SELECT ?", arguments: [text]))
            #expect(try String.fetchOne(db, sql: "SELECT datetime(?)", arguments: [date]) == text)
        }
    }

    @Test func nsdatesAreStoredAsDates() throws {
        let date = NSDate(timeIntervalSince1970: 1_443_642_439.25)
        #expect(date.databaseValue == "2015-09-30 19:47:19.250".databaseValue)
        #expect(NSDate.fromDatabaseValue("2015-09-30 19:47:19.250".databaseValue) == date)
        #expect(NSDate.fromDatabaseValue(1_443_642_439.25.databaseValue) == date)
        let dbQueue = try DatabaseQueue()
        try dbQueue.read { db throws in
            #expect(try NSDate.fetchOne(db, sql: "SELECT ?", arguments: [date]) == date)
        }
        for invalid: DatabaseValue in [.null, "foo".databaseValue, "01:02".databaseValue, Data().databaseValue] {
            #expect(NSDate.fromDatabaseValue(invalid) == nil)
        }
    }
}

@Suite struct DateStorageFormatTests {
    /// "yyyy-MM-dd HH:mm:ss.SSS", with `separator` between day and hour,
    /// and no fraction if `millisecond` is nil.
    static func text(
        _ year: Int, _ month: Int, _ day: Int, _ hour: Int, _ minute: Int, _ second: Int, _ millisecond: Int?,
        separator: String = " ") -> String
    {
        func digits(_ value: Int, _ width: Int) -> String {
            let text = String(value)
            return String(repeating: "0", count: width - text.count) + text
        }
        let seconds = "\(digits(hour, 2)):\(digits(minute, 2)):\(digits(second, 2))"
        let date = "\(digits(year, 4))-\(digits(month, 2))-\(digits(day, 2))\(separator)\(seconds)"
        return millisecond.map { "\(date).\(digits($0, 3))" } ?? date
    }

    static func fastPath(_ text: String) -> Date? {
        var text = text
        return text.withUTF8 { Date(storageFormat: $0) }
    }

    static func parser(_ text: String) -> Date? {
        var text = text
        return text.withUTF8 { SQLiteDateParser.parse($0).flatMap(Date.init(fields:)) }
    }

    @Test func theFastPathGivesTheParsersDate() {
        // Every year, its first and last instants, the days around the end
        // of February, and a random instant; with and without the
        // fraction, with a space or `T`.
        var random = SeededGenerator(seed: 26)
        var mismatches: [String] = []
        for year in 0...9999 {
            let isLeap = year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)
            var texts = [
                Self.text(year, 1, 1, 0, 0, 0, 0), Self.text(year, 12, 31, 23, 59, 59, 999),
                Self.text(year, 2, 28, 12, 30, 30, 500), Self.text(year, 3, 1, 0, 0, 0, nil),
                Self.text(
                    year, .random(in: 1...12, using: &random), .random(in: 1...28, using: &random),
                    .random(in: 0..<24, using: &random), .random(in: 0..<60, using: &random),
                    .random(in: 0..<60, using: &random), .random(in: 0..<1000, using: &random), separator: "T"),
                Self.text(
                    year, .random(in: 1...12, using: &random), .random(in: 1...28, using: &random),
                    .random(in: 0..<24, using: &random), .random(in: 0..<60, using: &random),
                    .random(in: 0..<60, using: &random), nil),
            ]
            if isLeap { texts.append(Self.text(year, 2, 29, 23, 59, 59, 1)) }
            for text in texts {
                let fast = Self.fastPath(text)
                let parsed = Self.parser(text)
                // Bit-equal, and not nil: the fast path reads them all.
                if fast == nil || fast?.timeIntervalSinceReferenceDate.bitPattern
                    != parsed?.timeIntervalSinceReferenceDate.bitPattern
                {
                    mismatches.append("\(text): \(String(describing: fast)) vs \(String(describing: parsed))")
                }
            }
        }
        #expect(mismatches.prefix(10) == [])
    }

    @Test func everyMillisecondOfASecond() {
        for millisecond in 0..<1000 {
            let text = Self.text(2024, 2, 29, 23, 59, 59, millisecond)
            let fast = Self.fastPath(text)
            #expect(fast != nil)
            #expect(
                fast?.timeIntervalSinceReferenceDate.bitPattern
                    == Self.parser(text)?.timeIntervalSinceReferenceDate.bitPattern)
        }
    }

    @Test func theFastPathReadsNothingTheParserRejectsOrReadsOtherwise() {
        // Each byte of stored dates replaced by another: the fast path
        // gives nil (the parser's turn) or the parser's date.
        let texts = [
            "2024-02-29 23:59:59.999", "2023-02-28 09:19:29.999", "1900-03-01 00:00:00.000", "0000-01-01 00:00:00",
            "9999-12-31T23:59:59",
        ]
        let replacements = Array("0123456789 T-:./+Zz\u{0}x").map { UInt8(ascii: $0.unicodeScalars.first!) }
        var mismatches: [String] = []
        for text in texts {
            for position in 0..<text.utf8.count {
                for replacement in replacements {
                    var bytes = Array(text.utf8)
                    bytes[position] = replacement
                    let variant = String(decoding: bytes, as: UTF8.self)
                    guard let fast = Self.fastPath(variant) else { continue }
                    if fast.timeIntervalSinceReferenceDate.bitPattern
                        != Self.parser(variant)?.timeIntervalSinceReferenceDate.bitPattern
                    {
                        mismatches.append(variant)
                    }
                }
            }
        }
        #expect(mismatches == [])
        for invalid in [
            "2023-02-29 00:00:00.000", "1900-02-29 00:00:00", "2024-04-31 00:00:00.000", "2024-01-02 24:00:00.000",
            "2024-01-02 03:60:00", "2024-01-02 03:04:60.000", "2024-13-01 00:00:00", "2024-00-01 00:00:00",
            "2024-01-00 00:00:00", "2024-01-02 03:04:05,000", "2024-01-02X03:04:05", "2024-01-02 03:04:05.0x0",
        ] {
            #expect(Self.fastPath(invalid) == nil, "\(invalid)")
        }
        // Other formats are the parser's.
        for other in [
            "2024-01-02 03:04:05Z", "2024-01-02 03:04:05.00Z", "2024-01-02 03:04:05.6789", "2024-01-02 03:04+01:00",
            "2024-01-02",
        ] {
            #expect(Self.fastPath(other) == nil, "\(other)")
        }
    }
}

@Suite struct DateFromJulianDayTests {
    @Test func julianDay() throws {
        // 00:30:00 UT on January 1, 2013, to the millisecond.
        let date = try #require(Date(julianDay: 2_456_293.520833))
        #expect(date.timeIntervalSince1970 == 1_357_000_199.971)
        #expect(Date(julianDay: 2_440_587.5) == Date(timeIntervalSince1970: 0))
        #expect(Date(julianDay: .nan) == nil)
        #expect(Date(julianDay: -1) == nil)
        #expect(Date(julianDay: 1e12) == nil)
        // As SQLite computes it.
        try DatabaseQueue().read { db throws in
            let julianDay = try #require(try Double.fetchOne(db, sql: "SELECT julianday('2013-01-01 00:30:00')"))
            #expect(Date(julianDay: julianDay) == Date(timeIntervalSince1970: 1_357_000_200))
        }
    }
}
