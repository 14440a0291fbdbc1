/// A type-erased ``FetchRequest``: requests of different types, with the
/// same `RowDecoder`, can be stored together.
///
/// ```swift
/// let request: AnyFetchRequest<Player> = condition
///     ? AnyFetchRequest(Player.all())
///     : AnyFetchRequest(SQLRequest<Player>(sql: "SELECT * FROM player"))
/// ```
public struct AnyFetchRequest<RowDecoder>: FetchRequest {
    /// The erased request, whatever its row decoder.
    private let base: any FetchRequest

    private init(base: any FetchRequest) {
        self.base = base
    }

    /// A request that runs `request`.
    public init(_ request: some FetchRequest<RowDecoder>) {
        self.init(base: request)
    }

    /// The same request, with another row decoder.
    public func asRequest<T>(of type: T.Type) -> AnyFetchRequest<T> {
        AnyFetchRequest<T>(base: base)
    }

    public var sqlSubquery: SQLSubquery { base.sqlSubquery }

    public func fetchCount(_ db: Database) throws -> Int {
        try base.fetchCount(db)
    }

    public func makePreparedRequest(_ db: Database, forSingleResult singleResult: Bool = false) throws
        -> PreparedRequest
    {
        try base.makePreparedRequest(db, forSingleResult: singleResult)
    }
}
