import CSQLite
import Foundation
@_spi(GRDBLite) import GRDBLite
import Testing
import TestSupport

/// Seeded fuzzing: random SQL fragments with random arguments, run
/// through every way GRDBLite runs SQL (with a transaction observer
/// attached), and random bytes as database files. The process never
/// crashes, every failure is a `DatabaseError` (or a `RowDecodingError`
/// when a row is decoded), and the queue keeps working.
///
/// A failure prints its seed: `GRDBLITE_SEED=<seed>` replays it.
/// `GRDBLITE_RELIABILITY_SCALE=N` runs N times more iterations.
@Suite struct FuzzTests {
    // MARK: - Random SQL

    static let schema = """
        CREATE TABLE IF NOT EXISTS t (a INTEGER PRIMARY KEY, b TEXT, c BLOB, d REAL NOT NULL DEFAULT 0);
        CREATE TABLE IF NOT EXISTS u (x, y UNIQUE, z TEXT CHECK (length(z) < 100));
        CREATE INDEX IF NOT EXISTS t_b ON t(b);
        CREATE TRIGGER IF NOT EXISTS u_insert AFTER INSERT ON u BEGIN INSERT INTO t (b) VALUES (new.x); END;
        CREATE VIEW IF NOT EXISTS v AS SELECT a, b FROM t;
        """

    static let keywords = [
        "SELECT", "INSERT", "INTO", "VALUES", "UPDATE", "SET", "DELETE", "FROM", "WHERE", "CREATE", "TABLE",
        "DROP", "INDEX", "ON", "BEGIN", "COMMIT", "ROLLBACK", "SAVEPOINT", "RELEASE", "TO", "TRANSACTION",
        "IMMEDIATE", "DEFERRED", "EXCLUSIVE", "END", "AS", "AND", "OR", "NOT", "NULL", "IS", "IN", "LIKE",
        "ORDER", "BY", "LIMIT", "GROUP", "HAVING", "UNION", "ALL", "CAST", "TEXT", "INTEGER", "BLOB", "REAL",
        "RETURNING", "DEFAULT", "PRIMARY", "KEY", "UNIQUE", "CHECK", "REPLACE", "IGNORE", "ABORT", "FAIL",
        "TRIGGER", "AFTER", "BEFORE", "FOR", "EACH", "ROW", "WITH", "PRAGMA", "EXPLAIN", "DISTINCT",
        "CASE", "WHEN", "THEN", "ELSE", "EXISTS", "JOIN", "LEFT", "USING", "VIEW", "IF", "CONFLICT", "DO",
        "NOTHING", "ALTER", "RENAME", "COLUMN", "ADD", "ANALYZE", "REINDEX", "VACUUM",
    ]
    static let names = ["t", "u", "v", "a", "b", "c", "d", "x", "y", "z", "rowid", "grdb", "sqlite_master",
                        "nope", "\"odd name\"", "main", "new", "old", "foreign_keys", "query_only", "t_b"]
    static let literals = ["0", "1", "-1", "9223372036854775807", "-9223372036854775808", "18446744073709551616",
                           "1.5", "1e308", "-0.0", "'text'", "''", "'it''s'", "'✨'", "x'00ff'", "x''", "NULL",
                           "zeroblob(10)", "CURRENT_TIMESTAMP"]
    static let parameters = ["?", "?", "?", "?1", "?3", ":a", ":b", "@c", "$d"]
    static let functions = ["length", "abs", "hex", "typeof", "lower", "upper", "substr", "coalesce", "max",
                            "min", "count", "sum", "group_concat", "printf", "json", "json_extract", "nullif",
                            "ifnull", "quote", "unicode", "char", "instr", "replace", "round", "likely",
                            "raise"]
    static let punctuation = ["(", ")", ",", ";", "*", "=", "<", ">", "+", "-", "||", ".", "/", "%", "!=", "<>"]

