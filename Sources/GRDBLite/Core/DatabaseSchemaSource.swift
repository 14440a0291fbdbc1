/// Information about the schema that SQLite can't provide, such as the
/// primary key of a view.
///
/// A schema source lets views work with the APIs that need a primary key
/// (`find(_:id:)`, `filter(id:)`, the persistence methods of records that
/// write through `INSTEAD OF` triggers...):
///
/// ```swift
/// struct MySchemaSource: DatabaseSchemaSource {
///     func columnsForPrimaryKey(_ db: Database, inView view: DatabaseObjectID) throws -> [String]? {
///         view.name == "playerView" ? ["id"] : nil
///     }
/// }
///
/// var config = Configuration()
/// config.schemaSource = MySchemaSource()
/// let dbQueue = try DatabaseQueue(path: "/path/to/db.sqlite", configuration: config)
/// ```
///
/// Migrations run without schema source; use
/// ``Database/withSchemaSource(_:execute:)`` in a migration that needs one.
public protocol DatabaseSchemaSource: Sendable {
    /// The columns of the primary key of a view; nil (the default) for no
    /// customization, and an empty array for a view without primary key.
    ///
    /// The columns must exist in the view, be never NULL, and identify
    /// its rows.
    func columnsForPrimaryKey(_ db: Database, inView view: DatabaseObjectID) throws -> [String]?
}

extension DatabaseSchemaSource {
    public func columnsForPrimaryKey(_ db: Database, inView view: DatabaseObjectID) throws -> [String]? {
        nil
    }

    /// A schema source that asks `other` when this one does not customize
    /// the schema (returns nil).
    ///
    /// ```swift
    /// config.schemaSource = LibrarySchemaSource().then(AppSchemaSource())
    /// ```
    public func then(_ other: some DatabaseSchemaSource) -> some DatabaseSchemaSource {
        ChainedSchemaSource(first: self, second: other)
    }
}

/// Asks `first`, then `second` when `first` returns nil.
private struct ChainedSchemaSource<First: DatabaseSchemaSource, Second: DatabaseSchemaSource>: DatabaseSchemaSource {
    let first: First
    let second: Second

    func columnsForPrimaryKey(_ db: Database, inView view: DatabaseObjectID) throws -> [String]? {
        if let columns = try first.columnsForPrimaryKey(db, inView: view) {
            return columns
        }
        return try second.columnsForPrimaryKey(db, inView: view)
    }
}

extension Database {
    /// Runs `body` with another schema source (nil: none), then restores
    /// the current one. Schema information read with the other source is
    /// forgotten when it returns.
    ///
    /// ```swift
    /// migrator.registerMigration("v2") { db in
    ///     try db.withSchemaSource(MySchemaSource()) {
    ///         try Player.deleteOne(db, id: 1) // Player reads a view
    ///     }
    /// }
    /// ```
    public func withSchemaSource<T>(
        _ schemaSource: (any DatabaseSchemaSource)?,
        execute body: () throws -> T) rethrows -> T
    {
        preconditionValidAccess()
        let previous = self.schemaSource
        self.schemaSource = schemaSource
        dropSchemaDependentCaches()
        defer {
            self.schemaSource = previous
            dropSchemaDependentCaches()
        }
        return try body()
    }
}
