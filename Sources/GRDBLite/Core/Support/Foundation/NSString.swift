import Foundation

// NSString is stored as `String`. It is read from text, and, as in GRDB,
// from a blob of valid UTF-8 (a `String` is read from text only).
extension NSString: DatabaseValueConvertible {
    public var databaseValue: DatabaseValue {
        (self as String).databaseValue
    }

    public static func fromDatabaseValue(_ dbValue: DatabaseValue) -> Self? {
        if let string = String.fromDatabaseValue(dbValue) {
            return self.init(string: string)
        }
        if let data = Data.fromDatabaseValue(dbValue), let string = String(validating: data, as: UTF8.self) {
            return self.init(string: string)
        }
        return nil
    }
}
