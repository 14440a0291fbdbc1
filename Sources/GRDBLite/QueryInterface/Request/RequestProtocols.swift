// The abilities of requests, split as in GRDB so that generic code and
// app extensions can target what they need:
//
//     extension DerivableRequest<Author> {
//         func filter(countryCode: String) -> Self {
//             filter { $0.countryCode == countryCode }
//         }
//     }

// MARK: - TypedRequest

/// A request whose rows are decoded by `RowDecoder`.
public protocol TypedRequest<RowDecoder> {
    /// The type that decodes fetched rows.
    associatedtype RowDecoder
}

// MARK: - SelectionRequest

/// A request that can change its selected columns.
public protocol SelectionRequest {
    /// A request that selects the result of `selection`, which may read the
    /// database schema.
    func selectWhenConnected(_ selection: @escaping @Sendable (Database) throws -> [any SQLSelectable]) -> Self

    /// A request that appends the result of `selection` to the selection.
    func annotatedWhenConnected(with selection: @escaping @Sendable (Database) throws -> [any SQLSelectable]) -> Self
}

extension SelectionRequest {
    /// Replaces the selection.
    ///
    /// ```swift
    /// // SELECT id, name FROM player
    /// let request = Player.all().select([Column("id"), Column("name")])
    /// ```
    public func select(_ selection: [any SQLSelectable]) -> Self {
        let selection = selection.map(\.sqlSelection)
        return selectWhenConnected { _ in selection }
    }

    /// Replaces the selection.
    public func select(_ selection: any SQLSelectable...) -> Self {
        select(selection)
    }

    /// Replaces the selection with raw SQL.
    public func select(sql: String, arguments: StatementArguments = StatementArguments()) -> Self {
        select(SQL(sql: sql, arguments: arguments))
    }

    /// Replaces the selection with an SQL literal.
    public func select(literal sqlLiteral: SQL) -> Self {
        select(sqlLiteral)
    }

    /// Appends to the selection.
    ///
    /// ```swift
    /// // SELECT *, score + bonus AS total FROM player
    /// let request = Player.all().annotated(with: (Column("score") + Column("bonus")).forKey("total"))
    /// ```
    public func annotated(with selection: [any SQLSelectable]) -> Self {
        let selection = selection.map(\.sqlSelection)
        return annotatedWhenConnected { _ in selection }
    }

    /// Appends to the selection.
    public func annotated(with selection: any SQLSelectable...) -> Self {
        annotated(with: selection)
    }
}

extension SelectionRequest where Self: TypedRequest, RowDecoder: TableRecord {
    /// What the closures of requests receive: the `Columns` of the record.
    public typealias DatabaseComponents = RowDecoder.DatabaseComponents

    /// Replaces the selection: `select { $0.name }`, `select(\.name)`.
    public func select(_ selection: (DatabaseComponents) throws -> any SQLSelectable) rethrows -> Self {
        try select(selection(RowDecoder.databaseComponents))
    }

    /// Replaces the selection: `select { [$0.id, $0.name] }`.
    public func select(_ selection: (DatabaseComponents) throws -> [any SQLSelectable]) rethrows -> Self {
        try select(selection(RowDecoder.databaseComponents))
    }

    /// Appends to the selection.
    public func annotated(with selection: (DatabaseComponents) throws -> any SQLSelectable) rethrows -> Self {
        try annotated(with: selection(RowDecoder.databaseComponents))
    }

    /// Appends to the selection.
    public func annotated(with selection: (DatabaseComponents) throws -> [any SQLSelectable]) rethrows -> Self {
        try annotated(with: selection(RowDecoder.databaseComponents))
    }
}

// MARK: - FilteredRequest

/// A request that can be filtered.
public protocol FilteredRequest {
    /// A request filtered by the result of `predicate` (combined with AND),
    /// which may read the database schema.
    func filterWhenConnected(_ predicate: @escaping @Sendable (Database) throws -> any SQLExpressible) -> Self
}