    /// Valid statements, so that the fuzzer also gets past the parser.
    static let templates = [
        "INSERT INTO t (b, c, d) VALUES (?, ?, ?)",
        "INSERT INTO t (a, b) VALUES (:a, :b) ON CONFLICT (a) DO UPDATE SET b = excluded.b",
        "INSERT OR REPLACE INTO u (x, y, z) VALUES (?, ?, ?)",
        "INSERT INTO t (d) VALUES (?) RETURNING *",
        "UPDATE t SET b = ? WHERE a % 3 = ?",
        "UPDATE t SET d = d + 1 RETURNING a, d",
        "DELETE FROM t WHERE a = ?",
        "DELETE FROM u",
        "SELECT * FROM t ORDER BY a",
        "SELECT a, b, c, d FROM t WHERE b = :b OR c = :c",
        "SELECT * FROM u JOIN t ON t.b = u.x",
        "SELECT * FROM v",
        "SELECT ?, ?, ?",
        "SELECT count(*), sum(d), group_concat(b) FROM t",
        "BEGIN", "BEGIN IMMEDIATE", "COMMIT", "ROLLBACK", "SAVEPOINT s", "SAVEPOINT grdb",
        "RELEASE s", "RELEASE grdb", "ROLLBACK TO s", "ROLLBACK TO grdb",
        "DROP TABLE t", "DROP TABLE u", "DROP VIEW v", "DROP TRIGGER u_insert",
        "ALTER TABLE t ADD COLUMN e", "ALTER TABLE u RENAME TO w", "ALTER TABLE w RENAME TO u",
        "CREATE TABLE IF NOT EXISTS s (p, q)", "PRAGMA foreign_keys", "PRAGMA table_info(t)",
        "WITH RECURSIVE c(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM c) SELECT n FROM c",
        "SELECT raise(ABORT, 'raised')",
        "VACUUM",
    ]

    static func randomValue(_ random: inout SeededGenerator) -> DatabaseValue {
        switch Int.random(in: 0..<14, using: &random) {
        case 0: return .null
        case 1: return Int64.random(in: -3...3, using: &random).databaseValue
        case 2: return [Int64.min, Int64.max, 0, -1].randomElement(using: &random)!.databaseValue
        case 3:
            return [Double.nan, .infinity, -.infinity, -0.0, 1e308, .leastNonzeroMagnitude].randomElement(
                using: &random)!.databaseValue
        case 4: return Double.random(in: -1e6...1e6, using: &random).databaseValue
        case 5: return "".databaseValue
        case 6:
            return ["text", "✨ ünïcødé", "nul\0char", "'); DROP TABLE t; --", "?", ":a"].randomElement(using: &random)!
                .databaseValue
        case 7: return String(repeating: "x", count: Int.random(in: 90...110, using: &random)).databaseValue
        case 8: return Data().databaseValue
        case 9:
            return Data(
                (0..<Int.random(in: 1...64, using: &random)).map { _ in UInt8.random(in: 0...255, using: &random) }
            ).databaseValue
        case 10: return Data(count: Int.random(in: 1000...5000, using: &random)).databaseValue
        case 11:
            return Date(timeIntervalSince1970: Double(Int.random(in: 0...2_000_000_000, using: &random))).databaseValue
        case 12: return UUID().databaseValue
        default: return Bool.random(using: &random).databaseValue
        }
    }

    static func randomArguments(_ random: inout SeededGenerator) -> StatementArguments {
        let positional = StatementArguments(
            (0..<Int.random(in: 0...4, using: &random)).map { _ in randomValue(&random) })
        guard Bool.random(using: &random) else { return positional }
        var named: [String: (any DatabaseValueConvertible)?] = [:]
        for name in ["a", "b", "c", "d", "x"] where Bool.random(using: &random) {
            named[name] = randomValue(&random)
        }
        return Int.random(in: 0..<3, using: &random) == 0
            ? positional &+ StatementArguments(named) : StatementArguments(named)
    }

