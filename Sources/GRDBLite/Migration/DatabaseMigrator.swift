import Foundation

/// Applies database migrations, in order, each once.
///
/// ```swift
/// var migrator = DatabaseMigrator()
/// migrator.registerMigration("createLibrary") { db in
///     try db.create(table: "author") { t in
///         t.autoIncrementedPrimaryKey("id")
///         t.column("name", .text).notNull()
///     }
///     try db.create(table: "book") { t in
///         t.autoIncrementedPrimaryKey("id")
///         t.column("title", .text).notNull()
///         t.belongsTo("author", onDelete: .cascade).notNull()
///     }
/// }
/// migrator.registerMigration("addAuthorCountry") { db in
///     try db.alter(table: "author") { t in t.add(column: "countryCode", .text) }
/// }
/// try migrator.migrate(dbQueue)
/// ```
///
/// Each migration runs in its own transaction: one that throws is rolled
/// back (schema and data), and the following ones don't run. Applied
/// migrations are recorded in the `grdb_migrations` table, as GRDB does,
/// so that databases migrated by GRDB keep working.
///
/// By default, foreign keys are disabled while a migration runs, and
/// checked before it commits: a migration can then recreate a table
/// referenced by foreign keys, as SQLite recommends
/// (<https://www.sqlite.org/lang_altertable.html#otheralter>). A violation
/// throws a ``DatabaseError`` with code `SQLITE_CONSTRAINT_FOREIGNKEY`,
/// and rolls the migration back.
public struct DatabaseMigrator: Sendable {
    /// How foreign keys are checked while a migration runs.
    public enum ForeignKeyChecks: Sendable {
        /// Foreign keys are disabled during the migration, and all are
        /// checked before it commits (the default).
        case deferred
        /// Foreign keys are enforced by each statement of the migration.
        case immediate
    }

    /// Whether the database is erased and migrated again when the
    /// registered migrations no longer match the applied ones: a migration
    /// was removed or renamed, or the schema it creates has changed.
    ///
    /// A convenience for development, where migrations are edited until
    /// they ship. **It loses all data**: never set it in a shipping app.
    ///
    /// ```swift
    /// #if DEBUG
    /// migrator.eraseDatabaseOnSchemaChange = true
    /// #endif
    /// ```
    public var eraseDatabaseOnSchemaChange = false

    private var defersForeignKeyChecks = true
    private var registeredMigrations: [Migration] = []

    /// A migrator with no migration.
    public init() { }

    // MARK: - Registering migrations

    /// Returns a migrator whose migrations registered from now on with
    /// `.deferred` checks don't check foreign keys at all.
    ///
    /// Apps that check foreign keys themselves, or that can't afford the
    /// time of a full check on a large database, use it.
    public func disablingDeferredForeignKeyChecks() -> DatabaseMigrator {
        var migrator = self
        migrator.defersForeignKeyChecks = false
        return migrator
    }

    /// Registers a migration.
    ///
    /// ```swift
    /// migrator.registerMigration("createPlayer") { db in
    ///     try db.create(table: "player") { t in
    ///         t.autoIncrementedPrimaryKey("id")
    ///         t.column("name", .text).notNull()
    ///     }
    /// }
    /// ```
    ///
    /// Registering two migrations with the same identifier is a programmer
    /// error that traps.
    ///
    /// - parameters:
    ///   - identifier: The migration identifier, recorded in
    ///     `grdb_migrations` once applied.
    ///   - foreignKeyChecks: How foreign keys are checked.
    ///   - migrate: The migration. It runs in a transaction: don't commit
    ///     or roll back.
    public mutating func registerMigration(
        _ identifier: String,
        foreignKeyChecks: ForeignKeyChecks = .deferred,
        migrate: @escaping @Sendable (Database) throws -> Void)
    {
        registerMigration(identifier, foreignKeyChecks: foreignKeyChecks, merging: []) { db, _ in
            try migrate(db)
        }
    }

