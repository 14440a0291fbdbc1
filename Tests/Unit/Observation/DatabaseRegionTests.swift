@_spi(GRDBLite) import GRDBLite
import Testing

@Suite struct DatabaseRegionTests {
    @Test func emptyAndFullRegions() {
        #expect(DatabaseRegion().isEmpty)
        #expect(!DatabaseRegion().isFullDatabase)
        #expect(DatabaseRegion.fullDatabase.isFullDatabase)
        #expect(!DatabaseRegion.fullDatabase.isEmpty)
        #expect(!DatabaseRegion(table: "player").isEmpty)
        #expect(DatabaseRegion(table: "player", columns: []).description == "player()")
        #expect(DatabaseRegion().description == "empty")
        #expect(DatabaseRegion.fullDatabase.description == "full database")
    }

    @Test func union() {
        var region = DatabaseRegion(table: "player", columns: ["score"])
        region.formUnion(DatabaseRegion(table: "PLAYER", columns: ["name"]))
        region.formUnion(DatabaseRegion(table: "team"))
        #expect(region.description == "player(name,score),team(*)")
        #expect(
            region == DatabaseRegion(table: "team").union(DatabaseRegion(table: "player", columns: ["Name", "score"])))
        #expect(region.union(DatabaseRegion(table: "player")).description == "player(*),team(*)")
        #expect(region.union(.fullDatabase) == .fullDatabase)
        #expect(DatabaseRegion().union(region) == region)
        #expect(region != DatabaseRegion(table: "team"))
    }

    @Test func isModifiedByEventsOfKind() {
        let scores = DatabaseRegion(table: "player", columns: ["score"])
        #expect(scores.isModified(byEventsOfKind: .insert(tableName: "player")))
        #expect(scores.isModified(byEventsOfKind: .delete(tableName: "Player")))
        #expect(scores.isModified(byEventsOfKind: .update(tableName: "player", columnNames: ["name", "SCORE"])))
        #expect(!scores.isModified(byEventsOfKind: .update(tableName: "player", columnNames: ["name"])))
        #expect(!scores.isModified(byEventsOfKind: .insert(tableName: "team")))
        #expect(DatabaseRegion.fullDatabase.isModified(byEventsOfKind: .insert(tableName: "team")))
        #expect(!DatabaseRegion().isModified(byEventsOfKind: .insert(tableName: "team")))
        #expect(
            DatabaseRegion(table: "player").isModified(byEventsOfKind: .update(tableName: "player", columnNames: ["x"]))
        )
    }

    /// Regions of a few tables are scanned, larger ones hashed: both
    /// find tables case-insensitively.
    @Test(arguments: [2, 4, 5, 12]) func isModifiedByEventsOfKindInRegionsOfManyTables(tableCount: Int) {
        let tables = (0..<tableCount).map { "table\($0)" }
        let region = tables.reduce(DatabaseRegion()) { $0.union(DatabaseRegion(table: $1)) }
        for table in tables {
            #expect(region.isModified(byEventsOfKind: .insert(tableName: table.uppercased())))
        }
        #expect(!region.isModified(byEventsOfKind: .insert(tableName: "table\(tableCount)")))
    }

    @Test func isModifiedByEvent() throws {
        final class Observer: TransactionObserver {
            let region: DatabaseRegion
            var modifications: [Bool] = []
            init(region: DatabaseRegion) { self.region = region }
            func observes(eventsOfKind eventKind: DatabaseEventKind) -> Bool {
                region.isModified(byEventsOfKind: eventKind)
            }
            func databaseDidChange(with event: DatabaseEvent) { modifications.append(region.isModified(by: event)) }
            func databaseDidCommit(_ db: Database) { }
            func databaseDidRollback(_ db: Database) { }
        }
        let dbQueue = try makePlayerDatabase()
        let observer = Observer(region: DatabaseRegion(table: "player"))
        dbQueue.add(transactionObserver: observer)
        try dbQueue.write { db in
            try db.execute(sql: "INSERT INTO team (id) VALUES (1)")
            try db.execute(sql: "INSERT INTO player (id) VALUES (1)")
        }
        #expect(observer.modifications == [true])
    }

    @Test func anyDatabaseRegionConvertible() throws {
        let dbQueue = try makePlayerDatabase()
        try dbQueue.read { db throws in
            let region = AnyDatabaseRegionConvertible(DatabaseRegion(table: "player"))
            #expect(try region.databaseRegion(db) == DatabaseRegion(table: "player"))
            let computed = AnyDatabaseRegionConvertible { _ in .fullDatabase }
            #expect(try computed.databaseRegion(db).isFullDatabase)
        }
    }
}