    /// Arguments that fit the parameters of `sql` (as far as a quick scan
    /// can tell), so that statements get past argument validation.
    static func fittingArguments(_ sql: String, _ random: inout SeededGenerator) -> StatementArguments {
        var positional: [DatabaseValue] = []
        var named: [String: (any DatabaseValueConvertible)?] = [:]
        var scalars = sql.unicodeScalars[...]
        while let first = scalars.first {
            scalars = scalars.dropFirst()
            if first == "?" {
                if let next = scalars.first, ("1"..."9").contains(next) { continue }
                positional.append(randomValue(&random))
            } else if first == ":" || first == "@" || first == "$", let next = scalars.first, ("a"..."z").contains(next)
            {
                named[String(next)] = randomValue(&random)
            }
        }
        return StatementArguments(positional) &+ StatementArguments(named)
    }

    static func randomSQL(_ random: inout SeededGenerator) -> String {
        switch Int.random(in: 0..<10, using: &random) {
        case 0..<4:
            return templates.randomElement(using: &random)!
        case 4:
            // Several statements.
            return (0..<Int.random(in: 2...4, using: &random)).map { _ in templates.randomElement(using: &random)! }
                .joined(separator: "; ")
        case 5:
            // A template with a token changed, added or removed.
            var tokens = templates.randomElement(using: &random)!.split(separator: " ").map(String.init)
            let index = Int.random(in: 0..<tokens.count, using: &random)
            switch Int.random(in: 0..<3, using: &random) {
            case 0: tokens[index] = randomToken(&random)
            case 1: tokens.insert(randomToken(&random), at: index)
            default: tokens.remove(at: index)
            }
            return tokens.joined(separator: " ")
        case 6:
            // Random characters, printable or not.
            return String(String.UnicodeScalarView((0..<Int.random(in: 0...30, using: &random)).compactMap { _ in
                Unicode.Scalar(UInt32.random(in: 0...0x2FF, using: &random))
            }))
        default:
            // A soup of tokens.
            return (0..<Int.random(in: 1...12, using: &random)).map { _ in randomToken(&random) }.joined(separator: " ")
        }
    }

    static func randomToken(_ random: inout SeededGenerator) -> String {
        switch Int.random(in: 0..<7, using: &random) {
        case 0, 1: keywords.randomElement(using: &random)!
        case 2: names.randomElement(using: &random)!
        case 3: literals.randomElement(using: &random)!
        case 4: parameters.randomElement(using: &random)!
        case 5: functions.randomElement(using: &random)! + "("
        default: punctuation.randomElement(using: &random)!
        }
    }

    struct Item: Codable, FetchableRecord, MutablePersistableRecord {
        static let databaseTableName = "t"
        var a: Int64?
        var b: String?
        var c: Data?
        var d: Double
        mutating func didInsert(_ inserted: InsertionSuccess) { a = inserted.rowID }
    }

    /// Checks the order of transaction notifications.
    final class CheckingObserver: TransactionObserver {
        var changes = 0
        var commits = 0
        var rollbacks = 0
        var violations: [String] = []
        private var isCommitting = false

        func observes(eventsOfKind eventKind: DatabaseEventKind) -> Bool { true }
        func databaseDidChange(with event: DatabaseEvent) {
            if isCommitting { violations.append("change after willCommit") }
            changes += 1
        }
        func databaseWillCommit() throws {
            if isCommitting { violations.append("willCommit twice") }
            isCommitting = true
        }
        func databaseDidCommit(_ db: Database) {
            if !isCommitting { violations.append("didCommit without willCommit") }
            isCommitting = false
            commits += 1
        }
        func databaseDidRollback(_ db: Database) {
            isCommitting = false
            rollbacks += 1
        }
    }

    /// Bounds the work of a statement (recursive queries), without a clock:
    /// SQLite interrupts it after `remaining` thousands of virtual machine
    /// steps.
    /// Only used on the queue of the connection.
    final class WorkBudget: @unchecked Sendable {
        var remaining = 0

        func install(on db: Database) {
            sqlite3_progress_handler(db.sqliteConnection, 1000, { pointer in
                let budget = Unmanaged<WorkBudget>.fromOpaque(pointer!).takeUnretainedValue()
                budget.remaining -= 1
                return budget.remaining < 0 ? 1 : 0
            }, Unmanaged.passUnretained(self).toOpaque())
        }
    }

