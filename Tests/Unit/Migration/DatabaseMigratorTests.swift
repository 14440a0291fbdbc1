import Foundation
import Testing
@_spi(GRDBLite) import GRDBLite

private struct MigrationError: Error, Equatable { }

/// Everything in the main schema and the tables' content, to compare a
/// database before and after a failed migration.
private func snapshot(_ db: Database) throws -> [String] {
    var lines = try String.fetchAll(
        db, sql: "SELECT type || ' ' || name || ' ' || IFNULL(sql, '') FROM sqlite_master ORDER BY name")
    for table in try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name") {
        lines += try Row.fetchAll(db, sql: "SELECT * FROM \(table.quotedDatabaseIdentifier) ORDER BY rowid").map {
            "\(table): \($0)"
        }
    }
    return lines
}

@Suite struct DatabaseMigratorTests {
    /// Three migrations that each log their identifier.
    private func loggingMigrator(_ identifiers: [String] = ["a", "b", "c"]) -> DatabaseMigrator {
        var migrator = DatabaseMigrator()
        for identifier in identifiers {
            migrator.registerMigration(identifier) { db in
                try db.execute(sql: "CREATE TABLE IF NOT EXISTS log (identifier TEXT)")
                try db.execute(sql: "INSERT INTO log VALUES (?)", arguments: [identifier])
            }
        }
        return migrator
    }

    private func log(_ dbQueue: DatabaseQueue) throws -> [String] {
        try dbQueue.read { db throws in
            try db.tableExists("log") ? String.fetchAll(db, sql: "SELECT identifier FROM log ORDER BY rowid") : []
        }
    }

    /// `migrate` reads `grdb_migrations` once (GRDB reads it twice).
    @Test func migrateReadsTheMigrationsTableOnce() throws {
        let recorder = SQLRecorder()
        var configuration = Configuration()
        configuration.trace = recorder.record
        let dbQueue = try DatabaseQueue(configuration: configuration)
        try loggingMigrator().migrate(dbQueue)
        recorder.reset()
        try loggingMigrator(["a", "b", "c", "d"]).migrate(dbQueue)
        #expect(recorder.sql.filter { $0.contains("FROM grdb_migrations") }.count == 1)
        #expect(try log(dbQueue) == ["a", "b", "c", "d"])
    }

    @Test func migrationsRunOnceInOrder() throws {
        let dbQueue = try DatabaseQueue()
        let migrator = loggingMigrator()
        #expect(migrator.migrations == ["a", "b", "c"])
        try migrator.migrate(dbQueue)
        try migrator.migrate(dbQueue)
        #expect(try log(dbQueue) == ["a", "b", "c"])
        try dbQueue.read { db throws in
            #expect(try migrator.appliedMigrations(db) == ["a", "b", "c"])
            #expect(try migrator.appliedIdentifiers(db) == ["a", "b", "c"])
            #expect(try migrator.completedMigrations(db) == ["a", "b", "c"])
            #expect(try migrator.hasCompletedMigrations(db))
            #expect(try !migrator.hasBeenSuperseded(db))
        }
        // New migrations run later.
        try loggingMigrator(["a", "b", "c", "d"]).migrate(dbQueue)
        #expect(try log(dbQueue) == ["a", "b", "c", "d"])
    }

