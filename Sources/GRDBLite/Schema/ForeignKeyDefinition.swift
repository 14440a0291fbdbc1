/// The foreign key that ``TableDefinition/belongsTo(_:inTable:onDelete:onUpdate:deferred:indexed:)``
/// declares, and its columns.
///
/// ```swift
/// try db.create(table: "book") { t in
///     t.autoIncrementedPrimaryKey("id")
///     t.belongsTo("author", onDelete: .cascade).notNull()
/// }
/// ```
public final class ForeignKeyDefinition {
    enum Indexing {
        case index
        case unique
    }

    let name: String
    let table: String?
    let deleteAction: Database.ForeignKeyAction?
    let updateAction: Database.ForeignKeyAction?
    let isDeferred: Bool
    var indexing: Indexing?
    var notNullConflictResolution: Database.ConflictResolution?

    init(
        name: String,
        table: String?,
        deleteAction: Database.ForeignKeyAction?,
        updateAction: Database.ForeignKeyAction?,
        isDeferred: Bool,
        isIndexed: Bool)
    {
        self.name = name
        self.table = table
        self.deleteAction = deleteAction
        self.updateAction = updateAction
        self.isDeferred = isDeferred
        self.indexing = isIndexed ? .index : nil
    }

    /// Forbids NULL in the foreign key columns: `NOT NULL`.
    @discardableResult
    public func notNull(onConflict conflictResolution: Database.ConflictResolution? = nil) -> Self {
        notNullConflictResolution = conflictResolution ?? .abort
        return self
    }

    /// Makes the foreign key columns unique (a one-to-one relationship).
    @discardableResult
    public func unique() -> Self {
        indexing = .unique
        return self
    }

    /// The referenced table: `table`, or else `name` if such a table
    /// exists, or else the plural of `name` (`"teams"` for `"team"`).
    func destinationTable(_ db: Database) throws -> String {
        if let table { return table }
        if try db.tableExists(name) { return name }
        let plural = name.pluralized
        if try db.tableExists(plural) { return plural }
        throw DatabaseError(message: "no such table: \(name)")
    }
}

@available(*, unavailable)
extension ForeignKeyDefinition: Sendable { }
