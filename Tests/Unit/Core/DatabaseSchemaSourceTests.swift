import Foundation
import Synchronization
import Testing
import GRDBLite

/// Gives views the primary keys of a dictionary, and records the views it
/// was asked about.
private struct DictionarySchemaSource: DatabaseSchemaSource {
    var keys: [String: [String]]
    let asked = AskedViews()

    func columnsForPrimaryKey(_ db: Database, inView view: DatabaseObjectID) throws -> [String]? {
        asked.append(view)
        return keys[view.name]
    }
}

private final class AskedViews: Sendable {
    private let views = Mutex<[DatabaseObjectID]>([])
    func append(_ view: DatabaseObjectID) { views.withLock { $0.append(view) } }
    var all: [DatabaseObjectID] { views.withLock { $0 } }
}

private struct FailingSchemaSource: DatabaseSchemaSource {
    struct Failure: Error { }
    func columnsForPrimaryKey(_ db: Database, inView view: DatabaseObjectID) throws -> [String]? {
        throw Failure()
    }
}

/// Uses the default implementation: no customization.
private struct EmptySchemaSource: DatabaseSchemaSource { }

private struct PlayerView: Codable, FetchableRecord, PersistableRecord, Identifiable, Equatable {
    static let databaseTableName = "playerView"
    var id: Int64
    var name: String
}

@Suite struct DatabaseSchemaSourceTests {
    private func makeQueue(_ schemaSource: (any DatabaseSchemaSource)?) throws -> DatabaseQueue {
        var config = Configuration()
        config.schemaSource = schemaSource
        let dbQueue = try DatabaseQueue(configuration: config)
        try dbQueue.write { db throws in
            try db.execute(sql: """
                CREATE TABLE player (id INTEGER PRIMARY KEY, name TEXT NOT NULL, email TEXT UNIQUE);
                CREATE VIEW playerView AS SELECT id, name FROM player;
                CREATE VIEW other AS SELECT id AS code, name FROM player;
                CREATE TRIGGER playerViewDelete INSTEAD OF DELETE ON playerView BEGIN
                    DELETE FROM player WHERE id = OLD.id;
                END;
                CREATE TRIGGER playerViewUpdate INSTEAD OF UPDATE ON playerView BEGIN
                    UPDATE player SET name = NEW.name WHERE id = OLD.id;
                END;
                INSERT INTO player (id, name) VALUES (1, 'Arthur'), (2, 'Barbara');
                """)
        }
        return dbQueue
    }

    @Test func viewPrimaryKeyFromTheSchemaSource() throws {
        let source = DictionarySchemaSource(keys: ["playerView": ["ID"]])
        let dbQueue = try makeQueue(source)
        try dbQueue.read { db throws in
            #expect(db.schemaSource != nil)
            let primaryKey = try db.primaryKey("playerView")
            #expect(primaryKey.columns == ["id"]) // the view's spelling
            #expect(primaryKey.rowIDColumn == nil)
            #expect(!primaryKey.isRowID)
            // Tables don't ask the schema source.
            #expect(try db.primaryKey("player").columns == ["id"])
            #expect(source.asked.all == [DatabaseObjectID(name: "playerView", schemaID: .main)])
            // Cached until the schema changes.
            _ = try db.primaryKey("playerView")
            #expect(source.asked.all.count == 1)
        }
    }

    @Test(arguments: [[:], ["other": [String]()]] as [[String: [String]]])
    func viewWithoutPrimaryKey(keys: [String: [String]]) throws {
        let dbQueue = try makeQueue(DictionarySchemaSource(keys: keys))
        try dbQueue.read { db throws in
            let error = #expect(throws: DatabaseError.self) { try db.primaryKey("other") }
            #expect(error?.resultCode == .SQLITE_ERROR)
            #expect(error?.message == "database view other has no primary key")
            #expect(try !db.table("other", hasUniqueKey: ["code"]))
        }
    }

    @Test func defaultImplementationDoesNotCustomize() throws {
        let dbQueue = try makeQueue(EmptySchemaSource())
        try dbQueue.read { db throws in
            let error = #expect(throws: DatabaseError.self) { try db.primaryKey("playerView") }
            #expect(error?.message == "database view playerView has no primary key")
        }
    }

    @Test func unknownColumnIsAnError() throws {
        let dbQueue = try makeQueue(DictionarySchemaSource(keys: ["playerView": ["missing"]]))
        try dbQueue.read { db throws in
            let error = #expect(throws: DatabaseError.self) { try db.primaryKey("playerView") }
            #expect(error?.message?.contains("no such column in view playerView: missing") == true)
        }
    }

    @Test func errorsOfTheSchemaSourceAreThrown() throws {
        let dbQueue = try makeQueue(FailingSchemaSource())
        try dbQueue.read { db throws in
            let error = #expect(throws: FailingSchemaSource.Failure.self) { try db.primaryKey("playerView") }
            #expect(error != nil)
        }
    }

    @Test func uniqueKeysOfViews() throws {
        let dbQueue = try makeQueue(DictionarySchemaSource(keys: ["playerView": ["id"]]))
        try dbQueue.read { db throws in
            #expect(try db.table("playerView", hasUniqueKey: ["id"]))
            #expect(try db.table("playerView", hasUniqueKey: ["name", "id"]))
            #expect(try !db.table("playerView", hasUniqueKey: ["name"]))
            #expect(try !db.table("playerView", hasUniqueKey: []))
            #expect(try !db.table("playerView", hasUniqueKey: ["rowid"]))
        }
        // Without schema source, a view has no unique key.
        try makeQueue(nil).read { db throws in
            #expect(try !db.table("playerView", hasUniqueKey: ["id"]))
            #expect(try db.table("player", hasUniqueKey: ["email"]))
        }
    }

