import Dispatch
import Foundation
@testable import GRDBLite
import Testing
import TestSupport

/// The guarantees of a `DatabasePool`, proven with semaphores: reads are
/// isolated, run in parallel with each other and with the writer, and
/// never wait for it (after GRDB's DatabasePoolConcurrencyTests).
///
/// The choreographies block on semaphores: each test runs on a thread of
/// its own (`onThread`), and its steps on threads of their own
/// (`runOnThreads`).
@Suite struct DatabasePoolConcurrencyTests {
    /// A pool with a table `t (id INTEGER PRIMARY KEY)` holding `rows` rows.
    private static func withPool(
        rows: Int = 0,
        configuration: Configuration = Configuration(),
        _ body: @escaping @Sendable (DatabasePool) throws -> Void) async throws
    {
        try await onThread {
            let directory = try TemporaryDirectory()
            defer { directory.remove() }
            let dbPool = try DatabasePool(path: directory.path(), configuration: configuration)
            try dbPool.write { db in
                try db.execute(sql: "CREATE TABLE t (id INTEGER PRIMARY KEY)")
                for _ in 0..<rows { try db.execute(sql: "INSERT INTO t DEFAULT VALUES") }
            }
            try body(dbPool)
        }
    }

    private static func count(_ db: Database) throws -> Int {
        try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM t")!
    }

    // MARK: - Parallel reads

    /// Two reads step their cursors in turns: each one is inside its
    /// transaction while the other runs (GRDB's testConcurrentRead).
    @Test func readsRunInParallel() async throws {
        try await Self.withPool(rows: 3) { dbPool in
            let s1 = DispatchSemaphore(value: 0)
            let s2 = DispatchSemaphore(value: 0)
            try runOnThreads([
                {
                    try dbPool.read { db in
                        let cursor = try Row.fetchCursor(db, sql: "SELECT * FROM t")
                        try check(try cursor.next() != nil, "row 1")
                        s1.signal()
                        try s2.waitOrThrow()
                        try check(try cursor.next() != nil, "row 2")
                        try check(try cursor.next() != nil, "row 3")
                        try check(try cursor.next() == nil, "end")
                    }
                },
                {
                    try dbPool.read { db in
                        let cursor = try Row.fetchCursor(db, sql: "SELECT * FROM t")
                        try check(try cursor.next() != nil, "row 1")
                        try s1.waitOrThrow()
                        try check(try cursor.next() != nil, "row 2")
                        s2.signal()
                        try check(try cursor.next() != nil, "row 3")
                        try check(try cursor.next() == nil, "end")
                    }
                },
            ])
        }
    }

    /// The asynchronous reads run in parallel too.
    @Test func asyncReadsRunInParallel() async throws {
        try await Self.withPool { dbPool in
            let s1 = DispatchSemaphore(value: 0)
            let s2 = DispatchSemaphore(value: 0)
            let done = DispatchSemaphore(value: 0)
            let outcomes = LockedValue<[String]>([])
            for (mine, other) in [(s1, s2), (s2, s1)] {
                dbPool.asyncRead { dbResult in
                    do {
                        _ = try dbResult.get()
                        mine.signal()
                        try other.waitOrThrow("the other read")
                        outcomes.update { $0.append("ok") }
                    } catch {
                        outcomes.update { $0.append("\(error)") }
                    }
                    done.signal()
                }
            }
            try done.waitOrThrow()
            try done.waitOrThrow()
            try check(outcomes.value == ["ok", "ok"], "\(outcomes.value)")
        }
    }

    // MARK: - Isolation

    /// A read keeps seeing the state of its start while the writer commits
    /// (GRDB's testReadBlockIsolationStartingWithRead): the read
    /// transaction is established before the read's closure runs.
    @Test func aReadDoesNotSeeLaterCommits() async throws {
        try await Self.withPool { dbPool in
            let s1 = DispatchSemaphore(value: 0)
            let s2 = DispatchSemaphore(value: 0)
            let s3 = DispatchSemaphore(value: 0)
            let s4 = DispatchSemaphore(value: 0)
            try runOnThreads([
                {
                    try dbPool.read { db in
                        s1.signal()
                        try s2.waitOrThrow()
                        try check(try Self.count(db) == 0, "isolated from the first insert")
                        s3.signal()
                        try s4.waitOrThrow()
                        try check(try Self.count(db) == 0, "isolated from the second insert")
                    }
                    // A read started after the commits sees them.
                    try check(try dbPool.read(Self.count) == 2, "a new read sees the commits")
                },
                {
                    try s1.waitOrThrow()
                    try dbPool.writeWithoutTransaction { db in
                        try db.execute(sql: "INSERT INTO t DEFAULT VALUES")
                        s2.signal()
                        try s3.waitOrThrow()
                        try db.execute(sql: "INSERT INTO t DEFAULT VALUES")
                        s4.signal()
                    }
                },
            ])
        }
    }

