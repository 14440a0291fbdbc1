import Foundation
import GRDBLiteMacros
import Testing

/// Records declared with `@DatabaseRecord` behave as the same records
/// written by hand: they insert, fetch, update and compare the same.
@Suite struct DatabaseRecordBehaviourTests {
    static let player = MacroPlayer(
        id: nil, name: "Arthur 🙂", score: 1_000, bonus: 0.5, joined: Date(timeIntervalSince1970: 1_700_000_000.25),
        avatar: Data([0, 1, 2]), token: UUID(uuidString: "E621E1F8-C36C-495A-93FC-0C247A3E6E5F")!,
        balance: Decimal(string: "12.34")!, status: .suspended, level: -3, nickname: "art",
        tags: ["a", "b \"c\""], address: Address(street: "1 Main St", city: "Paris", zip: nil))

    /// Each stored row of the player table, column by column.
    static func storedRows(_ db: Database) throws -> [[String: DatabaseValue]] {
        try Row.fetchAll(db, sql: "SELECT * FROM player ORDER BY id").map { row in
            Dictionary(uniqueKeysWithValues: row.map { ($0, $1) })
        }
    }

    static func makeDatabase() throws -> DatabaseQueue {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { try $0.execute(sql: MacroPlayer.createTableSQL) }
        return dbQueue
    }

