import Foundation
import GRDBLite
import Testing
import TestSupport

/// `dumpSQL`, `dumpRequest`, `dumpTables`, `dumpContent`, `dumpSchema`, on
/// connections and readers (after GRDB's DatabaseDumpTests).
@Suite struct DatabaseDumpTests {
    private struct Team: Codable, PersistableRecord, FetchableRecord {
        static let players = hasMany(Player.self)
        var id: String
        var name: String
    }

    private struct Player: Codable, PersistableRecord, FetchableRecord {
        static let team = belongsTo(Team.self)
        var id: Int
        var teamId: String?
        var name: String
    }

    private static func makeDatabase() throws -> DatabaseQueue {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db in
            try db.create(table: "team") { t in
                t.primaryKey("id", .text)
                t.column("name", .text).notNull()
            }
            try db.create(table: "player") { t in
                t.primaryKey("id", .integer)
                t.belongsTo("team")
                t.column("name", .text).notNull()
            }
            try Team(id: "RED", name: "Red").insert(db)
            try Team(id: "BLU", name: "Blue").insert(db)
            try Player(id: 2, teamId: "RED", name: "Bob").insert(db)
            try Player(id: 1, teamId: "BLU", name: "Ann").insert(db)
            try Player(id: 3, teamId: nil, name: "Cid").insert(db)
        }
        return dbQueue
    }

    private static func output(_ body: (DumpTestStream) throws -> Void) rethrows -> String {
        let stream = DumpTestStream()
        try body(stream)
        return stream.output
    }

    /// Found by Fuzz/DatabaseFile.swift: the dump of a damaged file whose
    /// schema holds invalid UTF-8 trapped; the SQL is printed repaired.
    @Test func dumpContentOfASchemaThatIsNotUTF8() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        try IntrospectionTests.makeDatabaseWithInvalidUTF8Schema(at: directory.path())
        let dbQueue = try DatabaseQueue(path: directory.path())
        let output = try Self.output { try dbQueue.dumpContent(to: $0) }
        #expect(output.contains("CREATE TABLE child(a \u{FFFD}, parentId REFERENCES parent(\u{FFFD}));"))
    }

    @Test func dumpSQLRunsEveryStatement() throws {
        let dbQueue = try DatabaseQueue()
        let output = try Self.output { stream in
            try dbQueue.dumpSQL("""
                CREATE TABLE t(a);
                INSERT INTO t VALUES (\(1)), (\("two"));
                SELECT * FROM t ORDER BY rowid;
                SELECT COUNT(*) FROM t;
                """, to: stream)
        }
        #expect(output == "1\ntwo\n2\n")
        #expect(try dbQueue.read { try Int.fetchOne($0, sql: "SELECT COUNT(*) FROM t") } == 2)
    }

    @Test func dumpSQLErrorStopsAtTheFailingStatement() throws {
        let dbQueue = try DatabaseQueue()
        let stream = DumpTestStream()
        let error = try #require(throws: DatabaseError.self) {
            try dbQueue.dumpSQL("SELECT 1; SELECT * FROM missing; SELECT 2", to: stream)
        }
        #expect(error.resultCode == .SQLITE_ERROR)
        #expect(error.message == "no such table: missing")
        #expect(stream.output == "1\n")
    }

    @Test func dumpRequest() throws {
        let dbQueue = try Self.makeDatabase()
        #expect(try Self.output { try dbQueue.dumpRequest(Player.orderByPrimaryKey(), to: $0) } == """
            1|BLU|Ann
            2|RED|Bob
            3||Cid

            """)
        let joined = Player.orderByPrimaryKey().including(required: Player.team)
        #expect(try Self.output { try dbQueue.dumpRequest(joined, format: .list(), to: $0) } == """
            1|BLU|Ann|BLU|Blue
            2|RED|Bob|RED|Red

            """)
    }

    @Test func dumpRequestPrintsPrefetchedAssociations() throws {
        let dbQueue = try Self.makeDatabase()
        let request = Team.orderByPrimaryKey().including(all: Team.players.orderByPrimaryKey())
        #expect(try Self.output { try dbQueue.dumpRequest(request, to: $0) } == """
            BLU|Blue
            RED|Red

            players
            1|BLU|Ann
            2|RED|Bob

            """)
    }

    @Test func dumpTables() throws {
        let dbQueue = try Self.makeDatabase()
        #expect(try Self.output { try dbQueue.dumpTables([], to: $0) } == "")
        #expect(try Self.output { try dbQueue.dumpTables(["team"], to: $0) } == "BLU|Blue\nRED|Red\n")
        #expect(
            try Self.output { try dbQueue.dumpTables(["team"], tableHeader: .always, to: $0) }
                == "team\nBLU|Blue\nRED|Red\n")
        #expect(try Self.output { try dbQueue.dumpTables(["team", "player"], format: .quote(), to: $0) } == """
            team
            'BLU','Blue'
            'RED','Red'

            player
            1,'BLU','Ann'
            2,'RED','Bob'
            3,NULL,'Cid'

            """)
    }

    @Test func dumpTablesOfViews() throws {
        let dbQueue = try Self.makeDatabase()
        try dbQueue.write { db in
            try db.execute(sql: "CREATE VIEW names AS SELECT name, teamId FROM player ORDER BY name DESC")
        }
        #expect(try Self.output { try dbQueue.dumpTables(["names"], to: $0) } == "Cid|\nBob|RED\nAnn|BLU\n")
        #expect(
            try Self.output { try dbQueue.dumpTables(["names"], stableOrder: true, to: $0) }
                == "Ann|BLU\nBob|RED\nCid|\n")
    }

    @Test func dumpTablesOfAMissingTableThrows() throws {
        let dbQueue = try Self.makeDatabase()
        let error = try #require(throws: DatabaseError.self) {
            try dbQueue.dumpTables(["missing"], to: DumpTestStream())
        }
        #expect(error.resultCode == .SQLITE_ERROR)
        #expect(error.message == "no such table: missing")
    }

    @Test func dumpSchema() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db in
            try db.execute(sql: """
                CREATE TABLE b(x);
                CREATE TABLE A(y);
                CREATE INDEX b_x ON b(x);
                CREATE VIEW c AS SELECT * FROM b;
                CREATE TABLE grdb_private(z);
                CREATE TABLE s(id INTEGER PRIMARY KEY AUTOINCREMENT);
                """)
        }
        #expect(try Self.output { try dbQueue.dumpSchema(to: $0) } == """
            sqlite_master
            CREATE TABLE A(y);
            CREATE TABLE b(x);
            CREATE INDEX b_x ON b(x);
            CREATE VIEW c AS SELECT * FROM b;
            CREATE TABLE s(id INTEGER PRIMARY KEY AUTOINCREMENT);

            """)
    }

    @Test func dumpContent() throws {
        let dbQueue = try Self.makeDatabase()
        #expect(try Self.output { try dbQueue.dumpContent(format: .json(), to: $0) } == """
            sqlite_master
            CREATE TABLE "player" ("id" INTEGER PRIMARY KEY, "teamId" TEXT REFERENCES "team"("id"), "name" TEXT NOT NULL);
            CREATE INDEX "player_on_teamId" ON "player"("teamId");
            CREATE TABLE "team" ("id" TEXT PRIMARY KEY NOT NULL, "name" TEXT NOT NULL);

            player
            [{"id":1,"teamId":"BLU","name":"Ann"},
            {"id":2,"teamId":"RED","name":"Bob"},
            {"id":3,"teamId":null,"name":"Cid"}]

            team
            [{"id":"BLU","name":"Blue"},
            {"id":"RED","name":"Red"}]

            """)
        #expect(try Self.output { try DatabaseQueue().dumpContent(to: $0) } == "sqlite_master\n")
    }

    @Test func shadowTablesAreLeftOut() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db in
            try db.execute(sql: "CREATE VIRTUAL TABLE ft USING fts4(body); INSERT INTO ft VALUES ('hello')")
        }
        #expect(try Self.output { try dbQueue.dumpContent(to: $0) } == """
            sqlite_master
            CREATE VIRTUAL TABLE ft USING fts4(body);

            ft
            hello

            """)
    }

    @Test func readersDumpInsideTheirOwnAccess() throws {
        let dbQueue = try Self.makeDatabase()
        let output = try dbQueue.write { db in
            try db.execute(sql: "DELETE FROM player")
            return try Self.output { try dbQueue.dumpTables(["player"], tableHeader: .always, to: $0) }
        }
        #expect(output == "player\n")
    }

    @Test func poolAndSnapshotDump() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let pool = try DatabasePool(path: directory.path())
        try pool.write { try $0.execute(sql: "CREATE TABLE t(a); INSERT INTO t VALUES (1)") }
        let snapshot = try pool.makeSnapshot()
        try pool.write { try $0.execute(sql: "INSERT INTO t VALUES (2)") }
        #expect(try Self.output { try pool.dumpSQL("SELECT a FROM t ORDER BY a", to: $0) } == "1\n2\n")
        #expect(try Self.output { try snapshot.dumpSQL("SELECT a FROM t ORDER BY a", to: $0) } == "1\n")
    }
}
