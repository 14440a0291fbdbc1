import Foundation
import Testing
@_spi(GRDBLite) import GRDBLite

private struct Player: Codable, FetchableRecord, MutablePersistableRecord, Equatable {
    var id: Int64?
    var name: String
    var score: Int

    mutating func didInsert(_ inserted: InsertionSuccess) {
        id = inserted.rowID
    }
}

/// A record with a text primary key.
private struct Country: Codable, FetchableRecord, PersistableRecord, Equatable {
    var code: String
    var name: String
}

/// A record with a composite primary key.
private struct Citizenship: Codable, FetchableRecord, PersistableRecord, Equatable {
    var playerId: Int64
    var countryCode: String
    var since: Int
}

@Suite struct MutablePersistableRecordTests {
    let recorder = SQLRecorder()
    let dbQueue: DatabaseQueue

    init() throws {
        dbQueue = try makeDatabase("""
            CREATE TABLE player (id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE, score INTEGER NOT NULL);
            CREATE TABLE country (code TEXT PRIMARY KEY, name TEXT NOT NULL);
            CREATE TABLE citizenship (playerId INTEGER, countryCode TEXT, since INTEGER, PRIMARY KEY (playerId, countryCode));
            """, recorder: recorder)
    }

    // MARK: Insert

    @Test func insertSetsTheAutoIncrementedId() throws {
        try dbQueue.write { db throws in
            var player = Player(id: nil, name: "Arthur", score: 100)
            try player.insert(db)
            #expect(player.id == 1)
            #expect(try Player.fetchOne(db, key: 1) == player)
        }
        #expect(recorder.sql.contains(#"INSERT INTO "player" ("id", "name", "score") VALUES (?,?,?)"#))
    }

    @Test func keptInsertionSuccessKeepsItsValues() throws {
        /// Keeps the success of its insertion.
        struct KeepingPlayer: Codable, MutablePersistableRecord {
            static let databaseTableName = "player"
            var name: String
            var score: Int
            var inserted: InsertionSuccess?

            enum CodingKeys: String, CodingKey { case name, score }

            mutating func didInsert(_ inserted: InsertionSuccess) { self.inserted = inserted }
        }
        try dbQueue.write { db in
            var arthur = KeepingPlayer(name: "Arthur", score: 100)
            try arthur.insert(db)
            var barbara = KeepingPlayer(name: "Barbara", score: 200)
            try barbara.insert(db)
            let arthurValues = try #require(arthur.inserted).persistenceContainer
            #expect(arthurValues["name"] == "Arthur")
            #expect(arthurValues["score"] == 100)
            #expect(arthurValues["id"] == arthur.inserted?.rowID)
            let barbaraValues = try #require(barbara.inserted).persistenceContainer
            #expect(barbaraValues["name"] == "Barbara")
            #expect(barbaraValues["id"] == barbara.inserted?.rowID)
        }
    }

    @Test func keptPersistenceContainerKeepsItsValues() throws {
        // Country has no rowid column: the success gives out its values
        // without a copy, which the next insert must not overwrite.
        try dbQueue.write { db in
            var kept: [PersistenceContainer] = []
            struct KeepingCountry: Encodable, PersistableRecord {
                static let databaseTableName = "country"
                var code: String
                var name: String
                let keep: (PersistenceContainer) -> Void
                enum CodingKeys: String, CodingKey { case code, name }
                func didInsert(_ inserted: InsertionSuccess) { keep(inserted.persistenceContainer) }
            }
            try KeepingCountry(code: "FR", name: "France") { kept.append($0) }.insert(db)
            try KeepingCountry(code: "DE", name: "Germany") { kept.append($0) }.insert(db)
            #expect(kept.map { $0["code"] as String? } == ["FR", "DE"])
            #expect(kept.map { $0["name"] as String? } == ["France", "Germany"])
            #expect(kept.map { Array($0.map(\.0)) } == [["code", "name"], ["code", "name"]])
        }
    }

