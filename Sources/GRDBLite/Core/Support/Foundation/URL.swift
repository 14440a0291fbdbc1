import Foundation

// URLs are stored as text: their absolute string. They are read from text
// and from blobs of UTF-8 text, as GRDB does.
extension URL: DatabaseValueConvertible {
    public var databaseValue: DatabaseValue {
        absoluteString.databaseValue
    }

    public static func fromDatabaseValue(_ dbValue: DatabaseValue) -> URL? {
        switch dbValue.storage {
        case .string(let string): URL(string: string)
        case .blob(let data): String(data: data, encoding: .utf8).flatMap { URL(string: $0) }
        default: nil
        }
    }
}

// NSURL is stored and read as `URL`.
extension NSURL: DatabaseValueConvertible {
    public var databaseValue: DatabaseValue {
        (self as URL).databaseValue
    }

    /// An NSURL (not a subclass, which gives nil).
    public static func fromDatabaseValue(_ dbValue: DatabaseValue) -> Self? {
        URL.fromDatabaseValue(dbValue).flatMap { ($0 as NSURL) as? Self }
    }
}