    /// The messages of the `SQLITE_MISUSE` errors random SQL may cause:
    /// GRDB's validation of statements and their arguments.
    static let statementMisuses = [
        "Multiple statements found", "SQL contains a NUL character", "empty statement",
        "missing statement argument", "wrong number of statement arguments",
    ]

    /// Runs random SQL, in a random way; returns its error, if any.
    static func runRandomOperation(_ dbQueue: DatabaseQueue, _ random: inout SeededGenerator) -> (any Error)? {
        let sql = randomSQL(&random)
        let arguments = Bool.random(using: &random) ? fittingArguments(sql, &random) : randomArguments(&random)
        let mode = Int.random(in: 0..<12, using: &random)
        let completion: Database.TransactionCompletion = Bool.random(using: &random) ? .commit : .rollback
        let cursorLimit = Int.random(in: 0...3, using: &random)
        var record = Item(a: Bool.random(using: &random) ? nil : Int64.random(in: 1...20, using: &random),
                          b: Bool.random(using: &random) ? nil : "b", c: nil,
                          d: [0, 1, .nan, .infinity].randomElement(using: &random)!)
        do {
            switch mode {
            case 0: try dbQueue.writeWithoutTransaction { try $0.execute(sql: sql, arguments: arguments) }
            case 1: try dbQueue.write { try $0.execute(sql: sql, arguments: arguments) }
            case 2: try dbQueue.inTransaction { try $0.execute(sql: sql, arguments: arguments); return completion }
            case 3:
                try dbQueue.write { db in
                    try db.execute(sql: "INSERT INTO t (b) VALUES ('in savepoint')")
                    try db.inSavepoint { try db.execute(sql: sql, arguments: arguments); return completion }
                }
            case 4: _ = try dbQueue.read { try Row.fetchAll($0, sql: sql, arguments: arguments) }
            case 5: _ = try dbQueue.writeWithoutTransaction { try Row.fetchAll($0, sql: sql, arguments: arguments) }
            case 6:
                try dbQueue.write { db in
                    let cursor = try Row.fetchCursor(db, sql: sql, arguments: arguments)
                    for _ in 0..<cursorLimit { _ = try cursor.next()?.databaseValues }
                }
            case 7:
                try dbQueue.inDatabase { db in
                    let statement = try db.makeStatement(sql: sql)
                    try statement.setArguments(arguments)
                    try statement.execute()
                    try statement.execute(arguments: arguments)
                }
            case 8:
                try dbQueue.write { db in
                    let statement = try db.cachedStatement(sql: sql)
                    _ = try String?.fetchAll(statement, arguments: arguments)
                    _ = try Int.fetchOne(statement, arguments: arguments)
                }
            case 9: _ = try dbQueue.read { try Item.fetchAll($0, sql: sql, arguments: arguments) }
            case 10:
                try dbQueue.write { db in
                    try record.save(db)
                    record.b = sql
                    try record.update(db)
                    try record.upsert(db)
                    _ = try record.delete(db)
                }
            default:
                _ = try dbQueue.read { db in
                    try Double?.fetchAll(db, sql: sql, arguments: arguments)
                        + Data?.fetchAll(db, sql: sql, arguments: arguments).map { _ in nil }
                }
            }
            return nil
        } catch {
            return error
        }
    }

