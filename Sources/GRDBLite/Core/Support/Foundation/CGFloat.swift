import Foundation

// CGFloat is stored as REAL, and read as Double is.
extension CGFloat: DatabaseValueConvertible {
    public var databaseValue: DatabaseValue {
        Double(self).databaseValue
    }

    public static func fromDatabaseValue(_ dbValue: DatabaseValue) -> CGFloat? {
        guard let double = Double.fromDatabaseValue(dbValue) else { return nil }
        return CGFloat(double)
    }
}
