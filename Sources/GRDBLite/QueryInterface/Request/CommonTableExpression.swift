/// A common table expression: a named subquery that a request declares in
/// its `WITH` clause, and reads as a table.
///
/// ```swift
/// // WITH "latestPost" AS (SELECT *, MAX("date") FROM "post" GROUP BY "chatId")
/// // SELECT "chat".*, "latestPost".* FROM "chat"
/// // LEFT JOIN "latestPost" ON "chat"."id" = "latestPost"."chatId"
/// let latestPostCTE = CommonTableExpression(
///     named: "latestPost",
///     request: Post.annotated { max($0.date) }.group(\.chatId))
/// let latestPost = Chat.association(to: latestPostCTE) { chat, post in
///     chat[Column("id")] == post[Column("chatId")]
/// }
/// let request = Chat.with(latestPostCTE).including(optional: latestPost)
///
/// // WITH RECURSIVE "counter"("x") AS (VALUES(1) UNION ALL SELECT x+1 FROM counter WHERE x < 10)
/// // SELECT * FROM "counter"
/// let counter = CommonTableExpression<Int>(
///     recursive: true, named: "counter", columns: ["x"],
///     sql: "VALUES(1) UNION ALL SELECT x+1 FROM counter WHERE x < 10")
/// let values = try counter.all().with(counter).fetchAll(db) // [1, ..., 10]
/// ```
///
/// A request declares the expressions it reads with `with(_:)`, on itself
/// or on the associations it joins; `RowDecoder` is the type that
/// ``all()`` fetches.
public struct CommonTableExpression<RowDecoder>: Sendable {
    let cte: SQLCTE

    /// The name of the expression, which requests read as a table name.
    public var tableName: String { cte.tableName }

    private init(recursive: Bool, named tableName: String, columns: [String]?, subquery: SQLSubquery) {
        cte = SQLCTE(tableName: tableName, columns: columns, subquery: subquery, isRecursive: recursive)
    }
}

extension CommonTableExpression {
    /// An expression defined by a request.
    ///
    /// - parameter recursive: Whether the expression reads itself (`WITH
    ///   RECURSIVE`).
    /// - parameter tableName: The name that requests read as a table name.
    /// - parameter columns: The names of its columns, if not those of the
    ///   request.
    /// - parameter request: The request that defines its rows.
    public init(
        recursive: Bool = false, named tableName: String, columns: [String]? = nil, request: some SQLSubqueryable
    ) {
        self.init(recursive: recursive, named: tableName, columns: columns, subquery: request.sqlSubquery)
    }

    /// An expression defined by SQL and arguments.
    public init(
        recursive: Bool = false,
        named tableName: String,
        columns: [String]? = nil,
        sql: String,
        arguments: StatementArguments = StatementArguments())
    {
        self.init(
            recursive: recursive, named: tableName, columns: columns,
            subquery: .literal(SQL(sql: sql, arguments: arguments)))
    }

    /// An expression defined by an SQL literal.
    public init(recursive: Bool = false, named tableName: String, columns: [String]? = nil, literal sqlLiteral: SQL) {
        self.init(recursive: recursive, named: tableName, columns: columns, subquery: .literal(sqlLiteral))
    }
}

extension CommonTableExpression<Row> {
    /// An expression of rows, defined by a request.
    public init(
        recursive: Bool = false, named tableName: String, columns: [String]? = nil, request: some SQLSubqueryable
    ) {
        self.init(recursive: recursive, named: tableName, columns: columns, subquery: request.sqlSubquery)
    }

    /// An expression of rows, defined by SQL and arguments.
    public init(
        recursive: Bool = false,
        named tableName: String,
        columns: [String]? = nil,
        sql: String,
        arguments: StatementArguments = StatementArguments())
    {
        self.init(
            recursive: recursive, named: tableName, columns: columns,
            subquery: .literal(SQL(sql: sql, arguments: arguments)))
    }

    /// An expression of rows, defined by an SQL literal.
    public init(recursive: Bool = false, named tableName: String, columns: [String]? = nil, literal sqlLiteral: SQL) {
        self.init(recursive: recursive, named: tableName, columns: columns, subquery: .literal(sqlLiteral))
    }
}

extension CommonTableExpression {
    /// `SELECT * FROM cte`
    var relationForAll: SQLRelation {
        .all(fromTable: tableName) { _ in [.allColumns] }
    }

    /// A request of all rows of the expression: `SELECT * FROM "cte"`.
    /// Fetching it needs the expression in the request's `WITH` clause:
    /// `cte.all().with(cte)`.
    public func all() -> QueryInterfaceRequest<RowDecoder> {
        QueryInterfaceRequest(relation: relationForAll)
    }

    /// `element IN "cte"`
    public func contains(_ element: some SQLExpressible) -> SQLExpression {
        SQLCollection.table(tableName).contains(element.sqlExpression)
    }

    /// The association to another expression, whose rows match
    /// `condition`.
    public func association<Destination>(
        to cte: CommonTableExpression<Destination>,
        on condition:
            @escaping @Sendable (_ left: TableAlias<RowDecoder>, _ right: TableAlias<Destination>) -> any SQLExpressible
    ) -> JoinAssociation<RowDecoder, Destination> {
        JoinAssociation(to: cte.relationForAll, on: condition)
    }

