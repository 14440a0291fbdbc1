// Fetching rows from requests.

extension Row {
    /// A cursor over the rows of a request.
    ///
    /// ```swift
    /// let rows = try Row.fetchCursor(db, Player.filter { $0.score > 1000 })
    /// ```
    ///
    /// Rows of requests that join associations have scopes
    /// (``Row/scopes``). A request that prefetches associations
    /// (`including(all:)`) can't be iterated with a cursor: use `fetchAll`
    /// or `fetchOne`.
    public static func fetchCursor(_ db: Database, _ request: some FetchRequest) throws -> RowCursor {
        try request.makePreparedRequest(db, forSingleResult: false).makeRowCursor()
    }

    /// An array of the rows of a request, with their scopes and prefetched
    /// rows (``Row/prefetchedRows``).
    public static func fetchAll(_ db: Database, _ request: some FetchRequest) throws -> [Row] {
        try request.makePreparedRequest(db, forSingleResult: false).fetchAllRows(db)
    }

    /// A set of the rows of a request.
    public static func fetchSet(_ db: Database, _ request: some FetchRequest) throws -> Set<Row> {
        try Set(request.makePreparedRequest(db, forSingleResult: false).fetchAllRows(db))
    }

    /// The first row of a request, or nil.
    public static func fetchOne(_ db: Database, _ request: some FetchRequest) throws -> Row? {
        try request.makePreparedRequest(db, forSingleResult: true).fetchOneRow(db)
    }
}

extension FetchRequest<Row> {
    /// A cursor over the rows of the request.
    public func fetchCursor(_ db: Database) throws -> RowCursor {
        try Row.fetchCursor(db, self)
    }

    /// An array of the rows of the request.
    public func fetchAll(_ db: Database) throws -> [Row] {
        try Row.fetchAll(db, self)
    }

    /// A set of the rows of the request.
    public func fetchSet(_ db: Database) throws -> Set<Row> {
        try Row.fetchSet(db, self)
    }

    /// The first row of the request, or nil.
    public func fetchOne(_ db: Database) throws -> Row? {
        try Row.fetchOne(db, self)
    }
}
