import CSQLite
import Foundation

/// How `Data` properties of `Decodable` records are read.
public enum DatabaseDataDecodingStrategy: Sendable {
    /// Blobs, and the UTF-8 bytes of text (`Data.fromDatabaseValue`).
    case deferredToData
    /// A custom conversion; nil is a decoding error.
    case custom(@Sendable (DatabaseValue) -> Data?)

    func decode(_ dbValue: DatabaseValue) -> Data? {
        switch self {
        case .deferredToData: Data.fromDatabaseValue(dbValue)
        case .custom(let decode): decode(dbValue)
        }
    }

    /// The data of column `index` of `row`. A statement's column converts as
    /// SQLite does (a number reads as the bytes of its text), as GRDB reads
    /// it; database values and copied rows are strict.
    func decode(row: Row, columnIndex index: Int) throws -> Data {
        if case .deferredToData = self, let sqliteStatement = row.sqliteStatement,
           let data = Data(sqliteStatement: sqliteStatement, index: CInt(truncatingIfNeeded: row.offset &+ index))
        {
            return data
        }
        let dbValue = row.databaseValue(atUncheckedIndex: index)
        guard let data = decode(dbValue) else {
            throw RowDecodingError.valueMismatch(Data.self, row: row, columnIndex: index, databaseValue: dbValue)
        }
        return data
    }
}

/// How `Date` properties of `Decodable` records are read.
// @unchecked Sendable: `DateFormatter` is not declared Sendable, but a
// configured formatter can be used from several threads (as GRDB assumes).
public enum DatabaseDateDecodingStrategy: @unchecked Sendable {
    /// GRDB's default: text in any SQLite date format, numbers as Unix
    /// timestamps (`Date.fromDatabaseValue`).
    case deferredToDate
    /// Numbers of seconds since 2001-01-01.
    case timeIntervalSinceReferenceDate
    /// Numbers of seconds since 1970-01-01.
    case timeIntervalSince1970
    /// Numbers of milliseconds since 1970-01-01.
    case millisecondsSince1970
    /// ISO 8601 text, as `ISO8601DateFormatter` reads it with
    /// `.withInternetDateTime`: no fraction of a second (as GRDB).
    case iso8601
    /// Text parsed with a formatter.
    case formatted(DateFormatter)
    /// A custom conversion; nil is a decoding error.
    case custom(@Sendable (DatabaseValue) -> Date?)

    func decode(_ dbValue: DatabaseValue) -> Date? {
        switch self {
        case .deferredToDate:
            return Date.fromDatabaseValue(dbValue)
        case .timeIntervalSinceReferenceDate:
            return Double.fromDatabaseValue(dbValue).map(Date.init(timeIntervalSinceReferenceDate:))
        case .timeIntervalSince1970:
            return Double.fromDatabaseValue(dbValue).map(Date.init(timeIntervalSince1970:))
        case .millisecondsSince1970:
            return Double.fromDatabaseValue(dbValue).map { Date(timeIntervalSince1970: $0 / 1000) }
        case .iso8601:
            return String.fromDatabaseValue(dbValue).flatMap(internetDateFormatter.date(from:))
        case .formatted(let formatter):
            return String.fromDatabaseValue(dbValue).flatMap(formatter.date(from:))
        case .custom(let decode):
            return decode(dbValue)
        }
    }

    /// The date of column `index` of `row`. A statement's column converts as
    /// SQLite does (text read as a number of seconds, a number as text), as
    /// GRDB reads it; database values and copied rows are strict.
    func decode(row: Row, columnIndex index: Int) throws -> Date {
        if case .deferredToDate = self {
            // Read from the column's bytes, as a `Date` property of
            // `init(row:)` reads, without the `String` of a `DatabaseValue`.
            return try row.fastDecode(Date.self, atUncheckedIndex: index)
        }
        if let sqliteStatement = row.sqliteStatement,
           let date = decode(sqliteStatement: sqliteStatement, index: CInt(truncatingIfNeeded: row.offset &+ index))
        {
            return date
        }
        let dbValue = row.databaseValue(atUncheckedIndex: index)
        guard let date = decode(dbValue) else {
            throw RowDecodingError.valueMismatch(Date.self, row: row, columnIndex: index, databaseValue: dbValue)
        }
        return date
    }

