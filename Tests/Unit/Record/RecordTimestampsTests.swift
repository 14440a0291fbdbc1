import Foundation
import Testing
import GRDBLite

// Seed "Record Timestamps": records timestamped with `db.transactionDate`,
// a clock injected through `Configuration.transactionClock`.

/// A record type that tracks its creation and modification dates (the
/// seed's sample protocol, in our own words).
private protocol TimestampedRecord: MutablePersistableRecord {
    var creationDate: Date? { get set }
    var modificationDate: Date? { get set }
}

extension TimestampedRecord {
    /// Both dates default to the transaction date on insertion.
    mutating func willInsert(_ db: Database) throws {
        try initializeTimestamps(db)
    }

    mutating func initializeTimestamps(_ db: Database) throws {
        if creationDate == nil { creationDate = try db.transactionDate }
        if modificationDate == nil { modificationDate = try db.transactionDate }
    }

    /// Bumps the modification date, and updates all columns.
    mutating func updateWithTimestamp(_ db: Database, modificationDate: Date? = nil) throws {
        self.modificationDate = try modificationDate ?? db.transactionDate
        try update(db)
    }

    /// Modifies the record; if something changed, bumps the modification
    /// date and updates the changed columns. Returns whether it updated.
    @discardableResult
    mutating func updateChangesWithTimestamp(
        _ db: Database,
        modificationDate: Date? = nil,
        modify: (inout Self) -> Void) throws -> Bool
    {
        let changes = try databaseChanges(modify: modify)
        if changes.isEmpty { return false }
        let dateChanges = try databaseChanges {
            $0.modificationDate = try modificationDate ?? db.transactionDate
        }
        try update(db, columns: Set(changes.keys).union(dateChanges.keys))
        return true
    }

    /// Only bumps the modification date.
    mutating func touch(_ db: Database, modificationDate: Date? = nil) throws {
        try updateChanges(db) {
            $0.modificationDate = try modificationDate ?? db.transactionDate
        }
    }
}

/// Unsaved players have no id and no dates.
private struct Player: Codable, TimestampedRecord, FetchableRecord {
    var id: Int64?
    var creationDate: Date?
    var modificationDate: Date?
    var name: String
    var score: Int

    mutating func didInsert(_ inserted: InsertionSuccess) {
        id = inserted.rowID
    }
}

/// Persisted players have non-optional ids and dates.
private struct PersistedPlayer: Codable, FetchableRecord, PersistableRecord, Identifiable {
    static let databaseTableName = "player"
    let id: Int64
    let creationDate: Date
    var modificationDate: Date
    var name: String
    var score: Int
}

/// A clock that returns 1, 2, 3... seconds after the reference date, and
/// counts its calls.
private final class SteppingClock: @unchecked Sendable {
    let lock = NSLock()
    var calls = 0
    func now() -> Date {
        lock.withLock {
            calls += 1
            return Date(timeIntervalSinceReferenceDate: Double(calls))
        }
    }
}

@Suite struct RecordTimestampsTests {
    private let clock = SteppingClock()
    let dbQueue: DatabaseQueue

    init() throws {
        var config = Configuration()
        let clock = self.clock
        config.transactionClock = .custom { _ in clock.now() }
        dbQueue = try DatabaseQueue(configuration: config)
        try dbQueue.write { db in
            try db.execute(sql: """
                CREATE TABLE player (
                    id INTEGER PRIMARY KEY AUTOINCREMENT,
                    creationDate DATETIME NOT NULL,
                    modificationDate DATETIME NOT NULL,
                    name TEXT NOT NULL,
                    score INTEGER NOT NULL)
                """)
        }
    }

    private func date(_ seconds: Double) -> Date { Date(timeIntervalSinceReferenceDate: seconds) }

