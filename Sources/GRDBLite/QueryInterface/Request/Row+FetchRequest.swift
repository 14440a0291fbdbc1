// Fetching rows from requests.

extension Row {
    /// A cursor over the rows of a request.
    ///
    /// ```swift
    /// let rows = try Row.fetchCursor(db, Player.filter { $0.score > 1000 })
    /// ```
    public static func fetchCursor(_ db: Database, _ request: some FetchRequest) throws -> RowCursor {
        try fetchCursor(request.makePreparedRequest(db, forSingleResult: false).statement)
    }

    /// An array of the rows of a request.
    public static func fetchAll(_ db: Database, _ request: some FetchRequest) throws -> [Row] {
        try fetchAll(request.makePreparedRequest(db, forSingleResult: false).statement)
    }

    /// A set of the rows of a request.
    public static func fetchSet(_ db: Database, _ request: some FetchRequest) throws -> Set<Row> {
        try fetchSet(request.makePreparedRequest(db, forSingleResult: false).statement)
    }

    /// The first row of a request, or nil.
    public static func fetchOne(_ db: Database, _ request: some FetchRequest) throws -> Row? {
        try fetchOne(request.makePreparedRequest(db, forSingleResult: true).statement)
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
