// The dump methods of readers: those of `Database`, run in one access to
// the database, which may be nested in another access of the same reader.

extension DatabaseReader {
    /// Runs all statements of `sql` and prints the rows of each (see
    /// ``Database/dumpSQL(_:format:to:)``).
    public func dumpSQL(
        _ sql: SQL,
        format: some DumpFormat = .debug(),
        to stream: (any TextOutputStream)? = nil)
    throws
    {
        try unsafeReentrantRead { db in
            try db.dumpSQL(sql, format: format, to: stream)
        }
    }

    /// Prints the rows of `request` (see
    /// ``Database/dumpRequest(_:format:to:)``).
    public func dumpRequest(
        _ request: some FetchRequest,
        format: some DumpFormat = .debug(),
        to stream: (any TextOutputStream)? = nil)
    throws
    {
        try unsafeReentrantRead { db in
            try db.dumpRequest(request, format: format, to: stream)
        }
    }

    /// Prints the rows of tables and views (see
    /// ``Database/dumpTables(_:format:tableHeader:stableOrder:to:)``).
    public func dumpTables(
        _ tables: [String],
        format: some DumpFormat = .debug(),
        tableHeader: DumpTableHeaderOptions = .automatic,
        stableOrder: Bool = false,
        to stream: (any TextOutputStream)? = nil)
    throws
    {
        try unsafeReentrantRead { db in
            try db.dumpTables(tables, format: format, tableHeader: tableHeader, stableOrder: stableOrder, to: stream)
        }
    }

    /// Prints the schema and the rows of all tables (see
    /// ``Database/dumpContent(format:to:)``).
    public func dumpContent(
        format: some DumpFormat = .debug(),
        to stream: (any TextOutputStream)? = nil)
    throws
    {
        try unsafeReentrantRead { db in
            try db.dumpContent(format: format, to: stream)
        }
    }

    /// Prints the schema (see ``Database/dumpSchema(to:)``).
    public func dumpSchema(
        to stream: (any TextOutputStream)? = nil)
    throws
    {
        try unsafeReentrantRead { db in
            try db.dumpSchema(to: stream)
        }
    }
}
