import Foundation

// NSData is stored and read as `Data`: a blob, or the UTF-8 bytes of text.
extension NSData: DatabaseValueConvertible {
    public var databaseValue: DatabaseValue {
        Data(referencing: self).databaseValue
    }

    /// An NSData (not a subclass, which gives nil).
    public static func fromDatabaseValue(_ dbValue: DatabaseValue) -> Self? {
        Data.fromDatabaseValue(dbValue).flatMap { NSData(data: $0) as? Self }
    }
}
