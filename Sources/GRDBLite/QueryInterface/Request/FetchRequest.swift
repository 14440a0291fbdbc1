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
    /// - parameter singleResult: Whether the request is fetched with
    ///   `fetchOne`, which lets it add `LIMIT 1`.
    func makePreparedRequest(_ db: Database, forSingleResult singleResult: Bool) throws -> PreparedRequest

    /// The number of rows the request returns.
    func fetchCount(_ db: Database) throws -> Int
}

/// A request ready to run: its prepared statement, with bound arguments.
///
/// Requests that join associations also tell where their columns are in
/// fetched rows (row scopes), and requests that include to-many
/// associations (`including(all:)`) fetch them with a second request.
public struct PreparedRequest {
    /// The prepared statement.
    public var statement: Statement
    /// Where the columns of joined associations are in fetched rows.
    var rowLayout: RowLayout?
    /// Fetches the associated rows of `including(all:)` into the
    /// `prefetchedRows` of the given rows.
    var supplementaryFetch: ((_ db: Database, _ rows: [Row]) throws -> Void)?

    init(statement: Statement, rowLayout: RowLayout? = nil,
         supplementaryFetch: ((_ db: Database, _ rows: [Row]) throws -> Void)? = nil)
    {
        self.statement = statement
        self.rowLayout = rowLayout
        self.supplementaryFetch = supplementaryFetch
    }
}

@available(*, unavailable)
extension PreparedRequest: Sendable { }
