extension MutablePersistableRecord {
    /// Updates all columns of the row with the record's primary key.
    ///
    /// - throws: ``RecordError/recordNotFound(databaseTableName:key:)`` if
    ///   no row has the primary key, or a ``DatabaseError``.
    public func update(_ db: Database, onConflict conflictResolution: Database.ConflictResolution? = nil) throws {
        try update(
            db, onConflict: conflictResolution, columns: db.columns(in: type(of: self).databaseTableName).map(\.name))
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
    public func updateAndFetch(_ db: Database, onConflict conflictResolution: Database.ConflictResolution? = nil) throws
        -> Self
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
        try updateAndFetch(db, onConflict: conflictResolution, selection: T.databaseSelection) { statement in
            try Self.fetchReturnedRecord(T.self, statement, db: db, key: self)
        }
    }

    /// Updates all columns of the row with a RETURNING clause, and returns
    /// what `fetch` reads from the statement.
    public func updateAndFetch<T>(
        _ db: Database,
        onConflict conflictResolution: Database.ConflictResolution? = nil,
        selection: [any SQLSelectable],
        fetch: (Statement) throws -> T) throws -> T
    {
        try updateAndFetch(
            db, onConflict: conflictResolution, columns: db.columns(in: type(of: self).databaseTableName).map(\.name),
            selection: selection, fetch: fetch)
    }

    /// Updates the given columns of the row with a RETURNING clause, and
    /// returns what `fetch` reads from the statement.
    ///
    /// ```swift
    /// // UPDATE player SET score = ? WHERE id = ? RETURNING *
    /// let row = try player.updateAndFetch(db, columns: ["score"], selection: [.allColumns]) { statement in
    ///     try Row.fetchOne(statement)
    /// }
    /// ```
    public func updateAndFetch<T>(
        _ db: Database,
        onConflict conflictResolution: Database.ConflictResolution? = nil,
        columns: some Collection<String>,
        selection: [any SQLSelectable],
        fetch: (Statement) throws -> T) throws -> T
    {
        precondition(!selection.isEmpty, "Invalid empty selection for updateAndFetch")
        var result: T?
        try willSave(db)
        var saved: PersistenceSuccess?
        try aroundSave(db) {
            saved = try updateWithCallbacks(
                db, onConflict: conflictResolution, columns: Set(columns), returning: selection
            ) {
                result = try fetch($0)
            }
            return saved!
        }
        guard let saved, let result else { try persistenceCallbackMisuse("aroundSave") }
        didSave(saved)
        return result
    }

    /// Updates the given columns of the row with a RETURNING clause, and
    /// returns what `fetch` reads from the statement.
    public func updateAndFetch<T>(
        _ db: Database,
        onConflict conflictResolution: Database.ConflictResolution? = nil,
        columns: some Collection<some ColumnExpression>,
        selection: [any SQLSelectable],
        fetch: (Statement) throws -> T) throws -> T
    {
        try updateAndFetch(
            db, onConflict: conflictResolution, columns: columns.map(\.name), selection: selection, fetch: fetch)
    }

    /// Modifies the record, then updates the columns whose values changed,
    /// and returns the updated row; nil when nothing changed (no statement
    /// runs).
    public mutating func updateChangesAndFetch(
        _ db: Database,
        onConflict conflictResolution: Database.ConflictResolution? = nil,
        modify: (inout Self) throws -> Void) throws -> Self?
    where Self: FetchableRecord
    {
        try updateChangesAndFetch(db, onConflict: conflictResolution, as: Self.self, modify: modify)
    }

    /// Modifies the record, then updates the columns whose values changed,
    /// and returns the updated row as another record type; nil when nothing
    /// changed (no statement runs).
    public mutating func updateChangesAndFetch<T: FetchableRecord & TableRecord>(
        _ db: Database,
        onConflict conflictResolution: Database.ConflictResolution? = nil,
        as returnedType: T.Type,
        modify: (inout Self) throws -> Void) throws -> T?
    {
        let old = try PersistenceContainer(self)
        try modify(&self)
        let record = self
        return try updateChangesAndFetch(db, onConflict: conflictResolution, from: old, selection: T.databaseSelection)
        {
            try Self.fetchReturnedRecord(T.self, $0, db: db, key: record)
        }
    }

    /// Modifies the record, then updates the columns whose values changed
    /// with a RETURNING clause, and returns what `fetch` reads from the
    /// statement; nil when nothing changed (no statement runs).
    public mutating func updateChangesAndFetch<T>(
        _ db: Database,
        onConflict conflictResolution: Database.ConflictResolution? = nil,
        selection: [any SQLSelectable],
        fetch: (Statement) throws -> T,
        modify: (inout Self) throws -> Void) throws -> T?
    {
        let old = try PersistenceContainer(self)
        try modify(&self)
        return try updateChangesAndFetch(
            db, onConflict: conflictResolution, from: old, selection: selection, fetch: fetch)
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

    func updateChangesAndFetch<T>(
        _ db: Database,
        onConflict conflictResolution: Database.ConflictResolution?,
        from old: PersistenceContainer,
        selection: [any SQLSelectable],
        fetch: (Statement) throws -> T) throws -> T?
    {
        let changes = try PersistenceContainer(self).changes(from: old)
        if changes.isEmpty { return nil }
        return try updateAndFetch(
            db, onConflict: conflictResolution, columns: changes.map(\.column), selection: selection, fetch: fetch)
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
            let conflict = conflictResolution ?? type(of: self).persistenceConflictPolicy.conflictResolutionForUpdate
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
