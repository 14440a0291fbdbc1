// Fetching values from requests: the leftmost column of each row.

extension DatabaseValueConvertible {
    private static func fetchCursor(_ request: PreparedRequest) throws -> DatabaseValueCursor<Self> {
        try fetchCursor(request.statement, adapter: request.adapter)
    }

    private static func fetchAll(_ request: PreparedRequest) throws -> [Self] {
        try fetchAll(request.statement, adapter: request.adapter)
    }

    private static func fetchOne(_ request: PreparedRequest) throws -> Self? {
        try fetchOne(request.statement, adapter: request.adapter)
    }
}

extension DatabaseValueConvertible where Self: Hashable {
    private static func fetchSet(_ request: PreparedRequest) throws -> Set<Self> {
        try fetchSet(request.statement, adapter: request.adapter)
    }
}

extension DatabaseValueConvertible where Self: StatementColumnConvertible {
    private static func fetchCursor(_ request: PreparedRequest) throws -> FastDatabaseValueCursor<Self> {
        try fetchCursor(request.statement, adapter: request.adapter)
    }

    private static func fetchAll(_ request: PreparedRequest) throws -> [Self] {
        try fetchAll(request.statement, adapter: request.adapter)
    }

    private static func fetchOne(_ request: PreparedRequest) throws -> Self? {
        try fetchOne(request.statement, adapter: request.adapter)
    }
}

extension DatabaseValueConvertible where Self: StatementColumnConvertible & Hashable {
    private static func fetchSet(_ request: PreparedRequest) throws -> Set<Self> {
        try fetchSet(request.statement, adapter: request.adapter)
    }
}

extension DatabaseValueConvertible {
    /// A cursor over the values of a request.
    ///
    /// ```swift
    /// let names = try String.fetchCursor(db, Player.select(\.name))
    /// ```
    public static func fetchCursor(_ db: Database, _ request: some FetchRequest) throws -> DatabaseValueCursor<Self> {
        try fetchCursor(request.makePreparedRequest(db, forSingleResult: false))
    }

    /// An array of the values of a request.
    public static func fetchAll(_ db: Database, _ request: some FetchRequest) throws -> [Self] {
        try fetchAll(request.makePreparedRequest(db, forSingleResult: false))
    }

    /// The value of the first row of a request, or nil if there is no row
    /// or the value is NULL.
    public static func fetchOne(_ db: Database, _ request: some FetchRequest) throws -> Self? {
        try fetchOne(request.makePreparedRequest(db, forSingleResult: true))
    }
}

extension DatabaseValueConvertible where Self: Hashable {
    /// A set of the values of a request.
    public static func fetchSet(_ db: Database, _ request: some FetchRequest) throws -> Set<Self> {
        try fetchSet(request.makePreparedRequest(db, forSingleResult: false))
    }
}

extension FetchRequest where RowDecoder: DatabaseValueConvertible {
    /// A cursor over the values of the request.
    public func fetchCursor(_ db: Database) throws -> DatabaseValueCursor<RowDecoder> {
        try RowDecoder.fetchCursor(db, self)
    }

    /// An array of the values of the request.
    public func fetchAll(_ db: Database) throws -> [RowDecoder] {
        try RowDecoder.fetchAll(db, self)
    }

    /// The value of the first row of the request, or nil if there is no
    /// row or the value is NULL.
    public func fetchOne(_ db: Database) throws -> RowDecoder? {
        try RowDecoder.fetchOne(db, self)
    }
}

extension FetchRequest where RowDecoder: DatabaseValueConvertible & Hashable {
    /// A set of the values of the request.
    public func fetchSet(_ db: Database) throws -> Set<RowDecoder> {
        try RowDecoder.fetchSet(db, self)
    }
}

// MARK: - StatementColumnConvertible fast path

extension DatabaseValueConvertible where Self: StatementColumnConvertible {
    /// A cursor over the values of a request, read with the matching
    /// `sqlite3_column_*` call.
    public static func fetchCursor(_ db: Database, _ request: some FetchRequest) throws -> FastDatabaseValueCursor<Self>
    {
        try fetchCursor(request.makePreparedRequest(db, forSingleResult: false))
    }

    /// An array of the values of a request.
    public static func fetchAll(_ db: Database, _ request: some FetchRequest) throws -> [Self] {
        try fetchAll(request.makePreparedRequest(db, forSingleResult: false))
    }

    /// The value of the first row of a request, or nil if there is no row
    /// or the value is NULL.
    public static func fetchOne(_ db: Database, _ request: some FetchRequest) throws -> Self? {
        try fetchOne(request.makePreparedRequest(db, forSingleResult: true))
    }
}

extension DatabaseValueConvertible where Self: StatementColumnConvertible & Hashable {
    /// A set of the values of a request.
    public static func fetchSet(_ db: Database, _ request: some FetchRequest) throws -> Set<Self> {
        try fetchSet(request.makePreparedRequest(db, forSingleResult: false))
    }
}

extension FetchRequest where RowDecoder: DatabaseValueConvertible & StatementColumnConvertible {
    /// A cursor over the values of the request, read with the matching
    /// `sqlite3_column_*` call.
    public func fetchCursor(_ db: Database) throws -> FastDatabaseValueCursor<RowDecoder> {
        try RowDecoder.fetchCursor(db, self)
    }

    /// An array of the values of the request.
    public func fetchAll(_ db: Database) throws -> [RowDecoder] {
        try RowDecoder.fetchAll(db, self)
    }

    /// The value of the first row of the request, or nil if there is no
    /// row or the value is NULL.
    public func fetchOne(_ db: Database) throws -> RowDecoder? {
        try RowDecoder.fetchOne(db, self)
    }
}

extension FetchRequest where RowDecoder: DatabaseValueConvertible & StatementColumnConvertible & Hashable {
    /// A set of the values of the request.
    public func fetchSet(_ db: Database) throws -> Set<RowDecoder> {
        try RowDecoder.fetchSet(db, self)
    }
}
