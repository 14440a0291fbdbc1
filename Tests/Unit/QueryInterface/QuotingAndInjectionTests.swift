import GRDBLite
import Testing

private typealias Player = QueryInterfaceFixtures.Player

/// Identifiers are always quoted, and values are always bound.
@Suite struct QuotingAndInjectionTests {
    static let injections = [
        "x' OR 1=1 --",
        "x\" OR 1=1 --",
        "'; DROP TABLE player; --",
        "\"); DELETE FROM player; --",
        "%' OR name LIKE '%",
        "?",
        ":name",
    ]

    @Test(arguments: injections)
    func valuesAreBound(_ value: String) throws {
        let dbQueue = try QueryInterfaceFixtures.makeDatabase()
        try dbQueue.write { db throws in
            let request = Player.filter { $0.name == value || $0.team.like(value) }
            let (sql, arguments) = try sqlAndArguments(db, request)
            #expect(sql == #"SELECT * FROM "player" WHERE ("name" = ?) OR ("team" LIKE ?)"#)
            #expect(arguments == [value, value])
            #expect(try request.fetchAll(db).isEmpty)

            let sqlText = try recordedSQL(db) {
                try Player.filter(key: 1).updateAll(db) { $0.name.set(to: value) }
                try Player.filter { $0.name == value }.deleteAll(db)
            }
            #expect(sqlText == [
                #"UPDATE "player" SET "name" = ? WHERE "id" = ?"#,
                #"DELETE FROM "player" WHERE "name" = ?"#,
            ])
            if value != "?" {
                #expect(sqlText.allSatisfy { !$0.contains(value) })
            }
            #expect(try Player.fetchCount(db) == 4)
        }
    }

    @Test func identifiersWithSpacesQuotesAndNonASCIICharacters() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db throws in
            try db.execute(sql: #"""
                CREATE TABLE "my ""table""" ("first name" TEXT, "naïve" INTEGER, "日本" TEXT, "select" TEXT);
                INSERT INTO "my ""table""" VALUES ('Arthur', 1, 'a', 'x'), ('Barbara', 2, 'b', 'y');
                """#)
            let table = Table(#"my "table""#)
            let request = table
                .select(Column("first name"), Column("日本").forKey(#"alias "quoted""#))
                .filter(Column("naïve") > 1 && Column("select") == "y")
                .order(Column("first name").desc)
            let (sql, arguments) = try sqlAndArguments(db, request)
            #expect(sql == #"""
                SELECT "first name", "日本" AS "alias ""quoted""" FROM "my ""table""" \#
                WHERE ("naïve" > ?) AND ("select" = ?) ORDER BY "first name" DESC
                """#)
            #expect(arguments == [1, "y"])
            #expect(try request.fetchAll(db) == [["first name": "Barbara", #"alias "quoted""#: "b"]])

            let alias = TableAlias(name: #"t "1""#)
            let aliased = table.aliased(alias).select(alias[Column("first name")]).filter(key: 1)
            #expect(try sqlAndArguments(db, aliased).sql == #"""
                SELECT "t ""1"""."first name" FROM "my ""table""" "t ""1""" WHERE "t ""1"""."rowid" = ?
                """#)
            #expect(try aliased.fetchOne(db) == ["first name": "Arthur"])

            #expect(try table.filter(Column("naïve") == 2).updateAll(db, Column("first name").set(to: "Bob")) == 1)
            #expect(try table.filter(Column("first name") == "Bob").deleteAll(db) == 1)
            #expect(try table.fetchCount(db) == 1)
        }
    }

    @Test func maliciousIdentifiersAreJustUnknownNames() throws {
        let dbQueue = try QueryInterfaceFixtures.makeDatabase()
        try dbQueue.write { db throws in
            let column = Column(#"name" FROM player; DELETE FROM player; --"#)
            let error = try #require(throws: DatabaseError.self) {
                try Player.select(column).filter(column == 1).fetchAll(db)
            }
            #expect(error.resultCode == .SQLITE_ERROR)
            #expect(
                error.message == noSuchColumnMessage(#"name" FROM player; DELETE FROM player; --"#, doubleQuoted: true))
            #expect(
                error.sql
                    == #"SELECT "name"" FROM player; DELETE FROM player; --" FROM "player" WHERE "name"" FROM player; DELETE FROM player; --" = ?"#
            )

            #expect(throws: DatabaseError.self) {
                try Table(#"player"; DROP TABLE player; --"#).fetchCount(db)
            }
            #expect(throws: DatabaseError.self) {
                try Player.order(Column("id; DROP TABLE player")).fetchAll(db)
            }
            #expect(try Player.fetchCount(db) == 5)

            // Names of selected expressions are quoted too.
            let row = try #require(
                try Player.select(Column("id").forKey("x\" FROM player; --"), as: Row.self).filter(key: 1).fetchOne(db))
            #expect(row == ["x\" FROM player; --": 1])
        }
    }

    @Test func collationNamesAreQuotedWhenNeeded() throws {
        let dbQueue = try QueryInterfaceFixtures.makeDatabase()
        try dbQueue.write { db throws in
            let collation = DatabaseCollation("by length; --") { lhs, rhs in
                lhs.count < rhs.count ? .orderedAscending : lhs.count > rhs.count ? .orderedDescending : .orderedSame
            }
            db.add(collation: collation)
            let request = Player.order { [$0.name.collating(collation), $0.id] }.select(\.name, as: String.self)
            #expect(try sqlAndArguments(db, request).sql
                == #"SELECT "name" FROM "player" ORDER BY "name" COLLATE "by length; --", "id""#)
            #expect(try request.fetchAll(db) == ["Craig", "David", "Arthur", "Élodie", "Barbara"])
        }
    }
}
