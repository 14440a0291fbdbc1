extension MutablePersistableRecord {
    /// Inserts the record: `INSERT INTO table (...) VALUES (...)`.
    ///
    /// ```swift
    /// var player = Player(id: nil, name: "Arthur")
    /// try player.insert(db)
    /// ```
    ///
    /// - parameter db: A connection that can write.
    /// - parameter conflictResolution: By default, the record's
    ///   ``MutablePersistableRecord/persistenceConflictPolicy``.
    /// - throws: A ``DatabaseError`` (constraint violation...).
    @inlinable
    public mutating func insert(_ db: Database, onConflict conflictResolution: Database.ConflictResolution? = nil)
        throws
    {
        try willSave(db)
        var saved: PersistenceSuccess?
        try aroundSave(db) {
            saved = try PersistenceSuccess(insertWithCallbacks(db, onConflict: conflictResolution))
            return saved!
        }
        guard let saved else { try persistenceCallbackMisuse("aroundSave") }
        didSave(saved)
    }

    /// Inserts a copy of the record, and returns it.
    @inlinable
    public func inserted(_ db: Database, onConflict conflictResolution: Database.ConflictResolution? = nil) throws
        -> Self
    {
        var result = self
        try result.insert(db, onConflict: conflictResolution)
        return result
    }

    /// Inserts the record, and returns the inserted row as a record of the
    /// same type (`INSERT ... RETURNING *`), with the values that the
    /// database set (ids, defaults, triggers).
    public func insertAndFetch(_ db: Database, onConflict conflictResolution: Database.ConflictResolution? = nil) throws
        -> Self
    where Self: FetchableRecord
    {
        var result = self
        return try result.insertAndFetch(db, onConflict: conflictResolution, as: Self.self)
    }

    /// Inserts the record, and returns the inserted row as another record
    /// type (`INSERT ... RETURNING <T.databaseSelection>`).
    ///
    /// ```swift
    /// var player = Player(name: "Arthur") // optional id and dates
    /// let persisted = try player.insertAndFetch(db, as: PersistedPlayer.self)
    /// ```
    public mutating func insertAndFetch<T: FetchableRecord & TableRecord>(
        _ db: Database,
        onConflict conflictResolution: Database.ConflictResolution? = nil,
        as returnedType: T.Type) throws -> T
    {
        let record = self
        return try performInsertAndFetch(db, onConflict: conflictResolution, selection: T.databaseSelection) {
            statement in
            try Self.fetchReturnedRecord(T.self, statement, db: db, key: record)
        }
    }

    /// Inserts the record with a RETURNING clause, and returns what `fetch`
    /// reads from the statement.
    ///
    /// ```swift
    /// // INSERT INTO player ... RETURNING score
    /// let score = try player.insertAndFetch(db, selection: [Column("score")]) { statement in
    ///     try Int.fetchOne(statement)
    /// }
    /// ```
    public mutating func insertAndFetch<T>(
        _ db: Database,
        onConflict conflictResolution: Database.ConflictResolution? = nil,
        selection: [any SQLSelectable],
        fetch: (Statement) throws -> T) throws -> T
    {
        try performInsertAndFetch(db, onConflict: conflictResolution, selection: selection, fetch: fetch)
    }

    mutating func performInsertAndFetch<T>(
        _ db: Database,
        onConflict conflictResolution: Database.ConflictResolution?,
        selection: [any SQLSelectable],
        fetch: (Statement) throws -> T) throws -> T
    {
        precondition(!selection.isEmpty, "Invalid empty selection for insertAndFetch")
        try willSave(db)
        var success: (inserted: InsertionSuccess, returned: T)?
        try aroundSave(db) {
            success = try insertAndFetchWithCallbacks(
                db, onConflict: conflictResolution, selection: selection, fetch: fetch)
            return PersistenceSuccess(success!.inserted)
        }
        guard let success else { try persistenceCallbackMisuse("aroundSave") }
        didSave(PersistenceSuccess(success.inserted))
        return success.returned
    }

    /// Inserts the record with a RETURNING clause of the columns that
    /// `select` returns, and returns what `fetch` reads from the statement.
    ///
    /// ```swift
    /// let score = try player.insertAndFetch(db, fetch: { try Int.fetchOne($0) }, select: { [$0.score] })
    /// ```
    public mutating func insertAndFetch<T>(
        _ db: Database,
        onConflict conflictResolution: Database.ConflictResolution? = nil,
        fetch: (Statement) throws -> T,
        select: (DatabaseComponents) throws -> [any SQLSelectable]) throws -> T
    where Self: TableRecord
    {
        try performInsertAndFetch(
            db, onConflict: conflictResolution, selection: select(Self.databaseComponents), fetch: fetch)
    }

    /// The record of a RETURNING clause, or the error of the missing row of
    /// `key`.
    static func fetchReturnedRecord<T: FetchableRecord>(
        _ type: T.Type,
        _ statement: Statement,
        db: Database,
        key: some MutablePersistableRecord) throws -> T
    {
        // All rows, so that the statement runs to completion.
        guard let row = try Row.fetchAll(statement).first else { throw key.recordNotFound(db) }
        return try T(row: row)
    }

    // MARK: - Internals

    @inlinable
    mutating func insertWithCallbacks(_ db: Database, onConflict conflictResolution: Database.ConflictResolution?)
        throws -> InsertionSuccess
    {
        try willInsert(db)
        var inserted: InsertionSuccess?
        try aroundInsert(db) {
            inserted = try insertWithoutCallbacks(db, onConflict: conflictResolution)
            return inserted!
        }
        guard let inserted else { try persistenceCallbackMisuse("aroundInsert") }
        didInsert(inserted)
        return inserted
    }

    mutating func insertAndFetchWithCallbacks<T>(
        _ db: Database,
        onConflict conflictResolution: Database.ConflictResolution?,
        selection: [any SQLSelectable],
        fetch: (Statement) throws -> T) throws -> (inserted: InsertionSuccess, returned: T)
    {
        try willInsert(db)
        var success: (inserted: InsertionSuccess, returned: T)?
        try aroundInsert(db) {
            let conflict = conflictResolution ?? type(of: self).persistenceConflictPolicy.conflictResolutionForInsert
            let engine = try PersistenceEngine(db, self)
            let returned = try fetch(engine.insertStatement(onConflict: conflict, returning: selection))
            let inserted = InsertionSuccess(
                rowID: db.lastInsertedRowID,
                rowIDColumn: engine.primaryKey.rowIDColumn,
                container: engine.container)
            success = (inserted, returned)
            return inserted
        }
        guard let success else { try persistenceCallbackMisuse("aroundInsert") }
        didInsert(success.inserted)
        return success
    }

    /// Encodes into the connection's reusable container and runs the
    /// cached INSERT of the record type.
    @inlinable
    func insertWithoutCallbacks(_ db: Database, onConflict conflictResolution: Database.ConflictResolution?) throws
        -> InsertionSuccess
    {
        let conflict = conflictResolution ?? type(of: self).persistenceConflictPolicy.conflictResolutionForInsert
        let storage = RecordStorage.of(db)
        var container = storage.takeContainer()
        do {
            try encode(to: &container)
        } catch {
            storage.reuse(consume container)
            throw error
        }
        // The dynamic type: a `Record` subclass has its own table.
        let recordType = type(of: self)
        return try storage.insert(
            db, type: ObjectIdentifier(recordType), tableName: { recordType.databaseTableName },
            container: consume container, onConflict: conflict)
    }
}