    @Test func grdbMigrationsTable() throws {
        let dbQueue = try DatabaseQueue()
        try loggingMigrator().migrate(dbQueue)
        try dbQueue.read { db throws in
            #expect(try String.fetchOne(db, sql: "SELECT sql FROM sqlite_master WHERE name = 'grdb_migrations'")
                == "CREATE TABLE grdb_migrations (identifier TEXT NOT NULL PRIMARY KEY)")
            #expect(
                try String.fetchAll(db, sql: "SELECT identifier FROM grdb_migrations ORDER BY rowid") == ["a", "b", "c"]
            )
        }
    }

    @Test func databaseMigratedByGRDB() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db throws in
            // What GRDB leaves after applying "a" and "b".
            try db.execute(sql: """
                CREATE TABLE grdb_migrations (identifier TEXT NOT NULL PRIMARY KEY);
                INSERT INTO grdb_migrations VALUES ('a'), ('b');
                """)
        }
        let migrator = loggingMigrator()
        try dbQueue.read { db throws in
            #expect(try migrator.appliedMigrations(db) == ["a", "b"])
            #expect(try !migrator.hasCompletedMigrations(db))
        }
        try migrator.migrate(dbQueue)
        #expect(try log(dbQueue) == ["c"])
    }

    @Test func emptyDatabaseAndEmptyMigrator() throws {
        let dbQueue = try DatabaseQueue()
        let migrator = loggingMigrator()
        try dbQueue.read { db throws in
            #expect(try migrator.appliedMigrations(db) == [])
            #expect(try migrator.appliedIdentifiers(db) == [])
            #expect(try migrator.completedMigrations(db) == [])
            #expect(try !migrator.hasCompletedMigrations(db))
            #expect(try !migrator.hasBeenSuperseded(db))
        }
        // A migrator without migrations does nothing, not even grdb_migrations.
        let empty = DatabaseMigrator()
        try empty.migrate(dbQueue)
        try dbQueue.read { db throws in
            #expect(try !db.tableExists("grdb_migrations"))
            #expect(try empty.hasCompletedMigrations(db))
        }
    }

    @Test func migrateUpTo() throws {
        let dbQueue = try DatabaseQueue()
        let migrator = loggingMigrator()
        try migrator.migrate(dbQueue, upTo: "b")
        #expect(try log(dbQueue) == ["a", "b"])
        try dbQueue.read { db throws in
            #expect(try migrator.appliedMigrations(db) == ["a", "b"])
            #expect(try migrator.completedMigrations(db) == ["a", "b"])
            #expect(try !migrator.hasCompletedMigrations(db))
        }
        try migrator.migrate(dbQueue, upTo: "b") // already applied: nothing to do
        #expect(try log(dbQueue) == ["a", "b"])
        try migrator.migrate(dbQueue)
        #expect(try log(dbQueue) == ["a", "b", "c"])
    }

    @Test func gapsAndUnknownMigrations() throws {
        let dbQueue = try DatabaseQueue()
        try loggingMigrator(["a", "c", "z"]).migrate(dbQueue)
        let migrator = loggingMigrator()
        try dbQueue.read { db throws in
            #expect(try migrator.appliedMigrations(db) == ["a", "c"])
            #expect(try migrator.appliedIdentifiers(db) == ["a", "c", "z"])
            #expect(try migrator.completedMigrations(db) == ["a"])
            #expect(try !migrator.hasCompletedMigrations(db))
            #expect(try migrator.hasBeenSuperseded(db))
        }
        // The missing "b" runs.
        try migrator.migrate(dbQueue)
        #expect(try log(dbQueue) == ["a", "c", "z", "b"])
        try dbQueue.read { db throws in
            #expect(try migrator.hasCompletedMigrations(db))
            #expect(try migrator.hasBeenSuperseded(db))
        }
    }

    @Test func failingMigrationLeavesDatabaseUnchanged() throws {
        let dbQueue = try DatabaseQueue()
        var migrator = DatabaseMigrator()
        migrator.registerMigration("createPlayer") { db in
            try db.create(table: "player") { t in
                t.autoIncrementedPrimaryKey("id")
                t.column("name", .text).notNull()
            }
            try db.execute(sql: "INSERT INTO player (name) VALUES ('Arthur')")
        }
        try migrator.migrate(dbQueue)
        let before = try dbQueue.read(snapshot)

        var failing = migrator
        failing.registerMigration("failing") { db in
            try db.alter(table: "player") { t in t.add(column: "score", .integer) }
            try db.create(table: "team") { t in t.autoIncrementedPrimaryKey("id") }
            try db.execute(sql: "INSERT INTO player (name) VALUES ('Barbara')")
            try db.execute(sql: "UPDATE player SET name = 'Changed'")
            throw MigrationError()
        }
        failing.registerMigration("after") { db in
            try db.create(table: "after") { t in t.column("a") }
        }
        #expect(throws: MigrationError()) {
            try failing.migrate(dbQueue)
        }
        #expect(try dbQueue.read(snapshot) == before)
        try dbQueue.read { db throws in
            #expect(try failing.appliedMigrations(db) == ["createPlayer"])
            #expect(try db.columns(in: "player").map(\.name) == ["id", "name"])
            #expect(try !db.tableExists("team"))
            #expect(try !db.tableExists("after"))
            #expect(try Bool.fetchOne(db, sql: "PRAGMA foreign_keys") == true)
        }
    }

    @Test func failingStatementInMigration() throws {
        let dbQueue = try DatabaseQueue()
        var migrator = DatabaseMigrator()
        migrator.registerMigration("a") { db in
            try db.create(table: "t") { t in t.column("a") }
            try db.execute(sql: "INSERT INTO missing DEFAULT VALUES")
        }
        let error = #expect(throws: DatabaseError.self) {
            try migrator.migrate(dbQueue)
        }
        #expect(error?.message == "no such table: missing")
        try dbQueue.read { db throws in
            #expect(try !db.tableExists("t"))
            #expect(try migrator.appliedMigrations(db) == [])
        }
        // The database can be migrated by a fixed migrator.
        var fixed = DatabaseMigrator()
        fixed.registerMigration("a") { db in try db.create(table: "t") { t in t.column("a") } }
        try fixed.migrate(dbQueue)
        #expect(try dbQueue.read { try $0.tableExists("t") })
    }

    @Test func eachMigrationHasItsOwnTransaction() throws {
        let dbQueue = try DatabaseQueue()
        var migrator = DatabaseMigrator()
        migrator.registerMigration("a") { db in
            #expect(db.isInsideTransaction)
            try db.create(table: "a") { t in t.column("x") }
        }
        migrator.registerMigration("b") { db in
            #expect(db.isInsideTransaction)
            throw MigrationError()
        }
        #expect(throws: MigrationError()) { try migrator.migrate(dbQueue) }
        try dbQueue.read { db throws in
            // "a" was committed before "b" failed.
            #expect(try db.tableExists("a"))
            #expect(try migrator.appliedMigrations(db) == ["a"])
        }
    }

    @Test func mergedMigrations() throws {
        // A database where "a" was applied, but not "b".
        let dbQueue = try DatabaseQueue()
        try loggingMigrator(["a"]).migrate(dbQueue)

        var migrator = DatabaseMigrator()
        migrator.registerMigration("ab", merging: ["a", "b", "ab"]) { db, appliedIdentifiers in
            try db.execute(
                sql: "INSERT INTO log VALUES (?)",
                arguments: ["ab after " + appliedIdentifiers.sorted().joined(separator: ",")])
        }
        try migrator.migrate(dbQueue)
        #expect(try log(dbQueue) == ["a", "ab after a"])
        try dbQueue.read { db throws in
            #expect(try migrator.appliedIdentifiers(db) == ["ab"])
            #expect(try migrator.hasCompletedMigrations(db))
        }

        // An applied merged migration forgets leftovers of merged ones.
        try dbQueue.write { db in try db.execute(sql: "INSERT INTO grdb_migrations VALUES ('b')") }
        try migrator.migrate(dbQueue)
        #expect(try dbQueue.read { try migrator.appliedIdentifiers($0) } == ["ab"])
        #expect(try log(dbQueue) == ["a", "ab after a"])
    }

    @Test func registrationErrorsTrap() async throws {
        let duplicate = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            var migrator = DatabaseMigrator()
            migrator.registerMigration("a") { _ in }
            migrator.registerMigration("a") { _ in }
        }
        #expect(try String(decoding: #require(duplicate).standardErrorContent, as: UTF8.self)
            .contains("already registered migration: \"a\""))

        let unknown = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            var migrator = DatabaseMigrator()
            migrator.registerMigration("a") { _ in }
            try migrator.migrate(DatabaseQueue(), upTo: "unknown")
        }
        #expect(try String(decoding: #require(unknown).standardErrorContent, as: UTF8.self)
            .contains("undefined migration: \"unknown\""))

        let beyond = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            var migrator = DatabaseMigrator()
            migrator.registerMigration("a") { _ in }
            migrator.registerMigration("b") { _ in }
            let dbQueue = try DatabaseQueue()
            try migrator.migrate(dbQueue)
            try migrator.migrate(dbQueue, upTo: "a")
        }
        #expect(try String(decoding: #require(beyond).standardErrorContent, as: UTF8.self)
            .contains("database is already migrated beyond migration \"a\""))
    }
}

