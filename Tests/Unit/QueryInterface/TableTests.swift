import GRDBLite
import Testing

private typealias Player = QueryInterfaceFixtures.Player

@Suite struct TableTests {
    let dbQueue: DatabaseQueue

    init() throws {
        dbQueue = try QueryInterfaceFixtures.makeDatabase()
    }

    @Test func tableOfRows() throws {
        try dbQueue.read { db throws in
            let table = Table("player")
            #expect(table.tableName == "player")
            #expect(try sqlAndArguments(db, table.all()).sql == #"SELECT * FROM "player""#)
            #expect(try table.fetchCount(db) == 5)
            #expect(try table.fetchAll(db).count == 5)
            #expect(try table.fetchSet(db).count == 5)
            #expect(try table.fetchCursor(db).next() != nil)
            #expect(try table.fetchOne(db) == table.order(Column("id")).fetchOne(db))

            let rows = try table.filter(Column("score") > 500).order(Column("id")).fetchAll(db)
            #expect(rows.map { $0["name"] as String } == ["Barbara", "Élodie"])
            #expect(try table.filter(key: 4).fetchOne(db).map { $0["name"] as String } == "David")
            #expect(try table.filter(keys: [1, 2]).fetchCount(db) == 2)
            #expect(try table.filter(key: ["name": "Craig"]).fetchOne(db).map { $0["id"] as Int64 } == 3)
            #expect(try table.filter(keys: [["name": "Craig"], ["name": "David"]]).fetchCount(db) == 2)
            #expect(try table.filter(sql: "team = ?", arguments: ["red"]).fetchCount(db) == 2)
            #expect(try table.filter(literal: "team = \("blue")").fetchCount(db) == 2)
            #expect(try table.none().fetchCount(db) == 0)
            #expect(try table.limit(2).fetchCount(db) == 2)
            #expect(try table.orderByPrimaryKey().fetchOne(db).map { $0["id"] as Int64 } == 1)
            #expect(try table.order([Column("id").desc]).fetchOne(db).map { $0["id"] as Int64 } == 5)
            #expect(try table.annotated(with: Column("id").forKey("key")).fetchOne(db)?.hasColumn("key") == true)

            let names = table.select(Column("name"), as: String.self).order(Column("name"))
            #expect(try names.fetchAll(db).first == "Arthur")
            #expect(try table.select([Column("score")], as: Int?.self).fetchAll(db).count == 5)
            #expect(try table.select(Column("name")).fetchAll(db).first?.count == 1)
        }
    }

    @Test func tableOfRecords() throws {
        try dbQueue.read { db throws in
            let table = Table<Player>("player")
            #expect(try table.fetchAll(db) == QueryInterfaceFixtures.players)
            #expect(try table.fetchOne(db)?.id == 1)
            #expect(try table.fetchSet(db).count == 5)
            #expect(try table.fetchCursor(db).next()?.id == 1)
            #expect(try table.filter { $0.team == "red" }.fetchCount(db) == 2)
            #expect(try table.order(\.name).fetchAll(db).last?.name == "Élodie")
            #expect(try table.select { $0.name }.asRequest(of: String.self).fetchSet(db).count == 5)
            #expect(try table.filter(id: 2).fetchOne(db)?.name == "Barbara")
            #expect(try table.filter(ids: [2, 3]).fetchCount(db) == 2)
        }
    }

    @Test func tableOfValues() throws {
        try dbQueue.write { db throws in
            try db.execute(sql: "CREATE TEMP TABLE name (value TEXT); INSERT INTO name VALUES ('a'), ('b'), ('a')")
            let fast = Table<String>("name")
            #expect(try fast.fetchAll(db) == ["a", "b", "a"])
            #expect(try fast.fetchSet(db) == ["a", "b"])
            #expect(try fast.fetchOne(db) == "a")
            #expect(try fast.fetchCursor(db).next() == "a")

            let values = Table<DatabaseValue>("name")
            #expect(try values.fetchAll(db).count == 3)
            #expect(try values.fetchSet(db).count == 2)
            #expect(try values.fetchOne(db) == "a".databaseValue)
            #expect(try values.fetchCursor(db).next() == "a".databaseValue)
        }
    }

    @Test func selectingSQL() throws {
        try dbQueue.read { db throws in
            let table = Table("player")
            let (sql, arguments) = try sqlAndArguments(db, table.select(sql: "id, ?", arguments: ["O'Brien"]))
            #expect(sql == #"SELECT id, ? FROM "player""#)
            #expect(arguments == ["O'Brien"])
            #expect(try sqlAndArguments(db, table.select(literal: "id, \(1)")).sql == #"SELECT id, ? FROM "player""#)
            #expect(try table.filter(key: 2).select(sql: "name", as: String.self).fetchOne(db) == "Barbara")
            #expect(try table.filter(key: 3).select(literal: "name", as: String.self).fetchOne(db) == "Craig")
        }
    }

