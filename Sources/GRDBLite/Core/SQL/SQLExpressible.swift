/// A type that can be used in SQL expressions: values (`1`, `"Arthur"`),
/// columns, and expressions.
public protocol SQLExpressible {
    /// The expression.
    var sqlExpression: SQLExpression { get }
}

/// An expression that is not a plain value: columns and built expressions.
/// It can be selected and used for ordering.
///
/// Only GRDBLite types adopt it (and optionals of them), so that its
/// operators (`Column("a") == 1`) never overload the operators of standard
/// or user types.
public protocol SQLSpecificExpressible: SQLExpressible, SQLSelectable, SQLOrderingTerm { }

extension SQLSpecificExpressible {
    public var sqlSelection: SQLSelection { .expression(sqlExpression) }
    public var sqlOrdering: SQLOrdering { .expression(sqlExpression) }
}

/// A value is an expression that can be selected, ordered, aliased and
/// collated: `1.databaseValue.forKey("one")`.
extension DatabaseValue: SQLSpecificExpressible { }

/// A term of a SELECT clause: an expression, or all columns (`*`).
public protocol SQLSelectable {
    /// The selection.
    var sqlSelection: SQLSelection { get }
}

/// A selected term.
public struct SQLSelection: Sendable {
    enum Impl: Sendable {
        /// `*`
        case allColumns
        /// `"player".*` when the request involves several tables, `*`
        /// otherwise.
        case qualifiedAllColumns(TableAliasBase)
        /// All columns but some: needs a table, given by qualification.
        case allColumnsExcluding(Set<CaseInsensitiveIdentifier>)
        /// The columns of the table of the alias, but some.
        case qualifiedAllColumnsExcluding(TableAliasBase, Set<CaseInsensitiveIdentifier>)
        case expression(SQLExpression)
        /// `expression AS "name"`
        case aliased(SQLExpression, name: String)
        /// Raw SQL, which may select several columns.
        case literal(SQL)
    }

    let impl: Impl

    /// All columns: `*`.
    static let allColumns = SQLSelection(impl: .allColumns)

    /// An expression.
    static func expression(_ expression: SQLExpression) -> SQLSelection {
        SQLSelection(impl: .expression(expression))
    }

    /// An expression selected under a name: `expression AS "name"`.
    static func aliased(_ expression: SQLExpression, name: String) -> SQLSelection {
        SQLSelection(impl: .aliased(expression, name: name))
    }

    /// Raw SQL.
    static func literal(_ sql: SQL) -> SQLSelection {
        SQLSelection(impl: .literal(sql))
    }

    /// The selection, with its columns qualified by `alias`.
    func qualified(with alias: TableAliasBase) -> SQLSelection {
        switch impl {
        case .allColumns: SQLSelection(impl: .qualifiedAllColumns(alias))
        case .qualifiedAllColumns, .qualifiedAllColumnsExcluding: self
        case .allColumnsExcluding(let excluded): SQLSelection(impl: .qualifiedAllColumnsExcluding(alias, excluded))
        case .expression(let expression): .expression(expression.qualified(with: alias))
        case let .aliased(expression, name): .aliased(expression.qualified(with: alias), name: name)
        case .literal(let sql): .literal(sql.qualified(with: alias))
        }
    }

    /// Whether the selection is an aggregate (`COUNT(*)`, `MAX(score)`...).
    var isAggregate: Bool {
        switch impl {
        case .expression(let expression), .aliased(let expression, _): expression.isAggregate
        default: false
        }
    }

    func sql(_ context: SQLGenerationContext) throws -> String {
        switch impl {
        case .allColumns:
            return "*"
        case .qualifiedAllColumns(let alias):
            if let qualifier = context.qualifier(for: alias) { return "\(qualifier.quotedDatabaseIdentifier).*" }
            return "*"
        case .allColumnsExcluding:
            throw DatabaseError(
                resultCode: .SQLITE_MISUSE,
                message:
                    "allColumns(excluding:) needs a table: use it in the selection of a request or of a record type")
        case let .qualifiedAllColumnsExcluding(alias, excluded):
            // The columns of `SELECT *`, as SQLite sees them.
            let names = try context.db.cachedStatement(sql: "SELECT * FROM \(alias.tableName.quotedDatabaseIdentifier)")
                .columnNames
            let remaining = names.filter { !excluded.contains(CaseInsensitiveIdentifier($0)) }
            if remaining.count == names.count {
                return try SQLSelection(impl: .qualifiedAllColumns(alias)).sql(context)
            }
            return try remaining.map { try SQLExpression.column($0).qualified(with: alias).sql(context) }
                .joined(separator: ", ")
        case .expression(let expression):
            return try expression.sql(context)
        case let .aliased(expression, name):
            return try "\(expression.sql(context)) AS \(name.quotedDatabaseIdentifier)"
        case .literal(let sql):
            return try sql.sql(context)
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
    enum Impl: Sendable {
        case expression(SQLExpression)
        case asc(SQLExpression)
        case desc(SQLExpression)
        case ascNullsLast(SQLExpression)
        case descNullsFirst(SQLExpression)
        /// Raw SQL, which can't be reversed.
        case literal(SQL)
    }

    let impl: Impl

    /// An expression, in SQLite's default order.
    static func expression(_ expression: SQLExpression) -> SQLOrdering {
        SQLOrdering(impl: .expression(expression))
    }

    static func literal(_ sql: SQL) -> SQLOrdering {
        SQLOrdering(impl: .literal(sql))
    }

    /// The opposite order.
    var reversed: SQLOrdering {
        switch impl {
        case .expression(let expression), .asc(let expression): SQLOrdering(impl: .desc(expression))
        case .desc(let expression): SQLOrdering(impl: .asc(expression))
        case .ascNullsLast(let expression): SQLOrdering(impl: .descNullsFirst(expression))
        case .descNullsFirst(let expression): SQLOrdering(impl: .ascNullsLast(expression))
        case .literal:
            fatalError("""
                SQL literal orderings can't be reversed: order by expressions instead, \
                such as `order(SQL("score + bonus").sqlExpression)`.
                """)
        }
    }

    /// The ordering, with its columns qualified by `alias`.
    func qualified(with alias: TableAliasBase) -> SQLOrdering {
        switch impl {
        case .expression(let expression): SQLOrdering(impl: .expression(expression.qualified(with: alias)))
        case .asc(let expression): SQLOrdering(impl: .asc(expression.qualified(with: alias)))
        case .desc(let expression): SQLOrdering(impl: .desc(expression.qualified(with: alias)))
        case .ascNullsLast(let expression): SQLOrdering(impl: .ascNullsLast(expression.qualified(with: alias)))
        case .descNullsFirst(let expression): SQLOrdering(impl: .descNullsFirst(expression.qualified(with: alias)))
        case .literal(let sql): SQLOrdering(impl: .literal(sql.qualified(with: alias)))
        }
    }

    func sql(_ context: SQLGenerationContext) throws -> String {
        switch impl {
        case .expression(let expression): try expression.sql(context)
        case .asc(let expression): try expression.sql(context) + " ASC"
        case .desc(let expression): try expression.sql(context) + " DESC"
        case .ascNullsLast(let expression): try expression.sql(context) + " ASC NULLS LAST"
        case .descNullsFirst(let expression): try expression.sql(context) + " DESC NULLS FIRST"
        case .literal(let sql): try sql.sql(context)
        }
    }
}

extension SQLOrdering: SQLOrderingTerm {
    public var sqlOrdering: SQLOrdering { self }
}
