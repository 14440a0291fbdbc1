import Foundation

/// How `Data` properties of `Encodable` records are stored.
public enum DatabaseDataEncodingStrategy: Sendable {
    /// As blobs.
    case deferredToData
    /// As UTF-8 text; data that is not UTF-8 is an encoding error.
    case text
    /// A custom conversion (nil stores NULL).
    case custom(@Sendable (Data) -> (any DatabaseValueConvertible)?)

    func encode(_ data: Data) throws -> DatabaseValue {
        switch self {
        case .deferredToData:
            return data.databaseValue
        case .text:
            guard let string = String(data: data, encoding: .utf8) else {
                throw EncodingError.invalidValue(data, EncodingError.Context(
                    codingPath: [], debugDescription: "Non-UTF8 data can't be encoded as text in the database"))
            }
            return string.databaseValue
        case .custom(let encode):
            return encode(data)?.databaseValue ?? .null
        }
    }
}

/// How `Date` properties of `Encodable` records are stored.
// @unchecked Sendable: `DateFormatter` is not declared Sendable, but a
// configured formatter can be used from several threads (as GRDB assumes).
public enum DatabaseDateEncodingStrategy: @unchecked Sendable {
    /// GRDB's default: "yyyy-MM-dd HH:mm:ss.SSS" text in UTC.
    case deferredToDate
    /// Seconds since 2001-01-01, as a double.
    case timeIntervalSinceReferenceDate
    /// Seconds since 1970-01-01, as a double.
    case timeIntervalSince1970
    /// Whole seconds since 1970-01-01.
    case secondsSince1970
    /// Whole milliseconds since 1970-01-01.
    case millisecondsSince1970
    /// ISO 8601 text.
    case iso8601
    /// Text from a formatter.
    case formatted(DateFormatter)
    /// A custom conversion (nil stores NULL).
    case custom(@Sendable (Date) -> (any DatabaseValueConvertible)?)

    func encode(_ date: Date) -> DatabaseValue {
        switch self {
        case .deferredToDate: date.databaseValue
        case .timeIntervalSinceReferenceDate: date.timeIntervalSinceReferenceDate.databaseValue
        case .timeIntervalSince1970: date.timeIntervalSince1970.databaseValue
        case .secondsSince1970: Int64((date.timeIntervalSince1970).rounded(.down)).databaseValue
        case .millisecondsSince1970: Int64((date.timeIntervalSince1970 * 1000).rounded(.down)).databaseValue
        case .iso8601: date.formatted(.iso8601).databaseValue
        case .formatted(let formatter): formatter.string(from: date).databaseValue
        case .custom(let encode): encode(date)?.databaseValue ?? .null
        }
    }
}

/// How `UUID` properties of `Encodable` records are stored.
public enum DatabaseUUIDEncodingStrategy: Sendable {
    /// As 16-byte blobs (GRDB's default).
    case deferredToUUID
    /// As uppercase text.
    case uppercaseString
    /// As lowercase text.
    case lowercaseString

    func encode(_ uuid: UUID) -> DatabaseValue {
        switch self {
        case .deferredToUUID: uuid.databaseValue
        case .uppercaseString: uuid.uuidString.databaseValue
        case .lowercaseString: uuid.uuidString.lowercased().databaseValue
        }
    }
}

/// How the coding keys of `Encodable` records map to column names.
public enum DatabaseColumnEncodingStrategy: Sendable {
    /// A key writes the column of the same name.
    case useDefaultKeys
    /// A key writes the column of its snake-case name: `playerId` writes
    /// `player_id`.
    case convertToSnakeCase
    /// A function turns coding keys into column names.
    case custom(@Sendable (any CodingKey) -> String)

    @usableFromInline
    func column(forKey key: some CodingKey) -> String {
        switch self {
        case .useDefaultKeys: key.stringValue
        case .convertToSnakeCase: key.stringValue.snakeCasedFromCamelCase
        case .custom(let column): column(key)
        }
    }
}
