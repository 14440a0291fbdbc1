import Foundation
import Testing
import GRDBLite
import Synchronization
import TestSupport

@Suite struct EraseDatabaseOnSchemaChangeTests {
    /// A migrator whose "createPlayer" migration creates `columns`, and
    /// inserts nothing.
    private func migrator(columns: [String], identifier: String = "createPlayer", erase: Bool = true)
        -> DatabaseMigrator
    {
        var migrator = DatabaseMigrator()
        migrator.eraseDatabaseOnSchemaChange = erase
        migrator.registerMigration(identifier) { db in
            try db.create(table: "player") { t in
                t.autoIncrementedPrimaryKey("id")
                for column in columns { t.column(column, .text) }
            }
        }
        return migrator
    }

    private func playerCount(_ dbQueue: DatabaseQueue) throws -> Int {
        try dbQueue.read { try Int.fetchOne($0, sql: "SELECT COUNT(*) FROM player")! }
    }

    private func insertPlayer(_ dbQueue: DatabaseQueue) throws {
        try dbQueue.write { try $0.execute(sql: "INSERT INTO player DEFAULT VALUES") }
    }

    /// In memory and in a file.
    private static func makeDatabases() throws -> [(DatabaseQueue, cleanUp: () -> Void)] {
        let directory = try TemporaryDirectory()
        var walConfiguration = Configuration()
        walConfiguration.journalMode = .wal
        return [
            (try DatabaseQueue(), cleanUp: { }),
            (try DatabaseQueue(path: directory.path("db.sqlite")), cleanUp: { }),
            (try DatabaseQueue(path: directory.path("wal.sqlite"), configuration: walConfiguration),
             cleanUp: { directory.remove() }),
        ]
    }

    @Test func unchangedMigrationsKeepData() throws {
        for (dbQueue, cleanUp) in try Self.makeDatabases() {
            defer { cleanUp() }
            try migrator(columns: ["name"]).migrate(dbQueue)
            try insertPlayer(dbQueue)
            try migrator(columns: ["name"]).migrate(dbQueue)
            #expect(try playerCount(dbQueue) == 1)
            #expect(try dbQueue.read { try migrator(columns: ["name"]).hasSchemaChanges($0) } == false)
        }
    }

    @Test func changedMigrationErasesAndMigratesAgain() throws {
        for (dbQueue, cleanUp) in try Self.makeDatabases() {
            defer { cleanUp() }
            try migrator(columns: ["name"]).migrate(dbQueue)
            try insertPlayer(dbQueue)
            try dbQueue.write { db throws in
                try db.execute(sql: "CREATE TABLE extra (a); PRAGMA user_version = 3")
            }
            let changed = migrator(columns: ["name", "score"])
            #expect(try dbQueue.read { try changed.hasSchemaChanges($0) })
            try changed.migrate(dbQueue)
            try dbQueue.read { db throws in
                #expect(try db.columns(in: "player").map(\.name) == ["id", "name", "score"])
                #expect(try !db.tableExists("extra"))
                #expect(try Int.fetchOne(db, sql: "PRAGMA user_version") == 0)
                #expect(try changed.appliedMigrations(db) == ["createPlayer"])
                #expect(try !changed.hasSchemaChanges(db))
            }
            #expect(try playerCount(dbQueue) == 0)
            // The connection keeps working, and foreign keys are still on.
            try insertPlayer(dbQueue)
            #expect(try playerCount(dbQueue) == 1)
            #expect(try dbQueue.read { try Bool.fetchOne($0, sql: "PRAGMA foreign_keys") } == true)
        }
    }

    @Test func renamedMigrationErases() throws {
        let dbQueue = try DatabaseQueue()
        try migrator(columns: ["name"], identifier: "v1").migrate(dbQueue)
        try insertPlayer(dbQueue)
        let renamed = migrator(columns: ["name"], identifier: "v2")
        try dbQueue.read { db throws in
            #expect(try renamed.hasBeenSuperseded(db))
            #expect(try renamed.hasSchemaChanges(db))
        }
        try renamed.migrate(dbQueue)
        #expect(try playerCount(dbQueue) == 0)
        #expect(try dbQueue.read { try renamed.appliedIdentifiers($0) } == ["v2"])
    }