    @Test func insertionSetsBothDatesToTheTransactionDate() throws {
        var player = Player(name: "Arthur", score: 1000)
        #expect(player.id == nil && player.creationDate == nil && player.modificationDate == nil)
        try dbQueue.write { db in
            try player.insert(db)
        }
        // The migration transaction asked the clock once (1s), this write once (2s).
        #expect(player.id == 1)
        #expect(player.creationDate == date(2))
        #expect(player.modificationDate == date(2))
        #expect(clock.calls == 2)
    }

    @Test func allPlayersOfOneTransactionShareOneTimestamp() throws {
        try dbQueue.write { db in
            for name in ["Arthur", "Barbara", "Craig"] {
                var player = Player(name: name, score: 0)
                try player.insert(db)
            }
        }
        let dates = try dbQueue.read { db in
            try Date.fetchAll(db, sql: "SELECT creationDate FROM player UNION ALL SELECT modificationDate FROM player")
        }
        #expect(Set(dates) == [date(2)])
    }

    @Test func insertAndFetchAsPersistedPlayer() throws {
        let persisted = try dbQueue.write { db -> PersistedPlayer in
            var player = Player(name: "Arthur", score: 1000)
            return try player.insertAndFetch(db, as: PersistedPlayer.self)
        }
        #expect(persisted.id == 1)
        #expect(persisted.creationDate == date(2))
        #expect(persisted.modificationDate == date(2))
        let found = try dbQueue.read { db in try PersistedPlayer.find(db, id: 1) }
        #expect(found.name == "Arthur")
    }

    @Test func updatesBumpTheModificationDateExplicitly() throws {
        var player = try dbQueue.write { db -> Player in
            var player = Player(name: "Arthur", score: 1000)
            try player.insert(db)                        // date 2
            return player
        }
        try dbQueue.write { db in
            player.score += 1
            player.modificationDate = try db.transactionDate // date 3
            try player.update(db)
        }
        try dbQueue.write { db in
            _ = try player.updateChanges(db) {
                $0.score += 1
                $0.modificationDate = try db.transactionDate // date 4
            }
        }
        let stored = try dbQueue.read { db in try PersistedPlayer.find(db, id: 1) }
        #expect(stored.creationDate == date(2))
        #expect(stored.modificationDate == date(4))
        #expect(stored.score == 1002)
    }

    @Test func timestampedRecordProtocol() throws {
        var player = try dbQueue.write { db -> Player in
            var player = Player(name: "Arthur", score: 1000)
            try player.insert(db)                                    // date 2
            return player
        }
        try dbQueue.write { db in
            player.score += 1
            try player.updateWithTimestamp(db)                       // date 3
        }
        #expect(player.modificationDate == date(3))

        // No change: no update, the date stays.
        let modified = try dbQueue.write { db in
            try player.updateChangesWithTimestamp(db) { $0.score = 1001 } // date 4 unused
        }
        #expect(!modified)
        #expect(player.modificationDate == date(3))
        // Reads are transactions too: they ask the clock (date 5).
        #expect(try dbQueue.read { db in try PersistedPlayer.find(db, id: 1).modificationDate } == date(3))

        // A change: the date is bumped with the transaction date.
        let modified2 = try dbQueue.write { db in
            try player.updateChangesWithTimestamp(db) { $0.score = 2000 } // date 6
        }
        #expect(modified2)
        #expect(player.modificationDate == date(6))

        // touch() only updates the modification date.
        try dbQueue.write { db in try player.touch(db) }               // date 7
        let stored = try dbQueue.read { db in try PersistedPlayer.find(db, id: 1) }
        #expect(stored.modificationDate == date(7))
        #expect(stored.creationDate == date(2))
        #expect(stored.score == 2000)
    }

    @Test func saveWithTimestampPattern() throws {
        try dbQueue.write { db in
            var player = Player(id: 7, name: "Arthur", score: 0)
            // Primary key set, no row: update throws recordNotFound, then insert.
            do {
                try player.updateWithTimestamp(db)
            } catch RecordError.recordNotFound {
                try player.insert(db)
            }
            #expect(try PersistedPlayer.fetchOne(db, id: 7) != nil)
        }
    }
}
