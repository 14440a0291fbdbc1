import Foundation
@_spi(GRDBLite) import GRDBLite
import TestSupport
import Testing

/// After a commit, the value observations of a queue fetch in one shared
/// read-only transaction, ended before any observer that may write.
@Suite struct DatabaseSharedCommitReadTests {
    /// A queue with tables `t` and `other`.
    private func makeQueue() throws -> DatabaseQueue {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db in
            try db.execute(sql: "CREATE TABLE t(id INTEGER PRIMARY KEY); CREATE TABLE other(id INTEGER PRIMARY KEY)")
        }
        return dbQueue
    }

    /// The statements of an insert into `t` and of the fetches after its
    /// commit (PRAGMAs left out).
    private func recordInsertIntoT(_ dbQueue: DatabaseQueue) throws -> [String] {
        try dbQueue.inDatabase { db in
            try recordedSQL(db) { try db.execute(sql: "INSERT INTO t DEFAULT VALUES") }
        }.filter { !$0.hasPrefix("PRAGMA") }
    }

    private func startCount(
        of table: String, in dbQueue: DatabaseQueue, requiresWriteAccess: Bool = false,
        fetch: (@Sendable (Database) throws -> Void)? = nil
    ) async throws -> (ObservationRecorder<Int>, AnyDatabaseCancellable)
    {
        let recorder = ObservationRecorder<Int>()
        var observation = ValueObservation.tracking { db in
            try fetch?(db)
            return try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM \(table)")!
        }
        observation.requiresWriteAccess = requiresWriteAccess
        let cancellable = observation.start(
            in: dbQueue, scheduling: .async(onQueue: ObservationQueue().queue), recorder: recorder)
        // Started (and added as a transaction observer) before the next one.
        try await recorder.waitForValues(count: 1)
        return (recorder, cancellable)
    }

    @Test func observationsToldOfACommitFetchInOneTransaction() async throws {
        let dbQueue = try makeQueue()
        let observations = [
            try await startCount(of: "t", in: dbQueue),
            try await startCount(of: "t", in: dbQueue),
            try await startCount(of: "t", in: dbQueue),
        ]
        #expect(try recordInsertIntoT(dbQueue) == [
            "INSERT INTO t DEFAULT VALUES",
            "BEGIN DEFERRED TRANSACTION",
            "SELECT COUNT(*) FROM t",
            "SELECT COUNT(*) FROM t",
            "SELECT COUNT(*) FROM t",
            "COMMIT TRANSACTION",
        ])
        for (recorder, cancellable) in observations {
            #expect(try await recorder.waitForValues(count: 2) == [0, 1])
            cancellable.cancel()
        }
        // The connection is out of the transaction, and writes.
        #expect(dbQueue.inDatabase { $0.isInsideTransaction } == false)
        try await dbQueue.write { db in try db.execute(sql: "INSERT INTO t DEFAULT VALUES") }
    }

    /// The shared transaction refuses writes statement by statement, not
    /// with `PRAGMA query_only`, which would make every statement of the
    /// connection compile again after each commit.
    @Test func noPragmaBetweenCommits() async throws {
        let dbQueue = try makeQueue()
        let (recorder, cancellable) = try await startCount(of: "t", in: dbQueue)
        _ = try recordInsertIntoT(dbQueue)
        let sql = try dbQueue.inDatabase { db in
            try recordedSQL(db) {
                try db.execute(sql: "INSERT INTO t DEFAULT VALUES")
                try db.execute(sql: "INSERT INTO t DEFAULT VALUES")
            }
        }
        #expect(!sql.contains { $0.hasPrefix("PRAGMA") })
        #expect(try await recorder.waitForValues(count: 4) == [0, 1, 2, 3])
        cancellable.cancel()
    }

    /// A fetch after a commit that writes fails as with `PRAGMA
    /// query_only`, and the connection writes again afterwards.
    @Test(arguments: ["INSERT INTO other DEFAULT VALUES", "CREATE TEMP TABLE scratch(a)", "PRAGMA user_version = 2"])
    func aFetchAfterACommitCantWrite(_ sql: String) async throws {
        let dbQueue = try makeQueue()
        let (first, cancelFirst) = try await startCount(of: "t", in: dbQueue)
        let (writing, cancelWriting) = try await startCount(of: "t", in: dbQueue, fetch: { db in
            if try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM t")! > 0 { try db.execute(sql: sql) }
        })
        let (last, cancelLast) = try await startCount(of: "t", in: dbQueue)
        try await dbQueue.write { db in try db.execute(sql: "INSERT INTO t DEFAULT VALUES") }
        let error = try #require(try await writing.waitForError() as? DatabaseError)
        #expect(error.resultCode == .SQLITE_READONLY)
        #expect(error.message == "attempt to write a readonly database")
        #expect(error.sql == sql)
        #expect(try await first.waitForValues(count: 2) == [0, 1])
        #expect(try await last.waitForValues(count: 2) == [0, 1])
        try await dbQueue.write { db in
            try db.execute(sql: "INSERT INTO other DEFAULT VALUES")
            try db.execute(sql: "CREATE TEMP TABLE scratch(a)")
            try db.execute(sql: "PRAGMA user_version = 3")
        }
        #expect(try await dbQueue.read { db in
            [
                try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM other"),
                try Int.fetchOne(db, sql: "PRAGMA user_version"),
            ]
        } == [1, 3])
        cancelFirst.cancel()
        cancelWriting.cancel()
        cancelLast.cancel()
    }

    /// A statement that SQLite doesn't count as read-only, though it only
    /// reads (`PRAGMA journal_mode`), runs as with `PRAGMA query_only`.
    @Test func aReadOnlyPragmaAfterACommit() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        var configuration = Configuration()
        configuration.prepareDatabase { db in try db.execute(sql: "PRAGMA journal_mode = WAL") }
        let dbQueue = try DatabaseQueue(path: directory.path(), configuration: configuration)
        try await dbQueue.write { db in try db.execute(sql: "CREATE TABLE t(id INTEGER PRIMARY KEY)") }
        let (recorder, cancellable) = try await startCount(of: "t", in: dbQueue, fetch: { db in
            _ = try String.fetchOne(db, sql: "PRAGMA journal_mode")
        })
        try await dbQueue.write { db in try db.execute(sql: "INSERT INTO t DEFAULT VALUES") }
        #expect(try await recorder.waitForValues(count: 2) == [0, 1])
        try await dbQueue.write { db in try db.execute(sql: "INSERT INTO t DEFAULT VALUES") }
        #expect(try await recorder.waitForValues(count: 3) == [0, 1, 2])
        cancellable.cancel()
    }

    /// A fetch that ends the shared transaction (COMMIT, ROLLBACK) fails
    /// at its next statement, as in a transaction of its own; the next
    /// observations fetch in a new one.
    @Test(arguments: ["COMMIT", "ROLLBACK"]) func aFetchThatEndsTheTransactionFails(_ sql: String) async throws {
        let dbQueue = try makeQueue()
        let (ending, cancelEnding) = try await startCount(of: "t", in: dbQueue, fetch: { db in
            if try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM t")! > 0 { try db.execute(sql: sql) }
        })
        let (last, cancelLast) = try await startCount(of: "t", in: dbQueue)
        try await dbQueue.write { db in try db.execute(sql: "INSERT INTO t DEFAULT VALUES") }
        let error = try #require(try await ending.waitForError() as? DatabaseError)
        #expect(error.resultCode == .SQLITE_ABORT)
        #expect(error.message == "Transaction was aborted")
        #expect(try await last.waitForValues(count: 2) == [0, 1])
        cancelEnding.cancel()
        cancelLast.cancel()
    }

    /// As in GRDB, where each observation fetches in a transaction of its
    /// own, each fetch sees a date of its own.
    @Test func eachObservationHasItsTransactionDate() async throws {
        let tick = LockedValue(0)
        var configuration = Configuration()
        configuration.transactionClock = .custom { _ in
            Date(timeIntervalSince1970: Double(tick.update { tick in
                tick += 1
                return tick
            }))
        }
        let dbQueue = try DatabaseQueue(configuration: configuration)
        try await dbQueue.write { db in try db.execute(sql: "CREATE TABLE t(id INTEGER PRIMARY KEY)") }
        func startDates() async throws -> (ObservationRecorder<Date>, AnyDatabaseCancellable) {
            let recorder = ObservationRecorder<Date>()
            let cancellable = ValueObservation
                .tracking { db in
                    _ = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM t")
                    return try db.transactionDate
                }
                .start(in: dbQueue, scheduling: .async(onQueue: ObservationQueue().queue), recorder: recorder)
            try await recorder.waitForValues(count: 1)
            return (recorder, cancellable)
        }
        let (first, cancelFirst) = try await startDates()
        let (second, cancelSecond) = try await startDates()
        try await dbQueue.write { db in try db.execute(sql: "INSERT INTO t DEFAULT VALUES") }
        let firstDate = try #require(try await first.waitForValues(count: 2).last)
        let secondDate = try #require(try await second.waitForValues(count: 2).last)
        #expect(firstDate < secondDate)
        cancelFirst.cancel()
        cancelSecond.cancel()
    }

    /// A transaction observer may write when told of a commit: the shared
    /// transaction ends before it.
    @Test func anObserverBetweenObservationsCanWrite() async throws {
        let dbQueue = try makeQueue()
        let (countT, cancelT) = try await startCount(of: "t", in: dbQueue)
        let writer = WritingObserver()
        dbQueue.inDatabase { db in db.add(transactionObserver: writer) }
        let (countOther, cancelOther) = try await startCount(of: "other", in: dbQueue)
        try await dbQueue.write { db in try db.execute(sql: "INSERT INTO t DEFAULT VALUES") }
        #expect(writer.results.value.count == 1)
        #expect(throws: Never.self) { try writer.results.value.first?.get() }
        #expect(try await countT.waitForValues(count: 2) == [0, 1])
        #expect(try await countOther.waitForValues(count: 2) == [0, 1])
        cancelT.cancel()
        cancelOther.cancel()
    }

    /// An observation that requires write access fetches in a transaction
    /// of its own, between the shared ones.
    @Test func anObservationThatWritesBetweenObservations() async throws {
        let dbQueue = try makeQueue()
        let (first, cancelFirst) = try await startCount(of: "t", in: dbQueue)
        let (writing, cancelWriting) = try await startCount(
            of: "t", in: dbQueue, requiresWriteAccess: true,
            fetch: { db in try db.execute(sql: "INSERT INTO other DEFAULT VALUES") })
        let (last, cancelLast) = try await startCount(of: "t", in: dbQueue)
        let traced = try recordInsertIntoT(dbQueue).filter { $0.hasPrefix("BEGIN") || $0.hasPrefix("COMMIT") }
        // The first observation, the writing one (a transaction of the
        // default kind), the last one.
        #expect(traced == [
            "BEGIN DEFERRED TRANSACTION", "COMMIT TRANSACTION",
            "BEGIN \(Configuration().defaultTransactionKind.rawValue) TRANSACTION", "COMMIT TRANSACTION",
            "BEGIN DEFERRED TRANSACTION", "COMMIT TRANSACTION",
        ])
        for recorder in [first, writing, last] {
            #expect(try await recorder.waitForValues(count: 2) == [0, 1])
        }
        #expect(try await dbQueue.read { try Int.fetchOne($0, sql: "SELECT COUNT(*) FROM other") } == 2)
        cancelFirst.cancel()
        cancelWriting.cancel()
        cancelLast.cancel()
    }

    /// A failed fetch fails its observation only: the next ones share the
    /// transaction, which ends.
    @Test func aFailedFetchDoesNotStopTheOthers() async throws {
        let dbQueue = try makeQueue()
        let (first, cancelFirst) = try await startCount(of: "t", in: dbQueue)
        let (failing, cancelFailing) = try await startCount(of: "t", in: dbQueue, fetch: { db in
            if try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM t")! > 0 {
                _ = try Row.fetchAll(db, sql: "SELECT * FROM missing")
            }
        })
        let (last, cancelLast) = try await startCount(of: "t", in: dbQueue)
        try await dbQueue.write { db in try db.execute(sql: "INSERT INTO t DEFAULT VALUES") }
        let error = try await failing.waitForError()
        #expect((error as? DatabaseError)?.message == "no such table: missing")
        #expect(try await first.waitForValues(count: 2) == [0, 1])
        #expect(try await last.waitForValues(count: 2) == [0, 1])
        #expect(dbQueue.inDatabase { $0.isInsideTransaction } == false)
        try await dbQueue.write { db in try db.execute(sql: "INSERT INTO t DEFAULT VALUES") }
        #expect(try await first.waitForValues(count: 3) == [0, 1, 2])
        #expect(try await last.waitForValues(count: 3) == [0, 1, 2])
        cancelFirst.cancel()
        cancelFailing.cancel()
        cancelLast.cancel()
    }
}

/// Inserts a row into `other` when told of its first commit, and keeps
/// the result.
private final class WritingObserver: TransactionObserver, Sendable {
    let results = LockedValue<[Result<Void, any Error>]>([])

    func observes(eventsOfKind eventKind: DatabaseEventKind) -> Bool { false }
    func databaseDidChange(with event: DatabaseEvent) { }
    func databaseDidRollback(_ db: Database) { }

    private let didWrite = LockedValue(false)

    func databaseDidCommit(_ db: Database) {
        // Once: the insert's commit notifies this observer again.
        guard didWrite.update({ didWrite in defer { didWrite = true }; return !didWrite }) else { return }
        let result = Result { try db.execute(sql: "INSERT INTO other DEFAULT VALUES") }
        results.update { $0.append(result) }
    }
}
