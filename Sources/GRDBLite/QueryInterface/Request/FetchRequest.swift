/// A request that fetches rows, values or records of type `RowDecoder`:
/// ``QueryInterfaceRequest`` and ``SQLRequest``.
///
/// ```swift
/// let request: some FetchRequest<Player> = Player.filter { $0.score > 1000 }
/// let players = try request.fetchAll(db)       // [Player]
/// let players = try Player.fetchAll(db, request)
/// let count = try request.fetchCount(db)
/// ```
public protocol FetchRequest<RowDecoder>: SQLSubqueryable, DatabaseRegionConvertible {
    /// The type that decodes fetched rows.
    associatedtype RowDecoder

    /// A prepared statement for the request, with its arguments bound.
    ///
    /// - parameter db: The connection that prepares the statement.
    /// - parameter singleResult: Whether the request is fetched with
    ///   `fetchOne`, which lets it add `LIMIT 1`.
    func makePreparedRequest(_ db: Database, forSingleResult singleResult: Bool) throws -> PreparedRequest

    /// The number of rows the request returns.
    func fetchCount(_ db: Database) throws -> Int
}

/// A request ready to run: its prepared statement, with bound arguments,
/// and the adapter of its rows.
///
/// The rows of requests that join associations are adapted: their scopes
/// see the columns of joined associations. Requests that include to-many
/// associations (`including(all:)`) fetch them with a second request.
public struct PreparedRequest {
    /// The prepared statement.
    public var statement: Statement
    /// The adapter of fetched rows, if any.
    public var adapter: (any RowAdapter)?
    /// Fetches the associated rows of `including(all:)` into the
    /// `prefetchedRows` of the given rows.
    var supplementaryFetch: ((_ db: Database, _ rows: [Row]) throws -> Void)?
    /// The same as `supplementaryFetch`, which also gives each prefetch
    /// request and the key path of its association to `willFetch` before
    /// it runs (dumps print them).
    var observedSupplementaryFetch: ((
        _ db: Database,
        _ rows: [Row],
        _ willFetch: (PreparedRequest, [String]) throws -> Void) throws -> Void)?

    init(statement: Statement, adapter: (any RowAdapter)? = nil,
         supplementaryFetch: ((_ db: Database, _ rows: [Row]) throws -> Void)? = nil)
    {
        self.statement = statement
        self.adapter = adapter
        self.supplementaryFetch = supplementaryFetch
    }
}

@available(*, unavailable)
extension PreparedRequest: Sendable { }