    @Test func randomSQLAndArguments() throws {
        var (random, seed) = SeededGenerator.fromEnvironment()
        let budget = WorkBudget()
        var config = Configuration()
        // Random SQL opens transactions that later operations end.
        config.allowsUnsafeTransactions = true
        config.prepareDatabase { db in
            // Bounded values (zeroblob, printf) and bounded work.
            sqlite3_limit(db.sqliteConnection, SQLITE_LIMIT_LENGTH, 1_000_000)
            budget.install(on: db)
        }
        let dbQueue = try DatabaseQueue(configuration: config)
        let observer = CheckingObserver()
        dbQueue.add(transactionObserver: observer, extent: .databaseLifetime)

        let iterations = 3000 * reliabilityScale
        var outcomes: [String: Int] = [:]
        for iteration in 0..<iterations {
            // A new budget first: the previous operation may have spent
            // it, and the schema's statements would then be interrupted.
            dbQueue.inDatabase { _ in budget.remaining = 1000 }
            if iteration % 50 == 0 {
                try dbQueue.inDatabase { db in
                    if db.isInsideTransaction { try db.rollback() }
                    try db.execute(sql: Self.schema)
                }
            }
            let error = Self.runRandomOperation(dbQueue, &random)
            switch error {
            case nil:
                outcomes["success", default: 0] += 1
            case let error as DatabaseError:
                outcomes["DatabaseError \(error.resultCode.rawValue)", default: 0] += 1
                // GRDBLite's own misuse errors only reject bad statements
                // and arguments: any other (a closed connection, a broken
                // transaction state) is a bug.
                if error.resultCode == .SQLITE_MISUSE,
                   !Self.statementMisuses.contains(where: { error.message?.hasPrefix($0) == true })
                {
                    Issue.record("iteration \(iteration): unexpected misuse: \(error) (seed \(seed))")
                }
            case is RowDecodingError:
                outcomes["RowDecodingError", default: 0] += 1
            case let error?:
                Issue.record("iteration \(iteration): unexpected \(type(of: error)): \(error) (seed \(seed))")
            }
            // The queue still works.
            let one = try dbQueue.writeWithoutTransaction { db -> Int? in
                budget.remaining = 1000
                if db.isInsideTransaction { try db.rollback() } // left open by the random SQL
                return try Int.fetchOne(db, sql: "SELECT 1")
            }
            #expect(one == 1, "iteration \(iteration) (seed \(seed))")
        }
        #expect(dbQueue.inDatabase { _ in observer.violations } == [], "seed \(seed)")
        #expect(outcomes["success", default: 0] > iterations / 10)
        #expect(outcomes.keys.contains { $0.hasPrefix("DatabaseError") })
        print("""
            FuzzTests random SQL: \(iterations) operations, \(outcomes.sorted { $0.key < $1.key }.map { "\($0.key): \($0.value)" }.joined(separator: ", ")); \
            observer saw \(observer.changes) changes, \(observer.commits) commits, \(observer.rollbacks) rollbacks (seed \(seed))
            """)
    }

    // MARK: - Random files

    /// A database with tables, an index, a trigger and a view, as bytes.
    static func validDatabaseBytes(in directory: TemporaryDirectory) throws -> Data {
        let path = directory.path("valid.sqlite")
        let dbQueue = try DatabaseQueue(path: path)
        try dbQueue.write { db in
            try db.execute(sql: schema)
            for index in 0..<200 {
                try db.execute(sql: "INSERT INTO t (b, c, d) VALUES (?, ?, ?)",
                    arguments: ["row \(index)", Data(repeating: UInt8(index % 256), count: index * 3), Double(index)])
                try db.execute(sql: "INSERT INTO u (x, y, z) VALUES (?, ?, ?)", arguments: [index, "y\(index)", "z"])
            }
        }
        try dbQueue.close()
        return try Data(contentsOf: URL(fileURLWithPath: path))
    }

    static func randomFile(_ valid: Data, _ random: inout SeededGenerator) -> Data {
        switch Int.random(in: 0..<6, using: &random) {
        case 0:
            // Random bytes.
            return Data(
                (0..<Int.random(in: 0...8192, using: &random)).map { _ in UInt8.random(in: 0...255, using: &random) })
        case 1:
            // A valid header, then random bytes.
            var bytes = Data(valid.prefix(100))
            bytes.append(
                contentsOf: (0..<Int.random(in: 0...8192, using: &random)).map { _ in
                    UInt8.random(in: 0...255, using: &random)
                })
            return bytes
        case 2:
            // Truncated.
            return valid.prefix(Int.random(in: 0..<valid.count, using: &random))
        default:
            // A valid file with a few bytes changed (the header and the
            // first pages hold the schema: aim there more often).
            var bytes = valid
            for _ in 0..<Int.random(in: 1...8, using: &random) {
                let limit = Bool.random(using: &random) ? min(bytes.count, 8192) : bytes.count
                let offset = Int.random(in: 0..<limit, using: &random)
                bytes[offset] = Bool.random(using: &random)
                    ? UInt8.random(in: 0...255, using: &random)
                    : bytes[offset] ^ (1 << UInt8.random(in: 0...7, using: &random))
            }
            return bytes
        }
    }

