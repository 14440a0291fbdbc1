import Foundation
@_spi(GRDBLite) @testable import GRDBLite
import Testing

// SQLite compares identifiers (tables, columns, savepoints, collations...)
// case-insensitively for the ASCII letters only: `Player` and `player` name
// one table, `É` and `é` name two. GRDBLite follows the same rule
// everywhere: introspection and its cache, row lookups, persistence
// containers, regions, collations, and the type affinity of primary keys.

@Suite struct CaseInsensitiveIdentifierTests {
    @Test func keepsHowItWasWritten() {
        #expect(CaseInsensitiveIdentifier("tableName").rawValue == "tableName")
    }

    @Test(arguments: [
        ("tableName", "tableName", true),
        ("tableName", "tablename", true),
        ("tableName", "TABLENAME", true),
        ("tableName", "foo", false),
        ("tableName", "tableName2", false),
        ("", "", true),
        ("", "a", false),
        ("É", "é", false),
        ("É", "É", true),
        ("Ärger", "äRGER", false),
        ("ärger", "äRGER", true),
        // Unicode folds these, SQLite doesn't.
        ("ſum", "SUM", false),
        ("ınteger", "INTEGER", false),
        ("STRASSE", "straße", false),
        // Not letters: `@` is 0x40, `[` is 0x5B, next to A-Z.
        ("@", "`", false),
        ("[", "{", false),
    ])
    func equality(lhs: String, rhs: String, equal: Bool) {
        let lhs = CaseInsensitiveIdentifier(lhs)
        let rhs = CaseInsensitiveIdentifier(rhs)
        #expect((lhs == rhs) == equal)
        #expect((rhs == lhs) == equal)
        if equal {
            #expect(lhs.hashValue == rhs.hashValue)
            #expect(!(lhs < rhs) && !(rhs < lhs))
        } else {
            #expect((lhs < rhs) != (rhs < lhs))
        }
    }

    /// Identifiers that match hash alike, whatever their length (the hash
    /// folds bytes eight to a word); the length tells "a" from "a\0".
    @Test(arguments: ["", "a", "playerID", "playerIDs", "aVeryLongTableNameOfSeventeen", "Éclair"])
    func matchingIdentifiersHashAlike(name: String) {
        let lower = CaseInsensitiveIdentifier(name.lowercased())
        let upper = CaseInsensitiveIdentifier(name.uppercased())
        let same = CaseInsensitiveIdentifier(name)
        #expect(same.hashValue == CaseInsensitiveIdentifier(String(name)).hashValue)
        if name.allSatisfy(\.isASCII) {
            #expect(lower == upper)
            #expect(lower.hashValue == upper.hashValue)
        }
        let padded = CaseInsensitiveIdentifier(name + "\0")
        #expect(padded != same)
        #expect(Set([padded, same, lower, upper]).contains(same))
        #expect(padded.hashValue != same.hashValue)
    }

    @Test func setAndDictionary() {
        let names = ["", "a", "A", "id", "ID", "É", "é", "score", "Score", "tablename", "tableName"]
        #expect(Set(names.map(CaseInsensitiveIdentifier.init)).count == 7)
        let dictionary = [CaseInsensitiveIdentifier("foo"): 1, CaseInsensitiveIdentifier("é"): 2]
        #expect(dictionary[CaseInsensitiveIdentifier("FOO")] == 1)
        #expect(dictionary[CaseInsensitiveIdentifier("é")] == 2)
        #expect(dictionary[CaseInsensitiveIdentifier("É")] == nil)
    }

    // MARK: - The rule, from tables to records

