/// A base class for records that track their changes: subclass it, and a
/// record knows which of its columns changed since it was fetched or saved
/// (``hasDatabaseChanges``, ``databaseChanges``), and updates only those
/// (``updateChanges(_:)``).
///
/// ```swift
/// class Player: Record {
///     var id: Int64?
///     var name: String
///     var score: Int
///
///     override class var databaseTableName: String { "player" }
///
///     init(id: Int64? = nil, name: String, score: Int) {
///         self.id = id
///         self.name = name
///         self.score = score
///         super.init()
///     }
///
///     required init(row: Row) throws {
///         id = row["id"]
///         name = row["name"]
///         score = row["score"]
///         try super.init(row: row)
///     }
///
///     override func encode(to container: inout PersistenceContainer) throws {
///         container["id"] = id
///         container["name"] = name
///         container["score"] = score
///     }
///
///     // Update the auto-incremented id upon successful insertion.
///     override func didInsert(_ inserted: InsertionSuccess) {
///         super.didInsert(inserted)
///         id = inserted.rowID
///     }
/// }
///
/// let player = try Player.find(db, key: 1)
/// player.score += 10
/// try player.updateChanges(db) // UPDATE player SET score = ? WHERE id = ?
/// ```
///
/// Subclasses that override a persistence callback (`willInsert`,
/// `aroundInsert`, `didInsert`, `willUpdate`...) call `super`: the
/// `around...` callbacks of `Record` record what was saved.
open class Record {
    /// The values of the record in the database, as it was last fetched or
    /// saved; nil when unknown (a new or deleted record): then all columns
    /// are changes.
    private var referenceRow: Row?

    /// A record that is not in the database yet: all its columns are
    /// changes.
    public init() { }

    /// A record decoded from a row. Subclasses read their properties, then
    /// call `super.init(row:)`. A record built from a fetched row has no
    /// change until it is modified; from a row built in code (a
    /// dictionary), all its columns are changes.
    public required init(row: Row) throws {
        if row.isFetched {
            // A cursor's row reads the statement's current row: keep a copy.
            referenceRow = row.copy()
        }
    }

    // MARK: - Table and persistence

    /// The name of the table. Defaults to the class name with a lowercased
    /// first letter (`Player` → `player`), like other ``TableRecord``
    /// types; subclasses usually override it.
    open class var databaseTableName: String {
        defaultDatabaseTableName
    }

    /// How insertions and updates resolve constraint conflicts. Default:
    /// `ABORT` for both.
    open class var persistenceConflictPolicy: PersistenceConflictPolicy {
        PersistenceConflictPolicy(insert: .abort, update: .abort)
    }

    /// The columns selected by requests. Defaults to all columns (`*`).
    open class var databaseSelection: [any SQLSelectable] {
        [AllColumns()]
    }

    /// Writes the columns of the record into the container. Subclasses
    /// override it; the default writes nothing.
    open func encode(to container: inout PersistenceContainer) throws { }

    // MARK: - Changes

    /// Whether the record has changes that are not saved: columns whose
    /// values differ from the ones it was fetched with or last saved. A
    /// new record, a deleted record, and a record that can't be encoded
    /// have changes.
    public var hasDatabaseChanges: Bool {
        do {
            return try !changes(stopAtFirst: true).isEmpty
        } catch {
            return true
        }
    }

    /// The columns that changed since the record was fetched or saved, with
    /// their former values: nil when the former value is unknown (a new
    /// record, or a column that was not fetched).
    ///
    /// ```swift
    /// let player = try Player.find(db, key: 1)
    /// player.score = 1000
    /// try player.databaseChanges // ["score": previous score]
    /// ```
    public var databaseChanges: [String: DatabaseValue?] {
        get throws {
            Dictionary(try changes(stopAtFirst: false), uniquingKeysWith: { $1 })
        }
    }

    /// Updates the columns that changed (see ``databaseChanges``); returns
    /// whether it updated (no statement runs when nothing changed).
    ///
    /// - throws: ``RecordError/recordNotFound(databaseTableName:key:)`` if
    ///   the record has changes and no row has its primary key, or a
    ///   ``DatabaseError``.
    @discardableResult
    public final func updateChanges(_ db: Database) throws -> Bool {
        let columns = try changes(stopAtFirst: false).map(\.column)
        if columns.isEmpty { return false }
        try update(db, columns: columns)
        return true
    }

    /// The changed columns and their former values.
    private func changes(stopAtFirst: Bool) throws -> [(column: String, oldValue: DatabaseValue?)] {
        let container = try PersistenceContainer(self)
        var changes: [(column: String, oldValue: DatabaseValue?)] = []
        for (column, value) in container {
            guard let referenceRow, let index = referenceRow.index(forColumn: column) else {
                changes.append((column, nil))
                if stopAtFirst { break } else { continue }
            }
            let oldValue = referenceRow.databaseValue(atUncheckedIndex: index)
            if PersistenceContainer.isChange(from: oldValue, to: value) {
                changes.append((column, oldValue))
                if stopAtFirst { break }
            }
        }
        return changes
    }

    /// The saved values become the reference of changes.
    private func setReference(_ container: PersistenceContainer) {
        referenceRow = Row(values: Array(container.databaseValues), names: Array(container.columns))
    }

    // MARK: - Persistence callbacks

    /// Before insertion; may modify the record (set timestamps...).
    open func willInsert(_ db: Database) throws { }

    /// Around insertion: subclasses call `super.aroundInsert(db, insert:)`,
    /// which runs `insert`, exactly once.
    open func aroundInsert(_ db: Database, insert: () throws -> InsertionSuccess) throws {
        let inserted = try insert()
        setReference(inserted.persistenceContainer)
    }

    /// After insertion; may modify the record (store the rowid...).
    open func didInsert(_ inserted: InsertionSuccess) { }

    /// Before an update of `columns`.
    open func willUpdate(_ db: Database, columns: Set<String>) throws { }

    /// Around an update: subclasses call `super.aroundUpdate(db, columns:
    /// update:)`, which runs `update`, exactly once.
    open func aroundUpdate(_ db: Database, columns: Set<String>, update: () throws -> PersistenceSuccess) throws {
        let updated = try update()
        setReference(updated.persistenceContainer)
    }

    /// After an update.
    open func didUpdate(_ updated: PersistenceSuccess) { }

    /// Before insertion, update, save or upsert.
    open func willSave(_ db: Database) throws { }

    /// Around insertion, update, save or upsert: subclasses call
    /// `super.aroundSave(db, save:)`, which runs `save`, exactly once.
    open func aroundSave(_ db: Database, save: () throws -> PersistenceSuccess) throws {
        _ = try save()
    }

    /// After insertion, update, save or upsert.
    open func didSave(_ saved: PersistenceSuccess) { }

    /// Before deletion.
    open func willDelete(_ db: Database) throws { }

    /// Around deletion: subclasses call `super.aroundDelete(db, delete:)`,
    /// which runs `delete`, exactly once. Afterwards, all columns of the
    /// record are changes.
    open func aroundDelete(_ db: Database, delete: () throws -> Bool) throws {
        _ = try delete()
        referenceRow = nil
    }

    /// After deletion, with whether a row was deleted.
    open func didDelete(deleted: Bool) { }
}

extension Record: TableRecord { }
extension Record: PersistableRecord { }
extension Record: FetchableRecord { }

// A record changes when it is saved: one instance must not be saved from
// two threads at once.
@available(*, unavailable)
extension Record: Sendable { }
