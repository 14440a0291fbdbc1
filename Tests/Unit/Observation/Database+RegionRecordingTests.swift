import Foundation
import GRDBLite
import TestSupport
import Testing

/// The region a value observation tracks, as its fetches record it.
@Suite struct DatabaseRegionRecordingTests {
    /// The regions that an observation of `fetch` tracks after its first fetch.
    private func trackedRegion(
        of fetch: @escaping @Sendable (Database) throws -> Void,
        in dbQueue: DatabaseQueue) async throws -> String
    {
        let regions = ObservationRecorder<String>()
        let cancellable = ValueObservation.trackingConstantRegion(fetch)
            .handleEvents(willTrackRegion: { regions.onChange("\($0)") })
            .start(
                in: dbQueue, scheduling: .async(onQueue: ObservationQueue().queue), onError: { _ in },
                onChange: { _ in })
        defer { cancellable.cancel() }
        return try await regions.waitForValues(count: 1)[0]
    }

    private func makeDatabase() throws -> DatabaseQueue {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db in
            try db.execute(sql: """
                CREATE TABLE player(id INTEGER PRIMARY KEY, name TEXT, score INTEGER, teamId INTEGER);
                CREATE TABLE team(id INTEGER PRIMARY KEY, name TEXT);
                CREATE VIEW playerName AS SELECT name FROM player;
                """)
        }
        return dbQueue
    }

    @Test func columnsRowsAndTables() async throws {
        let dbQueue = try makeDatabase()
        #expect(try await trackedRegion(of: { db in
            _ = try Row.fetchAll(db, sql: "SELECT name FROM player WHERE score > 10")
        }, in: dbQueue) == "player(name,score)")
        #expect(try await trackedRegion(of: { db in
            _ = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM player")
            _ = try Row.fetchAll(db, sql: "SELECT team.name FROM team JOIN player ON player.teamId = team.id")
        }, in: dbQueue) == "player(*),team(id,name)")
    }

    /// Views are tracked through the tables they read.
    @Test func views() async throws {
        let dbQueue = try makeDatabase()
        #expect(try await trackedRegion(of: { db in
            _ = try String.fetchAll(db, sql: "SELECT name FROM playerName")
        }, in: dbQueue) == "player(name)")
    }

    /// `registerAccess(to:)` adds to the region, during a fetch only.
    @Test func registerAccess() async throws {
        let dbQueue = try makeDatabase()
        #expect(try await trackedRegion(of: { db in
            try db.registerAccess(to: Table("team"))
            _ = try Row.fetchAll(db, sql: "SELECT name FROM player")
        }, in: dbQueue) == "player(name),team(*)")
        // Outside of an observation, it does nothing.
        try await dbQueue.read { db in try db.registerAccess(to: Table("team")) }
    }

    /// `including(all:)` tracks the prefetched table even when there is
    /// nothing to prefetch.
    @Test func prefetchedAssociationsWithoutRows() async throws {
        let dbQueue = try makeDatabase()
        let region = try await trackedRegion(of: { db in
            _ = try Row.fetchAll(db, TeamRecord.including(all: TeamRecord.players))
        }, in: dbQueue)
        #expect(region.contains("team("))
        #expect(region.contains("player("))
    }

    /// As in GRDB, a request filtered by rowid tracks its rows only, and
    /// the tables of its prefetched associations; an empty request
    /// tracks nothing.
    @Test func requestsNarrowedToRows() async throws {
        let dbQueue = try makeDatabase()
        #expect(try await trackedRegion(of: { db in
            _ = try Row.fetchAll(db, TeamRecord.filter(key: 1))
        }, in: dbQueue) == "team(id,name)[1]")
        #expect(try await trackedRegion(of: { db in
            _ = try Row.fetchAll(db, TeamRecord.filter(keys: [1, 2]).including(all: TeamRecord.players))
        }, in: dbQueue) == "player(id,name,score,teamId),team(id,name)[1,2]")
        #expect(try await trackedRegion(of: { db in
            _ = try Row.fetchAll(db, TeamRecord.none().including(all: TeamRecord.players))
        }, in: dbQueue) == "empty")
    }

    /// A change to another row does not fetch again.
    @Test func changesToOtherRowsAreIgnored() async throws {
        let dbQueue = try makeDatabase()
        try await dbQueue.write { db in
            try db.execute(sql: "INSERT INTO team VALUES (1, 'red'), (2, 'blue')")
        }
        let names = ObservationRecorder<String?>()
        let cancellable = ValueObservation
            .trackingConstantRegion { db in try String.fetchOne(db, TeamRecord.filter(key: 1).select(Column("name"))) }
            .start(
                in: dbQueue, scheduling: .async(onQueue: ObservationQueue().queue), onError: { _ in },
                onChange: { names.onChange($0) })
        defer { cancellable.cancel() }
        #expect(try await names.waitForValues(count: 1) == ["red"])
        // A fetch after the change of team 2 would notify "red" again
        // (observations don't remove duplicates).
        try await dbQueue.write { db in
            try db.execute(sql: "UPDATE team SET name = 'green' WHERE id = 2")
        }
        try await dbQueue.write { db in
            try db.execute(sql: "UPDATE team SET name = 'yellow' WHERE id = 1")
        }
        #expect(try await names.waitForValues(count: 2) == ["red", "yellow"])
    }

    /// Writes read too (`INSERT ... SELECT`): an observation that requires
    /// write access tracks what they read.
    @Test func writesThatRead() async throws {
        let dbQueue = try makeDatabase()
        var observation = ValueObservation.trackingConstantRegion { db -> Int in
            try db.execute(sql: "CREATE TEMPORARY TABLE names AS SELECT name FROM team")
            defer { try? db.execute(sql: "DROP TABLE names") }
            return try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM names")!
        }
        observation.requiresWriteAccess = true
        let recorder = ObservationRecorder<Int>()
        let cancellable = observation
            .start(in: dbQueue, scheduling: .async(onQueue: ObservationQueue().queue), recorder: recorder)
        try await recorder.waitForValues(count: 1)
        try await dbQueue.write { db in try db.execute(sql: "INSERT INTO team(name) VALUES ('red')") }
        #expect(try await recorder.waitForValues(count: 2) == [0, 1])
        cancellable.cancel()
    }
}

private struct TeamRecord: TableRecord {
    static let databaseTableName = "team"
    static let players = hasMany(PlayerRecord.self, using: ForeignKey(["teamId"]))
}

private struct PlayerRecord: TableRecord {
    static let databaseTableName = "player"
}
