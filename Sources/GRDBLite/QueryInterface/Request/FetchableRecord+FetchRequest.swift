// Fetching records from requests.

extension FetchableRecord {
    /// A cursor over the records of a request.
    ///
    /// ```swift
    /// let players = try Player.fetchCursor(db, Player.order(\.name))
    /// ```
    public static func fetchCursor(_ db: Database, _ request: some FetchRequest) throws -> RecordCursor<Self> {
        try fetchCursor(request.makePreparedRequest(db, forSingleResult: false).statement)
    }

    /// An array of the records of a request.
    public static func fetchAll(_ db: Database, _ request: some FetchRequest) throws -> [Self] {
        try fetchAll(request.makePreparedRequest(db, forSingleResult: false).statement)
    }

    /// The first record of a request, or nil.
    public static func fetchOne(_ db: Database, _ request: some FetchRequest) throws -> Self? {
        try fetchOne(request.makePreparedRequest(db, forSingleResult: true).statement)
    }
}

extension FetchableRecord where Self: Hashable {
    /// A set of the records of a request.
    public static func fetchSet(_ db: Database, _ request: some FetchRequest) throws -> Set<Self> {
        try fetchSet(request.makePreparedRequest(db, forSingleResult: false).statement)
    }
}

extension FetchRequest where RowDecoder: FetchableRecord {
    /// A cursor over the records of the request.
    public func fetchCursor(_ db: Database) throws -> RecordCursor<RowDecoder> {
        try RowDecoder.fetchCursor(db, self)
    }

    /// An array of the records of the request.
    public func fetchAll(_ db: Database) throws -> [RowDecoder] {
        try RowDecoder.fetchAll(db, self)
    }

    /// The first record of the request, or nil.
    public func fetchOne(_ db: Database) throws -> RowDecoder? {
        try RowDecoder.fetchOne(db, self)
    }
}

extension FetchRequest where RowDecoder: FetchableRecord & Hashable {
    /// A set of the records of the request.
    public func fetchSet(_ db: Database) throws -> Set<RowDecoder> {
        try RowDecoder.fetchSet(db, self)
    }
}
