/// A request built with the query interface: `Player.all()`,
/// `Player.filter { $0.score > 1000 }.order(\.name)`.
///
/// Each method returns a new request; the database is only accessed when
/// the request is fetched. `RowDecoder` is the type that decodes rows:
/// a record, a value (`select(\.name, as: String.self)`), or `Row`.
///
/// ```swift
/// let request = Player.filter { $0.score > 1000 }.order(\.name).limit(10)
/// let players = try request.fetchAll(db)
/// // SELECT * FROM "player" WHERE "score" > ? ORDER BY "name" LIMIT ?
/// ```
public struct QueryInterfaceRequest<RowDecoder>: Sendable {
    var relation: SQLRelation

    init(relation: SQLRelation) {
        self.relation = relation
    }

    func with(_ update: (inout SQLRelation) -> Void) -> QueryInterfaceRequest {
        var request = self
        update(&request.relation)
        return request
    }
}

extension QueryInterfaceRequest: FetchRequest {
    public var sqlSubquery: SQLSubquery {
        .generated(SQLQueryGenerator(relation: relation))
    }

    public func fetchCount(_ db: Database) throws -> Int {
        try relation.fetchCount(db)
    }

    public func makePreparedRequest(_ db: Database, forSingleResult singleResult: Bool = false) throws
        -> PreparedRequest
    {
        try relation.makePreparedRequest(db, forSingleResult: singleResult)
    }
}

// MARK: - Deriving requests

extension QueryInterfaceRequest: SelectionRequest {
    public func selectWhenConnected(_ selection: @escaping @Sendable (Database) throws -> [any SQLSelectable]) -> Self {
        with { $0 = $0.select { db in try selection(db).map(\.sqlSelection) } }
    }

    public func annotatedWhenConnected(with selection: @escaping @Sendable (Database) throws -> [any SQLSelectable])
        -> Self
    {
        with { $0 = $0.annotated { db in try selection(db).map(\.sqlSelection) } }
    }

    /// A request of another type, that selects `selection`.
    ///
    /// ```swift
    /// // SELECT MAX(score) FROM player
    /// let maxScore = try Player.all().select([max(Column("score"))], as: Int.self).fetchOne(db)
    /// ```
    public func select<T>(_ selection: [any SQLSelectable], as type: T.Type = T.self) -> QueryInterfaceRequest<T> {
        select(selection).asRequest(of: T.self)
    }

    /// A request of another type, that selects `selection`.
    public func select<T>(_ selection: any SQLSelectable..., as type: T.Type = T.self) -> QueryInterfaceRequest<T> {
        select(selection, as: type)
    }

    /// A request of another type, that selects raw SQL.
    public func select<T>(
        sql: String,
        arguments: StatementArguments = StatementArguments(),
        as type: T.Type = T.self) -> QueryInterfaceRequest<T>
    {
        select(SQL(sql: sql, arguments: arguments), as: type)
    }

    /// A request of another type, that selects an SQL literal.
    public func select<T>(literal sqlLiteral: SQL, as type: T.Type = T.self) -> QueryInterfaceRequest<T> {
        select(sqlLiteral, as: type)
    }

    /// A request of the primary key values.
    public func selectPrimaryKey<PrimaryKey>(as type: PrimaryKey.Type = PrimaryKey.self) -> QueryInterfaceRequest<
        PrimaryKey
    > {
        let tableName = databaseTableName
        return selectWhenConnected { db in
            try db.primaryKey(tableName).columns.map { Column($0) }
        }.asRequest(of: PrimaryKey.self)
    }
}

extension QueryInterfaceRequest where RowDecoder: TableRecord {
    /// A request of another type, that selects an expression of the
    /// record's columns.
    ///
    /// ```swift
    /// extension QueryInterfaceRequest<Author> {
    ///     func selectName() -> QueryInterfaceRequest<String> {
    ///         select(\.name)
    ///     }
    /// }
    /// let maxScore = try Player.all().select({ max($0.score) }, as: Int.self).fetchOne(db)
    /// ```
    public func select<T>(
        _ selection: (DatabaseComponents) throws -> any SQLSelectable,
        as type: T.Type = T.self) rethrows -> QueryInterfaceRequest<T>
    {
        try select(selection(RowDecoder.databaseComponents)).asRequest(of: T.self)
    }