    /// Registers a migration that replaces older ones, merged into it.
    ///
    /// On a database where some merged migrations were applied, the
    /// migration runs, and receives their identifiers so that it can skip
    /// what they did. Then the merged identifiers are removed from
    /// `grdb_migrations`.
    public mutating func registerMigration(
        _ identifier: String,
        foreignKeyChecks: ForeignKeyChecks = .deferred,
        merging mergedIdentifiers: Set<String> = [],
        migrate: @escaping @Sendable (_ db: Database, _ appliedIdentifiers: Set<String>) throws -> Void)
    {
        precondition(
            !registeredMigrations.contains { $0.identifier == identifier },
            "already registered migration: \(String(reflecting: identifier))")
        let checks: Migration.ForeignKeyChecks = switch foreignKeyChecks {
        case .deferred: defersForeignKeyChecks ? .deferred : .disabled
        case .immediate: .immediate
        }
        registeredMigrations.append(Migration(
            identifier: identifier,
            mergedIdentifiers: mergedIdentifiers.subtracting([identifier]),
            foreignKeyChecks: checks,
            migrate: migrate))
    }

    // MARK: - Applying migrations

    /// Applies the migrations that were not applied yet, in order.
    ///
    /// - throws: The error of the first migration that fails; it is rolled
    ///   back, and the following migrations don't run.
    public func migrate(_ writer: any DatabaseWriter) throws {
        guard let last = registeredMigrations.last else { return }
        try migrate(writer, upTo: last.identifier)
    }

    /// Applies the migrations that were not applied yet, in order, up to
    /// and including `targetIdentifier`.
    ///
    /// An unregistered target, or a database already migrated beyond it,
    /// is a programmer error that traps. The migrations run as a barrier:
    /// the reads of a ``DatabasePool`` wait until they are done.
    public func migrate(_ writer: any DatabaseWriter, upTo targetIdentifier: String) throws {
        try writer.barrierWriteWithoutTransaction { db in
            // Migrations see the schema as SQLite describes it.
            try db.withSchemaSource(nil) {
                try migrate(db, upTo: targetIdentifier)
            }
        }
    }

    /// Applies the migrations that were not applied yet, in order, without
    /// blocking the current thread; `completion` is called with the
    /// connection once they have run, or with the error of the first that
    /// failed (it is rolled back).
    public func asyncMigrate(
        _ writer: any DatabaseWriter,
        completion: @escaping @Sendable (Result<Database, any Error>) -> Void)
    {
        writer.asyncBarrierWriteWithoutTransaction { dbResult in
            do {
                let db = try dbResult.get()
                if let last = registeredMigrations.last {
                    try db.withSchemaSource(nil) {
                        try migrate(db, upTo: last.identifier)
                    }
                }
                completion(.success(db))
            } catch {
                completion(.failure(error))
            }
        }
    }

    private func migrate(_ db: Database, upTo targetIdentifier: String) throws {
        if eraseDatabaseOnSchemaChange {
            var needsErase = false
            try db.inTransaction(.deferred) {
                needsErase = try hasSchemaChanges(db)
                return .commit
            }
            if needsErase {
                try db.erase()
            }
        }
        try runMigrations(db, upTo: targetIdentifier)
    }

    private func runMigrations(_ db: Database, upTo targetIdentifier: String) throws {
        guard let targetIndex = registeredMigrations.firstIndex(where: { $0.identifier == targetIdentifier }) else {
            fatalError("undefined migration: \(String(reflecting: targetIdentifier))")
        }
        try db.execute(sql: "CREATE TABLE IF NOT EXISTS grdb_migrations (identifier TEXT NOT NULL PRIMARY KEY)")
        let appliedIdentifiers = try self.appliedIdentifiers(db)
        if let lastAppliedIndex = registeredMigrations.lastIndex(where: { appliedIdentifiers.contains($0.identifier) }),
           lastAppliedIndex > targetIndex
        {
            fatalError("database is already migrated beyond migration \(String(reflecting: targetIdentifier))")
        }
        for migration in registeredMigrations[...targetIndex] {
            if appliedIdentifiers.contains(migration.identifier) {
                // Applied: forget the migrations it replaces, if they are
                // still recorded.
                if !migration.mergedIdentifiers.isDisjoint(with: appliedIdentifiers) {
                    try migration.deleteMergedIdentifiers(db)
                }
            } else {
                try migration.run(db, mergedIdentifiers: migration.mergedIdentifiers.intersection(appliedIdentifiers))
            }
        }
    }

