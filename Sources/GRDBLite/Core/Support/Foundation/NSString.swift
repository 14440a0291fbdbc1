import Foundation

// NSString is stored and read as `String`: text only.
extension NSString: DatabaseValueConvertible {
    public var databaseValue: DatabaseValue {
        (self as String).databaseValue
    }

    public static func fromDatabaseValue(_ dbValue: DatabaseValue) -> Self? {
        String.fromDatabaseValue(dbValue).map { self.init(string: $0) }
    }
}
