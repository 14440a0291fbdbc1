/// A request written in SQL.
///
/// ```swift
/// let request = SQLRequest<Player>(sql: "SELECT * FROM player WHERE score > ?", arguments: [1000])
/// let players = try request.fetchAll(db)
///
/// let name = "O'Brien"
/// let request: SQLRequest<Player> = "SELECT * FROM player WHERE name = \(name)"
/// ```
public struct SQLRequest<RowDecoder>: Sendable {
    /// The SQL and its arguments.
    private(set) var sqlLiteral: SQL
    /// The adapter of fetched rows (see ``RowAdapter``).
    public var adapter: (any RowAdapter)?
    /// Whether the statement comes from the statement cache.
    let isCached: Bool

    private init(literal sqlLiteral: SQL, adapter: (any RowAdapter)?, cached: Bool, type: RowDecoder.Type) {
        self.sqlLiteral = sqlLiteral
        self.adapter = adapter
        self.isCached = cached
    }
}

extension SQLRequest {
    /// A request from SQL and arguments.
    ///
    /// - parameter sql: The SQL of one statement.
    /// - parameter arguments: The values bound to its parameters.
    /// - parameter adapter: The adapter of fetched rows, if any.
    /// - parameter cached: Whether the statement is kept in the statement
    ///   cache, for requests that run often.
    public init(
        sql: String,
        arguments: StatementArguments = StatementArguments(),
        adapter: (any RowAdapter)? = nil,
        cached: Bool = false)
    {
        self.init(literal: SQL(sql: sql, arguments: arguments), adapter: adapter, cached: cached, type: RowDecoder.self)
    }

    /// A request from an SQL literal, whose interpolated values are bound.
    public init(literal sqlLiteral: SQL, adapter: (any RowAdapter)? = nil, cached: Bool = false) {
        self.init(literal: sqlLiteral, adapter: adapter, cached: cached, type: RowDecoder.self)
    }
}

extension SQLRequest<Row> {
    /// A request of rows from SQL and arguments.
    public init(
        sql: String,
        arguments: StatementArguments = StatementArguments(),
        adapter: (any RowAdapter)? = nil,
        cached: Bool = false)
    {
        self.init(literal: SQL(sql: sql, arguments: arguments), adapter: adapter, cached: cached, type: Row.self)
    }

    /// A request of rows from an SQL literal.
    public init(literal sqlLiteral: SQL, adapter: (any RowAdapter)? = nil, cached: Bool = false) {
        self.init(literal: sqlLiteral, adapter: adapter, cached: cached, type: Row.self)
    }
}

extension SQLRequest: FetchRequest {
    public var sqlSubquery: SQLSubquery {
        .literal(sqlLiteral)
    }

    /// `SELECT COUNT(*) FROM (<sql>)`
    public func fetchCount(_ db: Database) throws -> Int {
        try Int.fetchOne(db, SQLRequest<Int>(literal: "SELECT COUNT(*) FROM (" + sqlLiteral + ")")) ?? 0
    }

    public func makePreparedRequest(_ db: Database, forSingleResult singleResult: Bool = false) throws
        -> PreparedRequest
    {
        let (sql, arguments) = try sqlLiteral.build(db)
        let statement = try isCached ? db.cachedStatement(sql: sql) : db.makeStatement(sql: sql)
        try statement.setArguments(arguments)
        return PreparedRequest(statement: statement, adapter: adapter)
    }
}

extension SQLRequest: ExpressibleByStringInterpolation {
    public init(stringLiteral: String) {
        self.init(sql: stringLiteral)
    }

    public init(stringInterpolation: SQLInterpolation) {
        self.init(literal: SQL(stringInterpolation: stringInterpolation))
    }
}
