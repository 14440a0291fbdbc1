// Orderings, selections and collations derived from expressions.

extension SQLSpecificExpressible {
    /// Ascending order: `ORDER BY expression ASC`.
    public var asc: SQLOrdering { SQLOrdering(impl: .asc(sqlExpression)) }

    /// Descending order: `ORDER BY expression DESC`.
    public var desc: SQLOrdering { SQLOrdering(impl: .desc(sqlExpression)) }

    /// Ascending order, NULLs last: `ORDER BY expression ASC NULLS LAST`.
    public var ascNullsLast: SQLOrdering { SQLOrdering(impl: .ascNullsLast(sqlExpression)) }

    /// Descending order, NULLs first: `ORDER BY expression DESC NULLS FIRST`.
    public var descNullsFirst: SQLOrdering { SQLOrdering(impl: .descNullsFirst(sqlExpression)) }

    /// The expression selected under a name, for rows and records:
    /// `expression AS "key"`.
    ///
    /// ```swift
    /// let request = Player.annotated { ($0.score + $0.bonus).forKey("total") }
    /// ```
    public func forKey(_ key: String) -> SQLSelection {
        .aliased(sqlExpression, name: key)
    }

    /// The expression selected under the name of a coding key.
    public func forKey(_ key: some CodingKey) -> SQLSelection {
        forKey(key.stringValue)
    }

    /// The expression compared with a collation:
    /// `Column("name").collating(.nocase) == "arthur"`.
    public func collating(_ collation: Database.CollationName) -> SQLExpression {
        sqlExpression.withCollation(collation)
    }

    /// The expression compared with a custom collation:
    /// `order { $0.name.collating(.localizedCaseInsensitiveCompare) }`.
    public func collating(_ collation: DatabaseCollation) -> SQLExpression {
        sqlExpression.withCollation(Database.CollationName(rawValue: collation.name))
    }
}

extension Sequence where Element: SQLSpecificExpressible {
    /// The expressions joined with an operator: `a AND b AND c`.
    ///
    /// ```swift
    /// // "score" + "bonus"
    /// [Column("score"), Column("bonus")].joined(operator: .add)
    /// ```
    public func joined(operator: SQLExpression.AssociativeBinaryOperator) -> SQLExpression {
        .associative(`operator`, map(\.sqlExpression))
    }
}

extension Sequence where Element == any SQLSpecificExpressible {
    /// The expressions joined with an operator: `a AND b AND c`.
    public func joined(operator: SQLExpression.AssociativeBinaryOperator) -> SQLExpression {
        .associative(`operator`, map(\.sqlExpression))
    }
}