    /// A request of another type, that selects expressions of the record's
    /// columns.
    public func select<T>(
        _ selection: (DatabaseComponents) throws -> [any SQLSelectable],
        as type: T.Type = T.self) rethrows -> QueryInterfaceRequest<T>
    {
        try select(selection(RowDecoder.databaseComponents)).asRequest(of: T.self)
    }
}

extension QueryInterfaceRequest where RowDecoder: Identifiable {
    /// A request of the ids (the single-column primary key).
    public func selectID() -> QueryInterfaceRequest<RowDecoder.ID> {
        let tableName = databaseTableName
        return selectWhenConnected { db in
            let primaryKey = try db.primaryKey(tableName)
            precondition(
                primaryKey.columns.count == 1, "selectID requires a single-column primary key in the table \(tableName)"
            )
            return [Column(primaryKey.columns[0])]
        }.asRequest(of: RowDecoder.ID.self)
    }
}

extension QueryInterfaceRequest: FilteredRequest {
    public func filterWhenConnected(_ predicate: @escaping @Sendable (Database) throws -> any SQLExpressible) -> Self {
        with { $0 = $0.filter { db in try predicate(db).sqlExpression } }
    }
}

extension QueryInterfaceRequest: OrderedRequest {
    public func orderWhenConnected(_ orderings: @escaping @Sendable (Database) throws -> [any SQLOrderingTerm]) -> Self
    {
        with { $0 = $0.order { db in try orderings(db).map(\.sqlOrdering) } }
    }

    public func reversed() -> Self {
        with { $0 = $0.reversed() }
    }

    public func unordered() -> Self {
        with { $0 = $0.unordered() }
    }

    /// The request, ordered by primary key after its own ordering, so that
    /// rows come in a deterministic order.
    public func withStableOrder() -> Self {
        with { $0 = $0.withStableOrder() }
    }
}

extension QueryInterfaceRequest: AggregatingRequest {
    public func groupWhenConnected(_ expressions: @escaping @Sendable (Database) throws -> [any SQLExpressible]) -> Self
    {
        with { $0 = $0.group { db in try expressions(db).map(\.sqlExpression) } }
    }

    public func havingWhenConnected(_ predicate: @escaping @Sendable (Database) throws -> any SQLExpressible) -> Self {
        with { $0 = $0.having { db in try predicate(db).sqlExpression } }
    }
}

extension QueryInterfaceRequest: TableRequest {
    public var databaseTableName: String {
        relation.source.tableName
    }

    /// Not an API: public because ``TableRequest`` requires it, as in GRDB.
    /// Use `aliased(_:)`.
    public func _aliased(_ alias: TableAliasBase) -> Self {
        with { $0 = $0.aliased(alias) }
    }
}

extension QueryInterfaceRequest: JoinableRequest {
    /// Not an API: public because ``JoinableRequest`` requires it, as in
    /// GRDB. Use `including(all:)`.
    public func _including(all association: _SQLAssociation) -> Self {
        with { $0 = $0.appendingChild(for: association, kind: .all) }
    }

    /// Not an API: public because ``JoinableRequest`` requires it, as in
    /// GRDB. Use `including(optional:)`.
    public func _including(optional association: _SQLAssociation) -> Self {
        with { $0 = $0.appendingChild(for: association, kind: .oneOptional) }
    }

    /// Not an API: public because ``JoinableRequest`` requires it, as in
    /// GRDB. Use `including(required:)`.
    public func _including(required association: _SQLAssociation) -> Self {
        with { $0 = $0.appendingChild(for: association, kind: .oneRequired) }
    }

    /// Not an API: public because ``JoinableRequest`` requires it, as in
    /// GRDB. Use `joining(optional:)`.
    public func _joining(optional association: _SQLAssociation) -> Self {
        with { $0 = $0.appendingChild(for: association.withoutSelectedColumns(), kind: .oneOptional) }
    }

    /// Not an API: public because ``JoinableRequest`` requires it, as in
    /// GRDB. Use `joining(required:)`.
    public func _joining(required association: _SQLAssociation) -> Self {
        with { $0 = $0.appendingChild(for: association.withoutSelectedColumns(), kind: .oneRequired) }
    }
}

extension QueryInterfaceRequest: DerivableRequest {
    public func distinct() -> Self {
        with { $0.isDistinct = true }
    }

    /// Limits the number of rows: `LIMIT limit [OFFSET offset]`.
    public func limit(_ limit: Int, offset: Int? = nil) -> Self {
        with { $0.limit = SQLLimit(limit: limit, offset: offset) }
    }
}

