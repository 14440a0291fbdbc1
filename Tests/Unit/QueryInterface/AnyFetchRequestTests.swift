import GRDBLite
import Testing

private typealias Player = QueryInterfaceFixtures.Player

@Suite struct AnyFetchRequestTests {
    @Test func erasedRequests() throws {
        let dbQueue = try QueryInterfaceFixtures.makeDatabase()
        try dbQueue.read { db throws in
            let requests: [AnyFetchRequest<Player>] = [
                AnyFetchRequest(Player.filter(keys: [1, 2])),
                AnyFetchRequest(SQLRequest<Player>(sql: "SELECT * FROM player WHERE id IN (1, 2)")),
            ]
            for request in requests {
                #expect(try request.fetchAll(db).map(\.name) == ["Arthur", "Barbara"])
                #expect(try request.fetchCount(db) == 2)
                #expect(try request.asRequest(of: Row.self).fetchOne(db)?["name"] == "Arthur")
            }
            // The region keeps the row ids of the base request, adapted too.
            let request = Player.filter(keys: [1, 2])
            #expect(try AnyFetchRequest(request).databaseRegion(db).description == "player(id,name,score,team)[1,2]")
            #expect(try request.adapted { _ in SuffixRowAdapter(fromIndex: 1) }.databaseRegion(db).description
                == "player(id,name,score,team)[1,2]")
            #expect(try requests[1].databaseRegion(db).description == "player(id,name,score,team)")
        }
    }
}
