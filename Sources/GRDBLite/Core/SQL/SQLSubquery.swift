/// A SELECT statement used inside another statement: `(SELECT ...)`,
/// `EXISTS (SELECT ...)`, `IN (SELECT ...)`.
public struct SQLSubquery: Sendable {
    enum Impl: Sendable {
        case literal(SQL)
        /// A query built by the query interface.
        case generated(any SQLSubqueryGenerator)
    }

    let impl: Impl

    /// A subquery written in SQL.
    static func literal(_ sql: SQL) -> SQLSubquery {
        SQLSubquery(impl: .literal(sql))
    }

    /// A subquery written by a generator.
    static func generated(_ generator: some SQLSubqueryGenerator) -> SQLSubquery {
        SQLSubquery(impl: .generated(generator))
    }

    /// The SQL of the SELECT statement, without parentheses.
    func sql(_ context: SQLGenerationContext) throws -> String {
        switch impl {
        case .literal(let sql): try sql.sql(context)
        case .generated(let generator): try generator.requestSQL(context)
        }
    }
}

/// Writes the SQL of a SELECT statement (a request of the query
/// interface), in a generation context that it may refine for the tables
/// it reads.
protocol SQLSubqueryGenerator: Sendable {
    func requestSQL(_ context: SQLGenerationContext) throws -> String
}

/// A type that can be used as a subquery: requests.
///
/// ```swift
/// // SELECT * FROM player WHERE teamId IN (SELECT id FROM team WHERE color = ?)
/// let redTeamIds = Team.filter { $0.color == "red" }.select(\.id)
/// let players = try Player.filter { redTeamIds.contains($0.teamId) }.fetchAll(db)
/// ```
public protocol SQLSubqueryable: SQLSpecificExpressible {
    /// The subquery.
    var sqlSubquery: SQLSubquery { get }
}

/// A subquery is an expression, with the operators and methods of
/// expressions: `request.sqlSubquery > 10`, `subquery.contains(id)`.
extension SQLSubquery: SQLSubqueryable {
    /// The subquery itself.
    @available(*, deprecated, message: "Already SQLSubquery")
    public var sqlSubquery: SQLSubquery { self }
}

extension SQLSubqueryable {
    /// The subquery as a value: `(SELECT ...)`.
    public var sqlExpression: SQLExpression { .subquery(sqlSubquery) }

    /// `element IN (SELECT ...)`
    public func contains(_ element: some SQLExpressible) -> SQLExpression {
        SQLCollection.subquery(sqlSubquery).contains(element.sqlExpression)
    }

    /// `EXISTS (SELECT ...)`
    public func exists() -> SQLExpression {
        .exists(sqlSubquery)
    }
}