    /// The date of a statement's column, for the strategies that read a
    /// number or a text; nil for the others, and for NULL.
    private func decode(sqliteStatement: SQLiteStatement, index: CInt) -> Date? {
        switch self {
        case .timeIntervalSinceReferenceDate:
            Double(sqliteStatement: sqliteStatement, index: index).map(Date.init(timeIntervalSinceReferenceDate:))
        case .timeIntervalSince1970:
            Double(sqliteStatement: sqliteStatement, index: index).map(Date.init(timeIntervalSince1970:))
        case .millisecondsSince1970:
            Double(sqliteStatement: sqliteStatement, index: index).map { Date(timeIntervalSince1970: $0 / 1000) }
        case .iso8601:
            String(sqliteStatement: sqliteStatement, index: index).flatMap(internetDateFormatter.date(from:))
        case .formatted(let formatter):
            String(sqliteStatement: sqliteStatement, index: index).flatMap(formatter.date(from:))
        case .deferredToDate, .custom:
            nil
        }
    }
}

/// How the coding keys of `Decodable` records map to column names.
public enum DatabaseColumnDecodingStrategy: Sendable {
    /// A key reads the column of the same name.
    case useDefaultKeys
    /// A key reads the column of its snake-case name: `playerId` reads
    /// `player_id`.
    case convertFromSnakeCase
    /// A function turns column names into coding keys.
    case custom(@Sendable (String) -> any CodingKey)

    /// The coding key name for a column name.
    func keyName(forColumn column: String) -> String {
        switch self {
        case .useDefaultKeys: column
        case .convertFromSnakeCase: column.camelCasedFromSnakeCase
        case .custom(let key): key(column).stringValue
        }
    }
}

extension String {
    /// `player_id` → `playerId`; leading and trailing underscores stay.
    var camelCasedFromSnakeCase: String {
        guard let first = firstIndex(where: { $0 != "_" }) else { return self }
        var last = index(before: endIndex)
        while last > first && self[last] == "_" { formIndex(before: &last) }
        let words = self[first...last].split(separator: "_")
        guard words.count > 1 else { return self }
        let body =
            words[0].lowercased()
            + words.dropFirst().map { $0.prefix(1).uppercased() + $0.dropFirst().lowercased() }.joined()
        return String(self[..<first]) + body + String(self[index(after: last)...])
    }

    /// `playerId` → `player_id`, `myURLProperty` → `my_url_property`.
    var snakeCasedFromCamelCase: String {
        var words: [String] = []
        var word = ""
        let characters = Array(self)
        for (index, character) in characters.enumerated() {
            let isUpper = character.isUppercase
            let previousIsUpper = index > 0 && characters[index - 1].isUppercase
            let nextIsLower = index + 1 < characters.count && characters[index + 1].isLowercase
            if isUpper && !word.isEmpty && (!previousIsUpper || nextIsLower) {
                words.append(word)
                word = ""
            }
            word.append(character)
        }
        if !word.isEmpty { words.append(word) }
        return words.map { $0.lowercased() }.joined(separator: "_")
    }
}

/// The `.iso8601` date decoding strategy's parser: the same formatter as
/// GRDB's, so that the same texts are dates (`Date.ISO8601FormatStyle`
/// also reads a fraction of a second, GRDB doesn't).
// nonisolated(unsafe): a configured formatter can be used from several
// threads, as for `.formatted` (and as GRDB assumes).
nonisolated(unsafe) private let internetDateFormatter: ISO8601DateFormatter = {
    let formatter = ISO8601DateFormatter()
    formatter.formatOptions = .withInternetDateTime
    return formatter
}()
