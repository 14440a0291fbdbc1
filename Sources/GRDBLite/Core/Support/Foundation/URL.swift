import Foundation

// URLs are stored as text: their absolute string.
extension URL: DatabaseValueConvertible {
    public var databaseValue: DatabaseValue {
        absoluteString.databaseValue
    }

    public static func fromDatabaseValue(_ dbValue: DatabaseValue) -> URL? {
        guard case .string(let string) = dbValue.storage else { return nil }
        return URL(string: string)
    }
}
