// Aggregates of the query interface: `group`/`having`, and aggregate
// selections (`min`, `max`, `average`, `count(distinct:)`...).

/// An aggregate function.
public enum AggregateFunction: String, Sendable, Codable, CaseIterable {
    case count, countDistinct, sum, min, max, average
}

/// `function(Column(column))` on `player`.
public struct Aggregate: Sendable, Codable, Hashable {
    public var function: AggregateFunction
    public var column: String

    public init(function: AggregateFunction, column: String) {
        self.function = function
        self.column = column
    }
}

/// `having(aggregate op value)`.
public struct Having: Sendable, Codable, Hashable {
    public var aggregate: Aggregate
    public var comparison: Comparison
    public var value: Int64

    public init(aggregate: Aggregate, comparison: Comparison, value: Int64) {
        self.aggregate = aggregate
        self.comparison = comparison
        self.value = value
    }
}

/// How a grouped request is ordered.
public enum GroupOrder: String, Sendable, Codable, CaseIterable {
    /// No `order`.
    case unordered
    /// `order(Column("teamId"))`.
    case group
    /// `order(Column("teamId").desc)`.
    case groupDescending
    /// `order(firstAggregate.desc, Column("teamId"))`.
    case aggregateDescending
}

/// `Player.select(Column("teamId"), aggregates...).group(Column("teamId"))`,
/// then each `having`, the order and the limit; `Row.fetchAll`.
public struct GroupedQuery: Sendable, Codable, Hashable {
    public var aggregates: [Aggregate]
    public var havings: [Having]
    public var order: GroupOrder
    public var limit: Int?

    public init(aggregates: [Aggregate], havings: [Having], order: GroupOrder, limit: Int?) {
        self.aggregates = aggregates
        self.havings = havings
        self.order = order
        self.limit = limit
    }
}

/// How an aggregate selection is fetched.
public enum AggregateFetch: String, Sendable, Codable, CaseIterable {
    /// `Int.fetchOne(db, request)`.
    case int
    /// `Double.fetchOne(db, request)`.
    case double
    /// `Row.fetchOne(db, request)`.
    case row
}

/// A step of the aggregates family.
public enum AggregateUse: Sendable, Codable, Hashable {
    /// A grouped request, maybe with `having`.
    case grouped(GroupedQuery)
    /// `Player.filter(...).select(aggregate)`, fetched one way.
    case selected(Aggregate, Filter?, AggregateFetch)
}

extension Aggregate: CustomStringConvertible {
    public var description: String {
        let column = "Column(\"\(column)\")"
        return switch function {
        case .countDistinct: "count(distinct: \(column))"
        default: "\(function.rawValue)(\(column))"
        }
    }
}

extension Having: CustomStringConvertible {
    public var description: String {
        comparison == .isNull ? "\(aggregate) == nil" : "\(aggregate) \(comparison.rawValue) \(value)"
    }
}

extension AggregateUse {
    var lines: [String] {
        switch self {
        case .grouped(let query):
            var text = "Player.select(" + (["Column(\"teamId\")"] + query.aggregates.map(\.description))
                .joined(separator: ", ") + ").group(Column(\"teamId\"))"
            for having in query.havings { text += ".having(\(having))" }
            switch query.order {
            case .unordered: break
            case .group: text += ".order(Column(\"teamId\"))"
            case .groupDescending: text += ".order(Column(\"teamId\").desc)"
            case .aggregateDescending: text += ".order(\(query.aggregates[0]).desc, Column(\"teamId\"))"
            }
            if let limit = query.limit { text += ".limit(\(limit))" }
            return ["try Row.fetchAll(db, \(text))"]
        case let .selected(aggregate, filter, fetch):
            let type = switch fetch {
            case .int: "Int"
            case .double: "Double"
            case .row: "Row"
            }
            return ["try \(type).fetchOne(db, Player" + (filter.map { ".filter(\($0))" } ?? ".all()")
                + ".select(\(aggregate)))"]
        }
    }
}