    /// Tables `É` and `é` (two tables), `player` (one table, whatever its
    /// case), with columns `É` and `é` (two columns).
    private func makeDatabase() throws -> DatabaseQueue {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db throws in
            try db.execute(sql: """
                CREATE TABLE "É" (id INTEGER PRIMARY KEY, upper);
                CREATE TABLE "é" (code TEXT PRIMARY KEY, lower);
                CREATE TABLE player (id INTEGER PRIMARY KEY, "É" UNIQUE, "é", Name);
                """)
        }
        return dbQueue
    }

    @Test func sqliteAgrees() throws {
        let dbQueue = try makeDatabase()
        try dbQueue.write { db throws in
            #expect(throws: DatabaseError.self) { try db.execute(sql: "CREATE TABLE Player (id)") }
            #expect(throws: DatabaseError.self) { try db.execute(sql: #"CREATE TABLE t ("Name", "NAME")"#) }
            try db.execute(sql: #"CREATE TABLE t ("Ä", "ä")"#)
        }
    }

    @Test func introspectionTellsNonASCIICasesApart() throws {
        let dbQueue = try makeDatabase()
        try dbQueue.read { db throws in
            // The same order twice: the second round reads the cache.
            for _ in 0..<2 {
                #expect(try db.columns(in: "É").map(\.name) == ["id", "upper"])
                #expect(try db.columns(in: "é").map(\.name) == ["code", "lower"])
                #expect(try db.primaryKey("É").columns == ["id"])
                #expect(try db.primaryKey("é").columns == ["code"])
                #expect(try db.tableExists("É"))
                #expect(try db.tableExists("é"))
                #expect(try !db.tableExists("Ê"))
            }
        }
    }

    @Test func introspectionFoldsASCIICases() throws {
        let dbQueue = try makeDatabase()
        try dbQueue.read { db throws in
            #expect(try db.columns(in: "player").count == 4)
            #expect(try db.columns(in: "PLAYER").count == 4)
            #expect(try db.primaryKey("Player").columns == ["id"])
            #expect(try db.tableExists("PlAyEr"))
            #expect(try db.tableExists("player", in: "MAIN"))
        }
    }

    @Test func uniqueKeysTellNonASCIICasesApart() throws {
        let dbQueue = try makeDatabase()
        try dbQueue.read { db throws in
            #expect(try db.table("player", hasUniqueKey: ["É"]))
            #expect(try !db.table("player", hasUniqueKey: ["é"]))
            #expect(try db.table("PLAYER", hasUniqueKey: ["ID"]))
        }
    }

    @Test func integerPrimaryKeyIsASCIICaseInsensitive() throws {
        // `ınteger` (dotless i) uppercases to INTEGER in Unicode, but is not
        // INTEGER for SQLite: the column is not an alias of the rowid.
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db throws in
            try db.execute(sql: """
                CREATE TABLE dotless (id ınteger PRIMARY KEY, v);
                CREATE TABLE lower (id integer PRIMARY KEY, v);
                INSERT INTO dotless (v) VALUES (1);
                INSERT INTO lower (v) VALUES (1);
                """)
            #expect(try Int64?.fetchOne(db, sql: "SELECT id FROM dotless") == .some(nil))
            #expect(try Int64?.fetchOne(db, sql: "SELECT id FROM lower") == 1)
            #expect(try db.primaryKey("dotless").rowIDColumn == nil)
            #expect(try db.primaryKey("lower").rowIDColumn == "id")
        }
    }

    @Test func rowsTellNonASCIICasesApart() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.read { db throws in
            let sql = #"SELECT 1 AS "É", 2 AS "é", 3 AS Name"#
            // A copied row, then the rows of a cursor.
            let row = try #require(try Row.fetchOne(db, sql: sql))
            #expect(row["é"] as Int == 2)
            #expect(row["É"] as Int == 1)
            #expect(row["NAME"] as Int == 3)
            #expect(!row.hasColumn("Ê"))
            let cursor = try Row.fetchCursor(db, sql: sql)
            while let row = try cursor.next() {
                #expect(row["é"] as Int == 2)
                #expect(row["É"] as Int == 1)
                #expect(row["name"] as Int == 3)
            }
            let statement = try db.makeStatement(sql: sql)
            #expect(statement.index(ofColumn: "é") == 1)
            #expect(statement.index(ofColumn: "nAmE") == 2)
        }
    }

    private struct Accent: Codable, FetchableRecord, MutablePersistableRecord, Equatable {
        static let databaseTableName = "player"
        var id: Int64
        var upper: String
        var lower: String

        enum CodingKeys: String, CodingKey {
            case id
            case upper = "É"
            case lower = "é"
        }
    }

    @Test func recordsTellNonASCIICasesApart() throws {
        let dbQueue = try makeDatabase()
        try dbQueue.write { db throws in
            var record = Accent(id: 1, upper: "upper", lower: "lower")
            try record.insert(db)
            #expect(try Accent.fetchOne(db, key: 1) == record)
            #expect(try Row.fetchOne(db, sql: #"SELECT "É", "é" FROM player"#) == ["É": "upper", "é": "lower"])

            // Only é is updated.
            record.upper = "UPPER"
            record.lower = "LOWER"
            try record.update(db, columns: ["é"])
            #expect(try Accent.fetchOne(db, key: 1) == Accent(id: 1, upper: "upper", lower: "LOWER"))

            var container = try PersistenceContainer(record)
            #expect(container.count == 3)
            container["NAME"] = "n1"
            container["name"] = "n2"
            #expect(container.count == 4)
            #expect(container["Name"] as String? == "n2")
            #expect(container["É"] as String? == "UPPER")
            #expect(container["é"] as String? == "LOWER")
        }
    }

    @Test func regionsTellNonASCIICasesApart() {
        #expect(DatabaseRegion(table: "É") != DatabaseRegion(table: "é"))
        #expect(DatabaseRegion(table: "Player") == DatabaseRegion(table: "player"))
        #expect(DatabaseRegion(table: "player", columns: ["É"]) != DatabaseRegion(table: "player", columns: ["é"]))
        #expect(
            DatabaseRegion(table: "player", columns: ["Name"]) == DatabaseRegion(table: "PLAYER", columns: ["name"]))
        #expect(DatabaseRegion(table: "É").union(DatabaseRegion(table: "é")).description == "É(*),é(*)")
    }

    @Test func collationsTellNonASCIICasesApart() throws {
        let upper = DatabaseCollation("É") { $0.compare($1) }
        let lower = DatabaseCollation("é") { _, _ in .orderedSame }
        #expect(upper.id != lower.id)
        #expect(DatabaseCollation("Foo") { $0.compare($1) }.id == DatabaseCollation("foo") { $0.compare($1) }.id)
        #expect(Set([upper.id, lower.id]).count == 2)

        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db throws in
            db.add(collation: upper)
            db.add(collation: lower)
            db.remove(collation: lower)
            // The collation É is still there.
            #expect(try Bool.fetchOne(db, sql: #"SELECT 'a' = 'b' COLLATE "É""#) == false)
            #expect(throws: DatabaseError.self) { try db.execute(sql: #"SELECT 'a' = 'b' COLLATE "é""#) }
        }
    }

    @Test func savepointsFoldASCIICasesOnly() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.writeWithoutTransaction { db throws in
            try db.execute(sql: "CREATE TABLE t (id INTEGER PRIMARY KEY)")
            try db.execute(sql: #"SAVEPOINT "É""#)
            #expect(throws: DatabaseError.self) { try db.execute(sql: #"RELEASE "é""#) }
            try db.execute(sql: "SAVEPOINT Sp")
            try db.execute(sql: "INSERT INTO t DEFAULT VALUES")
            try db.execute(sql: "ROLLBACK TO sP")
            try db.execute(sql: "RELEASE SP")
            #expect(db.savepointNames == [CaseInsensitiveIdentifier("É")])
            try db.execute(sql: #"RELEASE "É""#)
            #expect(db.savepointNames.isEmpty)
            #expect(!db.isInsideTransaction)
            #expect(try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM t") == 0)
        }
    }
}