    /// A read never sees a transaction in progress, even when it starts
    /// after the transaction's first statement
    /// (testReadBlockIsolationStartingWithWriteTransaction).
    @Test func aReadNeverSeesAnUncommittedTransaction() async throws {
        try await Self.withPool { dbPool in
            let s1 = DispatchSemaphore(value: 0)
            let s2 = DispatchSemaphore(value: 0)
            let s3 = DispatchSemaphore(value: 0)
            let s4 = DispatchSemaphore(value: 0)
            let s5 = DispatchSemaphore(value: 0)
            try runOnThreads([
                {
                    try dbPool.writeInTransaction(.immediate) { db in
                        try db.execute(sql: "INSERT INTO t DEFAULT VALUES")
                        s1.signal()
                        try s2.waitOrThrow()
                        try db.execute(sql: "INSERT INTO t DEFAULT VALUES")
                        s3.signal()
                        try s4.waitOrThrow()
                        return .commit
                    }
                    s5.signal()
                },
                {
                    try dbPool.read { db in
                        try s1.waitOrThrow()
                        try check(try Self.count(db) == 0, "first insert unseen")
                        s2.signal()
                        try s3.waitOrThrow()
                        try check(try Self.count(db) == 0, "second insert unseen")
                        s4.signal()
                        try s5.waitOrThrow()
                        try check(try Self.count(db) == 0, "commit unseen")
                    }
                    try check(try dbPool.read(Self.count) == 2, "a new read sees the commit")
                },
            ])
        }
    }

    /// A checkpoint doesn't disturb the running reads
    /// (testReadMethodIsolationOfStatementWithCheckpoint).
    @Test(arguments: [Database.CheckpointMode.passive, .full])
    func aCheckpointDoesNotDisturbReads(mode: Database.CheckpointMode) async throws {
        try await Self.withPool(rows: 2) { dbPool in
            let s1 = DispatchSemaphore(value: 0)
            let s2 = DispatchSemaphore(value: 0)
            try runOnThreads([
                {
                    try dbPool.read { db in
                        let cursor = try Row.fetchCursor(db, sql: "SELECT * FROM t")
                        try check(try cursor.next() != nil, "row 1")
                        s1.signal()
                        try s2.waitOrThrow()
                        try check(try cursor.next() != nil, "row 2")
                        try check(try cursor.next() == nil, "end")
                        try check(try Self.count(db) == 2, "the deletion is unseen")
                    }
                },
                {
                    defer { s2.signal() }
                    try s1.waitOrThrow()
                    try dbPool.writeWithoutTransaction { db in
                        try db.execute(sql: "DELETE FROM t")
                        // A full checkpoint can't complete while the read
                        // uses the WAL: SQLITE_BUSY, and the read goes on.
                        do {
                            try db.checkpoint(mode)
                        } catch let error as DatabaseError where error.resultCode == .SQLITE_BUSY && mode != .passive {
                        }
                    }
                },
            ])
            try check(try dbPool.read(Self.count) == 0, "the deletion is seen")
        }
    }

    /// `unsafeRead` runs outside of a transaction: each statement sees the
    /// last commit (testUnsafeReadMethodIsolationOfBlock).
    @Test func unsafeReadSeesEachCommit() async throws {
        try await Self.withPool { dbPool in
            let s1 = DispatchSemaphore(value: 0)
            let s2 = DispatchSemaphore(value: 0)
            try runOnThreads([
                {
                    try dbPool.unsafeRead { db in
                        try check(try Self.count(db) == 0, "before")
                        s1.signal()
                        try s2.waitOrThrow()
                        try check(try Self.count(db) == 1, "after")
                    }
                },
                {
                    defer { s2.signal() }
                    try s1.waitOrThrow()
                    try dbPool.write { try $0.execute(sql: "INSERT INTO t DEFAULT VALUES") }
                },
            ])
        }
    }

