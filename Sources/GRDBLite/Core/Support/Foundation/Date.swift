import CSQLite
import Foundation

// Dates are stored as "yyyy-MM-dd HH:mm:ss.SSS" text in UTC, rounded to the
// millisecond, a format that sorts like SQLite's CURRENT_TIMESTAMP. They
// are read from every SQLite date format (a time zone suffix is honored,
// UTC otherwise), and from numbers, as Unix timestamps (GRDB 7's rule).
// Dates outside of years 0000...9999, which the text format can't hold,
// are stored as Unix timestamps (REAL).

extension Date: DatabaseValueConvertible, StatementColumnConvertible {
    public init?(sqliteStatement: SQLiteStatement, index: CInt) {
        // One column read (see `DatabaseValue.init(sqliteStatement:index:)`).
        let value = sqlite3_column_value(sqliteStatement, index)
        switch sqlite3_value_type(value) {
        case SQLITE_INTEGER, SQLITE_FLOAT:
            self.init(timeIntervalSince1970: sqlite3_value_double(value))
        case SQLITE_TEXT:
            let bytes = UnsafeBufferPointer(start: sqlite3_value_text(value), count: Int(sqlite3_value_bytes(value)))
            self.init(sqliteText: bytes)
        default:
            return nil
        }
    }

    /// Reads the column once: `init(sqliteStatement:index:)` already
    /// returns nil for NULL, so the default's `sqlite3_column_type` call
    /// would only ask the type a second time.
    @inlinable
    @inline(__always)
    public static func fromStatement(_ sqliteStatement: SQLiteStatement, atUncheckedIndex index: CInt) -> Date? {
        Date(sqliteStatement: sqliteStatement, index: index)
    }

    public var databaseValue: DatabaseValue {
        if let text = databaseText { return text.databaseValue }
        return timeIntervalSince1970.databaseValue
    }

    public static func fromDatabaseValue(_ dbValue: DatabaseValue) -> Date? {
        switch dbValue.storage {
        case .int64(let value): Date(timeIntervalSince1970: Double(value))
        case .double(let value): Date(timeIntervalSince1970: value)
        case .string(var string): string.withUTF8 { Date(sqliteText: $0) }
        default: nil
        }
    }

    /// The date of a text in any SQLite date format, or nil. The storage
    /// format is read at fixed offsets, the others by the parser.
    init?(sqliteText bytes: UnsafeBufferPointer<UInt8>) {
        if let date = Date(storageFormat: bytes) {
            self = date
        } else {
            guard let fields = SQLiteDateParser.parse(bytes) else { return nil }
            self.init(fields: fields)
        }
    }

