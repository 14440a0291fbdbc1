extension MutablePersistableRecord {
    /// Inserts the record, or updates the row it conflicts with
    /// (`INSERT ... ON CONFLICT DO UPDATE`): the columns that are not in
    /// the primary key are overwritten. `didInsert` gets the rowid of the
    /// inserted or updated row.
    public mutating func upsert(_ db: Database) throws {
        _ = try upsertAndFetch(db, onConflict: [], selection: []) { _ in }
    }

    /// Upserts the record, and returns the inserted or updated row as a
    /// record of the same type.
    ///
    /// - parameter conflictTarget: The columns of the uniqueness
    ///   constraint that may conflict; any constraint when empty.
    public mutating func upsertAndFetch(_ db: Database, onConflict conflictTarget: [String] = []) throws -> Self
    where Self: FetchableRecord
    {
        try upsertAndFetch(db, as: Self.self, onConflict: conflictTarget)
    }

    /// Upserts the record, and returns the inserted or updated row as
    /// another record type.
    public mutating func upsertAndFetch<T: FetchableRecord & TableRecord>(
        _ db: Database,
        as returnedType: T.Type,
        onConflict conflictTarget: [String] = []) throws -> T
    {
        try upsertAndFetch(db, onConflict: conflictTarget, selection: T.databaseSelection) { row in
            // The row starts with the rowid.
            try T(row: row.droppingFirstColumn())
        }
    }

    mutating func upsertAndFetch<T>(
        _ db: Database,
        onConflict conflictTarget: [String],
        selection: [any SQLSelectable],
        decode: (Row) throws -> T) throws -> T
    {
        try willSave(db)
        var success: (inserted: InsertionSuccess, returned: T)?
        try aroundSave(db) {
            success = try upsertAndFetchWithCallbacks(db, onConflict: conflictTarget, selection: selection, decode: decode)
            return PersistenceSuccess(success!.inserted)
        }
        guard let success else { try persistenceCallbackMisuse("aroundSave") }
        didSave(PersistenceSuccess(success.inserted))
        return success.returned
    }

    mutating func upsertAndFetchWithCallbacks<T>(
        _ db: Database,
        onConflict conflictTarget: [String],
        selection: [any SQLSelectable],
        decode: (Row) throws -> T) throws -> (inserted: InsertionSuccess, returned: T)
    {
        try willInsert(db)
        var success: (inserted: InsertionSuccess, returned: T)?
        try aroundInsert(db) {
            let engine = try PersistenceEngine(db, self)
            let statement = try engine.upsertStatement(conflictTarget: conflictTarget, returning: selection)
            guard let row = try Row.fetchAll(statement).first else { throw engine.recordNotFound() }
            // A column named "rowid" hides the rowid: it may not be an integer.
            let inserted = try InsertionSuccess(
                rowID: row.decode(Int64.self, atIndex: 0),
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

extension Row {
    /// The row without its first column (the rowid of an upsert).
    func droppingFirstColumn() -> Row {
        Row(values: Array(databaseValues.dropFirst()), names: Array(columnNames.dropFirst()))
    }
}