@Suite struct DatabaseMigratorForeignKeyTests {
    /// A migrator that creates author and book, with one book.
    private func libraryMigrator() -> DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("library") { db in
            try db.create(table: "author") { t in
                t.autoIncrementedPrimaryKey("id")
                t.column("name", .text)
            }
            try db.create(table: "book") { t in
                t.autoIncrementedPrimaryKey("id")
                t.belongsTo("author", onDelete: .cascade).notNull()
            }
            try db.execute(
                sql: "INSERT INTO author (id, name) VALUES (1, 'Melville'); INSERT INTO book (authorId) VALUES (1)")
        }
        return migrator
    }

    private func foreignKeysAreEnabled(_ dbQueue: DatabaseQueue) throws -> Bool {
        try dbQueue.read { try Bool.fetchOne($0, sql: "PRAGMA foreign_keys")! }
    }

    @Test func deferredChecksAllowRecreatingReferencedTables() throws {
        let dbQueue = try DatabaseQueue()
        var migrator = libraryMigrator()
        migrator.registerMigration("recreateAuthor") { db in
            #expect(try Bool.fetchOne(db, sql: "PRAGMA foreign_keys") == false)
            // https://www.sqlite.org/lang_altertable.html#otheralter
            try db.create(table: "new_author") { t in
                t.autoIncrementedPrimaryKey("id")
                t.column("name", .text).notNull().defaults(to: "")
            }
            try db.execute(sql: "INSERT INTO new_author (id, name) SELECT id, IFNULL(name, '') FROM author")
            try db.drop(table: "author")
            try db.rename(table: "new_author", to: "author")
        }
        try migrator.migrate(dbQueue)
        #expect(try foreignKeysAreEnabled(dbQueue))
        try dbQueue.read { db throws in
            #expect(try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM book") == 1)
            #expect(try db.columns(in: "author").map(\.isNotNull) == [false, true])
        }
    }

    @Test func deferredViolationThrowsAndRollsBack() throws {
        let dbQueue = try DatabaseQueue()
        var migrator = libraryMigrator()
        try migrator.migrate(dbQueue)
        let before = try dbQueue.read(snapshot)
        migrator.registerMigration("orphan") { db in
            try db.execute(sql: "INSERT INTO book (id, authorId) VALUES (2, 42)")
            try db.create(table: "other") { t in t.column("a") }
        }
        let error = #expect(throws: DatabaseError.self) {
            try migrator.migrate(dbQueue)
        }
        #expect(error?.extendedResultCode == .SQLITE_CONSTRAINT_FOREIGNKEY)
        #expect(
            error?.message
                == "FOREIGN KEY constraint violation - from book(authorId) to author(id), in [id:2 authorId:42]")
        #expect(try dbQueue.read(snapshot) == before)
        #expect(try foreignKeysAreEnabled(dbQueue))
        #expect(try dbQueue.read { try migrator.appliedMigrations($0) } == ["library"])
    }

    @Test func immediateChecks() throws {
        let dbQueue = try DatabaseQueue()
        var migrator = libraryMigrator()
        migrator.registerMigration("orphan", foreignKeyChecks: .immediate) { db in
            #expect(try Bool.fetchOne(db, sql: "PRAGMA foreign_keys") == true)
            try db.execute(sql: "INSERT INTO book (authorId) VALUES (42)")
        }
        let error = #expect(throws: DatabaseError.self) {
            try migrator.migrate(dbQueue)
        }
        #expect(error?.extendedResultCode == .SQLITE_CONSTRAINT_FOREIGNKEY)
        #expect(error?.message == "FOREIGN KEY constraint failed")
        #expect(error?.sql == "INSERT INTO book (authorId) VALUES (42)")
        #expect(try dbQueue.read { try migrator.appliedMigrations($0) } == ["library"])
        #expect(try foreignKeysAreEnabled(dbQueue))

        // Cascades happen during immediate migrations.
        var cascading = libraryMigrator()
        cascading.registerMigration("deleteAuthor", foreignKeyChecks: .immediate) { db in
            try db.execute(sql: "DELETE FROM author")
        }
        try cascading.migrate(dbQueue)
        #expect(try dbQueue.read { try Int.fetchOne($0, sql: "SELECT COUNT(*) FROM book") } == 0)
    }

    @Test func disabledDeferredChecks() throws {
        let dbQueue = try DatabaseQueue()
        var migrator = libraryMigrator().disablingDeferredForeignKeyChecks()
        migrator.registerMigration("orphan") { db in
            #expect(try Bool.fetchOne(db, sql: "PRAGMA foreign_keys") == false)
            try db.execute(sql: "INSERT INTO book (authorId) VALUES (42)")
        }
        migrator.registerMigration("immediate", foreignKeyChecks: .immediate) { db throws in
            #expect(try Bool.fetchOne(db, sql: "PRAGMA foreign_keys") == true)
        }
        try migrator.migrate(dbQueue)
        #expect(try foreignKeysAreEnabled(dbQueue))
        #expect(try dbQueue.read { try Array($0.foreignKeyViolations()).count } == 1)
    }

    @Test func connectionWithoutForeignKeys() throws {
        var configuration = Configuration()
        configuration.foreignKeysEnabled = false
        let dbQueue = try DatabaseQueue(configuration: configuration)
        var migrator = libraryMigrator()
        migrator.registerMigration("orphan") { db in
            try db.execute(sql: "INSERT INTO book (authorId) VALUES (42)")
        }
        try migrator.migrate(dbQueue)
        #expect(try !foreignKeysAreEnabled(dbQueue))
        #expect(try dbQueue.read { try migrator.appliedMigrations($0) } == ["library", "orphan"])
    }
}

extension DatabaseMigratorTests {
    @Test func asyncMigrate() async throws {
        let dbQueue = try DatabaseQueue()
        let migrator = {
            var migrator = loggingMigrator(["a", "b"])
            migrator.registerMigration("failing") { db in
                try db.execute(sql: "INSERT INTO log VALUES ('failing')")
                throw MigrationError()
            }
            return migrator
        }()
        let result = await withCheckedContinuation { continuation in
            migrator.asyncMigrate(dbQueue) { result in
                continuation.resume(returning: result.map { db in (try? migrator.appliedMigrations(db)) ?? [] })
            }
        }
        // The migrations before the failing one are applied; the failing
        // one is rolled back.
        #expect(throws: MigrationError.self) { try result.get() }
        #expect(try log(dbQueue) == ["a", "b"])
        #expect(try await dbQueue.read { db throws in try migrator.appliedMigrations(db) } == ["a", "b"])

        let success = await withCheckedContinuation { continuation in
            loggingMigrator(["a", "b"]).asyncMigrate(dbQueue) { result in
                continuation.resume(returning: result.map { db in (try? migrator.appliedMigrations(db)) ?? [] })
            }
        }
        #expect(try success.get() == ["a", "b"])
    }
}
