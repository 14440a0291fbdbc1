/// Writes the SQL of a relation: SELECT, and the DELETE and UPDATE of
/// batch operations.
///
/// All expressions of the relation are qualified with the alias of its
/// table. A request on a single table does not need qualified columns, so
/// the SQL reads `SELECT * FROM "player" WHERE "score" > ?`; a named alias
/// (`aliased(TableAlias(name: "p"))`), a correlated subquery, or, later,
/// joined associations make the generation context print qualifiers.
struct SQLQueryGenerator: SQLSubqueryGenerator {
    let relation: SQLRelation
    /// Whether the request is fetched with `fetchOne`: unless the request
    /// is known to return at most one row, SQL gets `LIMIT 1`.
    var forSingleResult = false

    private var alias: TableAliasBase {
        relation.source.alias ?? TableAliasBase(tableName: relation.source.tableName)
    }

    // MARK: - SELECT

    func requestSQL(_ parentContext: SQLGenerationContext) throws -> String {
        let alias = self.alias
        let context = parentContext.subqueryContext(aliases: [alias])
        let db = context.db

        let selection = try relation.selection.resolve(db).map { $0.qualified(with: alias) }
        precondition(!selection.isEmpty, "Can't generate SQL with an empty selection")
        var sql = relation.isDistinct ? "SELECT DISTINCT " : "SELECT "
        sql += try selection.map { try $0.sql(context) }.joined(separator: ", ")
        sql += " FROM " + tableSQL(context, alias: alias)

        let filter = try relation.filter?.resolve(db).qualified(with: alias)
        if let filter {
            sql += try " WHERE " + filter.sql(context)
        }

        let groupExpressions = try relation.group?.resolve(db).map { $0.qualified(with: alias) } ?? []
        if !groupExpressions.isEmpty {
            sql += try " GROUP BY " + groupExpressions.map { try $0.sql(context) }.joined(separator: ", ")
        }

        if let having = try relation.having?.resolve(db).qualified(with: alias) {
            sql += try " HAVING " + having.sql(context)
        }

        sql += try orderingSQL(context, alias: alias)

        if let limit = relation.limit {
            sql += limitSQL(limit, context)
        } else if forSingleResult && !expectsSingleResult(
            db, alias: alias, selection: selection, filter: filter, isGrouped: !groupExpressions.isEmpty)
        {
            sql += " LIMIT 1"
        }
        return sql
    }

    /// A statement for the SELECT request, from the statement cache.
    func makeStatement(_ db: Database) throws -> Statement {
        let context = SQLGenerationContext(db)
        let sql = try requestSQL(context)
        let statement = try db.cachedStatement(sql: sql)
        try statement.setArguments(context.arguments)
        return statement
    }

    /// Whether the request returns at most one row: it filters on a unique
    /// key, or aggregates without grouping.
    private func expectsSingleResult(
        _ db: Database,
        alias: TableAliasBase,
        selection: [SQLSelection],
        filter: SQLExpression?,
        isGrouped: Bool) -> Bool
    {
        if !isGrouped && selection.contains(where: \.isAggregate) {
            return true
        }
        if let columns = filter?.identifyingColumns(for: alias), !columns.isEmpty,
           (try? db.table(relation.source.tableName, hasUniqueKey: columns)) == true
        {
            return true
        }
        return false
    }

    // MARK: - DELETE and UPDATE

    /// `DELETE FROM ... WHERE ...`
    func makeDeleteStatement(_ db: Database) throws -> Statement {
        precondition(relation.group == nil, "Can't delete a request with a GROUP BY clause")
        let alias = self.alias
        let context = SQLGenerationContext(db, aliases: [alias])
        var sql = "DELETE FROM " + tableSQL(context, alias: alias, keyword: " AS ")
        sql += try whereOrderLimitSQL(context, alias: alias)
        let statement = try db.cachedStatement(sql: sql)
        try statement.setArguments(context.arguments)
        return statement
    }

