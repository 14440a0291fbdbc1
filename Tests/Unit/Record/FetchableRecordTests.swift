import Foundation
import Testing
import GRDBLite

private struct Player: FetchableRecord, TableRecord, Hashable, Identifiable {
    var id: Int64
    var name: String
    var score: Int?

    init(id: Int64, name: String, score: Int?) {
        self.id = id
        self.name = name
        self.score = score
    }

    init(row: Row) {
        id = row["id"]
        name = row["name"]
        score = row["score"]
    }
}

private struct Citizenship: FetchableRecord, TableRecord, Equatable {
    var playerId: Int64
    var countryCode: String
    init(row: Row) {
        playerId = row["playerId"]
        countryCode = row["countryCode"]
    }
}

@Suite struct FetchableRecordTests {
    let dbQueue: DatabaseQueue

    init() throws {
        dbQueue = try makeDatabase("""
            CREATE TABLE player (id INTEGER PRIMARY KEY, name TEXT NOT NULL, score INTEGER);
            INSERT INTO player VALUES (1, 'Arthur', 100), (2, 'Barbara', NULL), (3, 'Craig', 300);
            CREATE TABLE citizenship (playerId INTEGER, countryCode TEXT, PRIMARY KEY (playerId, countryCode));
            INSERT INTO citizenship VALUES (1, 'FR'), (1, 'US'), (2, 'FR');
            """)
    }

    private let arthur = Player(id: 1, name: "Arthur", score: 100)
    private let barbara = Player(id: 2, name: "Barbara", score: nil)
    private let craig = Player(id: 3, name: "Craig", score: 300)

    @Test func fetchFromSQL() throws {
        try dbQueue.read { db throws in
            #expect(try Player.fetchAll(db, sql: "SELECT * FROM player ORDER BY id") == [arthur, barbara, craig])
            #expect(try Player.fetchOne(db, sql: "SELECT * FROM player WHERE name = ?", arguments: ["Craig"]) == craig)
            #expect(try Player.fetchOne(db, sql: "SELECT * FROM player WHERE 0") == nil)
            #expect(try Player.fetchSet(db, sql: "SELECT * FROM player") == [arthur, barbara, craig])
            let cursor = try Player.fetchCursor(
                db, sql: "SELECT * FROM player WHERE id > :id ORDER BY id", arguments: ["id": 1])
            #expect(try cursor.next() == barbara)
            #expect(try cursor.next() == craig)
            #expect(try cursor.next() == nil)
            #expect(try cursor.next() == nil)
        }
    }

    @Test func fetchFromStatement() throws {
        try dbQueue.read { db throws in
            let statement = try db.makeStatement(sql: "SELECT * FROM player WHERE id = ?")
            #expect(try Player.fetchOne(statement, arguments: [2]) == barbara)
            #expect(try Player.fetchAll(statement, arguments: [3]) == [craig])
        }
    }

    @Test func fetchAllOfTable() throws {
        try dbQueue.read { db throws in
            #expect(try Set(Player.fetchAll(db)) == [arthur, barbara, craig])
            #expect(try Player.fetchSet(db) == [arthur, barbara, craig])
            #expect(try Player.fetchOne(db) != nil)
            #expect(try Array(Player.fetchCursor(db)).count == 3)
        }
    }

    @Test func fetchOneOfTableLimitsToOneRowUnlessKeyed() throws {
        // As in GRDB: LIMIT 1 lets SQLite stop at the first row; a primary
        // or unique key matches one row at most, and gets no LIMIT.
        try dbQueue.read { db throws in
            let statements = try recordedSQL(db) { () throws in
                #expect(try Player.fetchOne(db) == arthur)
                #expect(try Player.fetchOne(db, key: 2) == barbara)
                #expect(try Citizenship.fetchOne(db, key: ["playerId": 2, "countryCode": "FR"])?.playerId == 2)
                #expect(try Player.fetchAll(db).count == 3)
            }
            // (Schema introspection statements left out.)
            #expect(statements.filter { $0.hasPrefix("SELECT *") } == [
                #"SELECT * FROM "player" LIMIT 1"#,
                #"SELECT * FROM "player" WHERE "id" = ?"#,
                #"SELECT * FROM "citizenship" WHERE ("playerId" = ?) AND ("countryCode" = ?)"#,
                #"SELECT * FROM "player""#,
            ])
        }
    }

    @Test func fetchByPrimaryKey() throws {
        try dbQueue.read { db throws in
            #expect(try Player.fetchOne(db, key: 1) == arthur)
            #expect(try Player.fetchOne(db, key: 42) == nil)
            #expect(try Player.fetchOne(db, key: Int?.none) == nil)
            #expect(try Set(Player.fetchAll(db, keys: [1, 3, 42])) == [arthur, craig])
            #expect(try Player.fetchAll(db, keys: [Int]()) == [])
            #expect(try Player.fetchSet(db, keys: [2]) == [barbara])
            #expect(try Player.find(db, key: 2) == barbara)
            #expect(try Player.find(db, id: 3) == craig)
            #expect(try Player.fetchOne(db, id: 1) == arthur)
            #expect(try Set(Player.fetchAll(db, ids: [1, 2])) == [arthur, barbara])
        }
    }

    @Test func findThrowsRecordNotFound() throws {
        try dbQueue.read { db throws in
            do {
                _ = try Player.find(db, id: 42)
                Issue.record("expected RecordError")
            } catch RecordError.recordNotFound(let table, let key) {
                #expect(table == "player")
                #expect(key == ["id": 42.databaseValue])
            }
        }
    }

    @Test func fetchByUniqueKeyDictionaries() throws {
        try dbQueue.read { db throws in
            let fr = try Citizenship.fetchOne(db, key: ["playerId": 1, "countryCode": "FR"])
            #expect(fr?.countryCode == "FR")
            #expect(try Citizenship.fetchOne(db, key: ["playerId": 2, "countryCode": "US"]) == nil)
            #expect(try Citizenship.fetchOne(db, key: nil) == nil)
            let all = try Citizenship.fetchAll(
                db, keys: [["playerId": 1, "countryCode": "US"], ["playerId": 2, "countryCode": "FR"]])
            #expect(Set(all.map { "\($0.playerId)\($0.countryCode)" }) == ["1US", "2FR"])
            #expect(throws: RecordError.self) {
                try Citizenship.find(db, key: ["playerId": 3, "countryCode": "FR"])
            }
        }
    }

    @Test func cursorRowsAreReusedAndRecordsAreValues() throws {
        try dbQueue.read { db throws in
            let cursor = try Player.fetchCursor(db, sql: "SELECT * FROM player ORDER BY id")
            var players: [Player] = []
            while let player = try cursor.next() {
                players.append(player)
            }
            #expect(players == [arthur, barbara, craig])
        }
    }
}
