import Foundation
import Testing
import GRDBLite
import TestSupport

@Suite struct DatabaseErrorTests {
    private func makeQueue() throws -> DatabaseQueue {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db throws in
            try db.execute(sql: """
                CREATE TABLE team (id INTEGER PRIMARY KEY);
                CREATE TABLE player (
                    id INTEGER PRIMARY KEY,
                    name TEXT NOT NULL UNIQUE,
                    score INTEGER CHECK (score >= 0),
                    teamId INTEGER REFERENCES team(id));
                INSERT INTO player (id, name) VALUES (1, 'Arthur');
                """)
        }
        return dbQueue
    }

    @Test func syntaxError() throws {
        let dbQueue = try makeQueue()
        let error = try #require(#expect(throws: DatabaseError.self) {
            try dbQueue.read { db throws in try Row.fetchAll(db, sql: "SELECT * FORM player") }
        })
        #expect(error.resultCode == .SQLITE_ERROR)
        #expect(error.extendedResultCode == .SQLITE_ERROR)
        #expect(error.message == #"near "FORM": syntax error"#)
        #expect(error.sql == "SELECT * FORM player")
        #expect(
            error.description == #"SQLite error 1: near "FORM": syntax error - while executing `SELECT * FORM player`"#)
    }

    @Test(arguments: [
        (
            "INSERT INTO player (id, name) VALUES (1, 'Barbara')", ResultCode.SQLITE_CONSTRAINT_PRIMARYKEY,
            "UNIQUE constraint failed: player.id"
        ),
        (
            "INSERT INTO player (name) VALUES ('Arthur')", .SQLITE_CONSTRAINT_UNIQUE,
            "UNIQUE constraint failed: player.name"
        ),
        (
            "INSERT INTO player (name) VALUES (NULL)", .SQLITE_CONSTRAINT_NOTNULL,
            "NOT NULL constraint failed: player.name"
        ),
        (
            "INSERT INTO player (name, score) VALUES ('Craig', -1)", .SQLITE_CONSTRAINT_CHECK,
            "CHECK constraint failed: score >= 0"
        ),
        (
            "INSERT INTO player (name, teamId) VALUES ('Dan', 42)", .SQLITE_CONSTRAINT_FOREIGNKEY,
            "FOREIGN KEY constraint failed"
        )
    ])
    func constraintViolationsHaveExtendedCodes(sql: String, code: ResultCode, message: String) throws {
        let dbQueue = try makeQueue()
        let error = try #require(#expect(throws: DatabaseError.self) {
            try dbQueue.write { db throws in try db.execute(sql: sql) }
        })
        #expect(error.resultCode == .SQLITE_CONSTRAINT)
        #expect(error.extendedResultCode == code)
        #expect(error.message == message)
        #expect(error.sql == sql)
        // Pattern matching: a primary code matches its extended codes.
        switch error {
        case ResultCode.SQLITE_CONSTRAINT: break
        default: Issue.record("SQLITE_CONSTRAINT does not match \(error)")
        }
        #expect(ResultCode.SQLITE_CONSTRAINT ~= error.extendedResultCode)
        #expect(code ~= error.extendedResultCode)
        #expect(!(ResultCode.SQLITE_CONSTRAINT_TRIGGER ~= error.extendedResultCode))
        #expect(!(ResultCode.SQLITE_ERROR ~= error))
        // The description shows the primary code, as GRDB does.
        #expect(error.description.hasPrefix("SQLite error 19: \(message) - while executing `\(sql)`"))
    }

    @Test func catchByCode() throws {
        let dbQueue = try makeQueue()
        do {
            try dbQueue.write { db throws in
                try db.execute(sql: "INSERT INTO player (id, name) VALUES (?, ?)", arguments: [1, "x"])
            }
            Issue.record("expected an error")
        } catch DatabaseError.SQLITE_CONSTRAINT {
            // expected
        }
        do {
            try dbQueue.write { db throws in try db.execute(sql: "INSERT INTO player (name) VALUES (NULL)") }
            Issue.record("expected an error")
        } catch ResultCode.SQLITE_CONSTRAINT_NOTNULL {
            // expected
        }
        do {
            try dbQueue.write { db throws in
                try db.execute(
                    sql: "CREATE TABLE child (parentId REFERENCES player(id)); INSERT INTO child VALUES (999)")
            }
            Issue.record("expected an error")
        } catch DatabaseError.SQLITE_CONSTRAINT_FOREIGNKEY {
            // expected
        }
    }

    @Test func extendedResultCodes() {
        // All of SQLite's extended codes, as GRDB: a primary code in the
        // low byte, and SQLite's text.
        #expect(ResultCode.SQLITE_CONSTRAINT_DATATYPE.rawValue == 19 | (12 << 8))
        #expect(DatabaseError.SQLITE_IOERR_CORRUPTFS == ResultCode.SQLITE_IOERR_CORRUPTFS)
        #expect(ResultCode.SQLITE_IOERR_CORRUPTFS.primaryResultCode == .SQLITE_IOERR)
        #expect(ResultCode.SQLITE_OK_SYMLINK.primaryResultCode == DatabaseError.SQLITE_OK)
        #expect(ResultCode.SQLITE_BUSY_TIMEOUT.rawValue == 773)
        #expect(ResultCode.SQLITE_ERROR_SNAPSHOT ~= ResultCode.SQLITE_ERROR_SNAPSHOT)
        #expect(!(ResultCode.SQLITE_ERROR_SNAPSHOT ~= ResultCode.SQLITE_ERROR))
        #expect(ResultCode.SQLITE_ERROR ~= ResultCode.SQLITE_ERROR_SNAPSHOT)
    }

    @Test func argumentsAreInTheError() throws {
        let dbQueue = try makeQueue()
        let error = try #require(#expect(throws: DatabaseError.self) {
            try dbQueue.write { db throws in
                    try db.execute(
                        sql: "INSERT INTO player (id, name) VALUES (?, :name)",
                        arguments: StatementArguments([1]) + ["name": "Arthur"])
            }
        })
        // As in GRDB, the arguments of the failed statement, in the order of its parameters.
        #expect(error.arguments == [1, "Arthur"])
        // As in GRDB, the description hides them: they may be private.
        #expect(error.description.hasSuffix("while executing `INSERT INTO player (id, name) VALUES (?, :name)`"))
        #expect(error.expandedDescription == error.description + #" with arguments [1, "Arthur"]"#)
        let row = try #require(#expect(throws: DatabaseError.self) {
                try dbQueue.write { db throws in
                    try Row.fetchAll(db, sql: "SELECT * FROM player WHERE id = ? AND nope", arguments: [1])
                }
        })
        #expect(row.arguments == nil, "compilation errors have no arguments")
    }

    @Test func missingTable() throws {
        let dbQueue = try makeQueue()
        let error = try #require(#expect(throws: DatabaseError.self) {
            try dbQueue.read { db throws in try Row.fetchAll(db, sql: "SELECT * FROM nope") }
        })
        #expect(error.resultCode == .SQLITE_ERROR)
        #expect(error.message == "no such table: nope")
        #expect(error.sql == "SELECT * FROM nope")
        #expect(error.description == "SQLite error 1: no such table: nope - while executing `SELECT * FROM nope`")
    }

    @Test func missingColumn() throws {
        let dbQueue = try makeQueue()
        let error = try #require(#expect(throws: DatabaseError.self) {
            try dbQueue.read { db throws in try Row.fetchAll(db, sql: #"SELECT "nope" FROM player"#) }
        })
        #expect(error.message == noSuchColumnMessage("nope", doubleQuoted: true))
    }

    @Test func busyBetweenTwoQueuesOnOneFile() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.path()
        var config = Configuration()
        config.allowsUnsafeTransactions = true // `first` keeps its transaction open
        let first = try DatabaseQueue(path: path, configuration: config)
        let second = try DatabaseQueue(path: path)
        try first.write { db throws in try db.execute(sql: "CREATE TABLE t (a)") }
        try first.writeWithoutTransaction { db throws in
            try db.execute(sql: "BEGIN IMMEDIATE; INSERT INTO t VALUES (1)")
        }
        let error = try #require(#expect(throws: DatabaseError.self) {
            try second.write { db throws in try db.execute(sql: "INSERT INTO t VALUES (2)") }
        })
        #expect(error.resultCode == .SQLITE_BUSY)
        #expect(error.message == "database is locked")
        #expect(error.sql == "BEGIN IMMEDIATE TRANSACTION")
        // Readers are not blocked by a reserved lock.
        #expect(try second.read { try Int.fetchOne($0, sql: "SELECT COUNT(*) FROM t") } == 0)
        try first.writeWithoutTransaction { db throws in try db.execute(sql: "COMMIT") }
        try second.write { db throws in try db.execute(sql: "INSERT INTO t VALUES (2)") }
        #expect(try second.read { try Int.fetchAll($0, sql: "SELECT a FROM t ORDER BY a") } == [1, 2])
    }

    @Test func readOnlyConnection() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.path()
        try DatabaseQueue(path: path).write { db throws in try db.execute(sql: "CREATE TABLE t (a)") }
        var configuration = Configuration()
        configuration.readonly = true
        let dbQueue = try DatabaseQueue(path: path, configuration: configuration)
        let error = try #require(#expect(throws: DatabaseError.self) {
            try dbQueue.writeWithoutTransaction { db throws in try db.execute(sql: "INSERT INTO t VALUES (1)") }
        })
        #expect(error.resultCode == .SQLITE_READONLY)
        #expect(error.message == "attempt to write a readonly database")
    }

    @Test func wrongArgumentCount() throws {
        let dbQueue = try makeQueue()
        let error = try #require(#expect(throws: DatabaseError.self) {
                try dbQueue.write { db throws in
                    try db.execute(sql: "INSERT INTO player (id, name) VALUES (?, ?)", arguments: [2])
                }
        })
        #expect(error.resultCode == .SQLITE_MISUSE)
        #expect(error.message == "wrong number of statement arguments: 1")
        #expect(error.sql == "INSERT INTO player (id, name) VALUES (?, ?)")
        #expect(
            error.description.hasPrefix(
                "SQLite error 21: wrong number of statement arguments: 1 - while executing `INSERT INTO player (id, name) VALUES (?, ?)`"
            ))
    }

    @Test func missingNamedArgument() throws {
        let dbQueue = try makeQueue()
        let error = try #require(#expect(throws: DatabaseError.self) {
            try dbQueue.write { db throws in
                try db.execute(sql: "INSERT INTO player (id, name) VALUES (:id, :name)", arguments: ["id": 2])
            }
        })
        #expect(error.resultCode == .SQLITE_MISUSE)
        #expect(error.message == "missing statement argument: name")
    }

    @Test func initializerDefaults() {
        let error = DatabaseError()
        #expect(error.resultCode == .SQLITE_ERROR)
        #expect(error.message == "SQL logic error")
        #expect(error.sql == nil)
        #expect(error.arguments == nil)
        #expect(error.description == "SQLite error 1: SQL logic error")
        let custom = DatabaseError(
            resultCode: .SQLITE_CONSTRAINT_UNIQUE, message: "boom", sql: "SELECT 1", arguments: [1])
        #expect(custom.resultCode == .SQLITE_CONSTRAINT)
        #expect(custom.description == "SQLite error 19: boom - while executing `SELECT 1`")
        #expect(custom.expandedDescription == "SQLite error 19: boom - while executing `SELECT 1` with arguments [1]")
        let disclosed = DatabaseError(
            resultCode: .SQLITE_CONSTRAINT, sql: "SELECT 1", arguments: [1], publicStatementArguments: true)
        #expect(
            disclosed.description
                == "SQLite error 19: constraint failed - while executing `SELECT 1` with arguments [1]")
    }

    @Test func resultCodes() {
        #expect(ResultCode.SQLITE_CONSTRAINT_UNIQUE.rawValue == 2067)
        #expect(ResultCode.SQLITE_CONSTRAINT_UNIQUE.primaryResultCode == .SQLITE_CONSTRAINT)
        #expect(ResultCode.SQLITE_BUSY.description == "5 (database is locked)")
        #expect(DatabaseError.SQLITE_CONSTRAINT == ResultCode.SQLITE_CONSTRAINT)
    }

    @Test func notADatabase() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.path("garbage.sqlite")
        try Data(repeating: 0x42, count: 4096).write(to: URL(fileURLWithPath: path))
        let error = try #require(#expect(throws: DatabaseError.self) { try DatabaseQueue(path: path) })
        #expect(error.resultCode == .SQLITE_NOTADB)
    }

    @Test func cantOpen() throws {
        let error = try #require(#expect(throws: DatabaseError.self) {
            try DatabaseQueue(path: "/nonexistent-\(UUID().uuidString)/db.sqlite")
        })
        #expect(error.resultCode == .SQLITE_CANTOPEN)
        #expect(error.message?.contains("/db.sqlite") == true)
    }
}