extension FilteredRequest {
    /// Adds a condition, combined with AND.
    ///
    /// ```swift
    /// // SELECT * FROM player WHERE score > ?
    /// let request = Player.all().filter(Column("score") > 1000)
    /// ```
    ///
    /// The predicate is an expression, not a plain value: `filter(42)`
    /// does not compile.
    public func filter(_ predicate: some SQLSpecificExpressible) -> Self {
        let predicate = predicate.sqlExpression
        return filterWhenConnected { _ in predicate }
    }

    /// Adds a condition written in SQL.
    public func filter(sql: String, arguments: StatementArguments = StatementArguments()) -> Self {
        filter(SQL(sql: sql, arguments: arguments))
    }

    /// Adds a condition written as an SQL literal.
    public func filter(literal sqlLiteral: SQL) -> Self {
        filter(sqlLiteral)
    }

    /// A request that returns no row.
    public func none() -> Self {
        filterWhenConnected { _ in false }
    }

    /// The request itself.
    public func all() -> Self {
        self
    }
}

extension FilteredRequest where Self: TypedRequest, RowDecoder: TableRecord {
    /// What the closures of requests receive: the `Columns` of the record.
    public typealias DatabaseComponents = RowDecoder.DatabaseComponents

    /// Adds a condition, combined with AND: `filter { $0.score > 1000 }`.
    public func filter(_ predicate: (DatabaseComponents) throws -> any SQLSpecificExpressible) rethrows -> Self {
        try filter(predicate(RowDecoder.databaseComponents))
    }
}

// MARK: - TableRequest

/// A request that reads a database table.
public protocol TableRequest {
    /// The name of the table.
    var databaseTableName: String { get }

    /// A request whose table is aliased. Not an API: use
    /// ``TableRequest/aliased(_:)``.
    func _aliased(_ alias: TableAliasBase) -> Self
}

extension TableRequest where Self: TypedRequest {
    /// A request whose table is named by `alias`, so that its columns can
    /// be referred to from other tables of the request, or from subqueries.
    ///
    /// ```swift
    /// let alias = TableAlias(name: "p")
    /// // SELECT "p".* FROM "player" "p" WHERE "p"."score" > ?
    /// let request = Player.all().aliased(alias).filter(alias[Column("score")] > 1000)
    /// ```
    public func aliased(_ alias: TableAlias<Void>) -> Self {
        _aliased(alias)
    }

    /// A request whose table is named by `alias`.
    public func aliased(_ alias: TableAlias<RowDecoder>) -> Self {
        _aliased(alias)
    }
}

extension TableRequest where Self: FilteredRequest {
    /// Filters by primary key: `"id" = ?`. A NULL key matches no row.
    ///
    /// ```swift
    /// let request = Player.all().filter(key: 1)
    /// let request = Country.all().filter(key: "FR")
    /// ```
    public func filter(key: some DatabaseValueConvertible) -> Self {
        let dbValue = key.databaseValue
        if dbValue.isNull { return none() }
        return filter(keys: [dbValue])
    }

    /// Filters by primary keys: `"id" IN (?, ?, ?)`.
    public func filter<Keys>(keys: Keys) -> Self where Keys: Collection, Keys.Element: DatabaseValueConvertible {
        // A closure, not a key path: a generic key path is built at run time.
        let values = keys.map { $0.databaseValue }
        if values.isEmpty { return none() }
        let tableName = databaseTableName
        return filterWhenConnected { db in
            try RecordKeys.primaryKey(db, table: tableName, values: values)
        }
    }

    /// Filters by a unique key: `filter(key: ["email": "arthur@example.com"])`.
    /// A nil key matches no row. Columns that hold no unique key are a
    /// programmer error.
    public func filter(key: [String: (any DatabaseValueConvertible)?]?) -> Self {
        guard let key else { return none() }
        return filter(keys: [key])
    }

    /// Filters by unique keys.
    public func filter(keys: [[String: (any DatabaseValueConvertible)?]]) -> Self {
        if keys.isEmpty { return none() }
        // Sendable values, for the closure.
        let keys = keys.map { $0.mapValues { $0?.databaseValue ?? .null } }
        let tableName = databaseTableName
        return filterWhenConnected { db in
            try RecordKeys.uniqueKeys(db, table: tableName, keys: keys.map { $0.mapValues { $0 } })
        }
    }
}