    /// `UPDATE ... SET ... WHERE ...`, or nil when there is nothing to set.
    func makeUpdateStatement(
        _ db: Database,
        conflictResolution: Database.ConflictResolution,
        assignments: [ColumnAssignment]) throws -> Statement?
    {
        precondition(relation.group == nil, "Can't update a request with a GROUP BY clause")
        if assignments.isEmpty { return nil }
        let alias = self.alias
        let context = SQLGenerationContext(db, aliases: [alias])
        var sql = conflictResolution == .abort ? "UPDATE " : "UPDATE OR \(conflictResolution.rawValue) "
        sql += tableSQL(context, alias: alias, keyword: " AS ")
        sql += try " SET " + assignments.map { assignment in
            try assignment.columnName.quotedDatabaseIdentifier + " = "
                + assignment.value.qualified(with: alias).sql(context)
        }.joined(separator: ", ")
        sql += try whereOrderLimitSQL(context, alias: alias)
        let statement = try db.cachedStatement(sql: sql)
        try statement.setArguments(context.arguments)
        return statement
    }

    private func whereOrderLimitSQL(_ context: SQLGenerationContext, alias: TableAliasBase) throws -> String {
        var sql = ""
        if let filter = try relation.filter?.resolve(context.db).qualified(with: alias) {
            sql += try " WHERE " + filter.sql(context)
        }
        // SQLite honors ORDER BY and LIMIT in DELETE and UPDATE when built
        // with SQLITE_ENABLE_UPDATE_DELETE_LIMIT (Debian's is).
        if let limit = relation.limit {
            sql += try orderingSQL(context, alias: alias)
            sql += limitSQL(limit, context)
        }
        return sql
    }

    // MARK: - Clauses

    /// `"player"`, or `"player" "p"` for an alias whose name is not the
    /// table name.
    private func tableSQL(_ context: SQLGenerationContext, alias: TableAliasBase, keyword: String = " ") -> String {
        var sql = relation.source.tableName.quotedDatabaseIdentifier
        if let aliasName = context.aliasName(for: alias) {
            sql += keyword + aliasName.quotedDatabaseIdentifier
        }
        return sql
    }

    private func orderingSQL(_ context: SQLGenerationContext, alias: TableAliasBase) throws -> String {
        let orderings = try relation.ordering.resolve(context.db)
        if orderings.isEmpty { return "" }
        return try " ORDER BY " + orderings.map { try $0.qualified(with: alias).sql(context) }.joined(separator: ", ")
    }

    /// `LIMIT ?` or `LIMIT ? OFFSET ?`: limits are bound like other values.
    private func limitSQL(_ limit: SQLLimit, _ context: SQLGenerationContext) -> String {
        context.append(limit.limit.databaseValue)
        guard let offset = limit.offset else { return " LIMIT ?" }
        context.append(offset.databaseValue)
        return " LIMIT ? OFFSET ?"
    }
}

// MARK: - Counting

extension SQLRelation {
    /// The number of rows of the relation: `SELECT COUNT(*) FROM ...` when
    /// the selection does not matter, `SELECT COUNT(*) FROM (SELECT ...)`
    /// otherwise.
    ///
    /// Unlike GRDB, `SELECT DISTINCT expr` is counted with a subquery, not
    /// `COUNT(DISTINCT expr)`, which would not count NULL.
    func fetchCount(_ db: Database) throws -> Int {
        if group != nil || limit != nil || isDistinct {
            return try fetchTrivialCount(db)
        }
        // Aliased columns and literals may be used by the WHERE clause:
        // keep them.
        let selection = try self.selection.resolve(db)
        let selectionMatters = selection.contains {
            switch $0.impl {
            case .allColumns, .expression: false
            case .qualifiedAllColumns, .aliased, .literal: true
            }
        }
        if selectionMatters {
            return try fetchTrivialCount(db)
        }
        let countRelation = unordered().with {
            $0.selection = DatabasePromise(value: [.expression(.countAll)])
        }
        return try Int.fetchOne(SQLQueryGenerator(relation: countRelation).makeStatement(db)) ?? 0
    }

    /// `SELECT COUNT(*) FROM (SELECT ...)`
    private func fetchTrivialCount(_ db: Database) throws -> Int {
        let context = SQLGenerationContext(db)
        let sql = try "SELECT COUNT(*) FROM (" + SQLQueryGenerator(relation: unordered()).requestSQL(context) + ")"
        let statement = try db.cachedStatement(sql: sql)
        try statement.setArguments(context.arguments)
        return try Int.fetchOne(statement) ?? 0
    }
}
