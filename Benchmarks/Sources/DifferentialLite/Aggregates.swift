#if DIFFERENTIAL_GRDB
import GRDB
#else
import GRDBLite
#endif
import DifferentialProgram

/// Grouped requests and aggregate selections.
enum Aggregates {
    static func expression(_ aggregate: Aggregate) -> SQLExpression {
        let column = Column(aggregate.column)
        switch aggregate.function {
        case .count: return count(column)
        case .countDistinct: return count(distinct: column)
        case .sum: return sum(column)
        case .min: return min(column)
        case .max: return max(column)
        case .average: return average(column)
        }
    }

    static func expression(_ having: Having) -> SQLExpression {
        let aggregate = expression(having.aggregate)
        switch having.comparison {
        case .equal: return aggregate == having.value
        case .notEqual: return aggregate != having.value
        case .less: return aggregate < having.value
        case .greaterOrEqual: return aggregate >= having.value
        case .isNull: return aggregate == nil
        }
    }

    static func fetch(_ use: AggregateUse, _ db: Database) throws -> String {
        switch use {
        case .grouped(let query):
            let selection: [any SQLSelectable] = [Column("teamId")] + query.aggregates.map(expression)
            var request = Player.select(selection).group(Column("teamId"))
            for having in query.havings { request = request.having(expression(having)) }
            switch query.order {
            case .unordered: break
            case .group: request = request.order(Column("teamId"))
            case .groupDescending: request = request.order(Column("teamId").desc)
            case .aggregateDescending:
                request = request.order(expression(query.aggregates[0]).desc, Column("teamId"))
            }
            if let limit = query.limit { request = request.limit(limit) }
            return try Row.fetchAll(db, request).map(Canonical.text).joined(separator: "\n")
        case let .selected(aggregate, filter, fetch):
            var request = Player.all()
            if let filter { request = request.filter(Requests.expression(filter)) }
            request = request.select(expression(aggregate))
            switch fetch {
            case .int: return try Int.fetchOne(db, request).map { "\($0)" } ?? "nil"
            case .double: return try Double.fetchOne(db, request).map { "\($0)" } ?? "nil"
            case .row: return try Row.fetchOne(db, request).map(Canonical.text) ?? "nil"
            }
        }
    }
}