    // MARK: - Querying migrations

    /// The identifiers of the registered migrations, in order.
    public var migrations: [String] {
        registeredMigrations.map(\.identifier)
    }

    /// The identifiers of the registered migrations that were applied, in
    /// order.
    public func appliedMigrations(_ db: Database) throws -> [String] {
        let appliedIdentifiers = try self.appliedIdentifiers(db)
        return migrations.filter { appliedIdentifiers.contains($0) }
    }

    /// The identifiers recorded in `grdb_migrations`, registered or not
    /// (a database migrated by a newer version of the app has migrations
    /// this migrator does not know).
    public func appliedIdentifiers(_ db: Database) throws -> Set<String> {
        guard try db.tableExists("grdb_migrations") else { return [] }
        return try String.fetchSet(db, sql: "SELECT identifier FROM grdb_migrations")
    }

    /// The identifiers of the applied migrations that form an unbroken
    /// sequence from the first registered migration.
    public func completedMigrations(_ db: Database) throws -> [String] {
        let appliedIdentifiers = try self.appliedIdentifiers(db)
        return Array(migrations.prefix { appliedIdentifiers.contains($0) })
    }

    /// Whether all registered migrations were applied (true when there is
    /// none).
    public func hasCompletedMigrations(_ db: Database) throws -> Bool {
        try completedMigrations(db).last == migrations.last
    }

    /// Whether the database was migrated by a newer migrator, with
    /// migrations that this one does not know.
    public func hasBeenSuperseded(_ db: Database) throws -> Bool {
        try !appliedIdentifiers(db).isSubset(of: migrations)
    }

    /// Whether the registered migrations no longer match the applied ones:
    /// an applied migration is not registered anymore, or the schema of
    /// the database differs from the schema that the registered
    /// migrations create.
    ///
    /// The comparison migrates a new temporary database file, with the same
    /// configuration, up to the last applied migration, and compares the
    /// `sqlite_master` tables (without SQLite and GRDB internal tables).
    public func hasSchemaChanges(_ db: Database) throws -> Bool {
        let appliedIdentifiers = try self.appliedIdentifiers(db)
        if !appliedIdentifiers.isSubset(of: migrations) {
            return true
        }
        guard let lastApplied = migrations.last(where: { appliedIdentifiers.contains($0) }) else {
            return false
        }
        var configuration = db.configuration
        configuration.readonly = false
        configuration.label = "GRDBLite.DatabaseMigrator.temporary"
        // This runs inside an access of the migrated database: a serial
        // target queue would deadlock.
        configuration.targetQueue = nil
        configuration.writeTargetQueue = nil
        // A database file, as GRDB does: the user's `prepareDatabase` may
        // need one (file controls, WAL...), and migrations may write a lot.
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("GRDBLite.DatabaseMigrator.\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let temporaryDatabase = try DatabaseQueue(
            path: directory.appendingPathComponent("db.sqlite").path,
            configuration: configuration)
        let expectedSchema = try temporaryDatabase.writeWithoutTransaction { db in
            try runMigrations(db, upTo: lastApplied)
            return try SchemaObject.userObjects(db)
        }
        try temporaryDatabase.close()
        return try SchemaObject.userObjects(db) != expectedSchema
    }
}

/// An object of the main schema, for comparing schemas.
private struct SchemaObject: Hashable {
    var type: String
    var name: String
    var tableName: String
    var sql: String?

    /// The tables, indexes, views and triggers of the app.
    static func userObjects(_ db: Database) throws -> Set<SchemaObject> {
        try Set(Row.fetchAll(db, sql: "SELECT type, name, tbl_name, sql FROM main.sqlite_master")
            .map { row in
                // Read as `schemaText`: a damaged file may hold bytes or NULL there.
                SchemaObject(
                    type: row.schemaText("type") ?? "", name: row.schemaText("name") ?? "",
                    tableName: row.schemaText("tbl_name") ?? "", sql: row.schemaText("sql"))
            }
            .filter { !Database.isSQLiteInternalTable($0.name) && !Database.isGRDBInternalTable($0.name) })
    }
}
