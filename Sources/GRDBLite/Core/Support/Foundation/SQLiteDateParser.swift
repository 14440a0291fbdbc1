import Foundation

/// Parses the date formats of SQLite's date functions:
/// `YYYY-MM-DD`, `YYYY-MM-DD HH:MM`, `YYYY-MM-DD HH:MM:SS`,
/// `YYYY-MM-DD HH:MM:SS.SSS` (with `T` instead of the space, any number of
/// fraction digits, of which milliseconds are kept), `HH:MM`, `HH:MM:SS`, `HH:MM:SS.SSS`, each optionally
/// followed by a time zone: `Z`, `+HH:MM` or `-HH:MM`.
struct SQLiteDateParser {
    /// The fields of a parsed date.
    struct Fields {
        var year: Int?
        var month: Int?
        var day: Int?
        var hour = 0
        var minute = 0
        var second = 0
        var nanosecond = 0
        /// Seconds east of UTC, if the string has a time zone.
        var timeZoneOffset: Int?
        var format: DatabaseDateComponents.Format
    }

    static func parse(_ string: String) -> Fields? {
        var string = string
        return string.withUTF8 { parse($0) }
    }

    static func parse(_ bytes: UnsafeBufferPointer<UInt8>) -> Fields? {
        var scanner = Scanner(bytes: bytes)
        var fields: Fields
        if bytes.count >= 10, bytes[4] == UInt8(ascii: "-") {
            guard let year = scanner.digits(4), scanner.skip("-"),
                  let month = scanner.digits(2), scanner.skip("-"),
                  let day = scanner.digits(2),
                  (1...12).contains(month), (1...daysInMonth(year: year, month: month)).contains(day)
            else { return nil }
            fields = Fields(year: year, month: month, day: day, format: .YMD)
            if scanner.isAtEnd { return fields }
            guard scanner.skip(" ") || scanner.skip("T") else { return nil }
            guard parseTime(&scanner, into: &fields, hasDate: true) else { return nil }
        } else {
            fields = Fields(format: .HM)
            guard parseTime(&scanner, into: &fields, hasDate: false) else { return nil }
        }
        if !scanner.isAtEnd {
            guard let offset = parseTimeZone(&scanner), scanner.isAtEnd else { return nil }
            fields.timeZoneOffset = offset
        }
        return fields
    }

    private static func parseTime(_ scanner: inout Scanner, into fields: inout Fields, hasDate: Bool) -> Bool {
        guard let hour = scanner.digits(2), scanner.skip(":"), let minute = scanner.digits(2),
              hour < 24, minute < 60
        else { return false }
        fields.hour = hour
        fields.minute = minute
        fields.format = hasDate ? .YMD_HM : .HM
        guard scanner.skip(":") else { return true }
        guard let second = scanner.digits(2), second < 60 else { return false }
        fields.second = second
        fields.format = hasDate ? .YMD_HMS : .HMS
        guard scanner.skip(".") else { return true }
        // Any number of fraction digits; milliseconds are kept, as GRDB
        // does (further digits are ignored).
        var nanosecond = 0
        var scale = 100_000_000
        var count = 0
        while let digit = scanner.digit() {
            if count < 3 {
                nanosecond += digit * scale
                scale /= 10
            }
            count += 1
        }
        guard count > 0 else { return false }
        fields.nanosecond = nanosecond
        fields.format = hasDate ? .YMD_HMSS : .HMSS
        return true
    }

    private static func parseTimeZone(_ scanner: inout Scanner) -> Int? {
        if scanner.skip("Z") || scanner.skip("z") { return 0 }
        let sign: Int
        if scanner.skip("+") { sign = 1 } else if scanner.skip("-") { sign = -1 } else { return nil }
        guard let hours = scanner.digits(2), scanner.skip(":"), let minutes = scanner.digits(2),
              hours < 24, minutes < 60
        else { return nil }
        return sign * (hours * 3600 + minutes * 60)
    }

    static func daysInMonth(year: Int, month: Int) -> Int {
        switch month {
        case 2: (year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)) ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }

    private struct Scanner {
        let bytes: UnsafeBufferPointer<UInt8>
        var position = 0

        var isAtEnd: Bool { position == bytes.count }

        mutating func skip(_ character: Unicode.Scalar) -> Bool {
            guard position < bytes.count, bytes[position] == UInt8(ascii: character) else { return false }
            position += 1
            return true
        }

        mutating func digit() -> Int? {
            guard position < bytes.count, (0x30...0x39).contains(bytes[position]) else { return nil }
            defer { position += 1 }
            return Int(bytes[position] - 0x30)
        }

        mutating func digits(_ count: Int) -> Int? {
            var value = 0
            for _ in 0..<count {
                guard let digit = digit() else { return nil }
                value = value * 10 + digit
            }
            return value
        }
    }
}

/// Proleptic Gregorian calendar arithmetic, as SQLite's date functions
/// compute (no switch to the Julian calendar before 1582).
enum CivilCalendar {
    /// Days since 1970-01-01 of a date of years 0...9999 (four digits, as
    /// the text formats have). Years start in March, so that the leap day
    /// ends them, and are counted from the year -400: every number is
    /// positive and small, for unsigned divisions and no overflow checks
    /// (this runs for each date read, inline).
    @inline(__always)
    static func days(year: Int, month: Int, day: Int) -> Int {
        let isJanuaryOrFebruary = month <= 2
        let y = UInt(bitPattern: year &+ (isJanuaryOrFebruary ? 399 : 400))
        let m = UInt(bitPattern: month &+ (isJanuaryOrFebruary ? 9 : -3))
        let dayOfYear = (153 &* m &+ 2) / 5 &+ UInt(bitPattern: day) &- 1
        let days = y &* 365 &+ y / 4 &- y / 100 &+ y / 400 &+ dayOfYear
        // 146_097 days in 400 years; 719_468 from 0000-03-01 to 1970-01-01.
        return Int(bitPattern: days) &- (146_097 + 719_468)
    }

    /// The date of a number of days since 1970-01-01.
    static func date(days: Int) -> (year: Int, month: Int, day: Int) {
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let mp = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * mp + 2) / 5 + 1
        let month = mp < 10 ? mp + 3 : mp - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }
}
