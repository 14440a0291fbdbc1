/// Writes the SQL of a relation: SELECT, and the DELETE and UPDATE of
/// batch operations.
///
/// Each table of the request (the relation's, and the ones of its joined
/// associations) gets an alias, and all expressions are qualified with the
/// alias of their table. A request on a single table does not need
/// qualified columns, so the SQL reads `SELECT * FROM "player" WHERE "score"
/// > ?`; a named alias (`aliased(TableAlias(name: "p"))`), a correlated
/// subquery, or joined associations make the generation context print
/// qualifiers:
///
/// ```sql
/// SELECT "book".*, "author".* FROM "book"
/// JOIN "author" ON "author"."id" = "book"."authorId"
/// ```
struct SQLQueryGenerator: SQLSubqueryGenerator {
    let relation: SQLRelation
    /// Whether the request is fetched with `fetchOne`: unless the request
    /// is known to return at most one row, SQL gets `LIMIT 1`.
    var forSingleResult = false

    // MARK: - SELECT

    func requestSQL(_ parentContext: SQLGenerationContext) throws -> String {
        let root = QualifiedRelation(relation)
        let context = parentContext.subqueryContext(aliases: root.allAliases)
        let db = context.db

        let selection = try root.selection(db)
        precondition(!selection.isEmpty, "Can't generate SQL with an empty selection")
        var sql = try relation.allCTEs.withClauseSQL(context)
        sql += relation.isDistinct ? "SELECT DISTINCT " : "SELECT "
        sql += try selection.map { try $0.sql(context) }.joined(separator: ", ")
        sql += " FROM " + root.tableSQL(context)
        for join in root.joins {
            sql += try " " + join.sql(context, leftAlias: root.alias, allowsRequired: true)
        }

        let filter = try relation.filter?.resolve(db).qualified(with: root.alias)
        if let filter {
            sql += try " WHERE " + filter.sql(context)
        }

        let groupExpressions = try relation.group?.resolve(db).map { $0.qualified(with: root.alias) } ?? []
        if !groupExpressions.isEmpty {
            sql += try " GROUP BY " + groupExpressions.map { try $0.sql(context) }.joined(separator: ", ")
        }

        if let having = try relation.having?.resolve(db).qualified(with: root.alias) {
            sql += try " HAVING " + having.sql(context)
        }

        let orderings = try root.orderings(db)
        if !orderings.isEmpty {
            sql += try " ORDER BY " + orderings.map { try $0.sql(context) }.joined(separator: ", ")
        }

        if let limit = relation.limit {
            sql += limitSQL(limit, context)
        } else if forSingleResult && !expectsSingleResult(
            db, root: root, selection: selection, filter: filter, isGrouped: !groupExpressions.isEmpty)
        {
            sql += " LIMIT 1"
        }
        return sql
    }

    /// A statement for the SELECT request, from the connection's caches
    /// unless `cached` is false (requests whose SQL depends on fetched
    /// values): the statement of the request's shape (see
    /// ``RequestShapeCache``), or the statement cache's.
    func makeStatement(_ db: Database, cached: Bool = true) throws -> Statement {
        guard cached, let shape = try relation.shape(db, forSingleResult: forSingleResult) else {
            return try generateStatement(db, cached: cached).statement
        }
        return try db.cache(RequestShapeCache.self).statement(db, shape: shape) {
            try generateStatement(db, cached: true)
        }
    }

    /// Generates the SQL of the request, and prepares its statement.
    private func generateStatement(_ db: Database, cached: Bool) throws
        -> (statement: Statement, arguments: StatementArguments)
    {
        let context = SQLGenerationContext(db)
        let sql = try requestSQL(context)
        let statement = try cached ? db.cachedStatement(sql: sql) : db.makeStatement(sql: sql)
        try statement.setArguments(context.arguments)
        return (statement, context.arguments)
    }

    /// The number of columns of the fetched rows, joined associations
    /// included.
    func columnCount(_ db: Database) throws -> Int {
        try QualifiedRelation(relation).layout(db, start: 0, ctes: relation.allCTEs).end
    }

