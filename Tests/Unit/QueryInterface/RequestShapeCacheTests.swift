@testable import GRDBLite
import Testing

/// Query interface requests reuse the statement of their shape
/// (`RequestShapeCache`): requests that differ only in their values share
/// one entry, and bind their own values; requests whose SQL differs never
/// share one.
@Suite struct RequestShapeCacheTests {
    private typealias Player = QueryInterfaceFixtures.Player
    private typealias Columns = Player.Columns

    private func shapeCount(_ db: Database) -> Int {
        db.cache(RequestShapeCache.self).count
    }

    @Test func requestsThatDifferOnlyInValuesShareOneEntry() throws {
        try QueryInterfaceFixtures.makeDatabase().write { (db: Database) throws in
            #expect(try Player.fetchOne(db, key: 1)?.name == "Arthur")
            #expect(try Player.fetchOne(db, key: 4)?.name == "David")
            #expect(try Player.fetchOne(db, key: 9) == nil)
            #expect(try Player.filter(key: 2).fetchOne(db)?.name == "Barbara")
            #expect(shapeCount(db) == 1)

            func page(_ score: Int, _ name: String, limit: Int, offset: Int) throws -> [String] {
                try Player.filter(Columns.score >= score && Columns.name != name)
                    .order(Columns.score.desc, Columns.name)
                    .limit(limit, offset: offset)
                    .fetchAll(db).map(\.name)
            }
            #expect(try page(100, "Barbara", limit: 2, offset: 0) == ["Élodie", "David"])
            #expect(try page(500, "David", limit: 1, offset: 1) == ["Élodie"])
            #expect(try page(0, "x", limit: 3, offset: 1) == ["Élodie", "David", "Arthur"])
            #expect(shapeCount(db) == 2)

            let first = try sqlAndArguments(db, Player.filter(Columns.team == "red" && Columns.id > 1))
            let second = try sqlAndArguments(db, Player.filter(Columns.team == "blue" && Columns.id > 4))
            #expect(first.sql == second.sql)
            #expect(first.arguments == ["red", 1])
            #expect(second.arguments == ["blue", 4])
            #expect(shapeCount(db) == 3)
        }
    }

    @Test func requestsWhoseSQLDiffersDontShareAnEntry() throws {
        try QueryInterfaceFixtures.makeDatabase().write { (db: Database) throws in
            let requests: [(String, QueryInterfaceRequest<Player>)] = [
                ("gt", Player.filter(Columns.score > 500)),
                ("lt", Player.filter(Columns.score < 500)),
                ("column", Player.filter(Columns.id > 500)),
                ("not", Player.filter(!(Columns.score > 500))),
                ("is null", Player.filter(Columns.team == nil)),
                ("equal", Player.filter(Columns.team == "red")),
                ("collated", Player.filter(Columns.name.collating(.nocase) == "arthur")),
                ("in 2", Player.filter([1, 2].contains(Columns.id))),
                ("in 3", Player.filter([1, 2, 3].contains(Columns.id))),
                ("and", Player.filter(Columns.id > 1 && Columns.id < 4)),
                ("or", Player.filter(Columns.id > 1 || Columns.id < 4)),
                ("asc", Player.order(Columns.name)),
                ("desc", Player.order(Columns.name.desc)),
                ("reversed", Player.order(Columns.name.desc).reversed()),
                ("limit", Player.order(Columns.name).limit(2)),
                ("offset", Player.order(Columns.name).limit(2, offset: 1)),
                ("select", Player.select(Columns.name, Columns.id, Columns.score, Columns.team)),
                ("distinct", Player.all().distinct()),
                ("group", Player.all().group(Columns.team)),
                ("having", Player.all().group(Columns.team).having(count(Columns.score) > 1)),
                ("aliased", Player.select(Columns.name.forKey("id"), Columns.name, Columns.score, Columns.team)),
                ("function", Player.filter(length(Columns.name) > 5)),
                ("like", Player.filter(Columns.name.like("A%"))),
            ]
            var statements: [String: String] = [:]
            for (name, request) in requests {
                let sql = try sqlAndArguments(db, request).sql
                #expect(!statements.values.contains(sql), "\(name): \(sql)")
                statements[name] = sql
                // Fetched again, the request reuses its entry, and reads
                // what the SQL says.
                let expected = try Row.fetchAll(db, sql: sql, arguments: sqlAndArguments(db, request).arguments)
                #expect(try Row.fetchAll(db, request) == expected, "\(name)")
            }
            #expect(shapeCount(db) == requests.count)

            // `fetchOne` adds `LIMIT 1`, unless the filter is on a unique
            // key: another shape.
            let one = try sqlAndArguments(db, Player.filter(Columns.score > 500), singleResult: true)
            #expect(one.sql == #"SELECT * FROM "player" WHERE "score" > ? LIMIT 1"#)
            #expect(shapeCount(db) == requests.count + 1)
        }
    }

    @Test func theSchemaChangeAndClearSchemaCacheEmptyTheCache() throws {
        try QueryInterfaceFixtures.makeDatabase().write { (db: Database) throws in
            #expect(try Row.fetchOne(db, Player.filter(key: 1))?.count == 4)
            #expect(shapeCount(db) == 1)
            try db.execute(sql: "ALTER TABLE player ADD COLUMN rank INTEGER")
            #expect(shapeCount(db) == 0)
            #expect(try Row.fetchOne(db, Player.filter(key: 1))?.count == 5)
            #expect(shapeCount(db) == 1)
            db.clearSchemaCache()
            #expect(shapeCount(db) == 0)
        }
    }

    @Test func theLeastRecentlyUsedShapeGoesFirst() throws {
        try QueryInterfaceFixtures.makeDatabase().write { (db: Database) throws in
            func isCached(_ request: QueryInterfaceRequest<Player>) throws -> Bool {
                let shape = try #require(try request.relation.shape(db, forSingleResult: false))
                return db.cache(RequestShapeCache.self).contains(shape.key)
            }
            // Another column alias, another shape.
            let aliased = { (index: Int) in Player.select(Columns.id.forKey("c\(index)")) }
            let kept = Player.filter(Columns.name == "Arthur")
            _ = try kept.fetchAll(db)
            for index in 0..<RequestShapeCache.capacity {
                _ = try Row.fetchAll(db, aliased(index))
                _ = try kept.fetchAll(db)
            }
            #expect(shapeCount(db) == RequestShapeCache.capacity)
            #expect(try isCached(kept))
            #expect(try !isCached(aliased(0)))
            #expect(try isCached(aliased(1)))
        }
    }

    @Test func aRequestInsideTheIterationOfItsShapeUsesAnotherStatement() throws {
        try QueryInterfaceFixtures.makeDatabase().write { (db: Database) throws in
            let request = Player.filter(Columns.id > 0).order(Columns.id)
            let cursor = try request.fetchCursor(db)
            var nested: [[Int64]] = []
            var ids: [Int64] = []
            while let player = try cursor.next() {
                ids.append(player.id)
                nested.append(try Player.filter(Columns.id > player.id).order(Columns.id).fetchAll(db).map(\.id))
            }
            #expect(ids == [1, 2, 3, 4, 5])
            #expect(nested == [[2, 3, 4, 5], [3, 4, 5], [4, 5], [5], []])
        }
    }
}
