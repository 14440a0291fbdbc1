import Foundation
import Testing
import GRDBLite

private struct Player: TableRecord { }
private struct HTTPRequest: TableRecord { }
private struct URL: TableRecord { }
private struct lowercased: TableRecord { }
private struct Custom: TableRecord { static let databaseTableName = "custom table" }
private struct Generic<T>: TableRecord { }

@Suite struct TableRecordTests {
    @Test func defaultTableName() {
        #expect(Player.databaseTableName == "player")
        #expect(HTTPRequest.databaseTableName == "httpRequest")
        #expect(URL.databaseTableName == "url")
        #expect(lowercased.databaseTableName == "lowercased")
        #expect(Custom.databaseTableName == "custom table")
        #expect(Generic<Int>.databaseTableName == "generic")
    }

    @Test func fetchCountAndDeleteAll() throws {
        let recorder = SQLRecorder()
        let dbQueue = try makeDatabase("""
            CREATE TABLE "custom table" (id INTEGER PRIMARY KEY);
            INSERT INTO "custom table" VALUES (1), (2), (3);
            """, recorder: recorder)
        try dbQueue.write { db throws in
            #expect(try Custom.fetchCount(db) == 3)
            #expect(try Custom.deleteAll(db) == 3)
            #expect(try Custom.fetchCount(db) == 0)
        }
        #expect(recorder.sql.contains(#"SELECT COUNT(*) FROM "custom table""#))
        #expect(recorder.sql.contains(#"DELETE FROM "custom table""#))
    }

    @Test func keysOfSingleColumnPrimaryKey() throws {
        let recorder = SQLRecorder()
        let dbQueue = try makeDatabase("""
            CREATE TABLE player (id INTEGER PRIMARY KEY, name TEXT);
            INSERT INTO player VALUES (1, 'Arthur'), (2, 'Barbara'), (3, 'Craig');
            """, recorder: recorder)
        try dbQueue.write { db throws in
            #expect(try Player.exists(db, key: 1))
            #expect(try !Player.exists(db, key: 4))
            // A nil key does not hit the database.
            #expect(try !Player.exists(db, key: Int?.none))
            #expect(try Player.deleteOne(db, key: 1))
            #expect(try !Player.deleteOne(db, key: 1))
            #expect(try Player.deleteAll(db, keys: [2, 3, 4]) == 2)
            #expect(try Player.deleteAll(db, keys: [Int]()) == 0)
        }
        #expect(recorder.sql.filter { $0 == #"SELECT EXISTS (SELECT * FROM "player" WHERE "id" = ?)"# }.count == 2)
        #expect(recorder.sql.contains(#"DELETE FROM "player" WHERE "id" IN (?, ?, ?)"#))
    }

    @Test func hiddenRowIDKeys() throws {
        let dbQueue = try makeDatabase("""
            CREATE TABLE player (name TEXT);
            INSERT INTO player VALUES ('Arthur'), ('Barbara');
            """)
        try dbQueue.write { db throws in
            #expect(try Player.exists(db, key: 2))
            #expect(try Player.deleteOne(db, key: 2))
            #expect(try String.fetchAll(db, sql: "SELECT name FROM player") == ["Arthur"])
        }
    }

    @Test func uniqueKeyDictionaries() throws {
        let dbQueue = try makeDatabase("""
            CREATE TABLE player (id INTEGER PRIMARY KEY, email TEXT UNIQUE, name TEXT);
            INSERT INTO player VALUES (1, 'a@x', 'Arthur'), (2, 'b@x', 'Barbara'), (3, NULL, 'Craig');
            """)
        try dbQueue.write { db throws in
            #expect(try Player.exists(db, key: ["email": "a@x"]))
            #expect(try !Player.exists(db, key: ["email": "z@x"]))
            #expect(try Player.exists(db, key: ["email": nil]))
            #expect(try Player.deleteAll(db, keys: [["email": "a@x"], ["id": 2]]) == 2)
            #expect(try Player.deleteOne(db, key: ["id": 3]))
        }
    }

    @Test func recordNotFoundDescription() {
        let error = RecordError.recordNotFound(databaseTableName: "player", key: ["id": 1.databaseValue])
        #expect(error.description == "Key not found in table player: [id:1]")
    }

    @Test func missingTableIsAnError() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.read { db throws in
            #expect(throws: DatabaseError.self) { try Player.fetchCount(db) }
            #expect(throws: DatabaseError.self) { try Player.exists(db, key: 1) }
        }
    }
}
