// Full-text matching in the query interface: requests, tables, records
// and columns accept FTS3 and FTS5 patterns.

extension TableRequest where Self: FilteredRequest {
    /// Rows whose table matches `pattern`: `WHERE "book" MATCH ?`.
    /// A nil pattern matches nothing.
    ///
    /// ```swift
    /// let pattern = FTS3Pattern(matchingAllTokensIn: "sqlite database")
    /// let books = try Book.all().matching(pattern).fetchAll(db)
    /// ```
    public func matching(_ pattern: FTS3Pattern?) -> Self {
        matching(rawPattern: pattern?.databaseValue)
    }

    /// Rows whose table matches `pattern`: `WHERE "book" MATCH ?`.
    /// A nil pattern matches nothing.
    public func matching(_ pattern: FTS5Pattern?) -> Self {
        matching(rawPattern: pattern?.databaseValue)
    }

    private func matching(rawPattern: DatabaseValue?) -> Self {
        guard let rawPattern else { return none() }
        // The table is named through an alias, which the request resolves
        // to its table (or the user's alias) when SQL is generated.
        let alias = TableAliasBase()
        return _aliased(alias).filter(SQLExpression.tableMatch(alias, .value(rawPattern)))
    }
}

extension TableRecord {
    /// Records whose table matches `pattern`. A nil pattern matches
    /// nothing.
    public static func matching(_ pattern: FTS3Pattern?) -> QueryInterfaceRequest<Self> {
        all().matching(pattern)
    }

    /// Records whose table matches `pattern`. A nil pattern matches
    /// nothing.
    public static func matching(_ pattern: FTS5Pattern?) -> QueryInterfaceRequest<Self> {
        all().matching(pattern)
    }
}

extension ColumnExpression {
    /// `column MATCH pattern`: the column matches an FTS3/FTS4 pattern
    /// (NULL, which matches nothing, for a nil pattern).
    ///
    /// ```swift
    /// Book.filter(Column("title").match(pattern))
    /// ```
    public func match(_ pattern: FTS3Pattern?) -> SQLExpression {
        .binary(.match, sqlExpression, .value(pattern?.databaseValue ?? .null))
    }

    /// `column MATCH pattern`: the column matches an FTS5 pattern.
    public func match(_ pattern: FTS5Pattern) -> SQLExpression {
        .binary(.match, sqlExpression, .value(pattern.databaseValue))
    }
}
