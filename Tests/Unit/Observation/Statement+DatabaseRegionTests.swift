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

    /// The region is computed once per statement: asked again, the same.
    @Test func regionOfAStatementAskedAgain() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db throws in
            try db.execute(sql: "CREATE TABLE player (id INTEGER PRIMARY KEY, name TEXT, score INTEGER)")
            let statement = try db.makeStatement(sql: "SELECT name, score FROM player")
            for _ in 0..<3 {
                #expect(statement.databaseRegion.description == "player(name,score)")
            }
        }
    }

    /// SQLite reports the rowid of `SELECT ID FROM FOO` under two spellings
    /// of the table: the region keeps the first one, in every process (it
    /// used to depend on the order of a hashed dictionary).
    @Test func tableSpellingIsTheFirstReported() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db throws in
            try db.execute(sql: "CREATE TABLE foo (id INTEGER PRIMARY KEY, name TEXT)")
            #expect(try db.makeStatement(sql: "SELECT id FROM foo").databaseRegion.description == "foo(*)")
            #expect(try db.makeStatement(sql: "SELECT ID FROM FOO").databaseRegion.description == "foo(*)")
            #expect(try db.makeStatement(sql: "SELECT NAME FROM FOO").databaseRegion.description == "foo(name)")
        }
    }
}
