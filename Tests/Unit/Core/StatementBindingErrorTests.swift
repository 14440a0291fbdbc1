import CSQLite
import Foundation
@_spi(GRDBLite) import GRDBLite
import Testing

/// A value SQLite can't bind (over its length limit here; out of memory in
/// Tests/Reliability/OutOfMemoryTests) and a wrong number of values for
/// `execute(values:)` throw a `DatabaseError`, instead of trapping, and
/// leave the statement usable.
@Suite struct StatementBindingErrorTests {
    /// A database whose values can't exceed 1000 bytes.
    private func makeDatabase() throws -> DatabaseQueue {
        var config = Configuration()
        config.prepareDatabase { db in
            sqlite3_limit(db.sqliteConnection, SQLITE_LIMIT_LENGTH, 1000)
        }
        let dbQueue = try DatabaseQueue(configuration: config)
        try dbQueue.write { try $0.execute(sql: "CREATE TABLE t (id INTEGER PRIMARY KEY, value)") }
        return dbQueue
    }

    private let tooBig = String(repeating: "x", count: 1001)

    @Test func valueTooBigForExecuteSQL() throws {
        let dbQueue = try makeDatabase()
        try dbQueue.write { db in
            do {
                try db.execute(sql: "INSERT INTO t (value) VALUES (?)", arguments: [tooBig])
                Issue.record("expected an error")
            } catch let error as DatabaseError {
                #expect(error.resultCode == .SQLITE_TOOBIG)
                #expect(error.message == "string or blob too big")
                #expect(error.sql == "INSERT INTO t (value) VALUES (?)")
                #expect(error.arguments == [tooBig])
            }
            #expect(try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM t") == 0)
        }
    }

    @Test func valueTooBigForStatementArguments() throws {
        let dbQueue = try makeDatabase()
        try dbQueue.write { db in
            let statement = try db.makeStatement(sql: "INSERT INTO t (value) VALUES (?)")
            try statement.execute(arguments: ["small"])
            #expect(throws: DatabaseError.self) { try statement.execute(arguments: [Data(count: 1001)]) }
            #expect(throws: DatabaseError.self) { try statement.setArguments([tooBig]) }
            // The statement kept its last valid arguments.
            #expect(statement.arguments == ["small"])
            try statement.execute()
            #expect(try String.fetchAll(db, sql: "SELECT value FROM t") == ["small", "small"])
            // Fetching too.
            #expect(throws: DatabaseError.self) {
                try String.fetchAll(db, sql: "SELECT value FROM t WHERE value = ?", arguments: [tooBig])
            }
        }
    }

    /// The `arguments` setter can't throw: a value SQLite can't bind is
    /// the error of the next run, which binds again (GRDB traps).
    @Test func valueTooBigForTheArgumentsSetter() throws {
        let dbQueue = try makeDatabase()
        try dbQueue.write { db in
            let statement = try db.makeStatement(sql: "INSERT INTO t (value) VALUES (?)")
            statement.arguments = [tooBig]
            #expect(statement.arguments == [tooBig])
            for _ in 0..<2 {
                do {
                    try statement.execute()
                    Issue.record("expected an error")
                } catch let error as DatabaseError {
                    #expect(error.resultCode == .SQLITE_TOOBIG)
                    #expect(error.sql == "INSERT INTO t (value) VALUES (?)")
                }
            }
            statement.arguments = ["small"]
            try statement.execute()
            #expect(try String.fetchAll(db, sql: "SELECT value FROM t") == ["small"])
        }
    }

    @Test func valueTooBigForExecuteValues() throws {
        let dbQueue = try makeDatabase()
        try dbQueue.write { db in
            let statement = try db.cachedStatement(sql: "INSERT INTO t (id, value) VALUES (?, ?)")
            try statement.execute(values: 1, "small")
            do {
                try statement.execute(values: 2, tooBig)
                Issue.record("expected an error")
            } catch let error as DatabaseError {
                #expect(error.resultCode == .SQLITE_TOOBIG)
                #expect(error.arguments == [2, tooBig])
            }
            // The failed call left no bound value behind.
            #expect(throws: DatabaseError.self) { try statement.execute() }
            try statement.execute(values: 3, "again")
            #expect(try Int.fetchAll(db, sql: "SELECT id FROM t ORDER BY id") == [1, 3])
        }
    }

    @Test func wrongNumberOfValuesForExecuteValues() throws {
        let dbQueue = try makeDatabase()
        try dbQueue.write { db in
            let statement = try db.makeStatement(sql: "INSERT INTO t (id, value) VALUES (?, ?)")
            try statement.execute(values: 1, "a")
            for call in [{ try statement.execute(values: 2, "b", "extra") }, { try statement.execute(values: 3) }] {
                do {
                    try call()
                    Issue.record("expected an error")
                } catch let error as DatabaseError {
                    #expect(error.resultCode == .SQLITE_MISUSE)
                    #expect(error.message?.hasPrefix("wrong number of statement arguments") == true)
                    #expect(error.sql == "INSERT INTO t (id, value) VALUES (?, ?)")
                }
            }
            // A statement whose values were partly replaced does not run with them.
            #expect(throws: DatabaseError.self) { try statement.execute() }
            #expect(try Row.fetchAll(db, sql: "SELECT id, value FROM t") == [["id": 1, "value": "a"]])
        }
    }

    @Test func valueTooBigForRecordInsert() throws {
        struct Item: Encodable, PersistableRecord {
            static let databaseTableName = "t"
            var id: Int
            var value: String
        }
        let dbQueue = try makeDatabase()
        try dbQueue.write { db in
            try Item(id: 1, value: "small").insert(db)
            do {
                try Item(id: 2, value: tooBig).insert(db)
                Issue.record("expected an error")
            } catch let error as DatabaseError {
                #expect(error.resultCode == .SQLITE_TOOBIG)
                #expect(error.sql == "INSERT INTO \"t\" (\"id\", \"value\") VALUES (?,?)")
            }
            try Item(id: 3, value: "small").insert(db)
            #expect(try Int.fetchAll(db, sql: "SELECT id FROM t ORDER BY id") == [1, 3])
        }
    }
}