    @Test func generatedMembers() {
        #expect(MacroPlayer.databaseTableName == "player")
        #expect(HTTPRequest.databaseTableName == "httpRequest")
        #expect(Author.databaseTableName == "author")
        #expect(Tagged<Int>.databaseTableName == "tagged")
        #expect(MacroPlayer.Columns.nickname.name == "nick_name")
        #expect(MacroPlayer.Columns.tags.name == "tags")
        #expect(Author.Columns.birthYear.name == "birth_year")
        #expect(HTTPRequest.Columns.path.name == "path")
        let columns = MacroPlayer.databaseSelection.compactMap { ($0 as? Column)?.name }
        #expect(columns == [
            "id", "name", "score", "bonus", "joined", "avatar", "token", "balance", "status", "level", "nick_name",
            "tags", "address",
        ])
    }

    @Test func insertStoresWhatTheHandWrittenRecordStores() throws {
        let macroQueue = try Self.makeDatabase()
        let handQueue = try Self.makeDatabase()
        var macro = Self.player
        var hand = HandPlayer(macro)
        var empty = Self.player
        empty.bonus = nil
        empty.avatar = nil
        empty.nickname = nil
        empty.level = nil
        empty.address = nil
        empty.tags = []
        var handEmpty = HandPlayer(empty)
        try macroQueue.write { db in
            try macro.insert(db)
            try empty.insert(db)
        }
        try handQueue.write { db in
            try hand.insert(db)
            try handEmpty.insert(db)
        }
        #expect(macro.id == 1)
        #expect(empty.id == 2)
        #expect(hand.id == 1)
        let macroRows = try macroQueue.read(Self.storedRows)
        let handRows = try handQueue.read(Self.storedRows)
        #expect(macroRows == handRows)
        #expect(macroRows.count == 2)
        #expect(macroRows[0]["tags"] == "[\"a\",\"b \\\"c\\\"\"]".databaseValue)
        #expect(macroRows[1]["address"] == .null)
    }

    @Test func fetchReadsWhatTheHandWrittenRecordReads() throws {
        let dbQueue = try Self.makeDatabase()
        var inserted = Self.player
        try dbQueue.write { db in try inserted.insert(db) }
        try dbQueue.read { db in
            let macro = try #require(try MacroPlayer.fetchOne(db))
            let hand = try #require(try HandPlayer.fetchOne(db))
            #expect(HandPlayer(macro) == hand)
            #expect(macro.id == inserted.id)
            #expect(macro.name == inserted.name)
            #expect(macro.balance == inserted.balance)
            #expect(macro.tags == inserted.tags)
            #expect(macro.address == inserted.address)
            #expect(macro.token == inserted.token)
            #expect(try MacroPlayer.find(db, key: inserted.id!) == macro)
            #expect(try MacroPlayer.filter(MacroPlayer.Columns.nickname == "art").fetchCount(db) == 1)
            // A row of another shape, fetched by SQL in the selection's order.
            let sql = "SELECT " + MacroPlayer.databaseSelection.map { "\(($0 as! Column).name)" }
                .joined(separator: ", ") + " FROM player"
            #expect(try MacroPlayer.fetchAll(db, sql: sql) == [macro])
        }
    }

    @Test func updateWritesWhatTheHandWrittenRecordWrites() throws {
        let macroQueue = try Self.makeDatabase()
        let handQueue = try Self.makeDatabase()
        var macro = Self.player
        var hand = HandPlayer(macro)
        try macroQueue.write { db in
            try macro.insert(db)
            macro.score += 1
            macro.tags.append("new")
            macro.address = nil
            try macro.update(db)
            let changed = try macro.updateChanges(db) { $0.nickname = nil }
            #expect(changed)
            #expect(try !macro.updateChanges(db) { $0.nickname = nil })
        }
        try handQueue.write { db in
            try hand.insert(db)
            hand.score += 1
            hand.tags.append("new")
            hand.address = nil
            try hand.update(db)
            _ = try hand.updateChanges(db) { $0.nickname = nil }
        }
        #expect(try macroQueue.read(Self.storedRows) == handQueue.read(Self.storedRows))
        let (existed, deleted, count) = try macroQueue.write { db in
            try (macro.exists(db), macro.delete(db), MacroPlayer.fetchCount(db))
        }
        #expect(existed && deleted && count == 0)
    }

    @Test func transientPropertyIsNeitherStoredNorRead() throws {
        let dbQueue = try Self.makeDatabase()
        var player = Self.player
        player.isSelected = true
        try dbQueue.write { db in try player.insert(db) }
        let fetched = try dbQueue.read { db in try MacroPlayer.fetchOne(db) }
        #expect(fetched?.isSelected == false)
    }

    @Test func finalClass() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db in
            try db.execute(sql: "CREATE TABLE author (id INTEGER PRIMARY KEY, name TEXT NOT NULL, birth_year INTEGER)")
            let author = Author(name: "Herbert", birthYear: 1920)
            try author.insert(db)
            #expect(author.id == 1)
            author.birthYear = nil
            try author.update(db)
            let fetched = try #require(try Author.fetchOne(db))
            #expect(fetched.id == 1)
            #expect(fetched.name == "Herbert")
            #expect(fetched.birthYear == nil)
        }
    }

    @Test func recordWithoutID() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db in
            try db.execute(sql: "CREATE TABLE httpRequest (hits INTEGER NOT NULL, path TEXT PRIMARY KEY)")
            try HTTPRequest(path: "/", hits: 3).insert(db)
            try HTTPRequest(path: "/a", hits: 1).save(db)
            #expect(try HTTPRequest.order(HTTPRequest.Columns.path).fetchAll(db) == [
                HTTPRequest(path: "/", hits: 3), HTTPRequest(path: "/a", hits: 1),
            ])
            #expect(try HTTPRequest.find(db, key: "/a").hits == 1)
        }
    }

    @Test func genericRecord() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db in
            try db.execute(sql: "CREATE TABLE tagged (key TEXT PRIMARY KEY, value)")
            try Tagged(key: "a", value: 42).insert(db)
            #expect(try Tagged<Int>.fetchAll(db) == [Tagged(key: "a", value: 42)])
        }
    }

    @Test func invalidJSONThrows() throws {
        let dbQueue = try Self.makeDatabase()
        var player = Self.player
        try dbQueue.write { db in
            try player.insert(db)
            try db.execute(sql: "UPDATE player SET tags = 'not json'")
        }
        #expect(throws: DecodingError.self) {
            try dbQueue.read { db in try MacroPlayer.fetchOne(db) }
        }
    }
}