    // MARK: - Reads and the writer

    /// A long read does not block a write: the write commits while the
    /// read is in progress, and the read does not see it.
    @Test func aLongReadDoesNotBlockAWrite() async throws {
        try await Self.withPool { dbPool in
            let reading = DispatchSemaphore(value: 0)
            let written = DispatchSemaphore(value: 0)
            try runOnThreads([
                {
                    try dbPool.read { db in
                        try check(try Self.count(db) == 0, "before")
                        reading.signal()
                        // Only a write that does not wait for this read
                        // can signal.
                        try written.waitOrThrow("the write, during the read")
                        try check(try Self.count(db) == 0, "isolated")
                    }
                },
                {
                    try reading.waitOrThrow()
                    try dbPool.write { try $0.execute(sql: "INSERT INTO t DEFAULT VALUES") }
                    try check(try dbPool.writeWithoutTransaction(Self.count) == 1, "committed")
                    written.signal()
                },
            ])
        }
    }

    /// Writes are serialized: a write waits for the one in progress.
    @Test func writesAreSerialized() async throws {
        try await Self.withPool { dbPool in
            let writing = DispatchSemaphore(value: 0)
            let release = DispatchSemaphore(value: 0)
            let events = LockedValue<[String]>([])
            try runOnThreads([
                {
                    try dbPool.write { db in
                        writing.signal()
                        try release.waitOrThrow()
                        try db.execute(sql: "INSERT INTO t DEFAULT VALUES")
                        events.update { $0.append("first") }
                    }
                },
                {
                    try writing.waitOrThrow()
                    let second = DispatchSemaphore(value: 0)
                    Thread {
                        try? dbPool.write { db in
                            try db.execute(sql: "INSERT INTO t DEFAULT VALUES")
                            events.update { $0.append("second: \((try? Self.count(db)) ?? -1)") }
                        }
                        second.signal()
                    }.start()
                    try check(second.wait(timeout: .now() + 0.2) == .timedOut, "the second write did not wait")
                    release.signal()
                    try second.waitOrThrow()
                },
            ])
            try check(events.value == ["first", "second: 2"], "\(events.value)")
        }
    }

    /// As in GRDB, a read inside a write runs on a reader: it does not see
    /// the uncommitted changes of the write. A write inside a read runs on
    /// the writer.
    @Test func readsAndWritesNestAcrossConnections() async throws {
        try await Self.withPool { dbPool in
            try dbPool.write { db in
                try db.execute(sql: "INSERT INTO t DEFAULT VALUES")
                let (count, description) = try dbPool.read { try (Self.count($0), $0.description) }
                try check(count == 0, "the read saw the uncommitted insert")
                try check(description == "GRDBLite.DatabasePool.reader.1", description)
                try check(try Self.count(db) == 1, "the write goes on")
            }
            try dbPool.read { db in
                try dbPool.write { try $0.execute(sql: "INSERT INTO t DEFAULT VALUES") }
                try check(try Self.count(db) == 1, "the read is isolated from the nested write")
            }
            try check(try dbPool.read(Self.count) == 2, "both writes committed")
        }
    }

    // MARK: - asyncConcurrentRead

    /// The read sees the last commit at the moment of the call, and the
    /// writer goes on as soon as the read's transaction is open
    /// (testAsyncConcurrentReadOutsideOfTransaction).
    @Test func asyncConcurrentReadIsIsolatedFromLaterWrites() async throws {
        try await Self.withPool { dbPool in
            let inserted = DispatchSemaphore(value: 0)
            let done = DispatchSemaphore(value: 0)
            let seen = LockedValue<[String]>([])
            try dbPool.writeWithoutTransaction { db in
                dbPool.asyncConcurrentRead { dbResult in
                    do {
                        // Waits for the writer: the writer must not wait for it.
                        try inserted.waitOrThrow("the insert of the writer")
                        let db = try dbResult.get()
                        try seen.update {
                            try $0.append("count \(Self.count(db)), transaction \(db.isInsideTransaction)")
                        }
                        try db.execute(sql: "BEGIN")
                    } catch let error as DatabaseError {
                        seen.update { $0.append(error.message ?? "") }
                    } catch {
                        seen.update { $0.append("\(error)") }
                    }
                    done.signal()
                }
                try db.execute(sql: "INSERT INTO t DEFAULT VALUES")
                inserted.signal()
            }
            try done.waitOrThrow()
            try check(
                seen.value == ["count 0, transaction true", "cannot start a transaction within a transaction"],
                "\(seen.value)")
            try check(try dbPool.read(Self.count) == 1, "the insert")
        }
    }

