import GRDBLite
import Testing

@Suite struct StatementDatabaseRegionTests {
    @Test func regionOfAStatement() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db throws in
            try db.execute(sql: "CREATE TABLE player (id INTEGER PRIMARY KEY, name TEXT, score INTEGER)")
            #expect(try db.makeStatement(sql: "SELECT name FROM player").databaseRegion.description == "player(name)")
            #expect(try db.makeStatement(sql: "SELECT COUNT(*) FROM player").databaseRegion.description == "player(*)")
            #expect(try db.makeStatement(sql: "SELECT 1").databaseRegion.isEmpty)
        }
    }
}
