import GRDBLite
import Testing

private typealias Player = QueryInterfaceFixtures.Player

/// Selections and expressions: `.allColumns(excluding:)`, values as
/// expressions, `cast`, detached columns, raw-value column enums.
@Suite struct SQLSelectionTests {
    let dbQueue: DatabaseQueue

    init() throws {
        dbQueue = try QueryInterfaceFixtures.makeDatabase()
    }

    private struct RestrictedPlayer: TableRecord, FetchableRecord, Decodable {
        static let databaseTableName = "player"
        static var databaseSelection: [any SQLSelectable] { [.allColumns(excluding: ["SCORE", "team"])] }
        var id: Int64
        var name: String
    }

    private struct Team: TableRecord {
        static let players = hasMany(RestrictedPlayer.self, using: ForeignKey(["team"], to: ["name"]))
    }

    @Test func allColumnsExcluding() throws {
        try dbQueue.read { db throws in
            #expect(try sqlAndArguments(db, RestrictedPlayer.all()).sql == #"SELECT "id", "name" FROM "player""#)
            #expect(try RestrictedPlayer.fetchAll(db).map(\.name).first == "Arthur")
            #expect(try RestrictedPlayer.fetchOne(db, key: 2)?.name == "Barbara")
            #expect(try RestrictedPlayer.fetchCount(db) == 5)
            #expect(try RestrictedPlayer.all().fetchCount(db) == 5)
            // Nothing excluded: `*`.
            let all = Player.select(.allColumns(excluding: ["unknown"]))
            #expect(try sqlAndArguments(db, all).sql == #"SELECT * FROM "player""#)
            // Columns as well as names.
            let columns = Player.select(.allColumns(excluding: [Column("id"), Column("team")]))
            #expect(try sqlAndArguments(db, columns).sql == #"SELECT "name", "score" FROM "player""#)
            #expect(try Row.fetchOne(db, columns.filter(Column("id") == 1)) == ["name": "Arthur", "score": 100])
            // Qualified when the request joins tables, and counted as the
            // columns it selects.
            let joined = Player.select(AllColumnsExcluding(["score"]))
                .including(required: Player.belongsTo(RestrictedPlayer.self, using: ForeignKey(["id"])).forKey("other"))
            #expect(try sqlAndArguments(db, joined).sql == """
                SELECT "player1"."id", "player1"."name", "player1"."team", "player2"."id", "player2"."name" \
                FROM "player" "player1" JOIN "player" "player2" ON "player2"."id" = "player1"."id"
                """)
            let row = try #require(try Row.fetchOne(db, joined))
            #expect(row.count == 3)
            #expect(row.scopes["other"] == ["id": 1, "name": "Arthur"])
        }
    }

    @Test func allColumnsExcludingInLiteralNeedsATable() throws {
        _ = try dbQueue.read { db throws in
            #expect(throws: DatabaseError.self) { _ = try SQL("SELECT \(.allColumns(excluding: ["id"]))").build(db) }
        }
    }

    @Test func valuesAreExpressions() throws {
        try dbQueue.read { db throws in
            let request = Player.select(true.databaseValue.forKey("t"), 1.databaseValue)
                .filter(true.databaseValue)
                .order("b".databaseValue.collating(.nocase))
            let (sql, arguments) = try sqlAndArguments(db, request)
            #expect(sql == #"SELECT ? AS "t", ? FROM "player" WHERE ? ORDER BY ? COLLATE NOCASE"#)
            #expect(arguments == [true, 1, true, "b"])
            let sum = [1.databaseValue, Column("score"), 2.databaseValue].joined(operator: .add)
            #expect(try sqlAndArguments(db, Player.select(sum)).sql == #"SELECT ? + "score" + ? FROM "player""#)
        }
    }

    @Test func castExpressions() throws {
        try dbQueue.read { db throws in
            let request = Player.select(cast(Column("score"), as: .text)).filter(Column("id") == 1)
            #expect(
                try sqlAndArguments(db, request).sql == #"SELECT CAST("score" AS TEXT) FROM "player" WHERE "id" = ?"#)
            #expect(try String.fetchOne(db, request) == "100")
            let aggregate = Player.select(cast(max(Column("score")), as: .real))
            #expect(try Double.fetchOne(db, aggregate) == 1000.0)
            #expect(try sqlAndArguments(db, aggregate, singleResult: true).sql.hasSuffix("LIMIT 1") == false)
        }
    }

    @Test func detachedColumnsAreNeverQualified() throws {
        try dbQueue.read { db throws in
            let request = Player.annotated(with: Column("name").forKey("alt"))
                .filter(Column("alt").detached == "Arthur")
            #expect(try request.fetchCount(db) == 1)
            let sql = try sqlAndArguments(db, request.aliased(TableAlias(name: "p"))).sql
            #expect(sql == #"SELECT "p".*, "p"."name" AS "alt" FROM "player" "p" WHERE ("alt") = ?"#)
        }
    }

    private struct Parent: TableRecord { }
    private struct Child: TableRecord {
        static let parent = belongsTo(Parent.self, using: ForeignKey(["parentA", "parentB"]))
    }

    @Test func aliasExistsWithCompoundPrimaryKey() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db throws in
            try db.execute(sql: """
                CREATE TABLE parent (a, b, PRIMARY KEY (a, b)) WITHOUT ROWID;
                CREATE TABLE child (id INTEGER PRIMARY KEY, parentA, parentB);
                INSERT INTO parent VALUES (1, 2);
                INSERT INTO child VALUES (1, 1, 2), (2, 3, 4);
                """)
            let alias = TableAlias<Parent>()
            let orphans = Child.joining(optional: Child.parent.aliased(alias)).filter(!alias.exists)
            #expect(try sqlAndArguments(db, orphans).sql == """
                SELECT "child".* FROM "child" \
                LEFT JOIN "parent" ON ("parent"."a" = "child"."parentA") AND ("parent"."b" = "child"."parentB") \
                WHERE ("parent"."a" IS NULL) AND ("parent"."b" IS NULL)
                """)
            #expect(try Int64.fetchAll(db, orphans.select(Column("id"), as: Int64.self)) == [2])
            let adopted = Child.joining(optional: Child.parent.aliased(alias)).filter(alias.exists)
            #expect(try Int64.fetchAll(db, adopted.select(Column("id"), as: Int64.self)) == [1])
        }
    }

    @Test func rawValueColumns() throws {
        enum Columns: String, ColumnExpression { case id, name }
        try dbQueue.read { db throws in
            let request = Player.select(Columns.name).filter(Columns.id == 2)
            #expect(try sqlAndArguments(db, request).sql == #"SELECT "name" FROM "player" WHERE "id" = ?"#)
            #expect(try String.fetchOne(db, request) == "Barbara")
        }
    }
}
