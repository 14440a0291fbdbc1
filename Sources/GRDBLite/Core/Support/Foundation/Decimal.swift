import Foundation

// Decimals are stored as text ("12.5"), so that no digit is lost. They are
// read from text, integers and reals.
extension Decimal: DatabaseValueConvertible {
    public var databaseValue: DatabaseValue {
        description.databaseValue
    }

    public static func fromDatabaseValue(_ dbValue: DatabaseValue) -> Decimal? {
        switch dbValue.storage {
        case .int64(let value): Decimal(value)
        case .double(let value): value.isFinite ? Decimal(value) : nil
        case .string(let string): Decimal(string: string, locale: Locale(identifier: "en_US_POSIX"))
        default: nil
        }
    }
}
