/// A value a program writes: in a record's property, an argument, a default.
public enum Value: Sendable, Codable, Hashable, CustomStringConvertible {
    case null
    case int(Int64)
    case text(String)
    case real(Double)
    /// One of ``Value/dates``, by index: a `Date` for records, its
    /// `timeIntervalSince1970` elsewhere.
    case date(Int)

    /// The dates a program uses, as seconds since 1970: whole milliseconds,
    /// which GRDB and GRDBLite store alike.
    public static let dates: [Double] = [0, 1_000_000_000.125, 1_700_000_000.5, 946_684_800, -86_400.25]

    public var description: String {
        switch self {
        case .null: "nil"
        case .int(let value): "\(value)"
        case .text(let value): "\"\(value)\""
        case .real(let value): "\(value)"
        case .date(let index): "Date(timeIntervalSince1970: \(Value.dates[index]))"
        }
    }
}
