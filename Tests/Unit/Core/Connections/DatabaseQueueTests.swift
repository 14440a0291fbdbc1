import Dispatch
import Foundation
import Testing
@_spi(GRDBLite) import GRDBLite
import TestSupport

@Suite struct DatabaseQueueTests {
    @Test func inMemoryDatabasesArePrivate() throws {
        let first = try DatabaseQueue()
        let second = try DatabaseQueue()
        #expect(first.path == ":memory:")
        try first.write { db throws in try db.execute(sql: "CREATE TABLE t (a)") }
        #expect(try first.read { try $0.tableExists("t") })
        #expect(try !second.read { try $0.tableExists("t") })
    }

    @Test func namedInMemoryDatabasesAreShared() throws {
        let name = "shared-\(UUID().uuidString)"
        let first = try DatabaseQueue(named: name)
        let second = try DatabaseQueue(named: name)
        let other = try DatabaseQueue(named: "other-\(UUID().uuidString)")
        try first.write { db throws in try db.execute(sql: "CREATE TABLE t (a); INSERT INTO t VALUES (1)") }
        #expect(try second.read { try Int.fetchOne($0, sql: "SELECT a FROM t") } == 1)
        #expect(try !other.read { try $0.tableExists("t") })
    }

    @Test func fileDatabasesPersist() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.path("sub.sqlite")
        #expect(!FileManager.default.fileExists(atPath: path))
        do {
            let dbQueue = try DatabaseQueue(path: path)
            #expect(dbQueue.path == path)
            #expect(FileManager.default.fileExists(atPath: path))
            try dbQueue.write { db throws in try db.execute(sql: "CREATE TABLE t (a); INSERT INTO t VALUES ('kept')") }
        }
        let reopened = try DatabaseQueue(path: path)
        #expect(try reopened.read { try String.fetchOne($0, sql: "SELECT a FROM t") } == "kept")
    }

    @Test func accessMethodsReturnValues() throws {
        let dbQueue = try DatabaseQueue()
        #expect(try dbQueue.read { try Int.fetchOne($0, sql: "SELECT 1") } == 1)
        #expect(try dbQueue.write { try Int.fetchOne($0, sql: "SELECT 2") } == 2)
        #expect(try dbQueue.writeWithoutTransaction { try Int.fetchOne($0, sql: "SELECT 3") } == 3)
        #expect(try dbQueue.inDatabase { try Int.fetchOne($0, sql: "SELECT 4") } == 4)
        #expect(dbQueue.inDatabase { $0.isInsideTransaction } == false)
        #expect(dbQueue.writeWithoutTransaction { $0.isInsideTransaction } == false)
        #expect(try dbQueue.write { $0.isInsideTransaction } == true)
        #expect(try dbQueue.read { $0.isInsideTransaction } == true)
    }

    @Test func writeWithoutTransactionCommitsEachStatement() throws {
        let dbQueue = try DatabaseQueue()
        #expect(throws: DatabaseError.self) {
            try dbQueue.writeWithoutTransaction { db throws in
                try db.execute(sql: "CREATE TABLE t (a UNIQUE)")
                try db.execute(sql: "INSERT INTO t VALUES (1)")
                try db.execute(sql: "INSERT INTO t VALUES (1)")
            }
        }
        #expect(try dbQueue.read { try Int.fetchAll($0, sql: "SELECT a FROM t") } == [1])
    }

    @Test func configurationAndDescription() throws {
        var configuration = Configuration()
        configuration.label = "players"
        let dbQueue = try DatabaseQueue(configuration: configuration)
        #expect(dbQueue.configuration.label == "players")
        dbQueue.inDatabase { db in
            #expect(db.description == "players")
            #expect(db.debugDescription == "<Database: players>")
            #expect(db.configuration.label == "players")
            #expect(db.path == ":memory:")
        }
        try DatabaseQueue().inDatabase { db in
            #expect(db.description == "GRDBLite.DatabaseQueue")
        }
    }

    @Test func queuesAreSendableAndSerializeAccesses() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db throws in
            try db.execute(sql: "CREATE TABLE counter (value INTEGER); INSERT INTO counter VALUES (0)")
        }
        DispatchQueue.concurrentPerform(iterations: 50) { _ in
            try! dbQueue.write { db in
                let value = try Int.fetchOne(db, sql: "SELECT value FROM counter")!
                try db.execute(sql: "UPDATE counter SET value = ?", arguments: [value + 1])
            }
        }
        #expect(try dbQueue.read { try Int.fetchOne($0, sql: "SELECT value FROM counter") } == 50)
    }

    @Test func genericReadersAndWriters() throws {
        func playerCount(_ reader: some DatabaseReader) throws -> Int {
            try reader.read { try Int.fetchOne($0, sql: "SELECT COUNT(*) FROM player")! }
        }
        func addPlayer(_ writer: some DatabaseWriter) throws {
            try writer.write { try $0.execute(sql: "INSERT INTO player DEFAULT VALUES") }
        }
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db throws in try db.execute(sql: "CREATE TABLE player (id INTEGER PRIMARY KEY)") }
        try addPlayer(dbQueue)
        try addPlayer(dbQueue)
        #expect(try playerCount(dbQueue) == 2)
        let writer: any DatabaseWriter = dbQueue
        #expect(try writer.read { try Int.fetchOne($0, sql: "SELECT COUNT(*) FROM player") } == 2)
    }

    @Test func interruptFailsTheRunningStatement() throws {
        let dbQueue = try DatabaseQueue()
        let error = try #require(#expect(throws: DatabaseError.self) {
            try dbQueue.read { db throws in
                // The function interrupts the connection from inside the statement.
                // Weak: the connection owns its functions.
                db.add(function: DatabaseFunction("interruptAt", argumentCount: 2) { [weak dbQueue] values in
                    if values[0] == values[1] { dbQueue?.interrupt() }
                    return values[0]
                })
                _ = try Int.fetchAll(db, sql: """
                    WITH RECURSIVE n(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM n WHERE x < 1000)
                    SELECT interruptAt(x, 10) FROM n
                    """)
            }
        })
        #expect(error.resultCode == .SQLITE_INTERRUPT)
        // The connection is usable again.
        #expect(try dbQueue.read { try Int.fetchOne($0, sql: "SELECT 1") } == 1)
    }

    @Test func releaseMemoryKeepsTheDatabase() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db throws in
            try db.execute(sql: "CREATE TABLE t (a); INSERT INTO t VALUES (1)")
            _ = try db.cachedStatement(sql: "SELECT a FROM t")
        }
        dbQueue.releaseMemory()
        #expect(try dbQueue.read { try Int.fetchOne($0, sql: "SELECT a FROM t") } == 1)
    }

    @Test func closeIsIdempotentAndInterruptAfterCloseDoesNothing() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db throws in try db.execute(sql: "CREATE TABLE t (a)") }
        try dbQueue.close()
        try dbQueue.close()
        dbQueue.interrupt()
        // Still closed, and still refusing accesses as after the first close.
        let error = try #require(throws: DatabaseError.self) { try dbQueue.read { _ in } }
        #expect(error.resultCode == .SQLITE_MISUSE)
    }

    @Test func closeInsideATransactionIsAnError() throws {
        var config = Configuration()
        config.allowsUnsafeTransactions = true
        let dbQueue = try DatabaseQueue(configuration: config)
        try dbQueue.writeWithoutTransaction { db throws in try db.execute(sql: "BEGIN") }
        let error = #expect(throws: DatabaseError.self) { try dbQueue.close() }
        #expect(error?.resultCode == .SQLITE_MISUSE)
        try dbQueue.writeWithoutTransaction { db throws in try db.execute(sql: "ROLLBACK") }
        try dbQueue.close()
    }

    /// As GRDB documents it: after `close()`, every access throws
    /// `SQLITE_MISUSE`; the closure does not run.
    @Test func accessAfterCloseThrows() async throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.close()
        let accesses: [(String, () throws -> Void)] = [
            ("read", { try dbQueue.read(Self.mustNotRun) }),
            ("write", { try dbQueue.write(Self.mustNotRun) }),
            ("inTransaction", { try dbQueue.inTransaction { Self.mustNotRun($0); return .commit } }),
        ]
        for (name, access) in accesses {
            let error = #expect(throws: DatabaseError.self, "\(name)") { try access() }
            #expect(error?.resultCode == .SQLITE_MISUSE)
            #expect(error?.message == "Connection is closed")
        }
        for asyncAccess in [AsyncAccess.read, .write, .writeWithoutTransaction, .unsafeRead] {
            let error = await #expect(throws: DatabaseError.self, "\(asyncAccess)") {
                try await asyncAccess.run(dbQueue)
            }
            #expect(error?.resultCode == .SQLITE_MISUSE)
        }
        dbQueue.releaseMemory() // nothing to release
    }

    @Sendable static func mustNotRun(_ db: Database) {
        Issue.record("an access ran after close()")
    }

    enum AsyncAccess: CaseIterable {
        case read, write, writeWithoutTransaction, unsafeRead

        func run(_ dbQueue: DatabaseQueue) async throws {
            switch self {
            case .read: try await dbQueue.read(DatabaseQueueTests.mustNotRun)
            case .write: try await dbQueue.write(DatabaseQueueTests.mustNotRun)
            case .writeWithoutTransaction: try await dbQueue.writeWithoutTransaction(DatabaseQueueTests.mustNotRun)
            case .unsafeRead: try await dbQueue.unsafeRead(DatabaseQueueTests.mustNotRun)
            }
        }
    }

    /// As GRDB: the methods that only rethrow the errors of their closure
    /// run it after `close()`, with a connection whose statements throw
    /// `SQLITE_MISUSE` (cached ones included), and touch no freed handle.
    @Test(arguments: [
        "inDatabase", "writeWithoutTransaction", "unsafeRead", "unsafeReentrantRead", "unsafeReentrantWrite"
    ])
    func nonThrowingAccessAfterCloseRunsOnAClosedConnection(method: String) throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.inDatabase { db throws in
            try db.execute(sql: "CREATE TABLE t (a)")
            _ = try db.cachedStatement(sql: "SELECT * FROM t")
        }
        try dbQueue.close()
        func access(_ body: (Database) throws -> Void) throws {
            switch method {
            case "inDatabase": try dbQueue.inDatabase(body)
            case "writeWithoutTransaction": try dbQueue.writeWithoutTransaction(body)
            case "unsafeRead": try dbQueue.unsafeRead(body)
            case "unsafeReentrantRead": try dbQueue.unsafeReentrantRead(body)
            default: try dbQueue.unsafeReentrantWrite(body)
            }
        }
        var ran = false
        let error = #expect(throws: DatabaseError.self) {
            try access { db in
                ran = true
                try db.execute(sql: "SELECT * FROM t")
            }
        }
        #expect(ran)
        #expect(error?.resultCode == .SQLITE_MISUSE)
        #expect(error?.message == "Connection is closed")
        #expect(error?.sql == "SELECT * FROM t")
        try access { db in
            for statement in [{ _ = try db.cachedStatement(sql: "SELECT * FROM t") },
                              { _ = try db.makeStatement(sql: "SELECT 1") },
                              { _ = try Int.fetchOne(db, sql: "SELECT 1") },
                              { try db.inTransaction { .commit } },
                              { try db.checkpoint() }] {
                let error = #expect(throws: DatabaseError.self) { try statement() }
                #expect(error?.resultCode == .SQLITE_MISUSE)
            }
            #expect(!db.isInsideTransaction)
            #expect(db.changesCount == 0)
            #expect(db.lastErrorCode == .SQLITE_MISUSE)
            db.add(function: DatabaseFunction("f", argumentCount: 0) { _ in 1 })
            db.releaseMemory()
            db.interrupt()
        }
        // Closing again does nothing.
        try dbQueue.close()
    }

    /// `asyncWriteWithoutTransaction` runs its closure after `close()` too.
    @Test func asyncWriteWithoutTransactionAfterCloseRunsOnAClosedConnection() async throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.close()
        let error: DatabaseError? = await withCheckedContinuation { continuation in
            dbQueue.asyncWriteWithoutTransaction { db in
                do {
                    try db.execute(sql: "SELECT 1")
                    continuation.resume(returning: nil)
                } catch {
                    continuation.resume(returning: error as? DatabaseError)
                }
            }
        }
        #expect(error?.resultCode == .SQLITE_MISUSE)
        #expect(error?.message == "Connection is closed")

        // `asyncWrite` gives the error to its completion.
        let writeError: DatabaseError? = await withCheckedContinuation { continuation in
            dbQueue.asyncWrite({ db in try db.execute(sql: "SELECT 1") }, completion: { _, result in
                guard case .failure(let error) = result else { return continuation.resume(returning: nil) }
                continuation.resume(returning: error as? DatabaseError)
            })
        }
        #expect(writeError?.resultCode == .SQLITE_MISUSE)
    }

    /// As GRDB: a statement still alive prevents closing (`SQLITE_BUSY`),
    /// and the queue stays usable.
    @Test func closeFailsWhileAStatementIsAlive() throws {
        let dbQueue = try DatabaseQueue()
        do {
            let statement = try dbQueue.inDatabase { db throws in
                try db.makeStatement(sql: "SELECT * FROM sqlite_master")
            }
            try withExtendedLifetime(statement) {
                let error = #expect(throws: DatabaseError.self) { try dbQueue.close() }
                #expect(error?.resultCode == .SQLITE_BUSY)
                try dbQueue.inDatabase { db throws in try db.execute(sql: "SELECT * FROM sqlite_master") }
            }
        }
        try dbQueue.inDatabase { db throws in try db.execute(sql: "SELECT * FROM sqlite_master") }
        try dbQueue.close()
        let error = #expect(throws: DatabaseError.self) {
            try dbQueue.inDatabase { db throws in try db.execute(sql: "SELECT * FROM sqlite_master") }
        }
        #expect(error?.resultCode == .SQLITE_MISUSE)
    }

    /// `unsafeRead` runs outside of any transaction, and may write (GRDB's
    /// `DatabaseQueue.unsafeRead`).
    @Test func unsafeReadRunsOutsideOfAnyTransaction() async throws {
        let dbQueue = try DatabaseQueue()
        try { () throws in
            #expect(dbQueue.unsafeRead { $0.isInsideTransaction } == false)
            try dbQueue.unsafeRead { db throws in try db.execute(sql: "CREATE TABLE t (a)") }
        }()
        #expect(try await dbQueue.unsafeRead { try $0.tableExists("t") })
        #expect(try await dbQueue.unsafeRead { $0.isInsideTransaction } == false)
    }

    @Test func openingFailureIsAnError() throws {
        var configuration = Configuration()
        configuration.prepareDatabase { _ in throw CoreTestError(message: "setup failed") }
        let error = #expect(throws: CoreTestError.self) { try DatabaseQueue(configuration: configuration) }
        #expect(error?.message == "setup failed")
    }

    @Test func sqliteVersion() {
        #expect(Database.sqliteLibVersionNumber >= 3_040_000)
        #expect(Database.sqliteLibVersion.hasPrefix("3."))
    }

    /// `Scripts/test.sh --sqlite VERSION` sets GRDBLITE_EXPECT_SQLITE_VERSION:
    /// a leg whose dynamic loader found another libsqlite3 fails here instead
    /// of running the suite on the wrong SQLite.
    @Test(.enabled(if: ProcessInfo.processInfo.environment["GRDBLITE_EXPECT_SQLITE_VERSION"] != nil))
    func sqliteVersionIsTheExpectedOne() throws {
        let expected = try #require(ProcessInfo.processInfo.environment["GRDBLITE_EXPECT_SQLITE_VERSION"])
        #expect(Database.sqliteLibVersion == expected)
        // sqlite3_libversion() and sqlite_version() both come from the
        // library that was loaded, not from the headers GRDBLite built with.
        #expect(try DatabaseQueue().read { try String.fetchOne($0, sql: "SELECT sqlite_version()") } == expected)
    }

    @Test func lastErrorOfTheConnection() throws {
        let dbQueue = try DatabaseQueue()
        dbQueue.inDatabase { db in
            _ = try? db.execute(sql: "SELECT * FROM nope")
            #expect(db.lastErrorCode == .SQLITE_ERROR)
            #expect(db.lastErrorMessage == "no such table: nope")
        }
    }
}
