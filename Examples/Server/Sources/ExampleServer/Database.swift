import GRDBLite

/// Opens the server's database: one `DatabasePool` for the whole process, migrated before the
/// server listens. A pool runs the reads of concurrent requests in parallel, on readers, while
/// one writer serializes the writes (WAL mode).
enum AppDatabase {
    /// Opens the pool at `path` (created when missing) and runs the migrations it hasn't run yet.
    static func open(path: String) throws -> DatabasePool {
        var configuration = Configuration()
        configuration.label = "ExampleServer"
        configuration.maximumReaderCount = 8
        // Waits out another process's write lock (Litestream takes it when it checkpoints:
        // see Scripts/example-replicated.sh) instead of failing the request.
        configuration.busyMode = .timeout(5)
        let pool = try DatabasePool(path: path, configuration: configuration)
        try migrator.migrate(pool)
        return pool
    }

    /// The schema, one migration per version; a shipped migration never changes.
    static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1") { db in
            try db.create(table: "author") { t in
                t.autoIncrementedPrimaryKey("id")
                t.column("name", .text).notNull().unique().check { length($0) > 0 }
                t.column("country", .text)
            }
            try db.create(table: "book") { t in
                t.autoIncrementedPrimaryKey("id")
                t.belongsTo("author", onDelete: .cascade).notNull()
                t.column("title", .text).notNull().check { length($0) > 0 }
                t.column("year", .integer)
            }
        }
        return migrator
    }
}
