/// The prepared SELECT statements of a connection's query interface
/// requests, by the requests' shape (``RequestShape``): a request whose
/// shape was seen before neither generates its SQL nor looks its statement
/// up by SQL, it binds its values to the statement of its shape.
///
/// A schema-dependent cache: dropped with the statement cache when the
/// schema changes, and by `clearSchemaCache()`. It keeps the ``capacity``
/// most recently used shapes.
final class RequestShapeCache: SchemaDependentCache {
    /// How many shapes are kept.
    static let capacity = 64

    private var entries: [RequestShape.RequestShapeKey: Entry] = [:]
    /// Counts the uses: the least recently used entry has the smallest
    /// `lastUse`.
    private var uses = 0

    private struct Entry {
        let statement: Statement
        var lastUse: Int
    }

    init() { }

    /// The number of cached shapes.
    var count: Int { entries.count }

    /// Whether the shape of this key is cached.
    func contains(_ key: RequestShape.RequestShapeKey) -> Bool { entries[key] != nil }

    /// The statement of the shape, with its values bound. On the first use
    /// of a shape, `makeStatement` generates the statement and its
    /// arguments.
    func statement(
        _ db: Database,
        shape: RequestShape,
        makeStatement: () throws -> (Statement, StatementArguments)) throws -> Statement
    {
        var arguments = StatementArguments()
        arguments.values = shape.values
        if let index = entries.index(forKey: shape.key) {
            #if DEBUG
            // Debug builds check that the shape spells everything the SQL
            // depends on: the whole test suite runs this check.
            let (generated, generatedArguments) = try makeStatement()
            assert(
                generated.sql == entries.values[index].statement.sql && generatedArguments == arguments,
                "Shape \(shape.key) is shared by \(generated.sql) and \(entries.values[index].statement.sql)")
            #endif
            uses &+= 1
            entries.values[index].lastUse = uses
            let statement = try db.reused(entries.values[index].statement)
            try statement.setArguments(arguments)
            return statement
        }
        let (statement, generatedArguments) = try makeStatement()
        // The shape spells the values in the order of the SQL: a request
        // whose arguments differ is not cached (none is known).
        assert(generatedArguments.values == arguments.values, "Shape \(shape.key) misses values of \(statement.sql)")
        guard generatedArguments.values == arguments.values else { return statement }
        if entries.count >= Self.capacity,
            let oldest = entries.min(by: { $0.value.lastUse < $1.value.lastUse })?.key
        {
            entries[oldest] = nil
        }
        uses &+= 1
        entries[shape.key] = Entry(statement: statement, lastUse: uses)
        return statement
    }
}
