import GRDBLite
import Testing

private typealias Player = QueryInterfaceFixtures.Player

/// The regions of requests filtered by rowid: narrowed to rows, as in GRDB.
@Suite struct QueryInterfaceRequestDatabaseRegionTests {
    let dbQueue: DatabaseQueue

    init() throws {
        dbQueue = try QueryInterfaceFixtures.makeDatabase()
    }

    private func region(_ request: some FetchRequest) throws -> String {
        try dbQueue.read { db in try request.databaseRegion(db).description }
    }

    @Test func requestsFilteredByRowIDAreNarrowedToTheirRows() throws {
        #expect(try region(Player.filter(key: 1)) == "player(id,name,score,team)[1]")
        #expect(try region(Player.filter(id: 1).filter { $0.score > 0 }) == "player(id,name,score,team)[1]")
        #expect(
            try region(Player.filter(Column.rowID == 2 || [3, 4].contains(Column("id"))))
                == "player(id,name,score,team)[2,3,4]")
        #expect(
            try region(Player.filter(keys: [1, 2, 3]).filter(Column("oid") == 2)) == "player(id,name,score,team)[2]")
        #expect(try region(Player.filter(key: 1).select(\.name)) == "player(id,name)[1]")
    }

    @Test func requestsThatReadNoRowHaveAnEmptyRegion() throws {
        #expect(try region(Player.none()) == "empty")
        #expect(try region(Player.filter(key: 1).filter(key: 2)) == "empty")
        #expect(try region(Player.filter(Column("id") == nil)) == "empty")
        #expect(try region(Player.filter([Int]().contains(Column("name")))) == "empty")
    }

    @Test func otherRequestsReadTheWholeTable() throws {
        let all = "player(id,name,score,team)"
        #expect(try region(Player.all()) == all)
        #expect(try region(Player.filter(Column("id") >= 1)) == all)
        #expect(try region(Player.filter(Column("id") == 1 || Column("name") == "Arthur")) == all)
        // Text may be converted by the column's affinity.
        #expect(try region(Player.filter(Column("id") == "1")) == all)
        #expect(try region(Player.filter(sql: "id = 1")) == all)
        // A subquery may read other rows of the table (MAX(id) reads the
        // rowid: the whole table).
        let maxID = Player.select(max(Column("id")))
        #expect(try region(Player.filter(key: 1).filter(Column("id") < maxID)) == "player(*)")
        #expect(try region(Player.filter(key: 1).select([Column("name"), maxID.sqlExpression])) == "player(*)")
    }

    @Test func prefetchedAssociationsArePartOfTheRegion() throws {
        try dbQueue.write { db throws in
            try db.execute(
                sql: "CREATE TABLE award (id INTEGER PRIMARY KEY, playerId INTEGER REFERENCES player(id), name TEXT)")
        }
        struct Award: TableRecord { }
        let awards = Player.hasMany(Award.self)
        let all = "award(id,name,playerId),player(id,name,score,team)"
        // As in GRDB: the request's region, and its statement's.
        try dbQueue.read { db throws in
            func regions(_ request: QueryInterfaceRequest<Player>) throws -> [String] {
                let requestRegion = try request.databaseRegion(db)
                let prepared = try request.makePreparedRequest(db, forSingleResult: false)
                return [requestRegion.description, prepared.statement.databaseRegion.description]
            }
            #expect(try regions(Player.including(all: awards)) == [all, all])
            // The pivot column is part of it.
            #expect(
                try regions(Player.including(all: awards.select(Column("name"))))
                    == Array(repeating: "award(name,playerId),player(id,name,score,team)", count: 2))
            #expect(
                try regions(Player.filter(key: 1).including(all: awards)) == Array(repeating: all + "[1]", count: 2))
            // Nothing to prefetch: no prefetched table.
            #expect(try regions(Player.none().including(all: awards)) == ["empty", "empty"])
            #expect(
                try regions(Player.including(all: awards.none()))
                    == Array(repeating: "player(id,name,score,team)", count: 2))
            // A raw statement of the same SQL is not narrowed.
            _ = try regions(Player.filter(key: 1))
            let statement = try db.cachedStatement(sql: #"SELECT * FROM "player" WHERE "id" = ?"#)
            #expect(statement.databaseRegion.description == "player(id,name,score,team)")
        }
    }

    @Test func joinedTablesAreNotNarrowed() throws {
        try dbQueue.write { db throws in
            try db.execute(sql: "CREATE TABLE award (id INTEGER PRIMARY KEY, playerId INTEGER REFERENCES player(id))")
        }
        struct Award: TableRecord {
            static let player = belongsTo(Player.self)
        }
        #expect(try region(Award.filter(key: 1).including(required: Award.player.filter(key: 2)))
            == "award(id,playerId)[1],player(id,name,score,team)")
    }
}