    @Test func selectingThePrimaryKey() throws {
        try dbQueue.read { db throws in
            let table = Table("player")
            #expect(
                try table.selectPrimaryKey(as: Int64.self).fetchAll(db)
                    == table.select(Column("id"), as: Int64.self).fetchAll(db))
            #expect(try table.selectPrimaryKey(as: Row.self).fetchOne(db) == ["id": 1])
            #expect(
                try sqlAndArguments(db, table.selectPrimaryKey(as: Int64.self)).sql == #"SELECT "id" FROM "player""#)
            struct Player: Identifiable { var id: Int64 }
            #expect(try Table<Player>("player").selectID().fetchOne(db) == 1)
        }
    }

    @Test func orderingAndAnnotatingWithSQL() throws {
        try dbQueue.read { db throws in
            let table = Table("player")
            let (sql, arguments) = try sqlAndArguments(db, table.order(sql: "IFNULL(score, ?) DESC", arguments: [0]))
            #expect(sql == #"SELECT * FROM "player" ORDER BY IFNULL(score, ?) DESC"#)
            #expect(arguments == [0])
            #expect(
                try sqlAndArguments(db, table.order(literal: "name")).sql == #"SELECT * FROM "player" ORDER BY name"#)
            #expect(
                try sqlAndArguments(db, table.annotated(with: [Column.rowID])).sql
                    == #"SELECT *, "rowid" FROM "player""#)
        }
    }

    @Test func batchOperations() throws {
        try dbQueue.write { db throws in
            let table = Table("player")
            #expect(try table.updateAll(db, Column("team").set(to: "green")) == 5)
            #expect(try table.updateAll(db, [Column("score") += 1]) == 5)
            #expect(try table.filter(key: 1).deleteAll(db) == 1)
            #expect(try table.deleteAll(db) == 4)
        }
    }

    @Test func keys() throws {
        try dbQueue.write { db throws in
            let table = Table<Void>("player")
            let sql = try recordedSQL(db) { () throws in
                #expect(try table.exists(db, key: 1))
                #expect(try !table.exists(db, key: 42))
                #expect(try !table.exists(db, key: nil as Int?))
                #expect(try table.exists(db, key: ["name": "Craig"]))
                #expect(try table.deleteOne(db, key: 1))
                #expect(try !table.deleteOne(db, key: 1))
                #expect(try table.deleteOne(db, key: ["name": "Craig"]))
                #expect(try table.deleteAll(db, keys: [2, 4, 42]) == 2)
                #expect(try table.deleteAll(db, keys: [["name": "Élodie"]]) == 1)
                #expect(try table.deleteAll(db, keys: [Int]()) == 0)
            }
            // No statement for a nil key, nor for no key.
            #expect(sql.filter { !$0.hasPrefix("PRAGMA") } == [
                #"SELECT EXISTS (SELECT * FROM "player" WHERE "id" = ?)"#,
                #"SELECT EXISTS (SELECT * FROM "player" WHERE "id" = ?)"#,
                #"SELECT EXISTS (SELECT * FROM "player" WHERE "name" = ?)"#,
                #"DELETE FROM "player" WHERE "id" = ?"#,
                #"DELETE FROM "player" WHERE "id" = ?"#,
                #"DELETE FROM "player" WHERE "name" = ?"#,
                #"DELETE FROM "player" WHERE "id" IN (?, ?, ?)"#,
                #"DELETE FROM "player" WHERE "name" = ?"#,
            ])
            #expect(try table.fetchCount(db) == 0)
        }
    }

    @Test func identifiableKeys() throws {
        try dbQueue.write { db throws in
            let table = Table<Player>("player")
            #expect(try table.exists(db, id: 2))
            #expect(try table.deleteOne(db, id: 2))
            #expect(try !table.exists(db, id: 2))
            #expect(try table.deleteAll(db, ids: [1, 3]) == 2)
            #expect(try table.fetchCount(db) == 2)
        }
    }

    @Test func updatesWithClosures() throws {
        try dbQueue.write { db throws in
            let table = Table<Player>("player")
            let sql = try recordedSQL(db) { () throws in
                #expect(try table.updateAll(db) { $0.score.set(to: 0) } == 5)
                #expect(try table.updateAll(db, onConflict: .ignore) { [$0.score += 1, $0.team.set(to: nil)] } == 5)
            }
            #expect(sql == [
                #"UPDATE "player" SET "score" = ?"#,
                #"UPDATE OR IGNORE "player" SET "score" = "score" + ?, "team" = ?"#,
            ])
            #expect(try Int.fetchAll(db, sql: "SELECT DISTINCT score FROM player") == [1])
        }
    }
}
