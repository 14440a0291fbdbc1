/// A registered migration, and how it runs.
struct Migration: Sendable {
    /// How foreign keys are checked while a migration runs.
    enum ForeignKeyChecks {
        /// Foreign keys are disabled during the migration, and all are
        /// checked before it commits.
        case deferred
        /// Foreign keys are enforced by each statement.
        case immediate
        /// Foreign keys are disabled during the migration, and not checked.
        case disabled
    }

    typealias Migrate = @Sendable (_ db: Database, _ mergedIdentifiers: Set<String>) throws -> Void

    let identifier: String
    /// Identifiers of older migrations that this one replaces.
    let mergedIdentifiers: Set<String>
    let foreignKeyChecks: ForeignKeyChecks
    let migrate: Migrate

    /// Runs the migration in its own transaction, and records it in
    /// `grdb_migrations`. If it throws, the transaction is rolled back.
    ///
    /// - parameter mergedIdentifiers: The merged identifiers that are
    ///   recorded as applied.
    func run(_ db: Database, mergedIdentifiers: Set<String>) throws {
        let foreignKeysEnabled = try Bool.fetchOne(db, sql: "PRAGMA foreign_keys") ?? false
        guard foreignKeysEnabled && foreignKeyChecks != .immediate else {
            try runInTransaction(db, mergedIdentifiers: mergedIdentifiers, checksForeignKeys: false)
            return
        }
        // SQLite's procedure for schema changes that foreign keys would
        // refuse (https://www.sqlite.org/lang_altertable.html#otheralter):
        // disable foreign keys outside of the transaction, check them all
        // before commit, enable them again.
        try db.execute(sql: "PRAGMA foreign_keys = OFF")
        do {
            try runInTransaction(
                db, mergedIdentifiers: mergedIdentifiers, checksForeignKeys: foreignKeyChecks == .deferred)
        } catch {
            try? db.execute(sql: "PRAGMA foreign_keys = ON")
            throw error
        }
        try db.execute(sql: "PRAGMA foreign_keys = ON")
    }

    /// Removes the merged identifiers of an applied migration.
    func deleteMergedIdentifiers(_ db: Database) throws {
        for identifier in mergedIdentifiers {
            try db.execute(sql: "DELETE FROM grdb_migrations WHERE identifier = ?", arguments: [identifier])
        }
    }

    private func runInTransaction(_ db: Database, mergedIdentifiers: Set<String>, checksForeignKeys: Bool) throws {
        try db.inTransaction(.immediate) {
            try migrate(db, mergedIdentifiers)
            try deleteMergedIdentifiers(db)
            try db.execute(sql: "INSERT INTO grdb_migrations (identifier) VALUES (?)", arguments: [identifier])
            if checksForeignKeys {
                try db.checkForeignKeys()
            }
            return .commit
        }
    }
}
