// Fetching records from requests.

extension FetchableRecord {
    /// A cursor over the records of a request.
    ///
    /// ```swift
    /// let players = try Player.fetchCursor(db, Player.order(\.name))
    /// ```
    ///
    /// A request that prefetches associations (`including(all:)`) can't
    /// be iterated with a cursor: use `fetchAll` or `fetchOne`.
    public static func fetchCursor(_ db: Database, _ request: some FetchRequest) throws -> RecordCursor<Self> {
        try request.makePreparedRequest(db, forSingleResult: false).makeRecordCursor()
    }

    /// An array of the records of a request.
    public static func fetchAll(_ db: Database, _ request: some FetchRequest) throws -> [Self] {
        try request.makePreparedRequest(db, forSingleResult: false).fetchAllRecords(db)
    }

    /// The first record of a request, or nil.
    public static func fetchOne(_ db: Database, _ request: some FetchRequest) throws -> Self? {
        try request.makePreparedRequest(db, forSingleResult: true).fetchOneRecord(db)
    }
}

extension FetchableRecord where Self: Hashable {
    /// A set of the records of a request.
    public static func fetchSet(_ db: Database, _ request: some FetchRequest) throws -> Set<Self> {
        let preparedRequest = try request.makePreparedRequest(db, forSingleResult: false)
        if preparedRequest.supplementaryFetch != nil {
            return try Set(preparedRequest.fetchAllRecords(db, of: Self.self))
        }
        return try Set(preparedRequest.makeRecordCursor(of: Self.self))
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
