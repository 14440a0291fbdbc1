import Foundation

// NSNumber stores integers as INTEGER and floating-point numbers as REAL,
// as its `objCType` says. NSDecimalNumber stores integers of Int64's range
// as INTEGER (no digit lost), other values as REAL.
//
// Reading: integers and reals give an NSNumber (an NSDecimalNumber when
// asked for one); text gives an NSDecimalNumber when it is a number in
// its entirety ("12.5", "-3e2"), like `Decimal`.
extension NSNumber: DatabaseValueConvertible {
    /// Traps for unsigned 64-bit values above `Int64.max`, which SQLite
    /// can't store, as `UInt64` does.
    public var databaseValue: DatabaseValue {
        if let decimal = self as? NSDecimalNumber {
            // The description of a decimal is exact, and has no fraction
            // for integers ("1.0" gives "1").
            if let integer = Int64(decimal.description) { return integer.databaseValue }
            return decimal.doubleValue.databaseValue
        }
        switch objCType.pointee {
        case CChar(UInt8(ascii: "f")), CChar(UInt8(ascii: "d")):
            return doubleValue.databaseValue
        case CChar(UInt8(ascii: "Q")), CChar(UInt8(ascii: "L")):
            return uint64Value.databaseValue
        default:
            return int64Value.databaseValue
        }
    }

    public static func fromDatabaseValue(_ dbValue: DatabaseValue) -> Self? {
        let number: NSNumber
        switch dbValue.storage {
        case .int64(let value):
            number = self is NSDecimalNumber.Type ? NSDecimalNumber(value: value) : NSNumber(value: value)
        case .double(let value):
            number = self is NSDecimalNumber.Type ? NSDecimalNumber(value: value) : NSNumber(value: value)
        case .string:
            guard let decimal = Decimal.fromDatabaseValue(dbValue) else { return nil }
            number = NSDecimalNumber(decimal: decimal)
        case .null, .blob:
            return nil
        }
        return number as? Self
    }
}