    /// A read that can't start gives its error (testAsyncConcurrentReadError).
    @Test func asyncConcurrentReadError() async throws {
        var configuration = Configuration()
        configuration.readonlyBusyMode = .immediateError
        try await Self.withPool(configuration: configuration) { dbPool in
            let done = DispatchSemaphore(value: 0)
            let error = LockedValue<DatabaseError?>(nil)
            try dbPool.writeWithoutTransaction { db in
                try db.execute(sql: "PRAGMA locking_mode = EXCLUSIVE")
                try db.execute(sql: "INSERT INTO t DEFAULT VALUES")
                dbPool.asyncConcurrentRead { dbResult in
                    if case .failure(let failure) = dbResult { error.update { $0 = failure as? DatabaseError } }
                    done.signal()
                }
                try done.waitOrThrow()
                try db.execute(sql: "PRAGMA locking_mode = NORMAL")
            }
            try check(error.value?.resultCode == .SQLITE_BUSY, "\(String(describing: error.value))")
            try check(error.value?.message == "database is locked", "\(String(describing: error.value))")
        }
    }

    @Test func asyncConcurrentReadInsideATransactionTraps() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let directory = try TemporaryDirectory()
            let dbPool = try DatabasePool(path: directory.path())
            try dbPool.write { _ in dbPool.asyncConcurrentRead { _ in } }
        }
        let stderr = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
        #expect(stderr.contains("asyncConcurrentRead must not be called from inside a transaction"))
    }

    @Test func asyncConcurrentReadOutsideOfTheWriterTraps() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let directory = try TemporaryDirectory()
            let dbPool = try DatabasePool(path: directory.path())
            try dbPool.read { _ in dbPool.asyncConcurrentRead { _ in } }
        }
        let stderr = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
        #expect(stderr.contains("asyncConcurrentRead must be called from inside a write access"))
    }

    // MARK: - Barriers

    /// A barrier holds reads back until it ends (testBarrierLocksReads).
    @Test func aBarrierHoldsReadsBack() async throws {
        try await Self.withPool { dbPool in
            let inBarrier = DispatchSemaphore(value: 0)
            let release = DispatchSemaphore(value: 0)
            let events = LockedValue<[String]>([])
            try runOnThreads([
                {
                    try dbPool.barrierWriteWithoutTransaction { db in
                        try db.execute(sql: "INSERT INTO t DEFAULT VALUES")
                        inBarrier.signal()
                        try release.waitOrThrow()
                        events.update { $0.append("barrier") }
                    }
                },
                {
                    try inBarrier.waitOrThrow()
                    let read = DispatchSemaphore(value: 0)
                    Thread {
                        let count = try? dbPool.read(Self.count)
                        events.update { $0.append("read \(count ?? -1)") }
                        read.signal()
                    }.start()
                    try check(read.wait(timeout: .now() + 0.2) == .timedOut, "a read ran during the barrier")
                    release.signal()
                    try read.waitOrThrow()
                },
            ])
            try check(events.value == ["barrier", "read 1"], "\(events.value)")
        }
    }

    /// A barrier waits for the running reads (testBarrierIsLockedByOneUnfinishedRead).
    @Test func aBarrierWaitsForTheRunningReads() async throws {
        try await Self.withPool { dbPool in
            let reading = DispatchSemaphore(value: 0)
            let release = DispatchSemaphore(value: 0)
            let events = LockedValue<[String]>([])
            try runOnThreads([
                {
                    try dbPool.read { _ in
                        reading.signal()
                        try release.waitOrThrow()
                        events.update { $0.append("read") }
                    }
                },
                {
                    try reading.waitOrThrow()
                    let barrier = DispatchSemaphore(value: 0)
                    Thread {
                        try? dbPool.barrierWriteWithoutTransaction { _ in events.update { $0.append("barrier") } }
                        barrier.signal()
                    }.start()
                    try check(barrier.wait(timeout: .now() + 0.2) == .timedOut, "the barrier ran during a read")
                    release.signal()
                    try barrier.waitOrThrow()
                },
            ])
            try check(events.value == ["read", "barrier"], "\(events.value)")
        }
    }

    /// While a barrier waits for the writer, the write in progress can
    /// still start a concurrent read: no deadlock, and the barrier runs
    /// alone once the read is over.
    @Test func aWriteCanReadWhileABarrierWaits() async throws {
        try await Self.withPool { dbPool in
            let writing = DispatchSemaphore(value: 0)
            let barrierWaits = DispatchSemaphore(value: 0)
            let events = LockedValue<[String]>([])
            try runOnThreads([
                {
                    try dbPool.writeWithoutTransaction { db in
                        writing.signal()
                        try barrierWaits.waitOrThrow()
                        let readDone = DispatchSemaphore(value: 0)
                        dbPool.asyncConcurrentRead { _ in
                            events.update { $0.append("concurrent read") }
                            readDone.signal()
                        }
                        try readDone.waitOrThrow()
                        let count = try dbPool.read(Self.count)
                        events.update { $0.append("read \(count)") }
                        try db.execute(sql: "INSERT INTO t DEFAULT VALUES")
                    }
                },
                {
                    try writing.waitOrThrow()
                    let barrier = DispatchSemaphore(value: 0)
                    Thread {
                        try? dbPool.barrierWriteWithoutTransaction { db in
                            events.update { $0.append("barrier \((try? Self.count(db)) ?? -1)") }
                        }
                        barrier.signal()
                    }.start()
                    // The scenario: the barrier holds reads back while the
                    // write goes on.
                    try blockUntil("the barrier waits") { dbPool.isHoldingBackReads }
                    barrierWaits.signal()
                    try barrier.waitOrThrow()
                },
            ])
            try check(events.value == ["concurrent read", "read 0", "barrier 1"], "\(events.value)")
        }
    }

    /// While a barrier waits for the writer, the write in progress starts a
    /// concurrent read, whose reader bypasses the barrier: the barrier
    /// still runs only once that read is over, never while a reader is in
    /// use.
    @Test(arguments: [false, true])
    func aBarrierWaitsForTheReadsOfTheWriteItWaitedFor(async: Bool) async throws {
        try await Self.withPool { dbPool in
            let writing = DispatchSemaphore(value: 0)
            let barrierWaits = DispatchSemaphore(value: 0)
            let reading = DispatchSemaphore(value: 0)
            let releaseRead = DispatchSemaphore(value: 0)
            let barrierDone = DispatchSemaphore(value: 0)
            let events = LockedValue<[String]>([])
            try runOnThreads([
                {
                    try dbPool.writeWithoutTransaction { _ in
                        writing.signal()
                        try barrierWaits.waitOrThrow()
                        dbPool.asyncConcurrentRead { _ in
                            reading.signal()
                            _ = releaseRead.wait(timeout: .now() + stepTimeout)
                            events.update { $0.append("read") }
                        }
                    }
                },
                {
                    // Whatever happens, the read ends.
                    defer { releaseRead.signal() }
                    try writing.waitOrThrow()
                    let barrier: @Sendable () -> Void = {
                        events.update { $0.append("barrier") }
                        barrierDone.signal()
                    }
                    if async {
                        dbPool.asyncBarrierWriteWithoutTransaction { _ in barrier() }
                    } else {
                        Thread { try? dbPool.barrierWriteWithoutTransaction { _ in barrier() } }.start()
                    }
                    // The scenario: the barrier holds reads back and waits
                    // for the writer.
                    try blockUntil("the barrier waits") { dbPool.isHoldingBackReads }
                    try check(barrierDone.wait(timeout: .now()) == .timedOut, "the barrier ran during a write")
                    barrierWaits.signal()
                    try reading.waitOrThrow()
                    try check(barrierDone.wait(timeout: .now() + 0.2) == .timedOut, "the barrier ran during a read")
                    releaseRead.signal()
                    try barrierDone.waitOrThrow()
                },
            ])
            try check(events.value == ["read", "barrier"], "\(events.value)")
        }
    }
}
