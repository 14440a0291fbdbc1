import CSQLite
import Foundation

/// Date components read from and written to the database in one of
/// SQLite's date formats, for dates without time, times without date, or
/// dates in an unspecified time zone.
///
/// ```swift
/// var components = DateComponents()
/// components.year = 1973; components.month = 9; components.day = 18
/// let birthDate = DatabaseDateComponents(components, format: .YMD) // "1973-09-18"
/// try db.execute(sql: "INSERT INTO person (birthDate) VALUES (?)", arguments: [birthDate])
///
/// let read = try DatabaseDateComponents.fetchOne(db, sql: "SELECT birthDate FROM person")!
/// read.format          // .YMD, the format found in the database
/// read.dateComponents  // year 1973, month 9, day 18
/// ```
public struct DatabaseDateComponents: Sendable {
    /// A format of SQLite's date functions.
    public enum Format: String, Sendable {
        case YMD = "yyyy-MM-dd"
        case YMD_HM = "yyyy-MM-dd HH:mm"
        case YMD_HMS = "yyyy-MM-dd HH:mm:ss"
        case YMD_HMSS = "yyyy-MM-dd HH:mm:ss.SSS"
        case HM = "HH:mm"
        case HMS = "HH:mm:ss"
        case HMSS = "HH:mm:ss.SSS"

        var hasDate: Bool {
            switch self {
            case .YMD, .YMD_HM, .YMD_HMS, .YMD_HMSS: true
            case .HM, .HMS, .HMSS: false
            }
        }
    }

    /// The components. `timeZone` is set when the stored string has one.
    public let dateComponents: DateComponents
    /// The format (when read: the format found in the database).
    public let format: Format

    public init(_ dateComponents: DateComponents, format: Format) {
        self.dateComponents = dateComponents
        self.format = format
    }

    init(fields: SQLiteDateParser.Fields) {
        var components = DateComponents()
        // Only the components of the format are set, as in GRDB.
        components.year = fields.year
        components.month = fields.month
        components.day = fields.day
        switch fields.format {
        case .YMD:
            break
        case .YMD_HM, .HM:
            (components.hour, components.minute) = (fields.hour, fields.minute)
        case .YMD_HMS, .HMS:
            (components.hour, components.minute, components.second) = (fields.hour, fields.minute, fields.second)
        case .YMD_HMSS, .HMSS:
            (components.hour, components.minute, components.second) = (fields.hour, fields.minute, fields.second)
            components.nanosecond = fields.nanosecond
        }
        if let offset = fields.timeZoneOffset {
            components.timeZone = TimeZone(secondsFromGMT: offset)
        }
        self.init(components, format: fields.format)
    }
}

extension DatabaseDateComponents: DatabaseValueConvertible, StatementColumnConvertible {
    public init?(sqliteStatement: SQLiteStatement, index: CInt) {
        guard sqlite3_column_type(sqliteStatement, index) == SQLITE_TEXT else { return nil }
        let bytes = UnsafeBufferPointer(
            start: sqlite3_column_text(sqliteStatement, index),
            count: Int(sqlite3_column_bytes(sqliteStatement, index)))
        guard let fields = SQLiteDateParser.parse(bytes) else { return nil }
        self.init(fields: fields)
    }

    /// The components written in ``format``; missing components are zero
    /// (or 1 for month and day).
    public var databaseValue: DatabaseValue {
        let c = dateComponents
        func pad(_ value: Int, _ width: Int) -> String {
            let digits = String(abs(value))
            return (value < 0 ? "-" : "") + String(repeating: "0", count: max(0, width - digits.count)) + digits
        }
        let date = "\(pad(c.year ?? 0, 4))-\(pad(c.month ?? 1, 2))-\(pad(c.day ?? 1, 2))"
        let hm = "\(pad(c.hour ?? 0, 2)):\(pad(c.minute ?? 0, 2))"
        let hms = "\(hm):\(pad(c.second ?? 0, 2))"
        let hmss = "\(hms).\(pad(min(999, Int((Double(c.nanosecond ?? 0) / 1_000_000).rounded())), 3))"
        let text = switch format {
        case .YMD: date
        case .YMD_HM: "\(date) \(hm)"
        case .YMD_HMS: "\(date) \(hms)"
        case .YMD_HMSS: "\(date) \(hmss)"
        case .HM: hm
        case .HMS: hms
        case .HMSS: hmss
        }
        return text.databaseValue
    }

    public static func fromDatabaseValue(_ dbValue: DatabaseValue) -> DatabaseDateComponents? {
        guard case .string(let string) = dbValue.storage,
              let fields = SQLiteDateParser.parse(string)
        else { return nil }
        return DatabaseDateComponents(fields: fields)
    }
}

extension DatabaseDateComponents: Codable {
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        let string = try container.decode(String.self)
        guard let value = DatabaseDateComponents.fromDatabaseValue(string.databaseValue) else {
            throw DecodingError.dataCorruptedError(in: container, debugDescription: "Invalid date: \(string)")
        }
        self = value
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(String.fromDatabaseValue(databaseValue)!)
    }
}