    /// Opens the file and reads and writes everything it can. Sets
    /// `isIntact` to whether `PRAGMA integrity_check` found the file
    /// sound, before it reads and writes.
    static func exercise(
        path: String, journalMode: Configuration.JournalModeConfiguration, budget: WorkBudget, isIntact: inout Bool,
        hasRead: inout Bool
    ) throws {
        var config = Configuration()
        config.journalMode = journalMode
        config.allowsUnsafeTransactions = true
        config.prepareDatabase { db in
            budget.remaining = 10_000
            budget.install(on: db)
        }
        let dbQueue = try DatabaseQueue(path: path, configuration: config)
        isIntact = try dbQueue.read { try String.fetchAll($0, sql: "PRAGMA integrity_check") } == ["ok"]
        let tables = try dbQueue.read {
            try String.fetchAll($0, sql: "SELECT name FROM sqlite_master WHERE type IN ('table', 'view')")
        }
        for table in tables {
            _ = try dbQueue.read { try Row.fetchAll($0.makeStatement(literal: "SELECT * FROM \(identifier: table)")) }
        }
        hasRead = true
        try dbQueue.write { db in
            try db.execute(sql: "INSERT INTO t (b, c, d) VALUES (?, ?, ?)", arguments: ["new", Data(count: 5000), 1])
            try db.execute(sql: "DELETE FROM u WHERE x % 2 = 0")
            _ = try Item.fetchAll(db)
        }
        try dbQueue.close()
    }

    @Test func randomBytesAsDatabaseFiles() throws {
        var (random, seed) = SeededGenerator.fromEnvironment()
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let valid = try Self.validDatabaseBytes(in: directory)
        let budget = WorkBudget()
        let iterations = 300 * reliabilityScale
        var outcomes: [String: Int] = [:]
        for iteration in 0..<iterations {
            let path = directory.path("fuzz-\(iteration).sqlite")
            try Self.randomFile(valid, &random).write(to: URL(fileURLWithPath: path))
            defer {
                for suffix in ["", "-journal", "-wal", "-shm"] {
                    try? FileManager.default.removeItem(atPath: path + suffix)
                }
            }
            var isIntact = false
            var hasRead = false
            do {
                try Self.exercise(
                    path: path, journalMode: Bool.random(using: &random) ? .wal : .default, budget: budget,
                    isIntact: &isIntact, hasRead: &hasRead)
                outcomes[isIntact ? "usable" : "usable, not intact", default: 0] += 1
            } catch let error as DatabaseError {
                outcomes["DatabaseError \(error.resultCode.rawValue)", default: 0] += 1
                // A file that SQLite found sound reads without corruption.
                // A write may still meet damage that integrity_check doesn't
                // look for (it checks the b-trees, not every header field or
                // free page's content): counted, not a failure.
                if isIntact, error.resultCode == .SQLITE_CORRUPT || error.resultCode == .SQLITE_NOTADB {
                    if hasRead {
                        outcomes["intact, then corrupt on write", default: 0] += 1
                    } else {
                        Issue.record("file \(iteration) passed integrity_check, then: \(error) (seed \(seed))")
                    }
                }
                if error.resultCode == .SQLITE_MISUSE {
                    Issue.record("file \(iteration): misuse: \(error) (seed \(seed))")
                }
            } catch is RowDecodingError {
                outcomes["RowDecodingError", default: 0] += 1
            } catch {
                Issue.record("file \(iteration): unexpected \(type(of: error)): \(error) (seed \(seed))")
            }
        }
        #expect(outcomes["usable", default: 0] > 0)
        #expect(outcomes.keys.contains("DatabaseError 26")) // SQLITE_NOTADB
        #expect(outcomes.keys.contains("DatabaseError 11")) // SQLITE_CORRUPT
        print("""
            FuzzTests random files: \(iterations) files, \(outcomes.sorted { $0.key < $1.key }.map { "\($0.key): \($0.value)" }.joined(separator: ", ")) (seed \(seed))
            """)
    }
}
