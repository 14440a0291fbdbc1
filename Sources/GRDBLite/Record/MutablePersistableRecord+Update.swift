extension MutablePersistableRecord {
    /// Updates all columns of the row with the record's primary key.
    ///
    /// - throws: ``RecordError/recordNotFound(databaseTableName:key:)`` if
    ///   no row has the primary key, or a ``DatabaseError``.
    public func update(_ db: Database, onConflict conflictResolution: Database.ConflictResolution? = nil) throws {
        try update(db, onConflict: conflictResolution, columns: db.columns(in: Self.databaseTableName).map(\.name))
    }

    /// Updates the given columns of the row with the record's primary key.
    ///
    /// ```swift
    /// try player.update(db, columns: ["score"])
    /// ```
    public func update(
        _ db: Database,
        onConflict conflictResolution: Database.ConflictResolution? = nil,
        columns: some Collection<String>) throws
    {
        try willSave(db)
        var saved: PersistenceSuccess?
        try aroundSave(db) {
            saved = try updateWithCallbacks(db, onConflict: conflictResolution, columns: Set(columns))
            return saved!
        }
        guard let saved else { try persistenceCallbackMisuse("aroundSave") }
        didSave(saved)
    }

    /// Updates the given columns of the row with the record's primary key.
    public func update(
        _ db: Database,
        onConflict conflictResolution: Database.ConflictResolution? = nil,
        columns: some Collection<some ColumnExpression>) throws
    {
        try update(db, onConflict: conflictResolution, columns: columns.map(\.name))
    }

    /// Updates the columns whose values differ from `record`; returns
    /// whether it updated (no statement runs when nothing changed).
    @discardableResult
    public func updateChanges(
        _ db: Database,
        onConflict conflictResolution: Database.ConflictResolution? = nil,
        from record: some MutablePersistableRecord) throws -> Bool
    {
        try updateChanges(db, onConflict: conflictResolution, from: PersistenceContainer(record))
    }

    /// Modifies the record, then updates the columns whose values changed;
    /// returns whether it updated (no statement runs when nothing changed).
    ///
    /// ```swift
    /// try player.updateChanges(db) {
    ///     $0.score += 10
    /// }
    /// ```
    @discardableResult
    public mutating func updateChanges(
        _ db: Database,
        onConflict conflictResolution: Database.ConflictResolution? = nil,
        modify: (inout Self) throws -> Void) throws -> Bool
    {
        let old = try PersistenceContainer(self)
        try modify(&self)
        return try updateChanges(db, onConflict: conflictResolution, from: old)
    }

    /// Updates the row and returns it as a record (`UPDATE ... RETURNING *`).
    public func updateAndFetch(_ db: Database, onConflict conflictResolution: Database.ConflictResolution? = nil) throws -> Self
    where Self: FetchableRecord
    {
        try updateAndFetch(db, onConflict: conflictResolution, as: Self.self)
    }

    /// Updates the row and returns it as another record type.
    public func updateAndFetch<T: FetchableRecord & TableRecord>(
        _ db: Database,
        onConflict conflictResolution: Database.ConflictResolution? = nil,
        as returnedType: T.Type) throws -> T
    {
        let columns = try Set(db.columns(in: Self.databaseTableName).map(\.name))
        var result: T?
        try willSave(db)
        var saved: PersistenceSuccess?
        try aroundSave(db) {
            saved = try updateWithCallbacks(db, onConflict: conflictResolution, columns: columns, returning: T.databaseSelection) {
                guard let row = try Row.fetchAll($0).first else { throw recordNotFound(db) }
                result = try T(row: row)
            }
            return saved!
        }
        guard let saved, let result else { try persistenceCallbackMisuse("aroundSave") }
        didSave(saved)
        return result
    }

    // MARK: - Internals

    func updateChanges(
        _ db: Database,
        onConflict conflictResolution: Database.ConflictResolution?,
        from old: PersistenceContainer) throws -> Bool
    {
        let changes = try PersistenceContainer(self).changes(from: old)
        if changes.isEmpty { return false }
        try update(db, onConflict: conflictResolution, columns: changes.map(\.column))
        return true
    }

    func updateWithCallbacks(
        _ db: Database,
        onConflict conflictResolution: Database.ConflictResolution?,
        columns: Set<String>,
        returning selection: [any SQLSelectable] = [],
        fetch: (Statement) throws -> Void = { try $0.execute() }) throws -> PersistenceSuccess
    {
        try willUpdate(db, columns: columns)
        var updated: PersistenceSuccess?
        try aroundUpdate(db, columns: columns) {
            let conflict = conflictResolution ?? Self.persistenceConflictPolicy.conflictResolutionForUpdate
            let engine = try PersistenceEngine(db, self)
            try engine.update(columns: columns, onConflict: conflict, returning: selection, fetch: fetch)
            updated = PersistenceSuccess(persistenceContainer: engine.container)
            return updated!
        }
        guard let updated else { try persistenceCallbackMisuse("aroundUpdate") }
        didUpdate(updated)
        return updated
    }
}
