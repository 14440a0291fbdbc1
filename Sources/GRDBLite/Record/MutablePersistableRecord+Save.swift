extension MutablePersistableRecord {
    /// Updates the row with the record's primary key if there is one, and
    /// inserts the record otherwise.
    public mutating func save(_ db: Database, onConflict conflictResolution: Database.ConflictResolution? = nil) throws
    {
        try willSave(db)
        var saved: PersistenceSuccess?
        try aroundSave(db) {
            saved = try updateOrInsertWithCallbacks(db, onConflict: conflictResolution)
            return saved!
        }
        guard let saved else { try persistenceCallbackMisuse("aroundSave") }
        didSave(saved)
    }

    /// Saves a copy of the record, and returns it.
    public func saved(_ db: Database, onConflict conflictResolution: Database.ConflictResolution? = nil) throws -> Self
    {
        var result = self
        try result.save(db, onConflict: conflictResolution)
        return result
    }

    /// Saves the record (see ``save(_:onConflict:)``), and returns the saved
    /// row as a record of the same type (`RETURNING *`).
    public func saveAndFetch(_ db: Database, onConflict conflictResolution: Database.ConflictResolution? = nil) throws
        -> Self
    where Self: FetchableRecord
    {
        var result = self
        return try result.saveAndFetch(db, onConflict: conflictResolution, as: Self.self)
    }

    /// Saves the record (see ``save(_:onConflict:)``), and returns the saved
    /// row as another record type.
    public mutating func saveAndFetch<T: FetchableRecord & TableRecord>(
        _ db: Database,
        onConflict conflictResolution: Database.ConflictResolution? = nil,
        as returnedType: T.Type) throws -> T
    {
        let record = self
        return try performSaveAndFetch(db, onConflict: conflictResolution, selection: T.databaseSelection) {
            try Self.fetchReturnedRecord(T.self, $0, db: db, key: record)
        }
    }

    /// Saves the record (see ``save(_:onConflict:)``) with a RETURNING
    /// clause, and returns what `fetch` reads from the statement. When the
    /// record is inserted after an update that matched no row, `fetch` runs
    /// twice: its result for the update is discarded.
    public mutating func saveAndFetch<T>(
        _ db: Database,
        onConflict conflictResolution: Database.ConflictResolution? = nil,
        selection: [any SQLSelectable],
        fetch: (Statement) throws -> T) throws -> T
    {
        try performSaveAndFetch(db, onConflict: conflictResolution, selection: selection, fetch: fetch)
    }

    mutating func performSaveAndFetch<T>(
        _ db: Database,
        onConflict conflictResolution: Database.ConflictResolution?,
        selection: [any SQLSelectable],
        fetch: (Statement) throws -> T) throws -> T
    {
        try willSave(db)
        var success: (saved: PersistenceSuccess, returned: T)?
        try aroundSave(db) {
            success = try updateOrInsertWithCallbacks(
                db, onConflict: conflictResolution, selection: selection, fetch: fetch)
            return success!.saved
        }
        guard let success else { try persistenceCallbackMisuse("aroundSave") }
        didSave(success.saved)
        return success.returned
    }

    mutating func updateOrInsertWithCallbacks(
        _ db: Database,
        onConflict conflictResolution: Database.ConflictResolution?) throws -> PersistenceSuccess
    {
        if let updated = try updateIfExistsWithCallbacks(
            db, onConflict: conflictResolution, selection: [], fetch: { try $0.execute() })
        {
            return updated.saved
        }
        return try PersistenceSuccess(insertWithCallbacks(db, onConflict: conflictResolution))
    }

    mutating func updateOrInsertWithCallbacks<T>(
        _ db: Database,
        onConflict conflictResolution: Database.ConflictResolution?,
        selection: [any SQLSelectable],
        fetch: (Statement) throws -> T) throws -> (saved: PersistenceSuccess, returned: T)
    {
        precondition(!selection.isEmpty, "Invalid empty selection for saveAndFetch")
        if let updated = try updateIfExistsWithCallbacks(
            db, onConflict: conflictResolution, selection: selection, fetch: fetch)
        {
            return updated
        }
        let (inserted, returned) = try insertAndFetchWithCallbacks(
            db, onConflict: conflictResolution, selection: selection, fetch: fetch)
        return (PersistenceSuccess(inserted), returned)
    }

    /// Updates all columns of the record if it has a primary key; nil if
    /// it has none, or no row has it.
    private func updateIfExistsWithCallbacks<T>(
        _ db: Database,
        onConflict conflictResolution: Database.ConflictResolution?,
        selection: [any SQLSelectable],
        fetch: (Statement) throws -> T) throws -> (saved: PersistenceSuccess, returned: T)?
    {
        guard try PersistenceEngine(db, self).hasPrimaryKey else { return nil }
        do {
            let columns = try Set(db.columns(in: type(of: self).databaseTableName).map(\.name))
            var returned: T?
            let saved = try updateWithCallbacks(
                db, onConflict: conflictResolution, columns: columns, returning: selection
            ) {
                returned = try fetch($0)
            }
            guard let returned else { try persistenceCallbackMisuse("aroundUpdate") }
            return (saved, returned)
        } catch RecordError.recordNotFound(databaseTableName: type(of: self).databaseTableName, key: _) {
            return nil
        }
    }
}