    @Test func nestedInsertsKeepTheirValues() throws {
        /// Inserts a country in each callback and in `encode(to:)`, and
        /// keeps the successes of the countries and its own.
        struct NestingPlayer: MutablePersistableRecord {
            static let databaseTableName = "player"
            var name: String
            let db: Database
            var successes: [String: InsertionSuccess] = [:]

            func insertCountry(_ code: String, _ db: Database) throws -> InsertionSuccess {
                var success: InsertionSuccess?
                struct C: PersistableRecord {
                    static let databaseTableName = "country"
                    let code: String
                    let done: (InsertionSuccess) -> Void
                    func encode(to container: inout PersistenceContainer) {
                        container["code"] = code
                        container["name"] = code + "-name"
                    }
                    func didInsert(_ inserted: InsertionSuccess) { done(inserted) }
                }
                try C(code: code) { success = $0 }.insert(db)
                return try #require(success)
            }

            func encode(to container: inout PersistenceContainer) throws {
                container["name"] = name
                // An insert while the outer record is encoded.
                if name == "Arthur" {
                    _ = try insertCountry("EN", db)
                }
                container["score"] = name.count
            }

            mutating func willInsert(_ db: Database) throws {
                successes["willInsert"] = try insertCountry("WI-" + name, db)
            }
            func aroundInsert(_ db: Database, insert: () throws -> InsertionSuccess) throws {
                _ = try insertCountry("AI-" + name, db)
                let inserted = try insert()
                _ = try insertCountry("AI2-" + name, db)
                #expect(inserted.persistenceContainer["name"] == name)
            }
            mutating func didInsert(_ inserted: InsertionSuccess) {
                successes["didInsert"] = inserted
                successes["nested"] = try? insertCountry("DI-" + name, db)
            }
        }
        try dbQueue.write { db in
            var arthur = NestingPlayer(name: "Arthur", db: db)
            try arthur.insert(db)
            var bob = NestingPlayer(name: "Bob", db: db)
            try bob.insert(db)
            for player in [arthur, bob] {
                let values = try #require(player.successes["didInsert"]).persistenceContainer
                #expect(values["name"] == player.name)
                #expect(values["score"] == player.name.count)
                #expect(values["id"] == player.successes["didInsert"]?.rowID)
                #expect(player.successes["willInsert"]?.persistenceContainer["code"] == "WI-" + player.name)
                #expect(player.successes["nested"]?.persistenceContainer["code"] == "DI-" + player.name)
            }
            #expect(try Row.fetchAll(db, sql: "SELECT name, score FROM player ORDER BY id")
                == [["name": "Arthur", "score": 6], ["name": "Bob", "score": 3]])
            #expect(try String.fetchAll(db, sql: "SELECT name FROM country ORDER BY rowid") == [
                "WI-Arthur-name", "AI-Arthur-name", "EN-name", "AI2-Arthur-name", "DI-Arthur-name",
                "WI-Bob-name", "AI-Bob-name", "AI2-Bob-name", "DI-Bob-name"])
        }
    }

    @Test func failedInsertsLeaveKeptValuesAndTheNextInsertIntact() throws {
        /// Keeps its success; throws from `encode(to:)` when asked.
        struct KeepingPlayer: MutablePersistableRecord {
            static let databaseTableName = "player"
            var name: String
            var failsToEncode = false
            var inserted: InsertionSuccess?
            struct Failure: Error { }
            func encode(to container: inout PersistenceContainer) throws {
                container["name"] = name
                if failsToEncode { throw Failure() }
                container["score"] = 1
            }
            mutating func didInsert(_ inserted: InsertionSuccess) { self.inserted = inserted }
        }
        try dbQueue.write { db in
            var arthur = KeepingPlayer(name: "Arthur")
            try arthur.insert(db)
            var duplicate = KeepingPlayer(name: "Arthur") // UNIQUE name
            #expect(throws: DatabaseError.self) { try duplicate.insert(db) }
            var failing = KeepingPlayer(name: "Fails", failsToEncode: true)
            #expect(throws: KeepingPlayer.Failure.self) { try failing.insert(db) }
            #expect(arthur.inserted?.persistenceContainer["name"] == "Arthur")
            // The next insert encodes into the container that the failures gave back.
            arthur.inserted = nil
            var bob = KeepingPlayer(name: "Bob")
            try bob.insert(db)
            #expect(bob.inserted?.persistenceContainer["name"] == "Bob")
            #expect(bob.inserted?.persistenceContainer["score"] == 1)
            #expect(try Row.fetchAll(db, sql: "SELECT name, score FROM player ORDER BY id")
                == [["name": "Arthur", "score": 1], ["name": "Bob", "score": 1]])
        }
    }

    @Test func insertedReturnsACopy() throws {
        try dbQueue.write { db throws in
            let player = Player(id: nil, name: "Arthur", score: 100)
            let inserted = try player.inserted(db)
            #expect(player.id == nil)
            #expect(inserted.id == 1)
        }
    }

    @Test func insertConstraintViolationKeepsEarlierData() throws {
        try dbQueue.writeWithoutTransaction { db throws in
            var arthur = Player(id: nil, name: "Arthur", score: 100)
            try arthur.insert(db)
            var duplicate = Player(id: nil, name: "Arthur", score: 200)
            do {
                try duplicate.insert(db)
                Issue.record("expected a constraint error")
            } catch let error as DatabaseError {
                #expect(error.resultCode == .SQLITE_CONSTRAINT)
                #expect(error.extendedResultCode == .SQLITE_CONSTRAINT_UNIQUE)
                #expect(error.sql == #"INSERT INTO "player" ("id", "name", "score") VALUES (?,?,?)"#)
                #expect(error.arguments == [nil, "Arthur", 200])
                #expect(error.message == "UNIQUE constraint failed: player.name")
            }
            #expect(duplicate.id == nil)
            #expect(try Player.fetchAll(db) == [arthur])
        }
    }

    @Test func insertWithConflictResolution() throws {
        try dbQueue.write { db throws in
            var arthur = Player(id: nil, name: "Arthur", score: 100)
            try arthur.insert(db)
            var replacement = Player(id: nil, name: "Arthur", score: 200)
            try replacement.insert(db, onConflict: .replace)
            #expect(try Player.fetchAll(db).map(\.score) == [200])
            var ignored = Player(id: nil, name: "Arthur", score: 300)
            try ignored.insert(db, onConflict: .ignore)
            #expect(try Player.fetchAll(db).map(\.score) == [200])
        }
        #expect(recorder.sql.contains(#"INSERT OR REPLACE INTO "player" ("id", "name", "score") VALUES (?,?,?)"#))
        #expect(recorder.sql.contains(#"INSERT OR IGNORE INTO "player" ("id", "name", "score") VALUES (?,?,?)"#))
    }

    @Test func persistenceConflictPolicy() throws {
        struct Item: Codable, PersistableRecord {
            static let databaseTableName = "country"
            static let persistenceConflictPolicy = PersistenceConflictPolicy(insert: .replace, update: .ignore)
            var code: String
            var name: String
        }
        try dbQueue.write { db throws in
            try Item(code: "FR", name: "France").insert(db)
            try Item(code: "FR", name: "République française").insert(db)
            #expect(try String.fetchAll(db, sql: "SELECT name FROM country") == ["République française"])
        }
        #expect(recorder.sql.contains(#"INSERT OR REPLACE INTO "country" ("code", "name") VALUES (?,?)"#))
    }

    // MARK: Update

    @Test func updateAllColumns() throws {
        try dbQueue.write { db throws in
            var player = Player(id: nil, name: "Arthur", score: 100)
            try player.insert(db)
            player.score = 150
            recorder.reset()
            try player.update(db)
            #expect(try Player.find(db, key: 1).score == 150)
        }
        #expect(
            recorder.sql.filter { $0.hasPrefix("UPDATE") } == [#"UPDATE "player" SET "name"=?, "score"=? WHERE "id"=?"#]
        )
    }

    @Test func updateSomeColumns() throws {
        try dbQueue.write { db throws in
            var player = Player(id: nil, name: "Arthur", score: 100)
            try player.insert(db)
            player.score = 150
            player.name = "Ignored"
            recorder.reset()
            try player.update(db, columns: ["score"])
            #expect(try Player.find(db, key: 1) == Player(id: 1, name: "Arthur", score: 150))
            try player.update(db, columns: [Column("name")])
        }
        #expect(recorder.sql.filter { $0.hasPrefix("UPDATE") } == [
            #"UPDATE "player" SET "score"=? WHERE "id"=?"#,
            #"UPDATE "player" SET "name"=? WHERE "id"=?"#,
        ])
    }

    @Test func updateOfMissingRowThrowsRecordNotFound() throws {
        try dbQueue.write { db throws in
            let ghost = Player(id: 42, name: "Ghost", score: 0)
            do {
                try ghost.update(db)
                Issue.record("expected RecordError")
            } catch RecordError.recordNotFound(let table, let key) {
                #expect(table == "player")
                #expect(key == ["id": 42.databaseValue])
            }
            let unsaved = Player(id: nil, name: "Unsaved", score: 0)
            #expect(throws: RecordError.self) { try unsaved.update(db) }
        }
    }

    @Test func updateChangesWritesOnlyWhenSomethingChanged() throws {
        try dbQueue.write { db throws in
            var player = Player(id: nil, name: "Arthur", score: 100)
            try player.insert(db)
            recorder.reset()
            #expect(try !player.updateChanges(db) { $0.score = 100 })
            #expect(recorder.sql.isEmpty)
            #expect(try player.updateChanges(db) { $0.score = 200 })
            #expect(recorder.sql == [#"UPDATE "player" SET "score"=? WHERE "id"=?"#])
            #expect(player.score == 200)

            let old = player
            player.name = "Barbara"
            recorder.reset()
            #expect(try player.updateChanges(db, from: old))
            #expect(try !player.updateChanges(db, from: player))
            #expect(recorder.sql == [#"UPDATE "player" SET "name"=? WHERE "id"=?"#])
            #expect(try Player.find(db, key: 1) == player)
        }
    }

    /// "é" and "e\u{301}" are equal Swift strings, but different bytes in
    /// the database: changing one into the other is a change to save.
    @Test func updateChangesSavesAChangeOfUnicodeNormalization() throws {
        try dbQueue.write { db throws in
            var player = Player(id: nil, name: "\u{E9}", score: 100)
            try player.insert(db)
            var copy = player
            let changes = try copy.databaseChanges { $0.name = "e\u{301}" }
            #expect(changes.keys.sorted() == ["name"])
            #expect(try player.updateChanges(db) { $0.name = "e\u{301}" })
            #expect(try !player.updateChanges(db) { $0.name = "e\u{301}" })
            let bytes = try Data.fetchOne(db, sql: "SELECT CAST(name AS BLOB) FROM player")
            #expect(bytes == Data("e\u{301}".utf8))
        }
    }

    @Test func databaseChanges() throws {
        var player = Player(id: 1, name: "Arthur", score: 100)
        let old = player
        player.score = 200
        #expect(try player.databaseChanges(from: old) == ["score": 100.databaseValue])
        #expect(try player.databaseChanges(from: player).isEmpty)
        let changes = try player.databaseChanges { $0.name = "Barbara"; $0.score = 200 }
        #expect(changes == ["name": "Arthur".databaseValue])
        #expect(player.databaseEquals(player))
        #expect(!player.databaseEquals(old))
    }

    // MARK: Save, delete, exists

    @Test func saveInsertsOrUpdates() throws {
        try dbQueue.write { db throws in
            var player = Player(id: nil, name: "Arthur", score: 100)
            try player.save(db)
            #expect(player.id == 1)
            player.score = 200
            try player.save(db)
            #expect(try Player.fetchAll(db) == [player])
            // A primary key without row: inserted
            var ghost = Player(id: 42, name: "Ghost", score: 0)
            try ghost.save(db)
            #expect(try Player.fetchOne(db, key: 42) == ghost)
        }
    }

    @Test func deleteAndExists() throws {
        try dbQueue.write { db throws in
            var player = Player(id: nil, name: "Arthur", score: 100)
            #expect(try !player.exists(db))
            #expect(try !player.delete(db))
            try player.insert(db)
            #expect(try player.exists(db))
            #expect(try player.delete(db))
            #expect(try !player.exists(db))
            #expect(try !player.delete(db))
        }
    }

    @Test func textAndCompositePrimaryKeys() throws {
        try dbQueue.write { db throws in
            var france = Country(code: "FR", name: "France")
            try france.insert(db)
            france.name = "République française"
            try france.update(db)
            #expect(try Country.find(db, key: "FR") == france)

            let citizenship = Citizenship(playerId: 1, countryCode: "FR", since: 2000)
            try citizenship.insert(db)
            #expect(try citizenship.exists(db))
            var changed = citizenship
            changed.since = 2001
            try changed.update(db)
            #expect(try Citizenship.fetchOne(db, key: ["playerId": 1, "countryCode": "FR"]) == changed)
            #expect(try changed.delete(db))
            #expect(try Citizenship.fetchCount(db) == 0)
        }
    }

    // MARK: Upsert and RETURNING

    @Test func upsert() throws {
        try dbQueue.write { db throws in
            var player = Player(id: nil, name: "Arthur", score: 100)
            try player.upsert(db)
            #expect(player.id == 1)
            var other = Player(id: 1, name: "Arthur", score: 200)
            try other.upsert(db)
            #expect(other.id == 1)
            #expect(try Player.fetchAll(db) == [Player(id: 1, name: "Arthur", score: 200)])
            // Conflict on the unique name: the row is updated
            var sameName = Player(id: nil, name: "Arthur", score: 300)
            let upserted = try sameName.upsertAndFetch(db, onConflict: ["name"])
            #expect(upserted == Player(id: 1, name: "Arthur", score: 300))
            #expect(sameName.id == 1)
        }
    }

    /// A column named "rowid" hides the rowid from RETURNING: a NULL there
    /// is a decoding error, not a crash, and the failed write rolls back.
    @Test func upsertIntoTableWithRowidColumn() throws {
        struct Item: Codable, MutablePersistableRecord {
            var id: Int64?
            var name: String
        }
        try dbQueue.write { db in
            try db.execute(sql: "CREATE TABLE item (id INTEGER PRIMARY KEY, name TEXT UNIQUE, rowid)")
        }
        #expect(throws: RowDecodingError.self) {
            try dbQueue.write { db in
                var item = Item(id: nil, name: "a")
                try item.upsert(db)
            }
        }
        #expect(try dbQueue.read { try Int.fetchOne($0, sql: "SELECT COUNT(*) FROM item") } == 0)
    }

    @Test func insertAndFetch() throws {
        struct PartialPlayer: Codable, PersistableRecord {
            static let databaseTableName = "player"
            var name: String
            var score: Int
        }
        try dbQueue.write { db throws in
            let player = try PartialPlayer(name: "Arthur", score: 100).insertAndFetch(db, as: Player.self)
            #expect(player == Player(id: 1, name: "Arthur", score: 100))
            let barbara = Player(id: nil, name: "Barbara", score: 200)
            let fetched = try barbara.insertAndFetch(db)
            #expect(fetched.id == 2)
        }
        #expect(recorder.sql.contains(#"INSERT INTO "player" ("name", "score") VALUES (?,?) RETURNING *"#))
    }

    @Test func updateAndFetch() throws {
        try dbQueue.write { db throws in
            var player = Player(id: nil, name: "Arthur", score: 100)
            try player.insert(db)
            player.score = 300
            #expect(try player.updateAndFetch(db) == player)
        }
    }

    @Test func fetchingWithASelection() throws {
        try dbQueue.write { db throws in
            var player = Player(id: nil, name: "Arthur", score: 100)
            let id = try player.insertAndFetch(db, selection: [Column("id")]) { try Int64.fetchOne($0) }
            #expect(id == 1)
            #expect(player.id == 1)
            var barbara = Player(id: nil, name: "Barbara", score: 50)
            let name = try barbara.insertAndFetch(
                db, fetch: { try String.fetchOne($0) }, select: { _ in [Column("name")] })
            #expect(name == "Barbara")

            player.score = 200
            let score = try player.updateAndFetch(db, selection: [Column("score") * 2]) { try Int.fetchOne($0) }
            #expect(score == 400)
            // Only the given columns are updated.
            player.name = "Renamed"
            player.score = 300
            let updated = try player.updateAndFetch(db, columns: [Column("score")], selection: [Column("name")]) {
                try String.fetchOne($0)
            }
            #expect(updated == "Arthur")
            #expect(try Player.find(db, key: 1) == Player(id: 1, name: "Arthur", score: 300))

            let missing = Player(id: 42, name: "Nobody", score: 0)
            #expect {
                try missing.updateAndFetch(db, selection: [Column("id")]) { try Int64.fetchOne($0) }
            } throws: { error in
                guard case let RecordError.recordNotFound(table, key) = error else { return false }
                return table == "player" && key == ["id": 42.databaseValue]
            }
        }
        #expect(recorder.sql.contains(#"UPDATE "player" SET "score"=? WHERE "id"=? RETURNING "name""#))
    }

    @Test func saveAndFetch() throws {
        try dbQueue.write { db throws in
            var player = Player(id: nil, name: "Arthur", score: 100)
            let inserted = try player.saveAndFetch(db, as: Player.self)
            #expect(inserted == Player(id: 1, name: "Arthur", score: 100))
            #expect(player.id == 1)
            player.score = 150
            let updated = try player.saveAndFetch(db, as: Player.self)
            #expect(updated == player)
            #expect(try Player.fetchCount(db) == 1)
            // A primary key that no row has: inserted.
            var other = Player(id: 5, name: "Barbara", score: 10)
            let score = try other.saveAndFetch(db, selection: [Column("score")]) { try Int.fetchOne($0) }
            #expect(score == 10)
            #expect(try Player.fetchCount(db) == 2)

            let country = Country(code: "FR", name: "France")
            #expect(try country.saveAndFetch(db) == country)
            let renamed = Country(code: "FR", name: "République française")
            #expect(try renamed.saveAndFetch(db) == renamed)
            #expect(try Country.fetchAll(db) == [renamed])
        }
    }

    @Test func updateChangesAndFetch() throws {
        try dbQueue.write { db throws in
            var player = Player(id: nil, name: "Arthur", score: 100)
            try player.insert(db)
            recorder.reset()
            // Mutating calls stay out of #expect, which may run them on a copy.
            let unchanged = try player.updateChangesAndFetch(db) { $0.score = 100 }
            #expect(unchanged == nil)
            #expect(recorder.sql.isEmpty)
            let updated = try player.updateChangesAndFetch(db) { $0.score = 120 }
            #expect(updated == Player(id: 1, name: "Arthur", score: 120))
            #expect(player.score == 120)
            #expect(recorder.sql == [#"UPDATE "player" SET "score"=? WHERE "id"=? RETURNING *"#])
            let name = try player.updateChangesAndFetch(
                db, selection: [Column("name")], fetch: { try String.fetchOne($0) }
            ) {
                $0.name = "Arthur II"
            }
            #expect(name == "Arthur II")
            let asPlayer = try player.updateChangesAndFetch(db, as: Player.self) { $0.score = 130 }
            #expect(asPlayer?.score == 130)
            #expect(try Player.find(db, key: 1) == Player(id: 1, name: "Arthur II", score: 130))
        }
    }
}
