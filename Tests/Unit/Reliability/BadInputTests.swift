import Foundation
@_spi(GRDBLite) import GRDBLite
import Testing

/// Bad SQL, bad arguments and bad values: each is a typed error
/// (`DatabaseError`, `RowDecodingError`) that names what is wrong, and the
/// database is unchanged.
@Suite struct BadInputTests {
    private func makeDatabase() throws -> DatabaseQueue {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db in
            try db.execute(sql: """
                CREATE TABLE player (id INTEGER PRIMARY KEY, name TEXT NOT NULL, score REAL NOT NULL, avatar BLOB);
                INSERT INTO player (id, name, score) VALUES (1, 'Arthur', 100), (2, 'Barbara', 200);
                """)
        }
        return dbQueue
    }

    /// Everything in the database, to check that a failed write changed nothing.
    private func snapshot(_ dbQueue: DatabaseQueue) throws -> [Row] {
        try dbQueue.read { db throws in
            try Row.fetchAll(db, sql: "SELECT * FROM sqlite_master ORDER BY name")
                + Row.fetchAll(db, sql: "SELECT * FROM player ORDER BY id")
        }
    }

    /// Runs a write that must fail with a `DatabaseError`, and checks that
    /// the database did not change.
    private func failingWrite(
        _ dbQueue: DatabaseQueue,
        sourceLocation: SourceLocation = #_sourceLocation,
        _ updates: (Database) throws -> Void) throws -> DatabaseError?
    {
        let before = try snapshot(dbQueue)
        let error = databaseError({ try dbQueue.write(updates) }, sourceLocation: sourceLocation)
        #expect(try snapshot(dbQueue) == before, "the database changed", sourceLocation: sourceLocation)
        return error
    }

    // MARK: - SQL

    struct BadSQL: Sendable, CustomTestStringConvertible {
        var sql: String
        var code: ResultCode
        var message: String
        var testDescription: String { sql }
    }

    @Test(arguments: [
        BadSQL(sql: "SELCT * FROM player", code: .SQLITE_ERROR, message: #"near "SELCT": syntax error"#),
        BadSQL(
            sql: "INSERT INTO player (name, score) VALUES ('x', 1", code: .SQLITE_ERROR, message: "incomplete input"),
        BadSQL(sql: "SELECT * FROM nope", code: .SQLITE_ERROR, message: "no such table: nope"),
        BadSQL(sql: "UPDATE player SET nope = 1", code: .SQLITE_ERROR, message: "no such column: nope"),
        BadSQL(sql: "SELECT nope FROM player", code: .SQLITE_ERROR, message: "no such column: nope"),
        BadSQL(sql: #"SELECT * FROM player WHERE name = "Arthur""#, code: .SQLITE_ERROR,
               message: noSuchColumnMessage("Arthur", doubleQuoted: true)),
        BadSQL(sql: "SELECT nope()", code: .SQLITE_ERROR, message: "no such function: nope"),
        BadSQL(sql: "INSERT INTO player (id, name, score) VALUES (1, 'dup', 0)", code: .SQLITE_CONSTRAINT_PRIMARYKEY,
               message: "UNIQUE constraint failed: player.id"),
        BadSQL(sql: "INSERT INTO player (name) VALUES ('no score')", code: .SQLITE_CONSTRAINT_NOTNULL,
               message: "NOT NULL constraint failed: player.score"),
        BadSQL(sql: "DROP TABLE nope", code: .SQLITE_ERROR, message: "no such table: nope"),
        BadSQL(sql: "CREATE TABLE player (id)", code: .SQLITE_ERROR, message: "table player already exists"),
    ])
    func badSQL(_ bad: BadSQL) throws {
        let dbQueue = try makeDatabase()
        // Alone, and after a statement that succeeds in the same transaction.
        for sql in [bad.sql, "DELETE FROM player WHERE id = 2; \(bad.sql)"] {
            let error = try failingWrite(dbQueue) { try $0.execute(sql: sql) }
            #expect(error?.extendedResultCode == bad.code)
            #expect(error?.message == bad.message)
            #expect(error?.sql == bad.sql)
            #expect(error.map { "\($0)" }?.contains(bad.sql) == true, "the description shows the SQL")
        }
        // Preparing and fetching report the same error.
        try dbQueue.inDatabase { db throws in
            if bad.code == .SQLITE_ERROR {
                let error = databaseError { _ = try db.makeStatement(sql: bad.sql) }
                #expect(error?.message == bad.message)
                #expect(databaseError { _ = try Row.fetchAll(db, sql: bad.sql) }?.message == bad.message)
            }
        }
    }

    @Test func makeStatementRequiresExactlyOneStatement() throws {
        let dbQueue = try makeDatabase()
        try dbQueue.inDatabase { db throws in
            for sql in [
                "SELECT 1; SELECT 2", "UPDATE player SET score = 0; DELETE FROM player", "SELECT 1;;; SELECT 2 -- two"
            ] {
                let error = databaseError { _ = try db.makeStatement(sql: sql) }
                #expect(error?.resultCode == .SQLITE_MISUSE)
                #expect(error?.message == """
                    Multiple statements found. To execute multiple statements, \
                    use Database.execute(sql:) or Database.allStatements(sql:) instead.
                    """)
                #expect(error?.sql == sql)
                #expect(databaseError { _ = try db.cachedStatement(sql: sql) }?.resultCode == .SQLITE_MISUSE)
                #expect(databaseError { _ = try Row.fetchAll(db, sql: sql) }?.resultCode == .SQLITE_MISUSE)
            }
            for sql in ["", "   ", ";", "-- nothing", "/* nothing */ ;"] {
                let error = databaseError { _ = try db.makeStatement(sql: sql) }
                #expect(error?.resultCode == .SQLITE_MISUSE)
                #expect(error?.message == "empty statement")
            }
            // A trailing semicolon or comment is one statement.
            #expect(try Int.fetchOne(db, sql: "SELECT 1; -- one") == 1)
            #expect(try Int.fetchOne(db, sql: "  SELECT 1 ;; ") == 1)
        }
        // Nothing ran.
        #expect(try dbQueue.read { try Int.fetchOne($0, sql: "SELECT COUNT(*) FROM player") } == 2)
    }

    /// SQLite stops reading at a NUL character: without a check, the rest
    /// of the SQL would be ignored, here the WHERE clause.
    @Test func nulCharacterInSQL() throws {
        let dbQueue = try makeDatabase()
        let sql = "DELETE FROM player\0WHERE id = 1"
        for run in [
            { try dbQueue.write { try $0.execute(sql: sql) } },
            { try dbQueue.writeWithoutTransaction { try $0.makeStatement(sql: sql).execute() } },
            { try dbQueue.writeWithoutTransaction { try $0.cachedStatement(sql: sql).execute() } },
            { _ = try dbQueue.read { try Row.fetchAll($0, sql: "SELECT * FROM player\0WHERE id = 1") } },
        ] {
            let error = databaseError(run)
            #expect(error?.resultCode == .SQLITE_MISUSE)
            #expect(error?.message == "SQL contains a NUL character")
        }
        #expect(try dbQueue.read { try Int.fetchOne($0, sql: "SELECT COUNT(*) FROM player") } == 2)
        // NUL characters in values are fine: they are arguments.
        try dbQueue.write { try $0.execute(sql: "UPDATE player SET name = ? WHERE id = 1", arguments: ["a\0b"]) }
        #expect(try dbQueue.read { try String.fetchOne($0, sql: "SELECT name FROM player WHERE id = 1") } == "a\0b")
    }

    // MARK: - Arguments

    @Test func wrongNumberOfPositionalArguments() throws {
        let dbQueue = try makeDatabase()
        let sql = "INSERT INTO player (name, score) VALUES (?, ?)"
        for (arguments, message) in [
            ([], "0"),
            (["x"], "1"),
            (["x", 1, "extra"], "3"),
        ] as [(StatementArguments, String)] {
            let error = try failingWrite(dbQueue) { try $0.execute(sql: sql, arguments: arguments) }
            #expect(error?.resultCode == .SQLITE_MISUSE)
            #expect(error?.message == "wrong number of statement arguments: \(message)")
            #expect(error?.sql == sql)
            #expect(error?.arguments == arguments)
        }
        // Several statements must use all positional arguments.
        let multiple = "DELETE FROM player WHERE id = ?; DELETE FROM player WHERE id = ?"
        let error = try failingWrite(dbQueue) { try $0.execute(sql: multiple, arguments: [1, 2, 3]) }
        #expect(error?.resultCode == .SQLITE_MISUSE)
        #expect(error?.message == "wrong number of statement arguments: 3")
        #expect(error?.sql == multiple)
        #expect(error?.arguments == [1, 2, 3])
        // Outside of a transaction, a statement with too many arguments does not run.
        dbQueue.inDatabase { db in
            let error = databaseError { try db.execute(sql: "DELETE FROM player WHERE id = ?", arguments: [1, 2]) }
            #expect(error?.message == "wrong number of statement arguments: 2")
            let lastError = databaseError {
                try db.execute(sql: "SELECT ?; DELETE FROM player WHERE id = ?", arguments: [0, 1, 2])
            }
            #expect(lastError?.message == "wrong number of statement arguments: 3")
        }
        #expect(try dbQueue.read { try Int.fetchOne($0, sql: "SELECT COUNT(*) FROM player") } == 2)
        // Fetches and prepared statements validate too.
        try dbQueue.inDatabase { db throws in
            #expect(
                databaseError { _ = try Row.fetchAll(db, sql: "SELECT * FROM player WHERE id = ?") }?.resultCode
                    == .SQLITE_MISUSE)
            #expect(
                databaseError { _ = try Int.fetchOne(db, sql: "SELECT ?", arguments: [1, 2]) }?.resultCode
                    == .SQLITE_MISUSE)
            let statement = try db.makeStatement(sql: sql)
            #expect(databaseError { try statement.validateArguments(["x"]) }?.resultCode == .SQLITE_MISUSE)
            #expect(databaseError { try statement.setArguments(["x", 1, 2]) }?.resultCode == .SQLITE_MISUSE)
            // A statement whose arguments were never set does not run with NULLs.
            #expect(databaseError { try statement.execute() }?.resultCode == .SQLITE_MISUSE)
        }
        #expect(try dbQueue.read { try Int.fetchOne($0, sql: "SELECT COUNT(*) FROM player") } == 2)
    }

    @Test func missingNamedArgument() throws {
        let dbQueue = try makeDatabase()
        let sql = "INSERT INTO player (name, score) VALUES (:name, :score)"
        // A misspelled name: the error names the parameter that has no value.
        let error = try failingWrite(dbQueue) { try $0.execute(sql: sql, arguments: ["name": "x", "scroe": 1]) }
        #expect(error?.resultCode == .SQLITE_MISUSE)
        #expect(error?.message == "missing statement argument: score")
        #expect(error?.sql == sql)
        #expect(error?.arguments == ["name": "x", "scroe": 1])
        #expect(
            error.map { "\($0)" }
                == #"SQLite error 21: missing statement argument: score - while executing `INSERT INTO player (name, score) VALUES (:name, :score)`"#
        )
        #expect(
            error?.expandedDescription
                == #"SQLite error 21: missing statement argument: score - while executing `INSERT INTO player (name, score) VALUES (:name, :score)` with arguments ["name": "x", "scroe": 1]"#
        )
        // As in GRDB, named values the statement does not use are ignored.
        try dbQueue.write { try $0.execute(sql: sql, arguments: ["name": "x", "score": 1, "unused": 2]) }
    }

    // MARK: - Values

    @Test func invalidUTF8Text() throws {
        let dbQueue = try makeDatabase()
        try dbQueue.write { db in
            // "A", then a truncated two-byte sequence.
            try db.execute(sql: "INSERT INTO player (id, name, score) VALUES (3, CAST(x'41C3' AS TEXT), 0)")
        }
        try dbQueue.read { db throws in
            #expect(try String.fetchOne(db, sql: "SELECT typeof(name) FROM player WHERE id = 3") == "text")
            let sql = "SELECT name FROM player WHERE id = 3"
            for fetch in [
                { _ = try String.fetchOne(db, sql: sql) },
                { _ = try String?.fetchAll(db, sql: sql) },
                { _ = try String.fetchCursor(db, sql: sql).next() },
                {
                    let rows = try Row.fetchCursor(db, sql: sql)
                    _ = try rows.next()!.decode(String.self, forColumn: "name")
                },
            ] {
                do {
                    try fetch()
                    Issue.record("expected an error")
                } catch let error as RowDecodingError {
                    #expect(error.kind == .valueMismatch)
                    #expect(error.key == "name")
                    #expect(error.typeName == "String")
                    #expect(error.databaseValue == Data([0x41, 0xC3]).databaseValue)
                    #expect(error.sql == sql)
                }
            }
            // A copied row does not know its SQL, but still names the column.
            do {
                _ = try Row.fetchOne(db, sql: sql)!.decode(String.self, forColumn: "name")
                Issue.record("expected an error")
            } catch let error as RowDecodingError {
                #expect(error.key == "name")
                #expect(error.sql == nil)
            }
            // The bytes are kept, never repaired.
            #expect(try Data.fetchOne(db, sql: "SELECT name FROM player WHERE id = 3") == Data([0x41, 0xC3]))
            #expect(
                try DatabaseValue.fetchOne(db, sql: "SELECT name FROM player WHERE id = 3")
                    == Data([0x41, 0xC3]).databaseValue)
        }
        struct Player: Decodable, FetchableRecord { var name: String }
        do {
            _ = try dbQueue.read { try Player.fetchAll($0, sql: "SELECT name FROM player ORDER BY id") }
            Issue.record("expected an error")
        } catch let error as RowDecodingError {
            #expect(error.key == "name")
            #expect(error.typeName == "String")
        }
    }

    @Test func blobsOfInvalidUTF8AreNotStrings() throws {
        let dbQueue = try makeDatabase()
        try dbQueue.read { db throws in
            // Valid UTF-8 reads, as in GRDB; invalid UTF-8 is an error.
            #expect(try String.fetchOne(db, sql: "SELECT x'48656C6C6F' AS greeting") == "Hello")
            do {
                _ = try String.fetchOne(db, sql: "SELECT x'48C3' AS greeting")
                Issue.record("expected an error")
            } catch let error as RowDecodingError {
                #expect(error.key == "greeting")
                #expect(error.databaseValue == Data([0x48, 0xC3]).databaseValue)
                #expect(
                    "\(error)".hasPrefix(
                        "could not decode String from database value Data(2 bytes) - column: \"greeting\""))
            }
            // Numbers read as SQLite formats them, as in GRDB.
            #expect(try String.fetchOne(db, sql: "SELECT 12") == "12")
        }
    }

    struct OutOfRange: Sendable, CustomTestStringConvertible {
        var sql: String
        var type: String
        var testDescription: String { "\(sql) as \(type)" }
        func decode(_ db: Database) throws {
            switch type {
            case "Int8": _ = try Int8.fetchOne(db, sql: sql)
            case "UInt8": _ = try UInt8.fetchOne(db, sql: sql)
            case "Int32": _ = try Int32.fetchOne(db, sql: sql)
            case "UInt": _ = try UInt.fetchOne(db, sql: sql)
            case "Int64": _ = try Int64.fetchOne(db, sql: sql)
            case "Int": _ = try Row.fetchOne(db, sql: sql)!.decode(Int.self, atIndex: 0)
            default: fatalError()
            }
        }
    }

    @Test(arguments: [
        OutOfRange(sql: "SELECT 128 AS v", type: "Int8"),
        OutOfRange(sql: "SELECT -129 AS v", type: "Int8"),
        OutOfRange(sql: "SELECT 256 AS v", type: "UInt8"),
        OutOfRange(sql: "SELECT -1 AS v", type: "UInt8"),
        OutOfRange(sql: "SELECT 2147483648 AS v", type: "Int32"),
        OutOfRange(sql: "SELECT -1 AS v", type: "UInt"),
        OutOfRange(sql: "SELECT 9223372036854775808 AS v", type: "Int64"), // a REAL
        OutOfRange(sql: "SELECT 1e300 AS v", type: "Int64"),
        OutOfRange(sql: "SELECT -1e300 AS v", type: "Int"),
    ])
    func outOfRangeIntegers(_ value: OutOfRange) throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.read { db throws in
            do {
                try value.decode(db)
                Issue.record("expected an error")
            } catch let error as RowDecodingError {
                #expect(error.kind == .valueMismatch)
                #expect(error.key == "v")
                #expect(error.typeName == value.type)
            }
        }
    }

    @Test func nanIntoNotNullColumn() throws {
        let dbQueue = try makeDatabase()
        // SQLite stores NaN as NULL.
        let error = try failingWrite(dbQueue) { db in
            try db.execute(sql: "INSERT INTO player (name, score) VALUES (?, ?)", arguments: ["Nan", Double.nan])
        }
        #expect(error?.extendedResultCode == .SQLITE_CONSTRAINT_NOTNULL)
        #expect(error?.message == "NOT NULL constraint failed: player.score")
        #expect(error?.expandedDescription.hasSuffix(#"with arguments ["Nan", nan]"#) == true)
        // Through a record too.
        struct Player: Encodable, PersistableRecord { var name: String; var score: Double }
        let recordError = try failingWrite(dbQueue) { try Player(name: "Nan", score: .nan).insert($0) }
        #expect(recordError?.extendedResultCode == .SQLITE_CONSTRAINT_NOTNULL)
        #expect(recordError?.sql == #"INSERT INTO "player" ("name", "score") VALUES (?,?)"#)
    }

    // MARK: - Records

    @Test func decodingARecordFromAnIncompleteOrWrongRow() throws {
        struct Player: Decodable, FetchableRecord {
            var id: Int64
            var name: String
            var score: Double
        }
        struct RowPlayer: FetchableRecord {
            var name: String
            var score: Double
            init(row: Row) throws {
                name = try row.decode(forColumn: "name")
                score = try row.decode(forColumn: "score")
            }
        }
        let dbQueue = try makeDatabase()
        try dbQueue.read { db throws in
            let missing = "SELECT id, name FROM player WHERE id = ?"
            for decode in [{ _ = try Player.fetchAll(db, sql: missing, arguments: [1]) },
                           { _ = try RowPlayer.fetchAll(db, sql: missing, arguments: [1]) }] {
                do {
                    try decode()
                    Issue.record("expected an error")
                } catch let error as RowDecodingError {
                    #expect(error.kind == .columnNotFound)
                    #expect(error.key == "score")
                    #expect(error.typeName == "Double")
                    #expect(error.sql == missing)
                    #expect(error.arguments == [1])
                    #expect("\(error)".contains(#"available columns: "id", "name""#))
                }
            }
            // (Text would read as SQLite converts it, as in GRDB.)
            let wrong = "SELECT id, name, NULL AS score FROM player"
            for decode in [{ _ = try Player.fetchAll(db, sql: wrong) }, { _ = try RowPlayer.fetchAll(db, sql: wrong) }]
            {
                do {
                    try decode()
                    Issue.record("expected an error")
                } catch let error as RowDecodingError {
                    #expect(error.kind == .valueMismatch)
                    #expect(error.key == "score")
                    #expect(error.typeName == "Double")
                    #expect(error.databaseValue == .null)
                    #expect(error.sql == wrong)
                }
            }
        }
    }
}
