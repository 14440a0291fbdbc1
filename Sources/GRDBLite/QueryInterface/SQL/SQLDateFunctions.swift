// SQLite's date functions: `julianDay(Column("date"), .day(1))`,
// `dateTime(Column("date"), .startOfMonth)`.
// See <https://www.sqlite.org/lang_datefunc.html>.

/// A modifier of SQLite's date functions, such as `'1 days'` or
/// `'start of month'`: it is an SQL string literal.
public enum SQLDateModifier: SQLSpecificExpressible, Sendable {
    /// `'N seconds'`
    case second(Double)
    /// `'N minutes'`
    case minute(Int)
    /// `'N hours'`
    case hour(Int)
    /// `'N days'`
    case day(Int)
    /// `'N months'`
    case month(Int)
    /// `'N years'`
    case year(Int)
    /// `'start of day'`
    case startOfDay
    /// `'start of month'`
    case startOfMonth
    /// `'start of year'`
    case startOfYear
    /// `'weekday N'`: the next date whose weekday is N (0 is Sunday).
    case weekday(Int)
    /// `'unixepoch'`: the value is a number of seconds since 1970.
    case unixEpoch
    /// `'localtime'`: from UTC to local time.
    case localTime
    /// `'utc'`: from local time to UTC.
    case utc

    /// The modifier as SQLite spells it.
    var text: String {
        switch self {
        case .second(let n): "\(n) seconds"
        case .minute(let n): "\(n) minutes"
        case .hour(let n): "\(n) hours"
        case .day(let n): "\(n) days"
        case .month(let n): "\(n) months"
        case .year(let n): "\(n) years"
        case .startOfDay: "start of day"
        case .startOfMonth: "start of month"
        case .startOfYear: "start of year"
        case .weekday(let n): "weekday \(n)"
        case .unixEpoch: "unixepoch"
        case .localTime: "localtime"
        case .utc: "utc"
        }
    }

    /// The modifier, as an SQL string value.
    public var sqlExpression: SQLExpression {
        text.sqlExpression
    }
}

/// `JULIANDAY(value, modifiers...)`: the Julian day number of a date, as
/// a real.
public func julianDay(_ value: some SQLSpecificExpressible, _ modifiers: SQLDateModifier...) -> SQLExpression {
    .function("JULIANDAY", [value.sqlExpression] + modifiers.map(\.sqlExpression))
}

/// `DATETIME(value, modifiers...)`: a date as `YYYY-MM-DD HH:MM:SS` text.
public func dateTime(_ value: some SQLSpecificExpressible, _ modifiers: SQLDateModifier...) -> SQLExpression {
    .function("DATETIME", [value.sqlExpression] + modifiers.map(\.sqlExpression))
}