    /// The adapter that tells where the columns of joined associations are
    /// in fetched rows: nil when no joined association selects columns.
    func rowAdapter(_ db: Database) throws -> (any RowAdapter)? {
        let root = QualifiedRelation(relation)
        let layout = try root.layout(db, start: 0, ctes: relation.allCTEs)
        if layout.scopes.isEmpty { return nil }
        return SliceRowAdapter(count: layout.count, scopes: layout.scopes)
    }

    /// Whether the request returns at most one row: it filters on a unique
    /// key, or aggregates without grouping. A join can multiply rows.
    private func expectsSingleResult(
        _ db: Database,
        root: QualifiedRelation,
        selection: [SQLSelection],
        filter: SQLExpression?,
        isGrouped: Bool) -> Bool
    {
        if !root.joins.isEmpty {
            return false
        }
        if !isGrouped && selection.contains(where: \.isAggregate) {
            return true
        }
        if let columns = filter?.identifyingColumns(for: root.alias), !columns.isEmpty,
           (try? db.table(relation.source.tableName, hasUniqueKey: columns)) == true
        {
            return true
        }
        return false
    }

    // MARK: - DELETE and UPDATE

    /// `DELETE FROM ... WHERE ...`
    ///
    /// With joined associations, or grouped by a unique key: `DELETE FROM
    /// table WHERE rowid IN (SELECT rowid FROM table JOIN ... GROUP BY
    /// ...)`. Grouped otherwise, the request has no rows of the table to
    /// delete: `SQLITE_MISUSE`.
    ///
    /// - parameter selection: The columns of a `RETURNING` clause, if any.
    func makeDeleteStatement(_ db: Database, selection: [any SQLSelectable] = []) throws -> Statement {
        if try needsKeySubquery(db, operation: "delete") {
            let context = SQLGenerationContext(db)
            let sql = try relation.allCTEs.withClauseSQL(context)
                + "DELETE FROM " + relation.source.tableName.quotedDatabaseIdentifier
                + keySubqueryClause(context)
                + returningSQL(context, selection: selection)
            return try makeStatement(db, sql: sql, context: context)
        }
        let alias = QualifiedRelation(relation).alias
        let context = SQLGenerationContext(db, aliases: [alias])
        var sql = try relation.ctes.withClauseSQL(context)
        sql += "DELETE FROM " + tableSQL(context, alias: alias, keyword: " AS ")
        sql += try whereOrderLimitSQL(context, alias: alias, selection: selection)
        return try makeStatement(db, sql: sql, context: context)
    }

    /// `UPDATE ... SET ... WHERE ...`, or nil when there is nothing to set.
    ///
    /// With joined associations, or grouped by a unique key: `UPDATE table
    /// SET ... WHERE rowid IN (SELECT rowid FROM table JOIN ... GROUP BY
    /// ...)`. Grouped otherwise: `SQLITE_MISUSE`.
    func makeUpdateStatement(
        _ db: Database,
        conflictResolution: Database.ConflictResolution,
        assignments: [ColumnAssignment],
        selection: [any SQLSelectable] = []) throws -> Statement?
    {
        // `noOverwrite` assignments set nothing.
        let assignments = assignments.compactMap { assignment in assignment.value.map { (assignment.columnName, $0) } }
        if assignments.isEmpty { return nil }
        let usesSubquery = try needsKeySubquery(db, operation: "update")
        // Assignments refer to the updated table, which the subquery reads
        // under another alias.
        let alias =
            usesSubquery ? TableAliasBase(tableName: relation.source.tableName) : QualifiedRelation(relation).alias
        let context = SQLGenerationContext(db, aliases: [alias])
        var sql = try relation.allCTEs.withClauseSQL(context)
        sql += conflictResolution == .abort ? "UPDATE " : "UPDATE OR \(conflictResolution.rawValue) "
        sql += tableSQL(context, alias: alias, keyword: " AS ")
        sql += try " SET " + assignments.map { columnName, value in
            try columnName.quotedDatabaseIdentifier + " = " + value.qualified(with: alias).sql(context)
        }.joined(separator: ", ")
        if usesSubquery {
            sql += try keySubqueryClause(context) + returningSQL(context, selection: selection)
        } else {
            sql += try whereOrderLimitSQL(context, alias: alias, selection: selection)
        }
        return try makeStatement(db, sql: sql, context: context)
    }