extension TableRequest where Self: FilteredRequest, Self: TypedRequest, RowDecoder: Identifiable,
                             RowDecoder.ID: DatabaseValueConvertible
{
    /// Filters by id.
    public func filter(id: RowDecoder.ID) -> Self {
        filter(key: id)
    }

    /// Filters by ids.
    public func filter(ids: some Collection<RowDecoder.ID>) -> Self {
        filter(keys: ids)
    }
}

extension TableRequest where Self: OrderedRequest {
    /// Orders by primary key.
    public func orderByPrimaryKey() -> Self {
        let tableName = databaseTableName
        return orderWhenConnected { db in
            try db.primaryKey(tableName).columns.map { Column($0) }
        }
    }
}

extension TableRequest where Self: AggregatingRequest {
    /// Groups by primary key: the rowid when the table has one (named as
    /// its `INTEGER PRIMARY KEY` column, if any), as in GRDB.
    public func groupByPrimaryKey() -> Self {
        let tableName = databaseTableName
        return groupWhenConnected { db in
            let primaryKey = try db.primaryKey(tableName)
            if let column = primaryKey.rowIDColumn { return [Column(column)] }
            if primaryKey.tableHasRowID { return [Column.rowID] }
            return primaryKey.columns.map { Column($0) }
        }
    }
}

// MARK: - AggregatingRequest

/// A request that can be grouped: GROUP BY and HAVING.
public protocol AggregatingRequest {
    /// A request grouped by the result of `expressions`, which may read
    /// the database schema.
    func groupWhenConnected(_ expressions: @escaping @Sendable (Database) throws -> [any SQLExpressible]) -> Self

    /// A request whose groups are filtered by the result of `predicate`
    /// (combined with AND).
    func havingWhenConnected(_ predicate: @escaping @Sendable (Database) throws -> any SQLExpressible) -> Self
}

extension AggregatingRequest {
    /// Replaces the grouping: `GROUP BY ...`.
    public func group(_ expressions: [any SQLExpressible]) -> Self {
        let expressions = expressions.map(\.sqlExpression)
        return groupWhenConnected { _ in expressions }
    }

    /// Replaces the grouping: `GROUP BY ...`.
    public func group(_ expressions: any SQLExpressible...) -> Self {
        group(expressions)
    }

    /// Replaces the grouping with raw SQL.
    public func group(sql: String, arguments: StatementArguments = StatementArguments()) -> Self {
        group(SQL(sql: sql, arguments: arguments))
    }

    /// Replaces the grouping with an SQL literal.
    public func group(literal sqlLiteral: SQL) -> Self {
        group(sqlLiteral)
    }

    /// Adds a condition on groups, combined with AND: `HAVING ...`.
    public func having(_ predicate: some SQLExpressible) -> Self {
        let predicate = predicate.sqlExpression
        return havingWhenConnected { _ in predicate }
    }

    /// Adds a condition on groups, in raw SQL.
    public func having(sql: String, arguments: StatementArguments = StatementArguments()) -> Self {
        having(SQL(sql: sql, arguments: arguments))
    }

    /// Adds a condition on groups, as an SQL literal.
    public func having(literal sqlLiteral: SQL) -> Self {
        having(sqlLiteral)
    }
}

extension AggregatingRequest where Self: TypedRequest, RowDecoder: TableRecord {
    /// What the closures of requests receive: the `Columns` of the record.
    public typealias DatabaseComponents = RowDecoder.DatabaseComponents

    /// Replaces the grouping: `group { $0.teamId }`.
    public func group(_ expression: (DatabaseComponents) throws -> any SQLExpressible) rethrows -> Self {
        try group(expression(RowDecoder.databaseComponents))
    }

    /// Replaces the grouping: `group { [$0.teamId, $0.year] }`.
    public func group(_ expressions: (DatabaseComponents) throws -> [any SQLExpressible]) rethrows -> Self {
        try group(expressions(RowDecoder.databaseComponents))
    }

