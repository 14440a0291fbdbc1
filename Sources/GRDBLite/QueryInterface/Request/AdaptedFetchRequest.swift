extension FetchRequest {
    /// The same request, whose rows are adapted by the adapter that
    /// `adapter` returns (see ``RowAdapter``). A request that already has
    /// an adapter gets both: `adapter` adapts the adapted rows.
    ///
    /// ```swift
    /// let request = SQLRequest<Row>(sql: "SELECT player.*, team.* FROM player JOIN team ON ...")
    ///     .adapted { db in
    ///         let adapters = try splittingRowAdapters(columnCounts: [
    ///             Player.numberOfSelectedColumns(db),
    ///             Team.numberOfSelectedColumns(db)])
    ///         return ScopeAdapter(["player": adapters[0], "team": adapters[1]])
    ///     }
    /// ```
    public func adapted(_ adapter: @escaping @Sendable (Database) throws -> any RowAdapter) -> AdaptedFetchRequest<Self>
    {
        AdaptedFetchRequest(base: self, adapter: adapter)
    }
}

/// A request whose rows are adapted (see ``FetchRequest/adapted(_:)``).
public struct AdaptedFetchRequest<Base: FetchRequest>: FetchRequest {
    public typealias RowDecoder = Base.RowDecoder

    let base: Base
    let adapter: @Sendable (Database) throws -> any RowAdapter

    public var sqlSubquery: SQLSubquery { base.sqlSubquery }

    public func fetchCount(_ db: Database) throws -> Int {
        try base.fetchCount(db)
    }

    public func makePreparedRequest(_ db: Database, forSingleResult singleResult: Bool = false) throws
        -> PreparedRequest
    {
        var request = try base.makePreparedRequest(db, forSingleResult: singleResult)
        let adapter = try adapter(db)
        request.adapter = request.adapter.map { ChainedAdapter(first: $0, second: adapter) } ?? adapter
        return request
    }
}
