import CSQLite
import Foundation

// Decimals are stored as text ("12.5"), so that no digit is lost. They are
// read from integers, reals, and text that is a number in its entirety
// ("12.5", "-1e-3"; not "12 apples", which Foundation would read as 12).
extension Decimal: DatabaseValueConvertible {
    public var databaseValue: DatabaseValue {
        description.databaseValue
    }

    public static func fromDatabaseValue(_ dbValue: DatabaseValue) -> Decimal? {
        switch dbValue.storage {
        case .int64(let value): Decimal(value)
        case .double(let value): value.isFinite ? Decimal(value) : nil
        case .string(let string): Decimal(numberText: string)
        default: nil
        }
    }

    /// Parses `[+-]digits[.digits][(e|E)[+-]digits]` (digits on at least
    /// one side of the point), nothing before or after.
    init?(numberText text: String) {
        var scalars = Substring(text).unicodeScalars[...]
        func skipDigits() -> Int {
            let count = scalars.prefix { ("0"..."9").contains($0) }.count
            scalars = scalars.dropFirst(count)
            return count
        }
        if scalars.first == "+" || scalars.first == "-" { scalars = scalars.dropFirst() }
        var digits = skipDigits()
        if scalars.first == "." {
            scalars = scalars.dropFirst()
            digits += skipDigits()
        }
        guard digits > 0 else { return nil }
        if scalars.first == "e" || scalars.first == "E" {
            scalars = scalars.dropFirst()
            if scalars.first == "+" || scalars.first == "-" { scalars = scalars.dropFirst() }
            guard skipDigits() > 0 else { return nil }
        }
        guard scalars.isEmpty else { return nil }
        self.init(string: text, locale: Locale(identifier: "en_US_POSIX"))
    }
}

// Read straight from the column, with the `sqlite3_column_*` call of its
// storage class: no intermediate `DatabaseValue`, as GRDB reads it.
extension Decimal: StatementColumnConvertible {
    /// Reads an integer, a finite real, or text that is a number in its
    /// entirety; nil for anything else.
    public init?(sqliteStatement: SQLiteStatement, index: CInt) {
        switch sqlite3_column_type(sqliteStatement, index) {
        case SQLITE_INTEGER:
            self.init(sqlite3_column_int64(sqliteStatement, index))
        case SQLITE_FLOAT:
            let double = sqlite3_column_double(sqliteStatement, index)
            guard double.isFinite else { return nil }
            self.init(double)
        case SQLITE_TEXT:
            // The text first, then its size (SQLite's documented order).
            guard let text = sqlite3_column_text(sqliteStatement, index) else { return nil }
            let count = Int(sqlite3_column_bytes(sqliteStatement, index))
            guard let string = String.validatingSQLiteText(text, count: count),
                  let decimal = Decimal(numberText: string)
            else { return nil }
            self = decimal
        default:
            return nil
        }
    }
}
