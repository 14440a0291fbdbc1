import Foundation
import Testing
import GRDBLite

/// Records the callbacks it receives, in order.
private final class Log: @unchecked Sendable {
    var events: [String] = []
}

/// The columns and values of a container, in order.
private func describe(_ container: PersistenceContainer) -> String {
    container.map { "\($0.0)=\($0.1)" }.joined(separator: " ")
}

private struct Player: Encodable, MutablePersistableRecord {
    var id: Int64?
    var name: String
    let log: Log

    enum CodingKeys: String, CodingKey { case id, name }

    func willSave(_ db: Database) throws { log.events.append("willSave") }
    func aroundSave(_ db: Database, save: () throws -> PersistenceSuccess) throws {
        log.events.append("aroundSave >")
        _ = try save()
        log.events.append("aroundSave <")
    }
    func didSave(_ saved: PersistenceSuccess) { log.events.append("didSave \(describe(saved.persistenceContainer))") }
    mutating func willInsert(_ db: Database) throws { log.events.append("willInsert") }
    func aroundInsert(_ db: Database, insert: () throws -> InsertionSuccess) throws {
        log.events.append("aroundInsert >")
        let inserted = try insert()
        log.events.append("aroundInsert < \(inserted.rowID)")
    }
    mutating func didInsert(_ inserted: InsertionSuccess) {
        id = inserted.rowID
        log.events.append("didInsert \(inserted.rowID) \(inserted.rowIDColumn ?? "-")")
    }
    func willUpdate(_ db: Database, columns: Set<String>) throws { log.events.append("willUpdate \(columns.sorted())") }
    func aroundUpdate(_ db: Database, columns: Set<String>, update: () throws -> PersistenceSuccess) throws {
        log.events.append("aroundUpdate >")
        _ = try update()
        log.events.append("aroundUpdate <")
    }
    func didUpdate(_ updated: PersistenceSuccess) {
        log.events.append("didUpdate \(describe(updated.persistenceContainer))")
    }
    func willDelete(_ db: Database) throws { log.events.append("willDelete") }
    func aroundDelete(_ db: Database, delete: () throws -> Bool) throws {
        log.events.append("aroundDelete >")
        let deleted = try delete()
        log.events.append("aroundDelete < \(deleted)")
    }
    func didDelete(deleted: Bool) { log.events.append("didDelete \(deleted)") }
}

private struct Forgetful: Encodable, MutablePersistableRecord {
    static let databaseTableName = "player"
    var name: String
    func aroundInsert(_ db: Database, insert: () throws -> InsertionSuccess) throws { }
}

@Suite struct PersistenceCallbacksTests {
    let dbQueue: DatabaseQueue
    init() throws {
        dbQueue = try makeDatabase("CREATE TABLE player (id INTEGER PRIMARY KEY, name TEXT NOT NULL)")
    }

    @Test func insertCallbacksInGRDBOrder() throws {
        let log = Log()
        try dbQueue.write { db throws in
            var player = Player(id: nil, name: "Arthur", log: log)
            try player.insert(db)
            #expect(player.id == 1)
        }
        #expect(log.events == [
            "willSave", "aroundSave >", "willInsert", "aroundInsert >", "aroundInsert < 1",
            "didInsert 1 id", "aroundSave <", #"didSave id=1 name="Arthur""#,
        ])
    }

    @Test func updateCallbacksInGRDBOrder() throws {
        let log = Log()
        try dbQueue.write { db throws in
            var player = Player(id: nil, name: "Arthur", log: log)
            try player.insert(db)
            log.events.removeAll()
            player.name = "Barbara"
            try player.update(db, columns: ["name"])
        }
        #expect(log.events == [
            "willSave", "aroundSave >", "willUpdate [\"name\"]", "aroundUpdate >", "aroundUpdate <",
            #"didUpdate id=1 name="Barbara""#, "aroundSave <", #"didSave id=1 name="Barbara""#,
        ])
    }

    @Test func saveOfMissingRowRunsUpdateThenInsertCallbacks() throws {
        let log = Log()
        try dbQueue.write { db throws in
            var player = Player(id: 7, name: "Arthur", log: log)
            try player.save(db)
        }
        #expect(log.events == [
            "willSave", "aroundSave >",
            "willUpdate [\"id\", \"name\"]", "aroundUpdate >",
            "willInsert", "aroundInsert >", "aroundInsert < 7", "didInsert 7 id",
            "aroundSave <", #"didSave id=7 name="Arthur""#,
        ])
    }

    @Test func deleteCallbacksInGRDBOrder() throws {
        let log = Log()
        try dbQueue.write { db throws in
            var player = Player(id: nil, name: "Arthur", log: log)
            try player.insert(db)
            log.events.removeAll()
            try player.delete(db)
            try player.delete(db)
        }
        #expect(log.events == [
            "willDelete", "aroundDelete >", "aroundDelete < true", "didDelete true",
            "willDelete", "aroundDelete >", "aroundDelete < false", "didDelete false",
        ])
    }

    @Test func aroundCallbackThatDoesNotCallItsFunctionIsAnError() throws {
        try dbQueue.write { db throws in
            var record = Forgetful(name: "Arthur")
            do {
                try record.insert(db)
                Issue.record("expected an error")
            } catch let error as DatabaseError {
                #expect(error.resultCode == .SQLITE_MISUSE)
                #expect(error.message?.contains("Forgetful.aroundInsert") == true)
            }
            #expect(try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM player") == 0)
        }
    }
}