    /// Adds a condition on groups: `having { max($0.score) > 1000 }`.
    public func having(_ predicate: (DatabaseComponents) throws -> any SQLExpressible) rethrows -> Self {
        try having(predicate(RowDecoder.databaseComponents))
    }
}

// MARK: - OrderedRequest

/// A request that can be ordered.
public protocol OrderedRequest {
    /// A request ordered by the result of `orderings`, which may read the
    /// database schema. It replaces any previous ordering.
    func orderWhenConnected(_ orderings: @escaping @Sendable (Database) throws -> [any SQLOrderingTerm]) -> Self

    /// A request in the opposite order. An unordered request is unchanged.
    func reversed() -> Self

    /// A request without ORDER BY.
    func unordered() -> Self

    /// A request whose order is made deterministic by the primary key.
    func withStableOrder() -> Self
}

extension OrderedRequest {
    /// Replaces the ordering.
    ///
    /// ```swift
    /// // SELECT * FROM player ORDER BY score DESC, name
    /// let request = Player.all().order(Column("score").desc, Column("name"))
    /// ```
    public func order(_ orderings: any SQLOrderingTerm...) -> Self {
        order(orderings)
    }

    /// Replaces the ordering.
    public func order(_ orderings: [any SQLOrderingTerm]) -> Self {
        let orderings = orderings.map(\.sqlOrdering)
        return orderWhenConnected { _ in orderings }
    }

    /// Replaces the ordering with raw SQL (which can't be reversed).
    public func order(sql: String, arguments: StatementArguments = StatementArguments()) -> Self {
        order(SQL(sql: sql, arguments: arguments))
    }

    /// Replaces the ordering with an SQL literal (which can't be reversed).
    public func order(literal sqlLiteral: SQL) -> Self {
        order(sqlLiteral)
    }
}

extension OrderedRequest where Self: TypedRequest, RowDecoder: TableRecord {
    /// What the closures of requests receive: the `Columns` of the record.
    public typealias DatabaseComponents = RowDecoder.DatabaseComponents

    /// Replaces the ordering: `order { $0.name }`, `order(\.name)`.
    public func order(_ ordering: (DatabaseComponents) throws -> any SQLOrderingTerm) rethrows -> Self {
        try order(ordering(RowDecoder.databaseComponents))
    }

    /// Replaces the ordering: `order { [$0.score.desc, $0.name] }`.
    public func order(_ orderings: (DatabaseComponents) throws -> [any SQLOrderingTerm]) rethrows -> Self {
        try order(orderings(RowDecoder.databaseComponents))
    }
}

// MARK: - JoinableRequest

/// A request that can join associations: see ``JoinableRequest/including(required:)``.
public protocol JoinableRequest<RowDecoder>: TypedRequest {
    /// Prefetches a to-many association. Not an API: use `including(all:)`.
    func _including(all association: _SQLAssociation) -> Self
    /// Joins and selects an association with LEFT JOIN. Not an API: use `including(optional:)`.
    func _including(optional association: _SQLAssociation) -> Self
    /// Joins and selects an association with JOIN. Not an API: use `including(required:)`.
    func _including(required association: _SQLAssociation) -> Self
    /// Joins an association with LEFT JOIN. Not an API: use `joining(optional:)`.
    func _joining(optional association: _SQLAssociation) -> Self
    /// Joins an association with JOIN. Not an API: use `joining(required:)`.
    func _joining(required association: _SQLAssociation) -> Self
}

extension JoinableRequest {
    /// Prefetches the rows of a to-many association, with a second request,
    /// into the prefetched rows named after the association key (`books`
    /// for `Author.books`).
    ///
    /// ```swift
    /// struct LiteraryCareer: Decodable, FetchableRecord {
    ///     var author: Author
    ///     var books: [Book]
    /// }
    /// // SELECT * FROM author
    /// // SELECT *, authorId AS grdb_authorId FROM book WHERE authorId IN (1, 2, 3)
    /// let careers = try Author.including(all: Author.books).asRequest(of: LiteraryCareer.self).fetchAll(db)
    /// ```
    public func including<A: AssociationToMany>(all association: A) -> Self where A.OriginRowDecoder == RowDecoder {
        _including(all: association._sqlAssociation)
    }

