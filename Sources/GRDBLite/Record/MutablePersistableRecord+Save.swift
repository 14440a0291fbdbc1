extension MutablePersistableRecord {
    /// Updates the row with the record's primary key if there is one, and
    /// inserts the record otherwise.
    public mutating func save(_ db: Database, onConflict conflictResolution: Database.ConflictResolution? = nil) throws {
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
    public func saved(_ db: Database, onConflict conflictResolution: Database.ConflictResolution? = nil) throws -> Self {
        var result = self
        try result.save(db, onConflict: conflictResolution)
        return result
    }

    mutating func updateOrInsertWithCallbacks(
        _ db: Database,
        onConflict conflictResolution: Database.ConflictResolution?) throws -> PersistenceSuccess
    {
        // A record with a primary key is updated, unless no row has it.
        if try PersistenceEngine(db, self).primaryKeyCondition() != nil {
            do {
                let columns = try Set(db.columns(in: Self.databaseTableName).map(\.name))
                return try updateWithCallbacks(db, onConflict: conflictResolution, columns: columns)
            } catch RecordError.recordNotFound(databaseTableName: Self.databaseTableName, key: _) {
                // Insert below
            }
        }
        return try PersistenceSuccess(insertWithCallbacks(db, onConflict: conflictResolution))
    }
}
