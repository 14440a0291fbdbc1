import Foundation
import Synchronization
import Testing
@_spi(GRDBLite) import GRDBLite

@Suite struct StatementTests {
    private func withPlayers<T>(_ body: (Database) throws -> T) throws -> T {
        let dbQueue = try DatabaseQueue()
        return try dbQueue.writeWithoutTransaction { db throws in
            try db.execute(sql: "CREATE TABLE player (id INTEGER PRIMARY KEY, name TEXT, score INTEGER)")
            return try body(db)
        }
    }

    @Test func statementDescribesItsColumns() throws {
        try withPlayers { db throws in
            let statement = try db.makeStatement(sql: "  SELECT id, name AS Name, score, name FROM player;  ")
            #expect(statement.sql == "SELECT id, name AS Name, score, name FROM player")
            #expect(statement.description == statement.sql)
            #expect(statement.columnCount == 4)
            #expect(statement.columnNames == ["id", "Name", "score", "name"])
            #expect(statement.index(ofColumn: "NAME") == 1, "case-insensitive, leftmost")
            #expect(statement.index(ofColumn: "score") == 2)
            #expect(statement.index(ofColumn: "missing") == nil)
            #expect(statement.isReadonly)
            let insert = try db.makeStatement(sql: "INSERT INTO player (name) VALUES (?)")
            #expect(!insert.isReadonly)
            #expect(insert.columnCount == 0)
            #expect(insert.columnNames == [])
        }
    }

