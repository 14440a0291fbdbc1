/// A type that can be inserted, updated, saved, upserted and deleted, and
/// does not change on insertion: its callbacks are not mutating, so a `let`
/// record can be inserted.
///
/// ```swift
/// struct Country: Codable, PersistableRecord {
///     var code: String
///     var name: String
/// }
/// let country = Country(code: "FR", name: "France")
/// try country.insert(db)
/// ```
public protocol PersistableRecord: MutablePersistableRecord {
    /// Before insertion.
    func willInsert(_ db: Database) throws
    /// After insertion.
    func didInsert(_ inserted: InsertionSuccess)
}

extension PersistableRecord {
    @inlinable public func willInsert(_ db: Database) throws { }
    @inlinable public func didInsert(_ inserted: InsertionSuccess) { }

    /// Inserts the record: `INSERT INTO table (...) VALUES (...)`.
    @inlinable
    public func insert(_ db: Database, onConflict conflictResolution: Database.ConflictResolution? = nil) throws {
        try willSave(db)
        var saved: PersistenceSuccess?
        try aroundSave(db) {
            var record = self
            saved = try PersistenceSuccess(record.insertWithCallbacks(db, onConflict: conflictResolution))
            return saved!
        }
        guard let saved else { try persistenceCallbackMisuse("aroundSave") }
        didSave(saved)
    }

    /// Updates the row with the record's primary key if there is one, and
    /// inserts the record otherwise.
    public func save(_ db: Database, onConflict conflictResolution: Database.ConflictResolution? = nil) throws {
        try willSave(db)
        var saved: PersistenceSuccess?
        try aroundSave(db) {
            var record = self
            saved = try record.updateOrInsertWithCallbacks(db, onConflict: conflictResolution)
            return saved!
        }
        guard let saved else { try persistenceCallbackMisuse("aroundSave") }
        didSave(saved)
    }

    /// Inserts the record, or updates the row it conflicts with (see
    /// ``MutablePersistableRecord/upsert(_:)``).
    public func upsert(_ db: Database) throws {
        var record = self
        _ = try record.upsertAndFetch(db, onConflict: [], overwritesAllColumns: true, assignments: [], selection: []) {
            _ in
        }
    }

    /// Inserts the record, and returns the inserted row as another record
    /// type.
    public func insertAndFetch<T: FetchableRecord & TableRecord>(
        _ db: Database,
        onConflict conflictResolution: Database.ConflictResolution? = nil,
        as returnedType: T.Type) throws -> T
    {
        var record = self
        return try record.performInsertAndFetch(db, onConflict: conflictResolution, selection: T.databaseSelection) {
            try Self.fetchReturnedRecord(T.self, $0, db: db, key: self)
        }
    }

    /// Inserts the record with a RETURNING clause, and returns what `fetch`
    /// reads from the statement.
    public func insertAndFetch<T>(
        _ db: Database,
        onConflict conflictResolution: Database.ConflictResolution? = nil,
        selection: [any SQLSelectable],
        fetch: (Statement) throws -> T) throws -> T
    {
        var record = self
        return try record.performInsertAndFetch(db, onConflict: conflictResolution, selection: selection, fetch: fetch)
    }

    /// Inserts the record with a RETURNING clause of the columns that
    /// `select` returns, and returns what `fetch` reads from the statement.
    public func insertAndFetch<T>(
        _ db: Database,
        onConflict conflictResolution: Database.ConflictResolution? = nil,
        fetch: (Statement) throws -> T,
        select: (DatabaseComponents) throws -> [any SQLSelectable]) throws -> T
    where Self: TableRecord
    {
        var record = self
        return try record.performInsertAndFetch(
            db, onConflict: conflictResolution, selection: select(Self.databaseComponents), fetch: fetch)
    }

    /// Saves the record, and returns the saved row as another record type.
    public func saveAndFetch<T: FetchableRecord & TableRecord>(
        _ db: Database,
        onConflict conflictResolution: Database.ConflictResolution? = nil,
        as returnedType: T.Type) throws -> T
    {
        var record = self
        return try record.performSaveAndFetch(db, onConflict: conflictResolution, selection: T.databaseSelection) {
            try Self.fetchReturnedRecord(T.self, $0, db: db, key: self)
        }
    }

    /// Saves the record with a RETURNING clause, and returns what `fetch`
    /// reads from the statement.
    public func saveAndFetch<T>(
        _ db: Database,
        onConflict conflictResolution: Database.ConflictResolution? = nil,
        selection: [any SQLSelectable],
        fetch: (Statement) throws -> T) throws -> T
    {
        var record = self
        return try record.performSaveAndFetch(db, onConflict: conflictResolution, selection: selection, fetch: fetch)
    }
}