    @Test func recordsOnViews() throws {
        let dbQueue = try makeQueue(DictionarySchemaSource(keys: ["playerView": ["id"]]))
        try dbQueue.write { db throws in
            #expect(try PlayerView.find(db, id: 2) == PlayerView(id: 2, name: "Barbara"))
            #expect(try PlayerView.fetchOne(db, key: ["id": 1])?.name == "Arthur")
            try PlayerView(id: 1, name: "Art").update(db)
            #expect(try String.fetchOne(db, sql: "SELECT name FROM player WHERE id = 1") == "Art")
            #expect(try PlayerView.deleteOne(db, id: 2))
            #expect(try !PlayerView.deleteOne(db, id: 2))
            #expect(try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM player") == 1)
        }
    }

    /// SQLite does not count the changes of INSTEAD OF triggers: views
    /// count the rows their triggers changed.
    @Test func changesThroughViewsAreCounted() throws {
        let dbQueue = try makeQueue(DictionarySchemaSource(keys: ["playerView": ["id"]]))
        try dbQueue.write { db throws in
            #expect(try PlayerView.filter(Column("id") == 1).updateAll(db, Column("name").set(to: "Art")) == 1)
            #expect(try PlayerView.filter(Column("id") == 3).deleteAll(db) == 0)
            #expect(try PlayerView.filter(Column("id") == 1).deleteAll(db) == 1)
            #expect(try PlayerView(id: 2, name: "Barbara").delete(db))
            try db.execute(sql: "INSERT INTO player (id, name) VALUES (3, 'Craig'), (4, 'David')")
            #expect(try PlayerView.deleteAll(db) == 2)
        }
    }

    @Test func temporaryViewsAreIdentifiedInTheirSchema() throws {
        let source = DictionarySchemaSource(keys: ["tempView": ["id"]])
        let dbQueue = try makeQueue(source)
        try dbQueue.writeWithoutTransaction { db throws in
            try db.execute(sql: "CREATE TEMP VIEW tempView AS SELECT id FROM player")
            #expect(try db.primaryKey("tempView").columns == ["id"])
            #expect(try db.primaryKey("tempView", in: "temp").columns == ["id"])
            #expect(source.asked.all.allSatisfy { $0 == DatabaseObjectID(name: "tempView", schemaID: .temp) })
        }
    }

    @Test func thenAsksTheSecondSourceWhenTheFirstDoesNotCustomize() throws {
        let first = DictionarySchemaSource(keys: ["playerView": ["id"]])
        let second = DictionarySchemaSource(keys: ["playerView": ["name"], "other": ["code"]])
        try makeQueue(first.then(second)).read { db throws in
            #expect(try db.primaryKey("playerView").columns == ["id"])
            #expect(try db.primaryKey("other").columns == ["code"])
        }
        try makeQueue(second.then(first)).read { db throws in
            #expect(try db.primaryKey("playerView").columns == ["name"])
        }
    }

    @Test func withSchemaSourceReplacesTheSourceForItsBody() throws {
        let dbQueue = try makeQueue(nil)
        try dbQueue.read { db throws in
            #expect(throws: DatabaseError.self) { try db.primaryKey("playerView") }
            let columns = try db.withSchemaSource(DictionarySchemaSource(keys: ["playerView": ["id"]])) {
                #expect(db.schemaSource != nil)
                return try db.primaryKey("playerView").columns
            }
            #expect(columns == ["id"])
            // Restored, and what the other source said is forgotten.
            #expect(db.schemaSource == nil)
            #expect(throws: DatabaseError.self) { try db.primaryKey("playerView") }
        }
    }

    @Test func migrationsRunWithoutSchemaSource() throws {
        let dbQueue = try makeQueue(DictionarySchemaSource(keys: ["playerView": ["id"]]))
        let sawSource = Mutex<[Bool]>([])
        var migrator = DatabaseMigrator()
        migrator.registerMigration("a") { db throws in
            sawSource.withLock { $0.append(db.schemaSource != nil) }
            #expect(throws: DatabaseError.self) { try db.primaryKey("playerView") }
            // A migration can opt in.
            let columns = try db.withSchemaSource(DictionarySchemaSource(keys: ["playerView": ["id"]])) {
                try db.primaryKey("playerView").columns
            }
            #expect(columns == ["id"])
        }
        try dbQueue.read { db throws in
            // Cached before the migration...
            #expect(try db.primaryKey("playerView").columns == ["id"])
        }
        try migrator.migrate(dbQueue)
        #expect(sawSource.withLock { $0 } == [false])
        try dbQueue.read { db throws in
            // ... and active again after.
            #expect(db.schemaSource != nil)
            #expect(try db.primaryKey("playerView").columns == ["id"])
        }
    }

    @Test func schemaIdentifiers() {
        #expect(DatabaseSchemaID.main.name == "main")
        #expect(DatabaseSchemaID.temp.name == "temp")
        #expect(DatabaseSchemaID.attached("aux").name == "aux")
        #expect(DatabaseSchemaID.main.schemaTableName == "sqlite_master")
        #expect(DatabaseSchemaID.temp.schemaTableName == "sqlite_temp_master")
        #expect(DatabaseSchemaID.attached("aux").schemaTableName == "aux.sqlite_master")
        #expect(DatabaseSchemaID.attached("main") == .main)
        var object = DatabaseObjectID(name: "player", schemaID: .main)
        object.schemaID = .temp
        #expect(object != DatabaseObjectID(name: "player", schemaID: .main))
    }
}
