import CSQLite
import Foundation
@testable import GRDBLite

// Fuzz target: reading dates from text (`Date`, its fast path for the
// storage format, and `DatabaseDateComponents`) against SQLite's
// `julianday()`. The input is the text, any bytes.
//
// The agreement checked:
// 1. Every text GRDBLite reads as a `Date` (through either path, which
//    must agree), SQLite's `julianday()` reads as the same instant, to the
//    millisecond.
// 2. Every text GRDBLite reads as `DatabaseDateComponents`: the components
//    written back in SQLite's canonical format, shifted by their time zone,
//    are the instant `julianday()` reads from the text (time-only formats:
//    on 2000-01-01, SQLite's default day). A date format also reads as a
//    `Date`, the same instant; a time-only format never does.
// 3. Every text of GRDB's grammar (`YYYY-MM-DD`, then optionally ` ` or
//    `T`, `HH:MM`, `:SS`, `.S...`, then optionally `Z`, `z` or `±HH:MM`;
//    or the time part alone) whose fields are in range (a real day of the
//    month, hours below 24) that SQLite reads is read by GRDBLite.
//
// Deliberate gaps, where GRDB's rules are not SQLite's:
// - Time zone offsets of 15 to 23 hours: GRDB reads them, SQLite doesn't.
// - More than 3 fraction digits: GRDB keeps milliseconds (truncates),
//   SQLite rounds: the instants may differ by 1 ms.
// - More than 308 fraction digits: SQLite accumulates them in a double,
//   which overflows (309 digits read as a fraction of 0, 310 or more as
//   NULL); GRDB keeps the milliseconds and ignores the other digits (found
//   by this target in CI; `DateTests.aLongFractionKeepsItsMilliseconds`).
// - SQLite also reads what GRDB's grammar doesn't: spaces around the
//   fields, hour 24, day 31 of any month (normalized), numbers as Julian
//   days, "now", negative years, text after a NUL byte. Only (3) is
//   restricted to the grammar.

/// A private SQLite connection, the second implementation.
nonisolated(unsafe) private let reference: OpaquePointer = {
    var connection: OpaquePointer?
    guard sqlite3_open(":memory:", &connection) == SQLITE_OK, let connection else {
        fatalError("can't open the reference connection")
    }
    return connection
}()

/// `julianday(text, modifier)` in whole milliseconds, or nil if SQLite
/// can't read the text.
private func julianMilliseconds(_ text: UnsafeBufferPointer<UInt8>, modifier: String = "+0 seconds") -> Int64? {
    var statement: OpaquePointer?
    let sql = "SELECT CAST(round(julianday(?1, ?2) * 86400000.0) AS INTEGER)"
    guard sqlite3_prepare_v2(reference, sql, -1, &statement, nil) == SQLITE_OK else {
        fatalError("reference: \(String(cString: sqlite3_errmsg(reference)))")
    }
    defer { sqlite3_finalize(statement) }
    // An empty buffer may have no base address: bind an empty text.
    let emptyText: StaticString = ""
    sqlite3_bind_text(
        statement, 1,
        text.baseAddress.map { UnsafeRawPointer($0).assumingMemoryBound(to: CChar.self) }
            ?? UnsafeRawPointer(emptyText.utf8Start).assumingMemoryBound(to: CChar.self),
        CInt(text.count), grdblite_transient())
    sqlite3_bind_text(statement, 2, modifier, -1, grdblite_transient())
    guard sqlite3_step(statement) == SQLITE_ROW else {
        fatalError("reference: \(String(cString: sqlite3_errmsg(reference)))")
    }
    if sqlite3_column_type(statement, 0) == SQLITE_NULL { return nil }
    return sqlite3_column_int64(statement, 0)
}

/// Milliseconds from the Julian day 0 to 1970-01-01.
private let unixEpochJulianMilliseconds: Int64 = 210_866_760_000_000

/// The milliseconds since the Julian day 0 of a date.
private func julianMilliseconds(_ date: Date) -> Int64 {
    Int64((date.timeIntervalSince1970 * 1000).rounded()) + unixEpochJulianMilliseconds
}

