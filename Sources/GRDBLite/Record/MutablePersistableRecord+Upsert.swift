extension MutablePersistableRecord {
    /// Inserts the record, or updates the row it conflicts with
    /// (`INSERT ... ON CONFLICT DO UPDATE`): the columns that are not in
    /// the primary key are overwritten. `didInsert` gets the rowid of the
    /// inserted or updated row.
    ///
    /// `upsertAndFetch` returns the upserted row, and says which columns
    /// are updated.
    public mutating func upsert(_ db: Database) throws {
        _ = try upsertAndFetch(db, onConflict: [], overwritesAllColumns: true, assignments: [], selection: []) { _ in }
    }

    // MARK: - Internals

    /// Upserts the record with a RETURNING clause of `selection` (and the
    /// rowid), and returns what `decode` reads from the returned row.
    ///
    /// - parameter conflictTarget: The columns of the uniqueness
    ///   constraint that may conflict; any constraint when empty.
    /// - parameter overwritesAllColumns: Whether the columns that are not
    ///   in the primary key, the conflict target or `assignments` are
    ///   overwritten with the inserted values.
    /// - parameter assignments: The updated columns, and their values (nil
    ///   keeps the existing value).
    mutating func upsertAndFetch<T>(
        _ db: Database,
        onConflict conflictTarget: [String],
        overwritesAllColumns: Bool,
        assignments: [(column: String, value: SQLExpression?)],
        selection: [any SQLSelectable],
        decode: (Row) throws -> T) throws -> T
    {
        try willSave(db)
        var success: (inserted: InsertionSuccess, returned: T)?
        try aroundSave(db) {
            success = try upsertAndFetchWithCallbacks(
                db, onConflict: conflictTarget, overwritesAllColumns: overwritesAllColumns, assignments: assignments,
                selection: selection, decode: decode)
            return PersistenceSuccess(success!.inserted)
        }
        guard let success else { try persistenceCallbackMisuse("aroundSave") }
        didSave(PersistenceSuccess(success.inserted))
        return success.returned
    }

    private mutating func upsertAndFetchWithCallbacks<T>(
        _ db: Database,
        onConflict conflictTarget: [String],
        overwritesAllColumns: Bool,
        assignments: [(column: String, value: SQLExpression?)],
        selection: [any SQLSelectable],
        decode: (Row) throws -> T) throws -> (inserted: InsertionSuccess, returned: T)
    {
        try willInsert(db)
        var success: (inserted: InsertionSuccess, returned: T)?
        try aroundInsert(db) {
            let engine = try PersistenceEngine(db, self)
            let statement = try engine.upsertStatement(
                conflictTarget: conflictTarget, overwritesAllColumns: overwritesAllColumns, assignments: assignments,
                returning: selection)
            // All rows, so that the statement runs to completion.
            guard let row = try Row.fetchAll(statement).first else { throw engine.recordNotFound() }
            // The rowid is the last column. A column named "rowid" hides
            // the rowid: it may not be an integer.
            let inserted = try InsertionSuccess(
                rowID: row.decode(Int64.self, atIndex: row.count - 1),
                rowIDColumn: engine.primaryKey.rowIDColumn,
                container: engine.container)
            success = try (inserted, decode(row))
            return inserted
        }
        guard let success else { try persistenceCallbackMisuse("aroundInsert") }
        didInsert(success.inserted)
        return success
    }
}