    /// Whether DELETE and UPDATE must find their rows with a subquery: the
    /// request has joined associations, or groups its rows by a unique key
    /// (one row per row of the table). A request grouped by anything else
    /// mixes rows of the table: it can't be deleted nor updated.
    private func needsKeySubquery(_ db: Database, operation: String) throws -> Bool {
        guard let group = try relation.group?.resolve(db), !group.isEmpty else {
            return !relation.joinedChildren.isEmpty
        }
        let tableName = relation.source.tableName
        let alias = QualifiedRelation(relation).alias
        var columns: [String] = []
        for expression in group {
            guard let column = expression.qualified(with: alias).groupedColumn(of: alias) else { break }
            columns.append(column)
        }
        if columns.count == group.count, try db.tableExists(tableName), try db.table(tableName, hasUniqueKey: columns) {
            return true
        }
        throw DatabaseError(
            resultCode: .SQLITE_MISUSE,
            message: "Can't \(operation) a request grouped by something else than a unique key of \(tableName)")
    }

    /// ` WHERE rowid IN (SELECT table.rowid FROM table JOIN ...)`: the rows
    /// of a request with joins, for DELETE and UPDATE statements.
    private func keySubqueryClause(_ context: SQLGenerationContext) throws -> String {
        let key = try fastPrimaryKey(context.db)
        let subquery = SQLQueryGenerator(relation: relation.selectingOnly(key.map { .expression(.column($0)) }))
        let columns = key.map(\.quotedDatabaseIdentifier).joined(separator: ", ")
        return try " WHERE " + (key.count == 1 ? columns : "(\(columns))")
            + " IN (" + subquery.requestSQL(context) + ")"
    }

    /// The columns that identify a row: the rowid, or the primary key of a
    /// WITHOUT ROWID table.
    private func fastPrimaryKey(_ db: Database) throws -> [String] {
        let primaryKey = try db.primaryKey(relation.source.tableName)
        if let column = primaryKey.rowIDColumn { return [column] }
        if primaryKey.tableHasRowID { return ["rowid"] }
        return primaryKey.columns
    }

    private func makeStatement(_ db: Database, sql: String, context: SQLGenerationContext) throws -> Statement {
        let statement = try db.cachedStatement(sql: sql)
        try statement.setArguments(context.arguments)
        return statement
    }

    /// ` RETURNING ...`, or the empty string for an empty selection. The
    /// returned columns are those of the deleted or updated table, never
    /// qualified: `RETURNING *`, `RETURNING "id", "name"`.
    private func returningSQL(_ context: SQLGenerationContext, selection: [any SQLSelectable]) throws -> String {
        if selection.isEmpty { return "" }
        let alias = TableAliasBase(tableName: relation.source.tableName)
        let returningContext = context.subqueryContext(aliases: [alias])
        return try " RETURNING " + selection.map { try $0.sqlSelection.qualified(with: alias).sql(returningContext) }
            .joined(separator: ", ")
    }