    @Test func statementsRunManyTimesWithDifferentArguments() throws {
        try withPlayers { db throws in
            let insert = try db.makeStatement(sql: "INSERT INTO player (name, score) VALUES (?, ?)")
            try insert.execute(arguments: ["Arthur", 100])
            try insert.execute(arguments: ["Barbara", 200])
            #expect(insert.arguments == ["Barbara", 200])
            try insert.execute() // the last arguments again
            #expect(try Row.fetchAll(db, sql: "SELECT name, score FROM player ORDER BY id") == [
                ["name": "Arthur", "score": 100],
                ["name": "Barbara", "score": 200],
                ["name": "Barbara", "score": 200],
            ])
            let select = try db.makeStatement(sql: "SELECT name FROM player WHERE score > ? ORDER BY id")
            #expect(try String.fetchAll(select, arguments: [150]) == ["Barbara", "Barbara"])
            #expect(try String.fetchAll(select, arguments: [50]) == ["Arthur", "Barbara", "Barbara"])
            #expect(try String.fetchOne(select, arguments: [500]) == nil)
            #expect(try Row.fetchAll(select, arguments: [150]).count == 2)
            #expect(try String.fetchSet(select, arguments: [0]) == ["Arthur", "Barbara"])
        }
    }

    @Test func argumentsAreValidatedWhenSetAndBeforeExecution() throws {
        try withPlayers { db throws in
            let statement = try db.makeStatement(sql: "INSERT INTO player (name, score) VALUES (:name, :score)")
            #expect(throws: DatabaseError.self) { try statement.validateArguments(["name": "Arthur"]) }
            try statement.validateArguments(["name": "Arthur", "score": 1])
            let error = #expect(throws: DatabaseError.self) { try statement.setArguments(["name": "Arthur"]) }
            #expect(error?.resultCode == .SQLITE_MISUSE)
            #expect(error?.message == "missing statement argument: score")
            // A statement with parameters can't run before its arguments are set.
            let unset = #expect(throws: DatabaseError.self) { try statement.execute() }
            #expect(unset?.resultCode == .SQLITE_MISUSE)
            #expect(try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM player") == 0)
            try statement.setArguments(["name": "Arthur", "score": 1])
            try statement.execute()
            #expect(try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM player") == 1)
        }
    }

    @Test func uncheckedArguments() throws {
        try withPlayers { db throws in
            let statement = try db.makeStatement(sql: "INSERT INTO player (name) VALUES (?)")
            statement.setUncheckedArguments(["Arthur"])
            try statement.execute()
            statement.arguments = ["Barbara"]
            try statement.execute()
            #expect(try String.fetchAll(db, sql: "SELECT name FROM player ORDER BY id") == ["Arthur", "Barbara"])
        }
    }

    @Test func invalidArgumentsSetThroughThePropertyTrap() async {
        await #expect(processExitsWith: .failure) {
            let dbQueue = try DatabaseQueue()
            try dbQueue.inDatabase { db in
                let statement = try db.makeStatement(sql: "SELECT ?")
                statement.arguments = [1, 2]
            }
        }
    }

    @Test func executeValues() throws {
        try withPlayers { db throws in
            let statement = try db.cachedStatement(sql: "INSERT INTO player (name, score) VALUES (?, ?)")
            try statement.execute(values: "Arthur", 100)
            try statement.execute(values: "Barbara", Optional<Int>.none)
            #expect(try Row.fetchAll(db, sql: "SELECT name, score FROM player ORDER BY id") == [
                ["name": "Arthur", "score": 100],
                ["name": "Barbara", "score": nil],
            ])
            let error = #expect(throws: DatabaseError.self) { try statement.execute(values: "Craig") }
            #expect(error?.resultCode == .SQLITE_MISUSE)
            #expect(error?.message == "wrong number of statement arguments: 1")
            let constraint = try db.makeStatement(sql: "INSERT INTO player (id, name) VALUES (?, ?)")
            let conflict = #expect(throws: DatabaseError.self) { try constraint.execute(values: 1, "Dan") }
            #expect(conflict?.extendedResultCode == .SQLITE_CONSTRAINT_PRIMARYKEY)
            #expect(conflict?.arguments == [1, "Dan"])
        }
    }

    @Test func executeNamedValues() throws {
        try withPlayers { db throws in
            let statement = try db.cachedStatement(sql: "INSERT INTO player (name, score) VALUES (:name, $score)")
            try statement.execute(named: ("name", "Arthur"), ("score", 100))
            // Any order
            try statement.execute(named: ("score", Optional<Int>.none), ("name", "Barbara"))
            #expect(try Row.fetchAll(db, sql: "SELECT name, score FROM player ORDER BY id") == [
                ["name": "Arthur", "score": 100],
                ["name": "Barbara", "score": nil],
            ])
            let missing = #expect(throws: DatabaseError.self) { try statement.execute(named: ("name", "Craig")) }
            #expect(missing?.message == "missing statement argument: score")
            let unknown = #expect(throws: DatabaseError.self) {
                try statement.execute(named: ("name", "Craig"), ("bonus", 1))
            }
            #expect(unknown?.message == "no parameter named \"bonus\" in statement")
            let constraint = try db.makeStatement(sql: "INSERT INTO player (id, name) VALUES (:id, :name)")
            let conflict = #expect(throws: DatabaseError.self) {
                try constraint.execute(named: ("id", 1), ("name", "Dan"))
            }
            #expect(conflict?.extendedResultCode == .SQLITE_CONSTRAINT_PRIMARYKEY)
            #expect(conflict?.arguments == ["id": 1, "name": "Dan"])
            #expect(try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM player") == 2)
        }
    }

    /// A name given twice leaves another parameter without a value of this
    /// execution: it must fail, naming the parameter, and write nothing
    /// (never run with the value bound by the previous execution).
    @Test func executeNamedValuesGivesEachParameterExactlyOneValue() throws {
        try withPlayers { db throws in
            let statement = try db.cachedStatement(sql: "INSERT INTO player (name, score) VALUES (:name, :score)")
            try statement.execute(named: ("name", "Arthur"), ("score", 100))

            let repeated = #expect(throws: DatabaseError.self) {
                try statement.execute(named: ("name", "Barbara"), ("name", "Craig"))
            }
            #expect(repeated?.resultCode == .SQLITE_MISUSE)
            #expect(repeated?.message == "duplicate statement argument: name")
            let repeatedLast = #expect(throws: DatabaseError.self) {
                try statement.execute(named: ("score", 1), ("score", 2))
            }
            #expect(repeatedLast?.message == "duplicate statement argument: score")
            let missing = #expect(throws: DatabaseError.self) { try statement.execute(named: ("score", 3)) }
            #expect(missing?.resultCode == .SQLITE_MISUSE)
            #expect(missing?.message == "missing statement argument: name")
            #expect(try Row.fetchAll(db, sql: "SELECT name, score FROM player") == [["name": "Arthur", "score": 100]])

            // After the errors, a complete set of values runs as usual.
            try statement.execute(named: ("score", 200), ("name", "Dan"))
            #expect(try Row.fetchAll(db, sql: "SELECT name, score FROM player ORDER BY id") == [
                ["name": "Arthur", "score": 100],
                ["name": "Dan", "score": 200],
            ])
        }
    }

    /// `:a` and `$a` are two SQLite parameters with one name: one value
    /// binds both, as `StatementArguments` does.
    @Test func executeNamedValuesBindsEveryParameterOfAName() throws {
        try withPlayers { db throws in
            let statement = try db.makeStatement(sql: "INSERT INTO player (id, name, score) VALUES (:id, :name, $id)")
            try statement.execute(named: ("id", 7), ("name", "Arthur"))
            #expect(
                try Row.fetchAll(db, sql: "SELECT id, name, score FROM player") == [
                    ["id": 7, "name": "Arthur", "score": 7]
                ])
            let repeated = #expect(throws: DatabaseError.self) {
                try statement.execute(named: ("id", 8), ("name", "Barbara"), ("id", 9))
            }
            #expect(repeated?.message == "duplicate statement argument: id")
            let missing = #expect(throws: DatabaseError.self) { try statement.execute(named: ("name", "Craig")) }
            #expect(missing?.message == "missing statement argument: id")
            let positional = try db.makeStatement(sql: "INSERT INTO player (name, score) VALUES (:name, ?)")
            let unnamed = #expect(throws: DatabaseError.self) { try positional.execute(named: ("name", "Dan")) }
            #expect(unnamed?.resultCode == .SQLITE_MISUSE)
            #expect(try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM player") == 1)
        }
    }

    /// Statements with more parameters than the fast path tracks.
    @Test func executeNamedValuesWithManyParameters() throws {
        try withPlayers { db throws in
            let names = (0..<70).map { "p\($0)" }
            let statement = try db.makeStatement(
                sql: "SELECT " + names.map { ":\($0)" }.joined(separator: ", ") + ", :name, :score")
            let repeated = #expect(throws: DatabaseError.self) {
                try statement.execute(named: ("name", "A"), ("name", "B"))
            }
            #expect(repeated?.message == "duplicate statement argument: name")
            let missing = #expect(throws: DatabaseError.self) {
                try statement.execute(named: ("name", "A"), ("score", 1))
            }
            #expect(missing?.message == "missing statement argument: p0")
        }
    }

    /// Up to 16 values, `execute(named:)` calls fixed-arity overloads;
    /// beyond, its variadic form: both bind and check names alike.
    @Test func executeNamedValuesOfEveryCount() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.writeWithoutTransaction { db throws in
            try db.execute(sql: "CREATE TABLE t (" + (0..<17).map { "c\($0)" }.joined(separator: ", ") + ")")
            func insert(_ count: Int) throws -> Statement {
                try db.makeStatement(sql: "INSERT INTO t (" + (0..<count).map { "c\($0)" }.joined(separator: ", ")
                    + ") VALUES (" + (0..<count).map { ":p\($0)" }.joined(separator: ", ") + ")")
            }
            let sixteen = try insert(16)
            let seventeen = try insert(17)
            // Out of order, mixed types.
            try sixteen.execute(
                named: ("p15", 15), ("p0", "a"), ("p1", 1.5), ("p2", Optional<Int>.none), ("p3", 3), ("p4", 4),
                ("p5", 5), ("p6", 6), ("p7", 7), ("p8", 8), ("p9", 9), ("p10", 10), ("p11", 11), ("p12", 12),
                ("p13", 13), ("p14", 14))
            try seventeen.execute(
                named: ("p0", "b"), ("p1", 1), ("p2", 2), ("p3", 3), ("p4", 4), ("p5", 5), ("p6", 6), ("p7", 7),
                ("p8", 8), ("p9", 9), ("p10", 10), ("p11", 11), ("p12", 12), ("p13", 13), ("p14", 14), ("p15", 15),
                ("p16", 16))
            #expect(try Row.fetchAll(db, sql: "SELECT c0, c1, c2, c15, c16 FROM t ORDER BY rowid") == [
                ["c0": "a", "c1": 1.5, "c2": nil, "c15": 15, "c16": nil],
                ["c0": "b", "c1": 1, "c2": 2, "c15": 15, "c16": 16],
            ])

            let duplicate = #expect(throws: DatabaseError.self) {
                try sixteen.execute(
                    named: ("p0", 0), ("p1", 1), ("p2", 2), ("p3", 3), ("p4", 4), ("p5", 5), ("p6", 6), ("p7", 7),
                    ("p8", 8), ("p9", 9), ("p10", 10), ("p11", 11), ("p12", 12), ("p13", 13), ("p14", 14), ("p0", 15))
            }
            #expect(duplicate?.resultCode == .SQLITE_MISUSE)
            #expect(duplicate?.message == "duplicate statement argument: p0")
            let unknown = #expect(throws: DatabaseError.self) {
                try sixteen.execute(
                    named: ("p0", 0), ("p1", 1), ("p2", 2), ("p3", 3), ("p4", 4), ("p5", 5), ("p6", 6), ("p7", 7),
                    ("p8", 8), ("p9", 9), ("p10", 10), ("p11", 11), ("p12", 12), ("p13", 13), ("p14", 14), ("x", 15))
            }
            #expect(unknown?.message == "no parameter named \"x\" in statement")
            let missing = #expect(throws: DatabaseError.self) {
                try seventeen.execute(
                    named: ("p0", 0), ("p1", 1), ("p2", 2), ("p3", 3), ("p4", 4), ("p5", 5), ("p6", 6), ("p7", 7),
                    ("p8", 8), ("p9", 9), ("p10", 10), ("p11", 11), ("p12", 12), ("p13", 13), ("p14", 14), ("p15", 15))
            }
            #expect(missing?.message == "missing statement argument: p16")
            let extra = #expect(throws: DatabaseError.self) {
                try sixteen.execute(
                    named: ("p0", 0), ("p1", 1), ("p2", 2), ("p3", 3), ("p4", 4), ("p5", 5), ("p6", 6), ("p7", 7),
                    ("p8", 8), ("p9", 9), ("p10", 10), ("p11", 11), ("p12", 12), ("p13", 13), ("p14", 14), ("p15", 15),
                    ("p16", 16))
            }
            #expect(extra?.message == "no parameter named \"p16\" in statement")
            #expect(try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM t") == 2)
        }
    }

    @Test func emptyAndMultipleStatementsAreErrors() throws {
        try withPlayers { db throws in
            for sql in ["", "  ", ";", "-- comment", "/* comment */ ;"] {
                let error = #expect(throws: DatabaseError.self, "\(sql)") { try db.makeStatement(sql: sql) }
                #expect(error?.resultCode == .SQLITE_MISUSE)
            }
            let error = #expect(throws: DatabaseError.self) { try db.makeStatement(sql: "SELECT 1; SELECT 2") }
            #expect(error?.resultCode == .SQLITE_MISUSE)
            #expect(error?.message?.contains("multiple statements") == true)
            // Trailing semicolons, white space and comments are fine.
            #expect(try db.makeStatement(sql: "SELECT 1;;  \n").sql == "SELECT 1")
            #expect(try db.makeStatement(sql: "SELECT 1; -- done").columnCount == 1)
            #expect(try db.makeStatement(sql: "SELECT 1 /* a */ ; /* b */").columnCount == 1)
            #expect(try db.makeStatement(sql: "SELECT 1;\t\u{0C}\r\n").columnCount == 1)
        }
    }

    /// Found by Fuzz/StatementSplitting.swift: a vertical tab is not white
    /// space for SQLite (`unrecognized token`), so a statement followed by
    /// one is followed by SQL that fails to compile, as `execute(sql:)`
    /// and `allStatements(sql:)` say: `makeStatement` refuses it too. What
    /// follows the statement is read as SQLite reads it: after a space,
    /// SQLite sees no statement, and no error.
    @Test func verticalTabAfterAStatementIsNotWhiteSpace() throws {
        try withPlayers { db throws in
            let sql = "SELECT * FROM player;\u{0B} -- F ="
            let error = #expect(throws: DatabaseError.self) { try db.makeStatement(sql: sql) }
            #expect(error?.resultCode == .SQLITE_MISUSE)
            #expect(throws: DatabaseError.self) { try db.execute(sql: sql) }
            #expect(try db.makeStatement(sql: "SELECT 1; \u{0B}").columnCount == 1)
            try db.execute(sql: "SELECT 1; \u{0B}")
        }
    }

    @Test func invalidSQLIsAnError() throws {
        try withPlayers { db throws in
            let error = #expect(throws: DatabaseError.self) { try db.makeStatement(sql: "SELEKT 1") }
            #expect(error?.resultCode == .SQLITE_ERROR)
            #expect(error?.message == #"near "SELEKT": syntax error"#)
            #expect(error?.sql == "SELEKT 1")
        }
    }

    @Test func cachedStatementsAreReused() throws {
        try withPlayers { db throws in
            let sql = "SELECT * FROM player"
            let cached = try db.cachedStatement(sql: sql)
            #expect(try db.cachedStatement(sql: sql) === cached)
            #expect(try db.makeStatement(sql: sql) !== cached)
            #expect(try db.makeStatement(sql: sql) !== db.makeStatement(sql: sql))
            #expect(try db.cachedStatement(sql: sql + " ") !== cached, "the cache key is the SQL string")
        }
    }

    /// GRDB clears its statement cache when the schema changes: a cached
    /// statement prepared before the change must see the new columns.
    @Test func cachedStatementsSeeSchemaChanges() throws {
        try withPlayers { db throws in
            try db.execute(sql: "INSERT INTO player (name, score) VALUES ('Arthur', 100)")
            let sql = "SELECT * FROM player"
            let before = try db.cachedStatement(sql: sql)
            #expect(try Row.fetchOne(before)?.count == 3)
            try db.execute(sql: "ALTER TABLE player ADD COLUMN email TEXT")
            let after = try db.cachedStatement(sql: sql)
            let row = try #require(try Row.fetchOne(after))
            #expect(Array(row.columnNames) == ["id", "name", "score", "email"])
            #expect(after.columnCount == 4)
            #expect(row.hasColumn("email"))
        }
    }

    @Test func statementsRunInLaterAccesses() throws {
        let dbQueue = try DatabaseQueue()
        let statement = try dbQueue.write { db throws in
            try db.execute(sql: "CREATE TABLE t (a)")
            return try db.makeStatement(sql: "INSERT INTO t VALUES (?)")
        }
        try dbQueue.write { _ throws in try statement.execute(arguments: [1]) }
        #expect(try dbQueue.read { try Int.fetchOne($0, sql: "SELECT a FROM t") } == 1)
    }

    @Test func executeRunsSeveralStatements() throws {
        try withPlayers { db throws in
            var arguments: StatementArguments = ["Arthur", 10, "Arthur"]
            arguments += ["name": "Barbara"]
            try db.execute(sql: """
                INSERT INTO player (name) VALUES (?);
                INSERT INTO player (name) VALUES (:name);
                -- a comment
                UPDATE player SET score = ? WHERE name = ?;
                """, arguments: arguments)
            #expect(try Row.fetchAll(db, sql: "SELECT name, score FROM player ORDER BY id") == [
                ["name": "Arthur", "score": 10],
                ["name": "Barbara", "score": nil],
            ])
        }
    }

    @Test func executeStopsAtTheFirstError() throws {
        try withPlayers { db throws in
            let error = #expect(throws: DatabaseError.self) {
                try db.execute(
                    sql:
                        "INSERT INTO player (name) VALUES ('a'); INSERT INTO nope VALUES (1); INSERT INTO player (name) VALUES ('b')"
                )
            }
            // As in GRDB, a statement that does not compile reports the rest of the SQL.
            #expect(error?.sql == "INSERT INTO nope VALUES (1); INSERT INTO player (name) VALUES ('b')")
            #expect(error?.message == "no such table: nope")
            #expect(try String.fetchAll(db, sql: "SELECT name FROM player") == ["a"])
        }
    }

    /// `execute` steps a SELECT through all its rows (a function in it runs
    /// once per row) and discards them.
    @Test func selectRowsAreIgnoredByExecute() throws {
        try withPlayers { db throws in
            try db.execute(sql: "INSERT INTO player (name) VALUES ('a'), ('b')")
            let calls = Mutex(0)
            db.add(function: DatabaseFunction("visit", argumentCount: 1, pure: false) { values in
                calls.withLock { $0 += 1 }
                return values[0]
            })
            try db.execute(sql: "SELECT visit(name) FROM player")
            #expect(calls.withLock { $0 } == 2)
            let statement = try db.makeStatement(sql: "SELECT visit(name) FROM player")
            try statement.execute()
            #expect(calls.withLock { $0 } == 4)
            #expect(db.changesCount == 2, "the last INSERT's count: the SELECTs changed nothing")
        }
    }

    @Test func changesAndLastInsertedRowID() throws {
        try withPlayers { db throws in
            try db.execute(sql: "INSERT INTO player (id, name) VALUES (41, 'a')")
            #expect(db.lastInsertedRowID == 41)
            try db.execute(sql: "INSERT INTO player (name) VALUES ('b'), ('c')")
            #expect(db.lastInsertedRowID == 43)
            #expect(db.changesCount == 2)
            try db.execute(sql: "UPDATE player SET score = 1")
            #expect(db.changesCount == 3)
            #expect(db.totalChangesCount == 6)
        }
    }

    @Test func literals() throws {
        try withPlayers { db throws in
            let name = "O'Brien"
            try db.execute(literal: "INSERT INTO player (name, score) VALUES (\(name), \(12))")
            #expect(try String.fetchOne(db, sql: "SELECT name FROM player") == name)
            let statement = try db.makeStatement(literal: "SELECT \(Column("score")) FROM player WHERE name = \(name)")
            #expect(statement.sql == #"SELECT "score" FROM player WHERE name = ?"#)
            #expect(statement.arguments == [name])
            #expect(try Int.fetchOne(statement) == 12)
            let cached = try db.cachedStatement(literal: "SELECT name FROM \(identifier: "player") WHERE score > \(10)")
            #expect(cached.sql == #"SELECT name FROM "player" WHERE score > ?"#)
            #expect(try String.fetchAll(cached) == [name])
        }
    }

    @Test func literalsWithoutValuesTakeArgumentsWhenTheyRun() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db throws in
            try db.execute(sql: "CREATE TABLE t (a, b)")
            let insert = try db.makeStatement(literal: "INSERT INTO t (a, b) VALUES (?, :b)")
            try insert.execute(arguments: [1, 2])
            let cachedInsert = try db.cachedStatement(literal: "INSERT INTO t (a, b) VALUES (:a, :b)")
            try cachedInsert.execute(arguments: ["a": 3, "b": 4])
            let select = try db.makeStatement(literal: "SELECT b FROM t WHERE a = ?")
            #expect(try Int.fetchOne(select, arguments: [3]) == 4)
            let cachedSelect = try db.cachedStatement(literal: "SELECT b FROM t WHERE a = ?")
            #expect(try Int.fetchOne(cachedSelect, arguments: [1]) == 2)
            // Without any arguments, running is an error.
            #expect(throws: DatabaseError.self) {
                try db.makeStatement(literal: "SELECT b FROM t WHERE a = ?").execute()
            }
            // Interpolated values must match the statement.
            #expect(throws: DatabaseError.self) { try db.makeStatement(literal: "SELECT \(1) WHERE 1 = ?") }
        }
    }
}
