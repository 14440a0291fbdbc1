import Foundation
import Testing
import GRDBLite

private struct Player: Codable, FetchableRecord, MutablePersistableRecord, Equatable {
    var id: Int64?
    var name: String
    var score: Int
    var bonus: Int?

    mutating func didInsert(_ inserted: InsertionSuccess) {
        id = inserted.rowID
    }
}

private struct Item: FetchableRecord, PersistableRecord {
    var i0: Int
    var i1: Int
    init(i0: Int, i1: Int) { self.i0 = i0; self.i1 = i1 }
    init(row: Row) {
        i0 = row["i0"]
        i1 = row["i1"]
    }
    func encode(to container: inout PersistenceContainer) {
        container["i0"] = i0
        container["i1"] = i1
    }
}

@Suite struct RecordSmokeTests {
    func makeQueue() throws -> DatabaseQueue {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db in
            try db.execute(sql: """
                CREATE TABLE player (id INTEGER PRIMARY KEY, name TEXT NOT NULL, score INTEGER NOT NULL, bonus INTEGER);
                CREATE TABLE item (i0 INTEGER, i1 INTEGER);
                """)
        }
        return dbQueue
    }

    @Test func insertFetchUpdateDelete() throws {
        let dbQueue = try makeQueue()
        try dbQueue.write { db in
            var arthur = Player(id: nil, name: "Arthur", score: 100, bonus: nil)
            try arthur.insert(db)
            #expect(arthur.id == 1)
            var barbara = Player(id: nil, name: "Barbara", score: 200, bonus: 3)
            try barbara.insert(db)
            #expect(barbara.id == 2)

            #expect(try Player.fetchAll(db) == [arthur, barbara])
            #expect(try Player.fetchOne(db, key: 2) == barbara)
            #expect(try Player.fetchCount(db) == 2)

            barbara.score = 300
            try barbara.update(db)
            #expect(try Player.find(db, key: 2).score == 300)

            let changed = try barbara.updateChanges(db) { $0.bonus = 4 }
            #expect(changed)
            #expect(try !barbara.updateChanges(db) { $0.bonus = 4 })

            #expect(try arthur.delete(db))
            #expect(try !arthur.exists(db))
            #expect(try !arthur.delete(db))
            #expect(throws: RecordError.self) { try arthur.update(db) }
        }
    }

    @Test func insertManyItems() throws {
        let dbQueue = try makeQueue()
        try dbQueue.write { db in
            for i in 0..<100 {
                try Item(i0: i, i1: i * 2).insert(db)
            }
            let items = try Item.fetchAll(db, sql: "SELECT * FROM item ORDER BY i0")
            #expect(items.count == 100)
            #expect(items.last?.i1 == 198)
        }
    }

    @Test func decodingErrorNamesColumn() throws {
        let dbQueue = try makeQueue()
        try dbQueue.read { db in
            do {
                _ = try Player.fetchOne(db, sql: "SELECT 1 AS id, 'a' AS name, 'x' AS score")
                Issue.record("expected an error")
            } catch let error as RowDecodingError {
                #expect(error.key == "score")
                #expect(error.typeName == "Int")
                #expect("\(error)".contains("score"))
            }
        }
    }
}
