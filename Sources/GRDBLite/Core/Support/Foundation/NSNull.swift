import Foundation

// NSNull is stored as NULL. Nothing reads as NSNull: NULL reads as nil.
extension NSNull: DatabaseValueConvertible {
    public var databaseValue: DatabaseValue { .null }

    public static func fromDatabaseValue(_ dbValue: DatabaseValue) -> Self? { nil }
}
