import Dispatch
import Foundation
import GRDBLite
import Testing
import TestSupport

/// `DatabaseWriter` behaves the same on a queue and on a pool, through
/// `some DatabaseWriter` (after GRDB's DatabaseWriterTests).
@Suite struct DatabaseWriterTests {
    private static func withWriter(_ kind: WriterKind, _ body: (any DatabaseWriter) throws -> Void) throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        try body(kind.make(directory))
    }

    private static func withWriter(_ kind: WriterKind, _ body: (any DatabaseWriter) async throws -> Void) async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        try await body(kind.make(directory))
    }

    private static func count(_ reader: some DatabaseReader, _ table: String = "t") throws -> Int {
        try reader.read { try Int.fetchOne($0, sql: "SELECT COUNT(*) FROM \(table)")! }
    }

    // MARK: - Transactions

    @Test(arguments: WriterKind.allCases)
    func writeCommitsOrRollsBack(kind: WriterKind) throws {
        try Self.withWriter(kind) { writer in
            try writer.write { try $0.execute(sql: "CREATE TABLE t (a UNIQUE)") }
            #expect(try writer.write { db in
                try db.execute(sql: "INSERT INTO t VALUES (1)")
                return db.isInsideTransaction
            })
            #expect(throws: DatabaseError.self) {
                try writer.write { db in
                    try db.execute(sql: "INSERT INTO t VALUES (2)")
                    try db.execute(sql: "INSERT INTO t VALUES (1)")
                }
            }
            #expect(try Self.count(writer) == 1)
            #expect(writer.writeWithoutTransaction { $0.isInsideTransaction } == false)
        }
    }

    @Test(arguments: WriterKind.allCases)
    func readIsAReadOnlyTransaction(kind: WriterKind) async throws {
        try await Self.withWriter(kind) { writer in
            #expect(try blocking { try writer.read { $0.isInsideTransaction } })
            let error = #expect(throws: DatabaseError.self) {
                try blocking { try writer.read { try $0.execute(sql: "CREATE TABLE t (a)") } }
            }
            #expect(error?.resultCode == .SQLITE_READONLY)
            let asyncError = await #expect(throws: DatabaseError.self) {
                try await writer.read { try $0.execute(sql: "CREATE TABLE t (a)") }
            }
            #expect(asyncError?.resultCode == .SQLITE_READONLY)
            // Writes work again after the reads.
            try blocking { try writer.write { try $0.execute(sql: "CREATE TABLE t (a)") } }
            #expect(try Self.count(writer) == 0)
        }
    }

    @Test(arguments: WriterKind.allCases)
    func unsafeReadRunsOutsideOfATransaction(kind: WriterKind) async throws {
        try await Self.withWriter(kind) { writer in
            try blocking { try writer.write { try $0.execute(sql: "CREATE TABLE t (a); INSERT INTO t VALUES (1)") } }
            #expect(try blocking { try writer.unsafeRead { $0.isInsideTransaction } } == false)
            #expect(try blocking { try writer.unsafeRead { try Int.fetchOne($0, sql: "SELECT a FROM t") } } == 1)
            #expect(try await writer.unsafeRead { $0.isInsideTransaction } == false)
        }
    }

    // MARK: - Reentrant accesses

    @Test(arguments: WriterKind.allCases)
    func unsafeReentrantAccessesAreReentrant(kind: WriterKind) throws {
        try Self.withWriter(kind) { writer in
            try writer.unsafeReentrantWrite { db1 in
                try db1.execute(sql: "CREATE TABLE t (id INTEGER PRIMARY KEY)")
                try writer.unsafeReentrantWrite { db2 in
                    try db2.execute(sql: "INSERT INTO t DEFAULT VALUES")
                    try writer.unsafeReentrantWrite { db3 throws in
                        #expect(try Int.fetchOne(db3, sql: "SELECT id FROM t") == 1)
                        #expect(db1 === db2 && db2 === db3)
                    }
                }
            }
            try writer.unsafeReentrantRead { db1 in
                try writer.unsafeReentrantRead { db2 in
                    #expect(db1 === db2)
                }
            }
            try writer.write { db1 in
                try writer.unsafeReentrantRead { db2 in
                    try writer.unsafeReentrantRead { db3 in
                        #expect(db1 === db2 && db2 === db3)
                        #expect(db3.isInsideTransaction)
                    }
                }
            }
            try writer.read { db1 in
                try writer.unsafeReentrantRead { db2 in
                    #expect(db1 === db2)
                }
            }
        }
    }

    // MARK: - Asynchronous accesses

    @Test(arguments: WriterKind.allCases)
    func asyncWriteWithoutTransactionRunsLater(kind: WriterKind) async throws {
        try await Self.withWriter(kind) { writer in
            let outcome = try await onThread {
                let started = DispatchSemaphore(value: 0)
                let done = DispatchSemaphore(value: 0)
                let result = LockedValue<String?>(nil)
                writer.asyncWriteWithoutTransaction { db in
                    // Runs after asyncWriteWithoutTransaction returned.
                    _ = started.wait(timeout: .now() + stepTimeout)
                    do {
                        try db.execute(sql: "CREATE TABLE t (a)")
                        result.update { $0 = "transaction: \(db.isInsideTransaction)" }
                    } catch {
                        result.update { $0 = "\(error)" }
                    }
                    done.signal()
                }
                started.signal()
                try done.waitOrThrow()
                return result.value
            }
            #expect(outcome == "transaction: false")
            #expect(try Self.count(writer) == 0)
        }
    }

    @Test(arguments: WriterKind.allCases)
    func asyncWriteCompletes(kind: WriterKind) async throws {
        try await Self.withWriter(kind) { writer in
            try blocking { try writer.write { try $0.execute(sql: "CREATE TABLE t (a UNIQUE)") } }
            func asyncWrite(_ sql: String) async -> (inTransaction: Bool, result: Result<Int, any Error>) {
                await withCheckedContinuation { continuation in
                    writer.asyncWrite({ db in
                        try db.execute(sql: sql)
                        return try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM t")!
                    }, completion: { db, result in
                        continuation.resume(returning: (db.isInsideTransaction, result))
                    })
                }
            }
            let success = await asyncWrite("INSERT INTO t VALUES (1)")
            #expect(success.inTransaction == false)
            #expect(try success.result.get() == 1)
            let failure = await asyncWrite("INSERT INTO t VALUES (1)")
            #expect(failure.inTransaction == false)
            #expect(throws: DatabaseError.self) { try failure.result.get() }
            let syntax = await asyncWrite("This is not SQL")
            #expect((syntax.result.error as? DatabaseError)?.sql == "This is not SQL")
            #expect(try Self.count(writer) == 1)
        }
    }

    @Test(arguments: WriterKind.allCases)
    func asyncReadRunsLaterInAReadOnlyTransaction(kind: WriterKind) async throws {
        try await Self.withWriter(kind) { writer in
            try blocking { try writer.write { try $0.execute(sql: "CREATE TABLE t (a); INSERT INTO t VALUES (1)") } }
            let outcome = try await onThread {
                let started = DispatchSemaphore(value: 0)
                let done = DispatchSemaphore(value: 0)
                let result = LockedValue<[String]>([])
                writer.asyncRead { dbResult in
                    _ = started.wait(timeout: .now() + stepTimeout)
                    do {
                        let db = try dbResult.get()
                        try result.update { try $0.append("count \(Int.fetchOne(db, sql: "SELECT COUNT(*) FROM t")!)") }
                        result.update { $0.append("transaction: \(db.isInsideTransaction)") }
                        try db.execute(sql: "INSERT INTO t VALUES (2)")
                    } catch let error as DatabaseError {
                        result.update { $0.append("\(error.resultCode)") }
                    } catch {
                        result.update { $0.append("\(error)") }
                    }
                    done.signal()
                }
                started.signal()
                try done.waitOrThrow()
                return result.value
            }
            #expect(outcome == ["count 1", "transaction: true", "\(ResultCode.SQLITE_READONLY)"])
            // The connection is writable again (a queue), or the reader is
            // reusable (a pool).
            try blocking { try writer.write { try $0.execute(sql: "INSERT INTO t VALUES (2)") } }
            #expect(try Self.count(writer) == 2)
        }
    }

    @Test(arguments: WriterKind.allCases)
    func asyncUnsafeReadRunsOutsideOfATransaction(kind: WriterKind) async throws {
        try await Self.withWriter(kind) { writer in
            let inTransaction = try await withCheckedThrowingContinuation { continuation in
                writer.asyncUnsafeRead { dbResult in
                    continuation.resume(with: dbResult.map { $0.isInsideTransaction })
                }
            }
            #expect(inTransaction == false)
        }
    }

    @Test(arguments: WriterKind.allCases)
    func asyncAwaitAccesses(kind: WriterKind) async throws {
        try await Self.withWriter(kind) { writer in
            try await writer.write { try $0.execute(sql: "CREATE TABLE t (id INTEGER PRIMARY KEY)") }
            let inserted = try await writer.write { db in
                try db.execute(sql: "INSERT INTO t DEFAULT VALUES")
                return try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM t")!
            }
            #expect(inserted == 1)
            let withoutTransaction = try await writer.writeWithoutTransaction { db in
                try db.beginTransaction()
                try db.execute(sql: "INSERT INTO t DEFAULT VALUES")
                let count = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM t")!
                try db.commit()
                return count
            }
            #expect(withoutTransaction == 2)
            let barrier = try await writer.barrierWriteWithoutTransaction { db in
                try db.execute(sql: "INSERT INTO t DEFAULT VALUES")
                return try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM t")!
            }
            #expect(barrier == 3)
            // A read after a write sees it.
            #expect(try await writer.read { try Int.fetchOne($0, sql: "SELECT COUNT(*) FROM t") } == 3)
        }
    }

    @Test(arguments: WriterKind.allCases)
    func barrierWrites(kind: WriterKind) async throws {
        try await Self.withWriter(kind) { writer in
            try blocking {
                try writer.barrierWriteWithoutTransaction { db in
                    #expect(!db.isInsideTransaction)
                    try db.execute(sql: "CREATE TABLE t (a)")
                }
            }
            let inTransaction = try await withCheckedThrowingContinuation { continuation in
                writer.asyncBarrierWriteWithoutTransaction { dbResult in
                    continuation.resume(with: dbResult.flatMap { db in
                        Result {
                            try db.execute(sql: "INSERT INTO t VALUES (1)")
                            return db.isInsideTransaction
                        }
                    })
                }
            }
            #expect(inTransaction == false)
            #expect(try Self.count(writer) == 1)
        }
    }

    // MARK: - spawnConcurrentRead

    /// The read sees the state of the last commit at the moment of the
    /// call, not the writes that follow it (GRDB's example).
    @Test(arguments: WriterKind.allCases)
    func spawnConcurrentReadSeesTheLastCommit(kind: WriterKind) async throws {
        try await Self.withWriter(kind) { writer in
            try blocking {
                try writer.write { try $0.execute(sql: "CREATE TABLE t (a); INSERT INTO t VALUES (1), (2)") }
            }
            let counts = try await onThread {
                let done = DispatchSemaphore(value: 0)
                let counts = LockedValue<[Int]>([])
                try writer.writeWithoutTransaction { db in
                    try db.execute(sql: "DELETE FROM t")
                    writer.spawnConcurrentRead { dbResult in
                        do {
                            let db = try dbResult.get()
                            try counts.update { try $0.append(Int.fetchOne(db, sql: "SELECT COUNT(*) FROM t")!) }
                            counts.update { $0.append(db.isInsideTransaction ? 1 : 0) }
                        } catch {
                            counts.update { $0.append(-1) }
                        }
                        done.signal()
                    }
                    try db.execute(sql: "INSERT INTO t VALUES (3)")
                }
                try done.waitOrThrow()
                return counts.value
            }
            #expect(counts == [0, 1])
            #expect(try Self.count(writer) == 1)
        }
    }

    @Test(arguments: WriterKind.allCases)
    func spawnConcurrentReadInsideATransactionTraps(kind: WriterKind) async {
        await #expect(processExitsWith: .failure) { [kind] in
            let directory = try TemporaryDirectory()
            let writer = try kind.make(directory)
            try writer.write { _ in writer.spawnConcurrentRead { _ in } }
        }
    }

    @Test(arguments: WriterKind.allCases)
    func spawnConcurrentReadOutsideOfTheWriterTraps(kind: WriterKind) async {
        await #expect(processExitsWith: .failure) { [kind] in
            let directory = try TemporaryDirectory()
            let writer = try kind.make(directory)
            writer.spawnConcurrentRead { _ in }
        }
    }

    // MARK: - Observers, migrations, maintenance

    @Test(arguments: WriterKind.allCases)
    func transactionObserversObserveTheWriter(kind: WriterKind) throws {
        final class CommitCounter: TransactionObserver, @unchecked Sendable {
            var commits = 0
            func observes(eventsOfKind eventKind: DatabaseEventKind) -> Bool { true }
            func databaseDidChange(with event: DatabaseEvent) { }
            func databaseDidCommit(_ db: Database) { commits += 1 }
            func databaseDidRollback(_ db: Database) { }
        }
        try Self.withWriter(kind) { writer in
            let observer = CommitCounter()
            writer.add(transactionObserver: observer)
            try writer.write { try $0.execute(sql: "CREATE TABLE t (a); INSERT INTO t VALUES (1)") }
            _ = try writer.read { try Int.fetchOne($0, sql: "SELECT COUNT(*) FROM t") }
            #expect(writer.writeWithoutTransaction { _ in observer.commits } == 1)
            writer.remove(transactionObserver: observer)
            try writer.write { try $0.execute(sql: "INSERT INTO t VALUES (2)") }
            #expect(writer.writeWithoutTransaction { _ in observer.commits } == 1)
        }
    }

    @Test(arguments: WriterKind.allCases)
    func migratorMigratesEveryWriter(kind: WriterKind) throws {
        try Self.withWriter(kind) { writer in
            var migrator = DatabaseMigrator()
            migrator.registerMigration("v1") { db in
                try db.create(table: "player") { t in
                    t.autoIncrementedPrimaryKey("id")
                    t.column("name", .text).notNull()
                }
            }
            try migrator.migrate(writer)
            try writer.write { try $0.execute(sql: "INSERT INTO player (name) VALUES ('Arthur')") }
            #expect(try writer.read { try migrator.appliedMigrations($0) } == ["v1"])
            #expect(try Self.count(writer, "player") == 1)
        }
    }

    /// `erase()` leaves an empty database; the readers of a pool see it.
    @Test(arguments: WriterKind.allCases)
    func eraseEmptiesTheDatabase(kind: WriterKind) async throws {
        try await Self.withWriter(kind) { writer in
            let schema = """
                CREATE TABLE t1 (id INTEGER PRIMARY KEY, c REFERENCES t2(id) DEFERRABLE INITIALLY DEFERRED);
                CREATE TABLE t2 (id INTEGER PRIMARY KEY, c REFERENCES t1(id) DEFERRABLE INITIALLY DEFERRED);
                CREATE INDEX i ON t1(c);
                CREATE VIEW v AS SELECT id FROM t1;
                INSERT INTO t1 VALUES (1, 1); INSERT INTO t2 VALUES (1, 1)
                """
            try blocking {
                try writer.write { try $0.execute(sql: schema) }
                #expect(try writer.read { try $0.tableExists("t1") })
                try writer.erase()
                #expect(try writer.read { try Row.fetchAll($0, sql: "SELECT * FROM sqlite_master") }.isEmpty)
                try writer.write { try $0.execute(sql: schema) }
            }
            try await writer.erase()
            #expect(try await writer.read { try Row.fetchAll($0, sql: "SELECT * FROM sqlite_master").count } == 0)
        }
    }

    /// With `eraseDatabaseOnSchemaChange`, a changed migration recreates
    /// the database.
    @Test(arguments: WriterKind.allCases)
    func migratorErasesOnSchemaChange(kind: WriterKind) throws {
        try Self.withWriter(kind) { writer in
            var first = DatabaseMigrator()
            first.registerMigration("v1") { try $0.execute(sql: "CREATE TABLE t (a)") }
            try first.migrate(writer)
            try writer.write { try $0.execute(sql: "INSERT INTO t VALUES (1)") }
            var changed = DatabaseMigrator()
            changed.eraseDatabaseOnSchemaChange = true
            changed.registerMigration("v1") { try $0.execute(sql: "CREATE TABLE t (a, b)") }
            try changed.migrate(writer)
            #expect(try writer.read { try $0.columns(in: "t").map(\.name) } == ["a", "b"])
            #expect(try Self.count(writer) == 0)
        }
    }

    @Test(arguments: WriterKind.allCases)
    func vacuum(kind: WriterKind) async throws {
        try await Self.withWriter(kind) { writer in
            try blocking { try writer.write { try $0.execute(sql: "CREATE TABLE t (a); INSERT INTO t VALUES (1)") } }
            try blocking { try writer.vacuum() }
            try await writer.vacuum()
            let directory = try TemporaryDirectory()
            defer { directory.remove() }
            try blocking { try writer.vacuum(into: directory.path("copy.sqlite")) }
            try await writer.vacuum(into: directory.path("copy2.sqlite"))
            for name in ["copy.sqlite", "copy2.sqlite"] {
                let copy = try DatabaseQueue(path: directory.path(name))
                #expect(try Self.count(copy) == 1)
            }
        }
    }

    // MARK: - Type erasure

    @Test(arguments: WriterKind.allCases)
    func typeErasedWritersAndReadersForward(kind: WriterKind) async throws {
        try await Self.withWriter(kind) { writer in
            let anyWriter = AnyDatabaseWriter(writer)
            let anyReader = AnyDatabaseReader(writer)
            #expect(anyWriter.path == writer.path)
            #expect(anyReader.configuration.maximumReaderCount == writer.configuration.maximumReaderCount)
            try blocking { try anyWriter.write { try $0.execute(sql: "CREATE TABLE t (a)") } }
            try await anyWriter.write { try $0.execute(sql: "INSERT INTO t VALUES (1)") }
            #expect(try Self.count(anyReader) == 1)
            #expect(try await anyReader.read { try Int.fetchOne($0, sql: "SELECT COUNT(*) FROM t") } == 1)
            #expect(try anyReader.unsafeReentrantRead { try Int.fetchOne($0, sql: "SELECT a FROM t") } == 1)
            try anyReader.close()
            #expect(throws: DatabaseError.self) { try writer.read { _ in } }
        }
    }

    // MARK: - Closing

    /// As GRDB documents it: after `close()`, every access that can throw
    /// throws `SQLITE_MISUSE`, and the `Result` ones get it.
    @Test(arguments: WriterKind.allCases)
    func accessesAfterCloseThrow(kind: WriterKind) async throws {
        try await Self.withWriter(kind) { writer in
            try blocking { try writer.read { _ in } }
            try writer.close()
            try writer.close()
            let accesses: [(String, () throws -> Void)] = [
                ("read", { try writer.read(Self.mustNotRun) }),
                ("write", { try writer.write(Self.mustNotRun) }),
                ("barrierWriteWithoutTransaction", { try writer.barrierWriteWithoutTransaction(Self.mustNotRun) }),
            ]
            for (name, access) in accesses {
                let error = #expect(throws: DatabaseError.self, "\(name)") { try access() }
                #expect(error?.resultCode == .SQLITE_MISUSE)
                #expect(error?.message == "Connection is closed")
            }
            let asyncAccesses: [(String, () async throws -> Void)] = [
                ("read", { try await writer.read(Self.mustNotRun) }),
                ("unsafeRead", { try await writer.unsafeRead(Self.mustNotRun) }),
                ("write", { try await writer.write(Self.mustNotRun) }),
                ("writeWithoutTransaction", { try await writer.writeWithoutTransaction(Self.mustNotRun) }),
                ("barrierWriteWithoutTransaction", { try await writer.barrierWriteWithoutTransaction(Self.mustNotRun) })
            ]
            for (name, access) in asyncAccesses {
                let error = await #expect(throws: DatabaseError.self, "\(name)") { try await access() }
                #expect(error?.resultCode == .SQLITE_MISUSE)
            }
            let resultAccesses: [(String, (@escaping @Sendable (Result<Database, any Error>) -> Void) -> Void)] = [
                ("asyncRead", writer.asyncRead),
                ("asyncUnsafeRead", writer.asyncUnsafeRead),
                ("asyncBarrierWriteWithoutTransaction", writer.asyncBarrierWriteWithoutTransaction),
            ]
            for (name, access) in resultAccesses {
                let error = await withCheckedContinuation { continuation in
                    access { continuation.resume(returning: $0.error as? DatabaseError) }
                }
                #expect(error?.resultCode == .SQLITE_MISUSE, "\(name)")
            }
            writer.interrupt()
        }
    }

    @Sendable static func mustNotRun(_ db: Database) {
        Issue.record("an access ran after close()")
    }
}

extension Result {
    /// The error of a failure.
    var error: Failure? {
        if case .failure(let error) = self { return error }
        return nil
    }
}