/// The text in GRDB's grammar (see the agreement, 3), with its fields in
/// range; written from the grammar, not from the parser.
private func isInGrammar(_ bytes: [UInt8]) -> (inGrammar: Bool, fractionDigits: Int, offsetHours: Int) {
    var index = 0
    func digits(_ count: Int) -> Int? {
        guard index + count <= bytes.count else { return nil }
        var value = 0
        for byte in bytes[index..<index + count] {
            guard byte >= 48, byte <= 57 else { return nil }
            value = value * 10 + Int(byte - 48)
        }
        index += count
        return value
    }
    func skip(_ character: Character) -> Bool {
        guard index < bytes.count, bytes[index] == character.asciiValue! else { return false }
        index += 1
        return true
    }
    let no = (false, 0, 0)
    var fractionDigits = 0
    var offsetHours = 0
    let hasDate = bytes.count >= 5 && bytes[4] == 45 // "-"
    if hasDate {
        guard let year = digits(4), skip("-"), let month = digits(2), skip("-"), let day = digits(2),
              (1...12).contains(month)
        else { return no }
        let leap = year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)
        let lengths = [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31]
        guard (1...lengths[month - 1]).contains(day) else { return no }
        if index == bytes.count { return (true, 0, 0) }
        guard skip(" ") || skip("T") else { return no }
    }
    guard let hour = digits(2), hour < 24, skip(":"), let minute = digits(2), minute < 60 else { return no }
    if skip(":") {
        guard let second = digits(2), second < 60 else { return no }
        if skip(".") {
            while digits(1) != nil { fractionDigits += 1 }
            guard fractionDigits > 0 else { return no }
        }
    }
    if index < bytes.count {
        if skip("Z") || skip("z") {
        } else if skip("+") || skip("-") {
            guard let hours = digits(2), hours < 24, skip(":"), let minutes = digits(2), minutes < 60 else { return no }
            offsetHours = hours
        } else {
            return no
        }
    }
    return (index == bytes.count, fractionDigits, offsetHours)
}

/// Traps with the input and the disagreement.
private func disagreement(_ text: [UInt8], _ message: String) -> Never {
    let hex = text.map { String(format: "%02x", $0) }.joined()
    fatalError("\(message): \(hex) \(String(decoding: text, as: UTF8.self).debugDescription)")
}

/// The text of components in SQLite's format, and the modifier that
/// removes their time zone offset.
private func canonicalText(_ components: DateComponents) -> (String, String) {
    func pad(_ value: Int?, _ width: Int) -> String {
        let digits = String(value ?? 0)
        return String(repeating: "0", count: max(0, width - digits.count)) + digits
    }
    let date = components.year == nil ? "2000-01-01" :
        "\(pad(components.year, 4))-\(pad(components.month, 2))-\(pad(components.day, 2))"
    let milliseconds = (components.nanosecond ?? 0) / 1_000_000
    let text = "\(date) \(pad(components.hour, 2)):\(pad(components.minute, 2)):\(pad(components.second, 2))"
        + ".\(pad(milliseconds, 3))"
    let offset = components.timeZone?.secondsFromGMT() ?? 0
    return (text, "\(-offset) seconds")
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    // Plain memory of the exact size (ASan sees reads past its end).
    let buffer = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: size)
    defer { buffer.deallocate() }
    _ = buffer.initialize(from: bytes)
    let text = UnsafeBufferPointer(buffer)

    let sqliteMilliseconds = julianMilliseconds(text)
    let date = Date(sqliteText: text)
    let storageDate = Date(storageFormat: text)
    let fields = SQLiteDateParser.parse(text)
    let grammar = isInGrammar(bytes)
    let tolerance: Int64 = grammar.fractionDigits > 3 ? 1 : 0
    // Checks 1 and 2 compare with SQLite where its fraction doesn't overflow.
    let comparable = grammar.offsetHours <= 14 && grammar.fractionDigits <= 308

    // The fast path agrees with the parser wherever it reads.
    if let storageDate {
        guard let fields, let parsed = Date(fields: fields), parsed == storageDate else {
            disagreement(bytes, "storage format path: \(storageDate), parser: \(String(describing: fields))")
        }
    }
    // 1. Dates.
    if let date {
        guard let fields, fields.year != nil else { disagreement(bytes, "a Date without a date") }
        if comparable {
            guard let sqliteMilliseconds else { disagreement(bytes, "Date \(date), julianday() NULL") }
            guard abs(julianMilliseconds(date) - sqliteMilliseconds) <= tolerance else {
                disagreement(bytes, "Date \(date) (\(julianMilliseconds(date))), julianday() \(sqliteMilliseconds)")
            }
        }
    }
    // 2. Components.
    if let fields {
        let components = DatabaseDateComponents(fields: fields)
        if fields.year != nil {
            guard date != nil else { disagreement(bytes, "components \(components), no Date") }
        } else {
            guard date == nil else { disagreement(bytes, "a Date of a time-only format") }
        }
        if comparable {
            var (canonical, modifier) = canonicalText(components.dateComponents)
            let componentMilliseconds = canonical.withUTF8 { julianMilliseconds($0, modifier: modifier) }
            guard let componentMilliseconds, let sqliteMilliseconds,
                  abs(componentMilliseconds - sqliteMilliseconds) <= tolerance
            else {
                let expected = String(describing: sqliteMilliseconds)
                disagreement(bytes, "components \(canonical) \(modifier), julianday() \(expected)")
            }
        }
    }
    // 3. The grammar.
    if grammar.inGrammar, sqliteMilliseconds != nil {
        guard fields != nil else { disagreement(bytes, "julianday() reads it, GRDBLite doesn't") }
    }
    return 0
}
