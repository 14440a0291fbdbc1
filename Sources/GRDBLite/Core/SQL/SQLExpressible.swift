/// A type that can be used in SQL expressions: values (`1`, `"Arthur"`),
/// columns, and expressions.
public protocol SQLExpressible {
    /// The expression.
    var sqlExpression: SQLExpression { get }
}

/// An expression that is not a plain value: columns and built expressions.
/// It can be selected and used for ordering.
public protocol SQLSpecificExpressible: SQLExpressible, SQLSelectable, SQLOrderingTerm { }

extension SQLSpecificExpressible {
    public var sqlSelection: SQLSelection { .expression(sqlExpression) }
    public var sqlOrdering: SQLOrdering { .expression(sqlExpression) }
}

/// A term of a SELECT clause: an expression, or all columns (`*`).
public protocol SQLSelectable {
    /// The selection.
    var sqlSelection: SQLSelection { get }
}

/// A selected term.
public struct SQLSelection: Sendable {
    @usableFromInline
    enum Impl: Sendable {
        /// `*`, qualified by a table when the request joins tables.
        case allColumns(qualifier: String?)
        case expression(SQLExpression)
        case aliased(SQLExpression, name: String)
    }

    @usableFromInline let impl: Impl

    /// All columns: `*`.
    public static let allColumns = SQLSelection(impl: .allColumns(qualifier: nil))

    /// An expression.
    public static func expression(_ expression: SQLExpression) -> SQLSelection {
        SQLSelection(impl: .expression(expression))
    }

    func sql(_ context: SQLGenerationContext) throws -> String {
        switch impl {
        case .allColumns(let qualifier):
            if let qualifier { return "\(qualifier.quotedDatabaseIdentifier).*" }
            return "*"
        case .expression(let expression):
            return try expression.sql(context)
        case let .aliased(expression, name):
            return try "\(expression.sql(context)) AS \(name.quotedDatabaseIdentifier)"
        }
    }
}

extension SQLSelection: SQLSelectable {
    public var sqlSelection: SQLSelection { self }
}

/// A term of an ORDER BY clause.
public protocol SQLOrderingTerm {
    /// The ordering.
    var sqlOrdering: SQLOrdering { get }
}

/// An ordering term: an expression, ascending or descending.
public struct SQLOrdering: Sendable {
    @usableFromInline
    enum Impl: Sendable {
        case expression(SQLExpression)
        case asc(SQLExpression)
        case desc(SQLExpression)
    }

    @usableFromInline let impl: Impl

    /// An expression, in SQLite's default order.
    public static func expression(_ expression: SQLExpression) -> SQLOrdering {
        SQLOrdering(impl: .expression(expression))
    }

    func sql(_ context: SQLGenerationContext) throws -> String {
        switch impl {
        case .expression(let expression): try expression.sql(context)
        case .asc(let expression): try expression.sql(context) + " ASC"
        case .desc(let expression): try expression.sql(context) + " DESC"
        }
    }
}

extension SQLOrdering: SQLOrderingTerm {
    public var sqlOrdering: SQLOrdering { self }
}