    /// The date of "yyyy-MM-dd HH:mm:ss.SSS" or "yyyy-MM-dd HH:mm:ss"
    /// (space or `T`), the same `Date` as `init(fields:)` gives; nil for
    /// any other text. The fast path of reading stored dates: the text is
    /// checked and read eight bytes at a time, with no `Fields` to build.
    /// Inline in the column read, whose calls it would double.
    @inline(__always)
    init?(storageFormat bytes: UnsafeBufferPointer<UInt8>) {
        let count = bytes.count
        guard count == 23 || count == 19, let start = bytes.baseAddress,
              start[10] == 0x20 || start[10] == 0x54 // space or T
        else { return nil }
        let text = UnsafeRawPointer(start)
        /// The eight bytes at `offset` XORed with `template` ("0" at
        /// digits, the separators, 0 where unchecked): each digit's value
        /// in its byte. Nil if a byte does not match: a separator that is
        /// not 0, or a digit over 9 once 6 is added at digits (`six`),
        /// sets a bit of `checked`.
        func digits(at offset: Int, template: UInt64, checked: UInt64, six: UInt64) -> UInt64? {
            let word = UInt64(littleEndian: text.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
            let difference = word ^ template
            guard (difference | (difference &+ six)) & checked == 0 else { return nil }
            return difference
        }
        /// In each byte, its digit times ten plus the next one's.
        func pairs(_ digits: UInt64) -> UInt64 { digits &* 10 &+ digits >> 8 }
        func byte(_ word: UInt64, _ index: Int) -> Int { Int(truncatingIfNeeded: word >> (index &* 8) & 0xFF) }

        let hasFraction = count == 23
        guard let date = digits( // "yyyy-MM-"
                at: 0, template: 0x2D30_302D_3030_3030, checked: 0xFFF0_F0FF_F0F0_F0F0, six: 0x0006_0600_0606_0606),
              let time = digits( // "dd?HH:mm", the separator unchecked
                at: 8, template: 0x3030_3A30_3000_3030, checked: 0xF0F0_FFF0_F000_F0F0, six: 0x0606_0006_0600_0606),
              let end = hasFraction
                ? digits( // "m:ss.SSS"
                    at: 15, template: 0x3030_302E_3030_3A30, checked: 0xF0F0_F0FF_F0F0_FFF0, six: 0x0606_0600_0606_0006)
                : digits( // "HH:mm:ss"
                    at: 11, template: 0x3030_3A30_303A_3030, checked: 0xF0F0_FFF0_F0FF_F0F0, six: 0x0606_0006_0600_0606)
        else { return nil }
        let datePairs = pairs(date)
        let timePairs = pairs(time & 0xFFFF_FFFF_FF00_FFFF) // without the separator
        let endPairs = pairs(end)
        let year = byte(datePairs, 0) * 100 + byte(datePairs, 2)
        let month = byte(datePairs, 5)
        let day = byte(timePairs, 0)
        let hour = byte(timePairs, 3)
        let minute = byte(timePairs, 6)
        let second = byte(endPairs, hasFraction ? 2 : 6)
        let milliseconds = hasFraction ? byte(endPairs, 5) * 10 + byte(end, 7) : 0
        guard month >= 1, month <= 12, day >= 1, hour < 24, minute < 60, second < 60,
              day <= 28 || day <= SQLiteDateParser.daysInMonth(year: year, month: month)
        else { return nil }
        // Years 0...9999: no overflow.
        let seconds = CivilCalendar.days(year: year, month: month, day: day) &* 86_400
            &+ hour &* 3600 &+ minute &* 60 &+ second
        self.init(millisecondsSinceReferenceDate: (seconds &- Self.referenceDateSince1970) &* 1000 &+ milliseconds)
    }

    /// Nil for time-only formats, which are not dates.
    init?(fields: SQLiteDateParser.Fields) {
        guard let year = fields.year, let month = fields.month, let day = fields.day else { return nil }
        let days = CivilCalendar.days(year: year, month: month, day: day)
        let seconds = days * 86_400 + fields.hour * 3600 + fields.minute * 60 + fields.second
            - (fields.timeZoneOffset ?? 0)
        // Whole milliseconds (the parser keeps no more). `Date` counts
        // seconds from 2001: one division from that origin gives the
        // nearest `Date` to the text, the one GRDB reads through
        // `Calendar` (from 1970, the result can be 100 ns away).
        let milliseconds = fields.nanosecond / 1_000_000
        self.init(millisecondsSinceReferenceDate: (seconds - Self.referenceDateSince1970) * 1000 + milliseconds)
    }

    /// One division from 2001, the nearest `Date` (see `init(fields:)`).
    private init(millisecondsSinceReferenceDate milliseconds: Int) {
        self.init(timeIntervalSinceReferenceDate: Double(milliseconds) / 1000)
    }

    /// 2001-01-01 00:00:00 UTC, in seconds since 1970.
    private static let referenceDateSince1970 = 978_307_200

    /// "yyyy-MM-dd HH:mm:ss.SSS" in UTC, or nil out of years 0000...9999.
    var databaseText: String? {
        let milliseconds = (timeIntervalSince1970 * 1000).rounded()
        // 0000-01-01 ... 9999-12-31 23:59:59.999
        guard milliseconds >= -62_167_219_200_000, milliseconds <= 253_402_300_799_999 else { return nil }
        let total = Int(milliseconds)
        var days = total / 86_400_000
        var rest = total % 86_400_000
        if rest < 0 {
            days -= 1
            rest += 86_400_000
        }
        let (year, month, day) = CivilCalendar.date(days: days)
        // Digits written in place: no array of fields, no allocation
        // beyond the string's own.
        return String(unsafeUninitializedCapacity: 23) { buffer in
            func put(_ value: Int, at position: Int, width: Int) {
                var value = value
                for offset in stride(from: width - 1, through: 0, by: -1) {
                    buffer[position + offset] = UInt8(truncatingIfNeeded: 0x30 + value % 10)
                    value /= 10
                }
            }
            put(year, at: 0, width: 4)
            buffer[4] = 0x2D // -
            put(month, at: 5, width: 2)
            buffer[7] = 0x2D // -
            put(day, at: 8, width: 2)
            buffer[10] = 0x20 // space
            put(rest / 3_600_000, at: 11, width: 2)
            buffer[13] = 0x3A // :
            put(rest / 60_000 % 60, at: 14, width: 2)
            buffer[16] = 0x3A // :
            put(rest / 1000 % 60, at: 17, width: 2)
            buffer[19] = 0x2E // .
            put(rest % 1000, at: 20, width: 3)
            return 23
        }
    }
}

// NSDate is stored and read as `Date`.
extension NSDate: DatabaseValueConvertible {
    public var databaseValue: DatabaseValue {
        (self as Date).databaseValue
    }

    public static func fromDatabaseValue(_ dbValue: DatabaseValue) -> Self? {
        Date.fromDatabaseValue(dbValue).map {
            self.init(timeIntervalSinceReferenceDate: $0.timeIntervalSinceReferenceDate)
        }
    }
}

extension Date {
    /// The date of a [Julian day](https://en.wikipedia.org/wiki/Julian_day),
    /// with SQLite's precision (the nearest millisecond), or nil if the
    /// number is not finite or out of SQLite's range.
    ///
    /// ```swift
    /// let julianDay = try Double.fetchOne(db, sql: "SELECT julianday('now')")!
    /// let date = Date(julianDay: julianDay)
    /// ```
    public init?(julianDay: Double) {
        // SQLite's range: 0000-01-01 to 9999-12-31 (see date.c).
        guard julianDay.isFinite, julianDay >= 0, julianDay <= 5_373_484.499999 else { return nil }
        // SQLite counts milliseconds from the Julian day 0, and the Unix
        // epoch is the Julian day 2440587.5.
        let milliseconds = Int64((julianDay * 86_400_000).rounded())
        self.init(timeIntervalSince1970: Double(milliseconds - 210_866_760_000_000) / 1000)
    }
}