extension QueryInterfaceRequest {
    /// The same request, fetching another type.
    ///
    /// ```swift
    /// let rows = try Player.all().asRequest(of: Row.self).fetchAll(db)
    /// ```
    public func asRequest<T>(of type: T.Type) -> QueryInterfaceRequest<T> {
        QueryInterfaceRequest<T>(relation: relation)
    }
}

extension QueryInterfaceRequest where RowDecoder: TableRecord {
    /// What the closures of requests receive: the `Columns` of the record.
    public typealias DatabaseComponents = RowDecoder.DatabaseComponents
}

// MARK: - Existence

extension QueryInterfaceRequest {
    /// Whether the request returns no row: `SELECT EXISTS (...)`.
    public func isEmpty(_ db: Database) throws -> Bool {
        let context = SQLGenerationContext(db)
        let sql = try "SELECT " + exists().sql(context)
        let statement = try db.cachedStatement(sql: sql)
        try statement.setArguments(context.arguments)
        return try !(Bool.fetchOne(statement) ?? false)
    }
}

// MARK: - Batch delete and update

extension QueryInterfaceRequest {
    /// Deletes the rows of the request; returns the number of deleted rows.
    ///
    /// ```swift
    /// // DELETE FROM "player" WHERE "score" < ?
    /// try Player.filter { $0.score < 100 }.deleteAll(db)
    /// ```
    @discardableResult
    public func deleteAll(_ db: Database) throws -> Int {
        try db.changesCount(writing: relation.source.tableName) {
            try SQLQueryGenerator(relation: relation).makeDeleteStatement(db).execute()
        }
    }

    /// Updates the rows of the request; returns the number of updated rows.
    /// The database is not hit when there is no assignment.
    ///
    /// ```swift
    /// // UPDATE "player" SET "score" = "score" + ? WHERE "team" = ?
    /// try Player.filter { $0.team == "red" }.updateAll(db, Column("score") += 1)
    /// ```
    ///
    /// - parameter db: A connection that can write.
    /// - parameter conflictResolution: The conflict policy; by default, the
    ///   update policy of `MutablePersistableRecord` types, or ABORT.
    /// - parameter assignments: The columns to set, and their values.
    @discardableResult
    public func updateAll(
        _ db: Database,
        onConflict conflictResolution: Database.ConflictResolution? = nil,
        _ assignments: [ColumnAssignment]) throws -> Int
    {
        let conflictResolution = conflictResolution ?? defaultConflictResolutionForUpdate
        guard let statement = try SQLQueryGenerator(relation: relation).makeUpdateStatement(
            db, conflictResolution: conflictResolution, assignments: assignments) else { return 0 }
        return try db.changesCount(writing: relation.source.tableName) { try statement.execute() }
    }

    /// Updates the rows of the request; returns the number of updated rows.
    @discardableResult
    public func updateAll(
        _ db: Database,
        onConflict conflictResolution: Database.ConflictResolution? = nil,
        _ assignments: ColumnAssignment...) throws -> Int
    {
        try updateAll(db, onConflict: conflictResolution, assignments)
    }

    var defaultConflictResolutionForUpdate: Database.ConflictResolution {
        // Dynamic, as in GRDB: generic code gets the record's policy too.
        (RowDecoder.self as? any MutablePersistableRecord.Type)?.persistenceConflictPolicy.conflictResolutionForUpdate
            ?? .abort
    }
}

extension QueryInterfaceRequest where RowDecoder: TableRecord {
    /// Updates the rows of the request: `updateAll(db) { $0.score += 1 }`.
    @discardableResult
    public func updateAll(
        _ db: Database,
        onConflict conflictResolution: Database.ConflictResolution? = nil,
        assignment: (DatabaseComponents) throws -> ColumnAssignment) throws -> Int
    {
        try updateAll(db, onConflict: conflictResolution, [assignment(RowDecoder.databaseComponents)])
    }

    /// Updates the rows of the request:
    /// `updateAll(db) { [$0.score.set(to: 0), $0.bonus.set(to: nil)] }`.
    @discardableResult
    public func updateAll(
        _ db: Database,
        onConflict conflictResolution: Database.ConflictResolution? = nil,
        assignments: (DatabaseComponents) throws -> [ColumnAssignment]) throws -> Int
    {
        try updateAll(db, onConflict: conflictResolution, assignments(RowDecoder.databaseComponents))
    }
}