    /// ` WHERE ... [RETURNING ...] [ORDER BY ...] [LIMIT ...]`, in the
    /// order of SQLite's grammar.
    private func whereOrderLimitSQL(
        _ context: SQLGenerationContext,
        alias: TableAliasBase,
        selection: [any SQLSelectable] = []) throws -> String
    {
        var sql = ""
        if let filter = try relation.filter?.resolve(context.db).qualified(with: alias) {
            sql += try " WHERE " + filter.sql(context)
        }
        sql += try returningSQL(context, selection: selection)
        // SQLite honors ORDER BY and LIMIT in DELETE and UPDATE when built
        // with SQLITE_ENABLE_UPDATE_DELETE_LIMIT (Debian's is).
        if let limit = relation.limit {
            let orderings = try relation.ordering.resolve(context.db)
            if !orderings.isEmpty {
                sql += try " ORDER BY " + orderings.map { try $0.qualified(with: alias).sql(context) }
                    .joined(separator: ", ")
            }
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

    /// `LIMIT ?` or `LIMIT ? OFFSET ?`: limits are bound like other values.
    private func limitSQL(_ limit: SQLLimit, _ context: SQLGenerationContext) -> String {
        context.append(limit.limit.databaseValue)
        guard let offset = limit.offset else { return " LIMIT ?" }
        context.append(offset.databaseValue)
        return " LIMIT ? OFFSET ?"
    }
}

// MARK: - QualifiedRelation

/// A relation and its joined children, each with the alias that qualifies
/// its columns for one generation of SQL.
private struct QualifiedRelation {
    let relation: SQLRelation
    let alias: TableAliasBase
    let joins: [QualifiedJoin]

    init(_ relation: SQLRelation) {
        self.relation = relation
        self.alias = relation.source.alias ?? TableAliasBase(tableName: relation.source.tableName)
        self.joins = relation.joinedChildren.map(QualifiedJoin.init)
    }

    /// The aliases of all joined tables: the context names them.
    var allAliases: [TableAliasBase] {
        [alias] + joins.flatMap(\.relation.allAliases)
    }

    /// The selection of the table, then the ones of joined associations.
    func selection(_ db: Database) throws -> [SQLSelection] {
        try relation.selection.resolve(db).map { $0.qualified(with: alias) }
            + joins.flatMap { try $0.relation.selection(db) }
    }

    /// The ordering of the table, then the ones of joined associations,
    /// reversed with the table's (`reversed`: a parent is reversed).
    func orderings(_ db: Database, reversed: Bool = false) throws -> [SQLOrdering] {
        let own = try relation.ordering.resolve(db, reversedByParent: reversed).map { $0.qualified(with: alias) }
        let isReversed = reversed != relation.ordering.isReversed
        return try own + joins.flatMap { try $0.relation.orderings(db, reversed: isReversed) }
    }

    func tableSQL(_ context: SQLGenerationContext) -> String {
        var sql = relation.source.tableName.quotedDatabaseIdentifier
        if let aliasName = context.aliasName(for: alias) {
            sql += " " + aliasName.quotedDatabaseIdentifier
        }
        return sql
    }

    /// The layout of the columns selected by this relation and its joined
    /// children, from column `start` of the row.
    func layout(_ db: Database, start: Int, ctes: [SQLCTE]) throws -> (
        count: Int, scopes: [String: Row.ScopeLayout], end: Int
    ) {
        let count = try columnCount(db, ctes: ctes)
        var end = start + count
        var scopes: [String: Row.ScopeLayout] = [:]
        for join in joins {
            let childStart = end
            let child = try join.relation.layout(db, start: childStart, ctes: ctes)
            // A joined table without selected columns, nor included
            // children, has no scope.
            if child.end > childStart {
                scopes[join.key] = Row.ScopeLayout(offset: childStart - start, count: child.count, scopes: child.scopes)
            }
            end = child.end
        }
        return (count, scopes, end)
    }

    /// The number of columns selected by the relation itself.
    private func columnCount(_ db: Database, ctes: [SQLCTE]) throws -> Int {
        func tableColumnCount(_ tableName: String) throws -> Int {
            if let cte = ctes.named(tableName) {
                return try ctes.columnCount(of: cte, db)
            }
            return try db.columns(in: tableName).count
        }
        return try relation.selection.resolve(db).reduce(0) { count, selection in
            switch selection.impl {
            case .allColumns:
                return try count + tableColumnCount(relation.source.tableName)
            case .qualifiedAllColumns(let alias):
                return try count + tableColumnCount(alias.tableName)
            case .allColumnsExcluding(let excluded):
                return try count + db.columns(in: relation.source.tableName)
                    .count { !excluded.contains(CaseInsensitiveIdentifier($0.name)) }
            case let .qualifiedAllColumnsExcluding(alias, excluded):
                return try count
                    + db.columns(in: alias.tableName).count { !excluded.contains(CaseInsensitiveIdentifier($0.name)) }
            case .expression, .aliased:
                return count + 1
            case .literal:
                // Raw SQL may select several columns: ask SQLite.
                let context = SQLGenerationContext(db, aliases: [alias])
                let sql = try ctes.withClauseSQL(context)
                    + "SELECT " + selection.qualified(with: alias).sql(context) + " FROM " + tableSQL(context)
                return try count + db.cachedStatement(sql: sql).columnCount
            }
        }
    }
}

/// A joined association.
private struct QualifiedJoin {
    let key: String
    let isRequired: Bool
    let condition: SQLAssociationCondition
    let relation: QualifiedRelation

    init(_ child: SQLRelation.Child) {
        key = child.key
        isRequired = child.kind == .oneRequired
        condition = child.condition
        relation = QualifiedRelation(child.relation)
    }

    /// `JOIN "author" ON "author"."id" = "book"."authorId" [AND filter]`,
    /// followed by the joins of the association's own associations.
    func sql(_ context: SQLGenerationContext, leftAlias: TableAliasBase, allowsRequired: Bool) throws -> String {
        // An inner join behind a left join would discard the rows of the
        // left join that have no match.
        precondition(
            allowsRequired || !isRequired,
            "Not implemented: chaining a required association behind an optional association")
        let db = context.db
        var sql = (isRequired ? "JOIN " : "LEFT JOIN ") + relation.tableSQL(context)
        var conditions = try [condition.joinExpression(db, left: leftAlias, right: relation.alias)].compactMap { $0 }
        if let filter = try relation.relation.filter?.resolve(db) {
            conditions.append(filter.qualified(with: relation.alias))
        }
        if !conditions.isEmpty {
            sql += try " ON " + SQLExpression.associative(.and, conditions).sql(context)
        }
        for join in relation.joins {
            sql += try " " + join.sql(context, leftAlias: relation.alias, allowsRequired: allowsRequired && isRequired)
        }
        return sql
    }
}

// MARK: - Counting

extension SQLRelation {
    /// The number of rows of the relation: `SELECT COUNT(*) FROM ...` when
    /// the selection does not matter, `SELECT COUNT(*) FROM (SELECT ...)`
    /// otherwise, and when joined associations may change the number of
    /// rows. Prefetched associations don't.
    ///
    /// As in GRDB, `SELECT DISTINCT expr` is counted with `COUNT(DISTINCT
    /// expr)`, which does not count NULL.
    func fetchCount(_ db: Database) throws -> Int {
        if group != nil || limit != nil || !joinedChildren.isEmpty {
            return try fetchTrivialCount(db)
        }
        let selection = try self.selection.resolve(db)
        if isDistinct {
            guard selection.count == 1, let expression = selection[0].distinctCountExpression else {
                return try fetchTrivialCount(db)
            }
            let countRelation = unordered().removingPrefetchedChildren().with {
                $0.isDistinct = false
                $0.selection = DatabasePromise(value: [.expression(.aggregate("COUNT", [expression], isDistinct: true))]
                )
            }
            return try Int.fetchOne(SQLQueryGenerator(relation: countRelation).makeStatement(db)) ?? 0
        }
        // Aliased columns and literals may be used by the WHERE clause:
        // keep them.
        let selectionMatters = selection.contains {
            switch $0.impl {
            case .allColumns, .allColumnsExcluding, .expression: false
            case .qualifiedAllColumns, .qualifiedAllColumnsExcluding, .aliased, .literal: true
            }
        }
        if selectionMatters {
            return try fetchTrivialCount(db)
        }
        let countRelation = unordered().removingPrefetchedChildren().with {
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

extension SQLSelection {
    /// The expression that `COUNT(DISTINCT ...)` counts for a `SELECT
    /// DISTINCT` of this single selection, if any.
    fileprivate var distinctCountExpression: SQLExpression? {
        switch impl {
        case .expression(let expression), .aliased(let expression, _): expression
        case .allColumns, .qualifiedAllColumns, .allColumnsExcluding, .qualifiedAllColumnsExcluding, .literal: nil
        }
    }
}
