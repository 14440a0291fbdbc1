extension DatabaseQueue {
    /// Returns a connection to an in-memory copy of the database at
    /// `path`. The original database is opened read-only, and never
    /// changed; the copy is freed with the returned queue.
    ///
    /// ```swift
    /// let dbQueue = try DatabaseQueue.inMemoryCopy(fromPath: "/path/to/db.sqlite")
    /// ```
    ///
    /// With `configuration.readonly`, the copy refuses writes
    /// (`SQLITE_READONLY`).
    ///
    /// - throws: A ``DatabaseError`` if the database at `path` can't be
    ///   opened or read.
    public static func inMemoryCopy(
        fromPath path: String,
        configuration: Configuration = Configuration())
    throws -> DatabaseQueue
    {
        try copy(fromPath: path, toPath: ":memory:", configuration: configuration)
    }

    /// Returns a connection to a private, temporary, on-disk copy of the
    /// database at `path`. The original database is opened read-only, and
    /// never changed; SQLite deletes the copy when the returned queue
    /// is closed or freed.
    ///
    /// ```swift
    /// let dbQueue = try DatabaseQueue.temporaryCopy(fromPath: "/path/to/db.sqlite")
    /// ```
    ///
    /// With `configuration.readonly`, the copy refuses writes
    /// (`SQLITE_READONLY`).
    ///
    /// - throws: A ``DatabaseError`` if the database at `path` can't be
    ///   opened or read.
    public static func temporaryCopy(
        fromPath path: String,
        configuration: Configuration = Configuration())
    throws -> DatabaseQueue
    {
        // SQLite opens an empty path as a private temporary file.
        try copy(fromPath: path, toPath: "", configuration: configuration)
    }

    private static func copy(
        fromPath path: String,
        toPath copyPath: String,
        configuration: Configuration)
    throws -> DatabaseQueue
    {
        var sourceConfiguration = configuration
        sourceConfiguration.readonly = true
        let source = try DatabaseQueue(path: path, configuration: sourceConfiguration)

        // The copy must be writable for the backup to fill it.
        var copyConfiguration = configuration
        copyConfiguration.readonly = false
        let copy = try DatabaseQueue(path: copyPath, configuration: copyConfiguration)
        try source.backup(to: copy)
        try source.close()

        if configuration.readonly {
            try copy.inDatabase { db in try db.beginPermanentReadOnly() }
        }
        return copy
    }
}

extension Database {
    /// Forbids writes for the rest of the life of the connection, as if it
    /// were opened read-only: read-only accesses then never allow writes
    /// again when they end.
    func beginPermanentReadOnly() throws {
        try execute(sql: "PRAGMA query_only = 1")
        isQueryOnly = true
        readOnlyDepth += 1
    }
}