    /// Joins an association with LEFT JOIN, and selects its columns in the
    /// row scope named after the association key. Without a match, the
    /// scope only contains NULL, and decodes as nil.
    ///
    /// ```swift
    /// // SELECT book.*, author.* FROM book LEFT JOIN author ON author.id = book.authorId
    /// let request = Book.including(optional: Book.author)
    /// ```
    public func including<A: Association>(optional association: A) -> Self where A.OriginRowDecoder == RowDecoder {
        _including(optional: association._sqlAssociation)
    }

    /// Joins an association with JOIN, and selects its columns in the row
    /// scope named after the association key: rows without a match are
    /// not fetched.
    ///
    /// ```swift
    /// struct Authorship: Decodable, FetchableRecord {
    ///     var book: Book
    ///     var author: Author
    /// }
    /// // SELECT book.*, author.* FROM book JOIN author ON author.id = book.authorId
    /// let authorships = try Book.including(required: Book.author).asRequest(of: Authorship.self).fetchAll(db)
    /// ```
    public func including<A: Association>(required association: A) -> Self where A.OriginRowDecoder == RowDecoder {
        _including(required: association._sqlAssociation)
    }

    /// Joins an association with LEFT JOIN, without selecting its columns:
    /// its columns can be used in the request (through a ``TableAlias``).
    public func joining<A: Association>(optional association: A) -> Self where A.OriginRowDecoder == RowDecoder {
        _joining(optional: association._sqlAssociation)
    }

    /// Joins an association with JOIN, without selecting its columns: rows
    /// without a match are not fetched.
    ///
    /// ```swift
    /// // SELECT book.* FROM book JOIN author ON author.id = book.authorId AND author.countryCode = ?
    /// let italianBooks = Book.joining(required: Book.author.filter { $0.countryCode == "IT" })
    /// ```
    public func joining<A: Association>(required association: A) -> Self where A.OriginRowDecoder == RowDecoder {
        _joining(required: association._sqlAssociation)
    }
}

extension JoinableRequest where Self: SelectionRequest {
    /// Joins an association with LEFT JOIN, and appends its columns to the
    /// selection, instead of a row scope.
    ///
    /// ```swift
    /// // SELECT book.*, author.* FROM book LEFT JOIN author ON author.id = book.authorId
    /// let request = Book.annotated(withOptional: Book.author.select(\.name))
    /// ```
    public func annotated<A: Association>(withOptional association: A) -> Self where A.OriginRowDecoder == RowDecoder {
        let alias = TableAliasBase()
        let selection = association._sqlAssociation.destination.relation.selection
        return joining(optional: association._aliased(alias))
            .annotatedWhenConnected { db in try selection.resolve(db).map { alias[$0] } }
    }

    /// Joins an association with JOIN, and appends its columns to the
    /// selection, instead of a row scope.
    public func annotated<A: Association>(withRequired association: A) -> Self where A.OriginRowDecoder == RowDecoder {
        let alias = TableAliasBase()
        let selection = association._sqlAssociation.destination.relation.selection
        return joining(required: association._aliased(alias))
            .annotatedWhenConnected { db in try selection.resolve(db).map { alias[$0] } }
    }
}

// MARK: - DerivableRequest

/// A request that can be refined in all the ways of the query interface,
/// and keeps its type: extend it to define reusable request methods.
///
/// ```swift
/// extension DerivableRequest<Author> {
///     func orderByName() -> Self {
///         order { $0.name.collating(.localizedCaseInsensitiveCompare) }
///     }
/// }
/// ```
public protocol DerivableRequest<RowDecoder>: TypedRequest, AggregatingRequest, FilteredRequest,
                                              JoinableRequest, OrderedRequest, SelectionRequest, TableRequest
{
    /// A request that returns distinct rows: `SELECT DISTINCT`.
    func distinct() -> Self

    /// The request, with `cte` in its `WITH` clause.
    func with<T>(_ cte: CommonTableExpression<T>) -> Self
}
