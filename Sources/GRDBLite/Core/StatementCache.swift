/// The prepared statements that a connection reuses, by SQL.
///
/// - The statements of ``Database/cachedStatement(sql:)``, kept until the
///   schema changes or memory is released.
/// - The statements of fetches of values that run to completion within
///   their call (`fetchOne`, `fetchAll` and `fetchSet` of values with `sql:`,
///   see `Database.fetchStatement(sql:adapter:)`): the
///   ``fetchCapacity`` most recently used ones only, because SQL that embeds
///   its values would fill the cache with statements that never run again.
///   Reusing them spares SQLite's parser and planner on every repeated
///   fetch (a `ValueObservation` refetches after each commit).
///
/// Both are emptied together (`removeAll()`), which the connection does
/// when the schema changes.
struct StatementCache {
    /// How many fetch statements are kept.
    static let fetchCapacity = 32

    private var statements: [String: Statement] = [:]
    private var fetchStatements: [String: FetchEntry] = [:]
    /// Counts the uses of fetch statements: the least recently used one has
    /// the smallest `lastUse`.
    private var fetchUses = 0

    private struct FetchEntry {
        let statement: Statement
        var lastUse: Int
    }

    /// The statement of `cachedStatement(sql:)`.
    subscript(sql: String) -> Statement? {
        get { statements[sql] }
        set { statements[sql] = newValue }
    }

    /// The number of cached fetch statements.
    var fetchStatementCount: Int { fetchStatements.count }

    /// The cached fetch statement of `sql`, now the most recently used.
    mutating func fetchStatement(sql: String) -> Statement? {
        guard let index = fetchStatements.index(forKey: sql) else { return nil }
        fetchUses &+= 1
        fetchStatements.values[index].lastUse = fetchUses
        return fetchStatements.values[index].statement
    }

    /// Caches a fetch statement, forgetting the least recently used one
    /// when the cache is full.
    mutating func insertFetchStatement(_ statement: Statement, sql: String) {
        if fetchStatements.count >= Self.fetchCapacity,
            let oldest = fetchStatements.min(by: { $0.value.lastUse < $1.value.lastUse })?.key
        {
            fetchStatements[oldest] = nil
        }
        fetchUses &+= 1
        fetchStatements[sql] = FetchEntry(statement: statement, lastUse: fetchUses)
    }

    /// Forgets every statement (the schema changed, or memory is released).
    mutating func removeAll() {
        statements.removeAll()
        fetchStatements.removeAll()
    }
}