    /// The association to all rows of another expression.
    public func association<Destination>(to cte: CommonTableExpression<Destination>) -> JoinAssociation<
        RowDecoder, Destination
    > {
        JoinAssociation(to: cte.relationForAll)
    }

    /// The association to the records of a table, that match `condition`.
    public func association<Destination: TableRecord>(
        to destination: Destination.Type,
        on condition:
            @escaping @Sendable (_ left: TableAlias<RowDecoder>, _ right: TableAlias<Destination>) -> any SQLExpressible
    ) -> JoinAssociation<RowDecoder, Destination> {
        JoinAssociation(to: Destination.all().relation, on: condition)
    }

    /// The association to all records of a table.
    public func association<Destination: TableRecord>(to destination: Destination.Type) -> JoinAssociation<
        RowDecoder, Destination
    > {
        JoinAssociation(to: Destination.all().relation)
    }

    /// The association to the rows of a table, that match `condition`.
    public func association<Destination>(
        to destination: Table<Destination>,
        on condition:
            @escaping @Sendable (_ left: TableAlias<RowDecoder>, _ right: TableAlias<Destination>) -> any SQLExpressible
    ) -> JoinAssociation<RowDecoder, Destination> {
        JoinAssociation(to: destination.all().relation, on: condition)
    }

    /// The association to all rows of a table.
    public func association<Destination>(to destination: Table<Destination>) -> JoinAssociation<RowDecoder, Destination>
    {
        JoinAssociation(to: destination.all().relation)
    }
}

/// The definition of a common table expression, for the `WITH` clause.
struct SQLCTE: Sendable {
    var tableName: String
    /// Nil, or empty, for the columns of the subquery.
    var columns: [String]?
    var subquery: SQLSubquery
    var isRecursive: Bool

    /// `"name"("a", "b") AS (SELECT ...)`
    func definitionSQL(_ context: SQLGenerationContext) throws -> String {
        var sql = tableName.quotedDatabaseIdentifier
        if let columns, !columns.isEmpty {
            sql += "(" + columns.map(\.quotedDatabaseIdentifier).joined(separator: ", ") + ")"
        }
        return try sql + " AS (" + subquery.sql(context.subqueryContext(aliases: [])) + ")"
    }
}

extension [SQLCTE] {
    /// `WITH [RECURSIVE] "a" AS (...), "b" AS (...) `, or the empty string.
    func withClauseSQL(_ context: SQLGenerationContext) throws -> String {
        if isEmpty { return "" }
        let definitions = try map { try $0.definitionSQL(context) }.joined(separator: ", ")
        return (contains(where: \.isRecursive) ? "WITH RECURSIVE " : "WITH ") + definitions + " "
    }

    /// The expressions of `other` added to these; an expression with the
    /// same name as one of these replaces it, at its place.
    func merging(_ other: [SQLCTE]) -> [SQLCTE] {
        var result = self
        for cte in other {
            if let index = result.firstIndex(where: {
                CaseInsensitiveIdentifier($0.tableName) == CaseInsensitiveIdentifier(cte.tableName)
            }) {
                result[index] = cte
            } else {
                result.append(cte)
            }
        }
        return result
    }

    /// The expression named `tableName`, if any.
    func named(_ tableName: String) -> SQLCTE? {
        last { CaseInsensitiveIdentifier($0.tableName) == CaseInsensitiveIdentifier(tableName) }
    }

    /// The number of columns of the expression named `tableName`: its
    /// declared columns, or those of its subquery, compiled with all these
    /// expressions (it may read them).
    func columnCount(of cte: SQLCTE, _ db: Database) throws -> Int {
        if let columns = cte.columns, !columns.isEmpty { return columns.count }
        let context = SQLGenerationContext(db)
        do {
            let sql = try withClauseSQL(context) + cte.subquery.sql(context)
            return try db.cachedStatement(sql: sql).columnCount
        } catch let error as DatabaseError where error.resultCode == .SQLITE_ERROR {
            throw DatabaseError(
                resultCode: error.extendedResultCode,
                message: "Can't compute the number of columns in the \(String(reflecting: cte.tableName)) "
                    + "common table expression: \(error.message ?? "error"). Check the syntax of the SQL definition, "
                    + "or provide the explicit list of selected columns with the `columns` parameter "
                    + "in the CommonTableExpression initializer.",
                sql: error.sql,
                arguments: error.arguments)
        }
    }
}

// MARK: - Declaring expressions

extension QueryInterfaceRequest {
    /// The request, with `cte` in its `WITH` clause; an expression of the
    /// same name is replaced.
    public func with<T>(_ cte: CommonTableExpression<T>) -> Self {
        with { $0.ctes = $0.ctes.merging([cte.cte]) }
    }
}

extension TableRecord {
    /// All records, with `cte` in the request's `WITH` clause.
    public static func with<T>(_ cte: CommonTableExpression<T>) -> QueryInterfaceRequest<Self> {
        all().with(cte)
    }
}

extension Table {
    /// All rows, with `cte` in the request's `WITH` clause.
    public func with<T>(_ cte: CommonTableExpression<T>) -> QueryInterfaceRequest<RowDecoder> {
        all().with(cte)
    }
}

extension Association {
    /// The association, with `cte` in the `WITH` clause of the requests
    /// that join it.
    public func with<T>(_ cte: CommonTableExpression<T>) -> Self {
        var result = self
        result._sqlAssociation.destination.relation.ctes = _sqlAssociation.destination.relation.ctes.merging([cte.cte])
        return result
    }
}
