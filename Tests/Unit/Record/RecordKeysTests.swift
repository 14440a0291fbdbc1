import GRDBLite
import Testing

private struct Member: Codable, Equatable, FetchableRecord, PersistableRecord {
    var id: Int64
    var email: String?
    var name: String
}

/// The primary and unique key conditions of record methods.
@Suite struct RecordKeysTests {
    let dbQueue: DatabaseQueue

    init() throws {
        dbQueue = try DatabaseQueue()
        try dbQueue.write { db in
            try db.execute(sql: """
                CREATE TABLE member (id INTEGER PRIMARY KEY, email TEXT UNIQUE, name TEXT NOT NULL);
                INSERT INTO member VALUES (1, 'a@example.com', 'Arthur'), (2, NULL, 'Barbara'), (3, 'c@example.com', 'Craig');
                """)
        }
    }

    private func statements(_ db: Database, _ body: () throws -> Void) rethrows -> [String] {
        // Ignore schema introspection.
        try recordedSQL(db, body).filter { $0.hasPrefix("SELECT * ") }
    }

    @Test func primaryKeys() throws {
        try dbQueue.write { db throws in
            var member: Member?
            var members: [Member] = []
            #expect(try statements(db) { member = try Member.fetchOne(db, key: 2) }
                == [#"SELECT * FROM "member" WHERE "id" = ?"#])
            #expect(member?.name == "Barbara")
            #expect(try statements(db) { members = try Member.fetchAll(db, keys: [1, 3]) }
                == [#"SELECT * FROM "member" WHERE "id" IN (?, ?)"#])
            #expect(members.map(\.id) == [1, 3])
            #expect(try Member.exists(db, key: 3))
            #expect(try !Member.exists(db, key: 4))
            #expect(try Member.deleteAll(db, keys: [1, 2, 4]) == 2)
            #expect(try Member.fetchCount(db) == 1)
        }
    }

    @Test func compoundKeysFollowTheOrderOfTheKey() throws {
        try dbQueue.write { db throws in
            try db.execute(sql: """
                CREATE TABLE citizenship (personId INTEGER, country TEXT, note TEXT, PRIMARY KEY (personId, country));
                INSERT INTO citizenship VALUES (1, 'FR', NULL);
                """)
            struct Citizenship: TableRecord {}
            var deleted = false
            #expect(
                try recordedSQL(db) {
                    deleted = try Citizenship.deleteOne(db, key: ["note": nil, "country": "FR", "personId": 1])
                }
                .last == #"DELETE FROM "citizenship" WHERE ("personId" = ?) AND ("country" = ?) AND ("note" IS NULL)"#)
            #expect(deleted)
        }
    }

    @Test func uniqueKeys() throws {
        try dbQueue.write { db throws in
            var member: Member?
            var members: [Member] = []
            #expect(try statements(db) { member = try Member.fetchOne(db, key: ["email": "c@example.com"]) }
                == [#"SELECT * FROM "member" WHERE "email" = ?"#])
            #expect(member?.id == 3)
            #expect(try statements(db) {
                members = try Member.fetchAll(db, keys: [["email": nil], ["id": 1, "email": "a@example.com"]])
            } == [#"SELECT * FROM "member" WHERE ("email" IS NULL) OR (("id" = ?) AND ("email" = ?))"#])
            #expect(Set(members.map(\.id)) == [1, 2])
            #expect(try Member.exists(db, key: ["email": "a@example.com"]))
            #expect(try !Member.exists(db, key: ["email": "z@example.com"]))
            #expect(try Member.deleteOne(db, key: ["email": nil]))
            #expect(try Member.fetchCount(db) == 2)
        }
    }
}
