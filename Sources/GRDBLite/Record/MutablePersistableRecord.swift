/// A type that can be inserted, updated, saved, upserted and deleted, and
/// may change on insertion (an auto-incremented id).
///
/// ```swift
/// struct Player: Codable, FetchableRecord, MutablePersistableRecord {
///     var id: Int64?
///     var name: String
///
///     // Update the auto-incremented id upon successful insertion.
///     mutating func didInsert(_ inserted: InsertionSuccess) {
///         id = inserted.rowID
///     }
/// }
/// var player = Player(id: nil, name: "Arthur")
/// try player.insert(db)   // INSERT INTO player (id, name) VALUES (NULL, 'Arthur')
/// player.id               // the new id
/// ```
///
/// Persistence callbacks run in this order: `willSave`, `aroundSave`,
/// `willInsert` (or `willUpdate`), `aroundInsert` (or `aroundUpdate`), the
/// statement, `didInsert` (or `didUpdate`), `didSave`. Deletion has its own
/// `willDelete`, `aroundDelete`, `didDelete`.
public protocol MutablePersistableRecord: EncodableRecord, TableRecord {
    /// How insertions and updates resolve constraint conflicts. Default:
    /// `ABORT` for both (plain INSERT and UPDATE statements).
    static var persistenceConflictPolicy: PersistenceConflictPolicy { get }

    /// Before insertion; may modify the record (set timestamps...).
    mutating func willInsert(_ db: Database) throws
    /// Around insertion: call `insert` exactly once and rethrow its error.
    func aroundInsert(_ db: Database, insert: () throws -> InsertionSuccess) throws
    /// After insertion; may modify the record (store the rowid...).
    mutating func didInsert(_ inserted: InsertionSuccess)

    /// Before an update of `columns`.
    func willUpdate(_ db: Database, columns: Set<String>) throws
    /// Around an update: call `update` exactly once and rethrow its error.
    func aroundUpdate(_ db: Database, columns: Set<String>, update: () throws -> PersistenceSuccess) throws
    /// After an update.
    func didUpdate(_ updated: PersistenceSuccess)

    /// Before insertion, update, save or upsert.
    func willSave(_ db: Database) throws
    /// Around insertion, update, save or upsert: call `save` exactly once
    /// and rethrow its error.
    func aroundSave(_ db: Database, save: () throws -> PersistenceSuccess) throws
    /// After insertion, update, save or upsert.
    func didSave(_ saved: PersistenceSuccess)

    /// Before deletion.
    func willDelete(_ db: Database) throws
    /// Around deletion: call `delete` exactly once and rethrow its error.
    func aroundDelete(_ db: Database, delete: () throws -> Bool) throws
    /// After deletion, with whether a row was deleted.
    func didDelete(deleted: Bool)
}

extension MutablePersistableRecord {
    public static var persistenceConflictPolicy: PersistenceConflictPolicy {
        PersistenceConflictPolicy(insert: .abort, update: .abort)
    }

    @inlinable public mutating func willInsert(_ db: Database) throws { }
    @inlinable public func aroundInsert(_ db: Database, insert: () throws -> InsertionSuccess) throws {
        _ = try insert()
    }
    @inlinable public mutating func didInsert(_ inserted: InsertionSuccess) { }

    @inlinable public func willUpdate(_ db: Database, columns: Set<String>) throws { }
    @inlinable public func aroundUpdate(_ db: Database, columns: Set<String>, update: () throws -> PersistenceSuccess)
        throws
    {
        _ = try update()
    }
    @inlinable public func didUpdate(_ updated: PersistenceSuccess) { }

    @inlinable public func willSave(_ db: Database) throws { }
    @inlinable public func aroundSave(_ db: Database, save: () throws -> PersistenceSuccess) throws { _ = try save() }
    @inlinable public func didSave(_ saved: PersistenceSuccess) { }

    @inlinable public func willDelete(_ db: Database) throws { }
    @inlinable public func aroundDelete(_ db: Database, delete: () throws -> Bool) throws { _ = try delete() }
    @inlinable public func didDelete(deleted: Bool) { }

    /// An `around...` callback that did not call its function: a
    /// programmer error, reported as an error because it may only show
    /// when a database error happens.
    @usableFromInline
    func persistenceCallbackMisuse(_ callbackName: String) throws -> Never {
        throw DatabaseError(
            resultCode: .SQLITE_MISUSE,
            message: "Incorrect implementation of the `\(Self.self).\(callbackName)` persistence callback: "
                + "the action function was not called, or its error was not rethrown.")
    }

    /// Whether a row has the primary key of the record.
    public func exists(_ db: Database) throws -> Bool {
        try PersistenceEngine(db, self).exists()
    }
}

/// How insertions and updates resolve constraint conflicts.
///
/// Related SQLite documentation: <https://www.sqlite.org/lang_conflict.html>
public struct PersistenceConflictPolicy: Sendable {
    /// The conflict resolution of insertions (`INSERT OR ...`).
    public let conflictResolutionForInsert: Database.ConflictResolution
    /// The conflict resolution of updates (`UPDATE OR ...`).
    public let conflictResolutionForUpdate: Database.ConflictResolution

    public init(insert: Database.ConflictResolution = .abort, update: Database.ConflictResolution = .abort) {
        self.conflictResolutionForInsert = insert
        self.conflictResolutionForUpdate = update
    }
}

/// What `didInsert` is told: the rowid of the inserted row.
public struct InsertionSuccess {
    /// The rowid of the inserted row.
    public var rowID: Int64
    // The values and the rowid column are shared with the connection's
    // reusable container until they are read: the rowid is only set on a
    // copy when asked. One reference: the persistence callbacks copy and
    // destroy successes, and each copy costs one retain and one release.
    private var values: InsertedValues
    private var containerHasRowID = false

    init(rowID: Int64, rowIDColumn: String?, container: PersistenceContainer) {
        self.init(rowID: rowID, values: InsertedValues(container, rowIDColumn: rowIDColumn))
    }

    @usableFromInline
    init(rowID: Int64, values: InsertedValues) {
        self.rowID = rowID
        self.values = values
    }

    /// The column that holds the rowid (an INTEGER PRIMARY KEY, or
    /// `rowid`), if any.
    public var rowIDColumn: String? {
        get { values.rowIDColumn }
        set { values = InsertedValues(values.container, rowIDColumn: newValue) }
    }

    /// The inserted values, with the rowid column set.
    public var persistenceContainer: PersistenceContainer {
        get {
            // A success's values always hold their container.
            var container = values.container ?? PersistenceContainer()
            guard !containerHasRowID, let rowIDColumn else { return container }
            container[rowIDColumn] = rowID
            return container
        }
        set {
            values = InsertedValues(newValue, rowIDColumn: rowIDColumn)
            containerHasRowID = true
        }
    }
}

/// What `didUpdate` and `didSave` are told.
public struct PersistenceSuccess {
    // An insertion's success, or saved values with no rowid to set: one
    // reference (see `InsertionSuccess`).
    private var saved: InsertionSuccess

    /// The saved values.
    public var persistenceContainer: PersistenceContainer {
        get { saved.persistenceContainer }
        set { saved.persistenceContainer = newValue }
    }

    init(persistenceContainer: PersistenceContainer) {
        self.saved = InsertionSuccess(rowID: 0, rowIDColumn: nil, container: persistenceContainer)
    }

    @usableFromInline
    init(_ inserted: InsertionSuccess) {
        self.saved = inserted
    }
}