    @Test func newMigrationsDoNotErase() throws {
        let dbQueue = try DatabaseQueue()
        var migrator = migrator(columns: ["name"])
        try migrator.migrate(dbQueue)
        try insertPlayer(dbQueue)
        migrator.registerMigration("addScore") { db in
            try db.alter(table: "player") { t in t.add(column: "score", .integer) }
        }
        #expect(try dbQueue.read { try migrator.hasSchemaChanges($0) } == false)
        try migrator.migrate(dbQueue)
        #expect(try playerCount(dbQueue) == 1)
        #expect(try dbQueue.read { try $0.columns(in: "player").map(\.name) } == ["id", "name", "score"])
    }

    @Test func withoutTheFlagChangedMigrationsAreIgnored() throws {
        let dbQueue = try DatabaseQueue()
        try migrator(columns: ["name"], erase: false).migrate(dbQueue)
        try insertPlayer(dbQueue)
        try migrator(columns: ["name", "score"], erase: false).migrate(dbQueue)
        #expect(try playerCount(dbQueue) == 1)
        #expect(try dbQueue.read { try $0.columns(in: "player").map(\.name) } == ["id", "name"])
    }

    @Test func fileIsErasedForOtherConnections() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.path()
        do {
            let dbQueue = try DatabaseQueue(path: path)
            try migrator(columns: ["name"]).migrate(dbQueue)
            try insertPlayer(dbQueue)
        }
        do {
            let dbQueue = try DatabaseQueue(path: path)
            try migrator(columns: ["name", "score"]).migrate(dbQueue)
        }
        let dbQueue = try DatabaseQueue(path: path)
        #expect(try playerCount(dbQueue) == 0)
        #expect(try dbQueue.read { try $0.columns(in: "player").map(\.name) } == ["id", "name", "score"])
    }

    @Test func comparisonUsesTheConfiguration() throws {
        // The migration needs a function that the configuration adds.
        var configuration = Configuration()
        configuration.prepareDatabase { db in
            db.add(function: DatabaseFunction("answer", argumentCount: 0, pure: true) { _ in 42 })
        }
        let dbQueue = try DatabaseQueue(configuration: configuration)
        var migrator = DatabaseMigrator()
        migrator.eraseDatabaseOnSchemaChange = true
        migrator.registerMigration("a") { db in
            try db.create(table: "t") { t in
                t.column("a", .integer)
            }
            try db.execute(sql: "INSERT INTO t VALUES (answer())")
        }
        try migrator.migrate(dbQueue)
        try migrator.migrate(dbQueue)
        #expect(try dbQueue.read { try Int.fetchAll($0, sql: "SELECT a FROM t") } == [42])
    }

    @Test func comparisonDatabaseIsAFile() throws {
        // GRDB issue 931: a `prepareDatabase` that needs a database file
        // (a file control) works on the comparison database, which is
        // removed afterwards.
        let paths = Mutex<[String]>([])
        var configuration = Configuration()
        configuration.prepareDatabase { db in
            let path = try String.fetchOne(db, sql: "SELECT file FROM pragma_database_list WHERE name = 'main'") ?? ""
            guard !path.isEmpty else { throw DatabaseError(resultCode: .SQLITE_MISUSE, message: "in-memory database") }
            paths.withLock { $0.append(path) }
        }
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let dbQueue = try DatabaseQueue(path: directory.path("db.sqlite"), configuration: configuration)
        let migrator = migrator(columns: ["name"])
        try migrator.migrate(dbQueue)
        try migrator.migrate(dbQueue)
        let temporaryPaths = paths.withLock { $0 }.filter { $0 != directory.path("db.sqlite") }
        #expect(temporaryPaths.count == 1)
        #expect(temporaryPaths.allSatisfy { !FileManager.default.fileExists(atPath: $0) })
    }
}

extension EraseDatabaseOnSchemaChangeTests {
    /// The temporary database of the comparison doesn't use the target
    /// queues of the migrated one: the comparison runs on them, and a
    /// serial one would deadlock (GRDB's issue 741).
    @Test(arguments: [false, true])
    func comparisonDoesNotDeadlockOnASerialTargetQueue(writeTarget: Bool) throws {
        var config = Configuration()
        if writeTarget {
            config.writeTargetQueue = DispatchQueue(label: "writeTarget")
        } else {
            config.targetQueue = DispatchQueue(label: "target")
        }
        let dbQueue = try DatabaseQueue(configuration: config)
        try migrator(columns: ["name"]).migrate(dbQueue)
        try insertPlayer(dbQueue)
        #expect(try dbQueue.read { try migrator(columns: ["name"]).hasSchemaChanges($0) } == false)
        try migrator(columns: ["name", "score"], identifier: "createPlayer").migrate(dbQueue)
        #expect(try playerCount(dbQueue) == 0)
    }
}
