import GRDBLite
import Testing

@Suite struct SQLStatementCursorTests {
    private func makeDatabase() throws -> DatabaseQueue {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db throws in
            try db.execute(sql: "CREATE TABLE player (name TEXT, score INTEGER)")
            try db.execute(sql: "INSERT INTO player VALUES ('Arthur', 10), ('Barbara', 20), ('Craig', 30)")
        }
        return dbQueue
    }

    @Test func statementsWithoutArguments() throws {
        try makeDatabase().read { db throws in
            let statements = try db.allStatements(sql: """
                SELECT score FROM player ORDER BY score;
                -- a comment
                SELECT score FROM player ORDER BY score DESC;
                """)
            #expect(try Array(statements.flatMap { try Int.fetchCursor($0) }) == [10, 20, 30, 30, 20, 10])
            #expect(try statements.next() == nil)

            // Arguments given when each statement runs.
            let counts = try db.allStatements(
                sql: "SELECT COUNT(*) FROM player WHERE score > ?; SELECT COUNT(*) FROM player WHERE score < ?"
            )
                .map { try Int.fetchOne($0, arguments: [15])! }
            #expect(try Array(counts) == [2, 1])
            #expect(try Array(db.allStatements(sql: " ;  -- nothing")).isEmpty)
        }
    }

    @Test func statementsWithArguments() throws {
        try makeDatabase().read { db throws in
            let names = try db.allStatements(sql: """
                SELECT name FROM player WHERE name = ?;
                SELECT name FROM player WHERE score > ? ORDER BY name;
                """, arguments: ["Arthur", 15]).map { try String.fetchAll($0) }
            #expect(try Array(names) == [["Arthur"], ["Barbara", "Craig"]])

            let literal = try db.allStatements(literal: "SELECT \(1); SELECT \(2) + \(3)").map { try Int.fetchOne($0)! }
            #expect(try Array(literal) == [1, 5])

            // Too few: the statement that lacks a value fails.
            let tooFew = try db.allStatements(sql: "SELECT ?; SELECT ?", arguments: [1])
            #expect(try tooFew.next()?.arguments == [1])
            let error = #expect(throws: DatabaseError.self) { try tooFew.next() }
            #expect(error?.resultCode == .SQLITE_MISUSE)
            #expect(error?.message == "wrong number of statement arguments: 0")

            // Too many: the end of the cursor fails.
            let tooMany = try db.allStatements(sql: "SELECT ?; SELECT ?", arguments: [1, 2, 3])
            _ = try tooMany.next()
            _ = try tooMany.next()
            let endError = #expect(throws: DatabaseError.self) { try tooMany.next() }
            #expect(endError?.message == "wrong number of statement arguments: 3")
        }
    }

    /// Statements are compiled as the cursor is iterated: a statement can
    /// use a table that the one before creates.
    @Test func statementsAreCompiledLazily() throws {
        try DatabaseQueue().write { db throws in
            let statements = try db.allStatements(sql: "CREATE TABLE t(a); INSERT INTO t VALUES (?)", arguments: [7])
            while let statement = try statements.next() {
                try statement.execute()
            }
            #expect(try Int.fetchAll(db, sql: "SELECT a FROM t") == [7])
            #expect(throws: DatabaseError.self) { try db.allStatements(sql: "SELECT 1\0; DROP TABLE t") }
        }
    }

    @Test func maximumStatementArgumentCount() throws {
        try DatabaseQueue().read { db throws in
            // At least SQLite's default since 3.32 (Debian's build: 250000).
            #expect(db.maximumStatementArgumentCount >= 32766)
        }
    }

    /// As GRDB: a statement without columns runs and gives no value.
    @Test func valuesOfStatementsOfMixedKinds() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.writeWithoutTransaction { db in
            let statements = try db.allStatements(sql: """
                CREATE TABLE t(a);
                INSERT INTO t VALUES (0);
                SELECT a FROM t ORDER BY a;
                INSERT INTO t VALUES (1);
                SELECT a FROM t ORDER BY a;
                """)
            let values = try Array(statements.map { try Int.fetchAll($0) })
            #expect(values == [[], [], [0], [], [0, 1]])
            #expect(try Int.fetchOne(db, sql: "INSERT INTO t VALUES (2)") == nil)
            #expect(try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM t") == 3)
            // An adapter that selects no column is still an error.
            #expect(throws: DatabaseError.self) {
                try Int.fetchAll(db, sql: "SELECT a FROM t", adapter: EmptyRowAdapter())
            }
        }
    }
}
