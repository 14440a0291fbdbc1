import Dispatch
import Foundation
import GRDBLite
import Synchronization
import Testing
import TestSupport

/// Many threads and tasks write and read through one `DatabaseQueue`:
/// no write is lost, and no read sees a partial transaction.
@Suite struct ConcurrencyTests {
    enum Storage: String, CaseIterable, Sendable { case memory, file, wal }

    /// Ten accounts holding 1000 in total; each transfer moves money between
    /// two of them and appends to a log, in one transaction.
    private static let schema = """
        CREATE TABLE account (id INTEGER PRIMARY KEY, balance INTEGER NOT NULL);
        CREATE TABLE transfer (id INTEGER PRIMARY KEY, writer TEXT NOT NULL, amount INTEGER NOT NULL);
        INSERT INTO account (id, balance) VALUES (1, 100), (2, 100), (3, 100), (4, 100), (5, 100), (6, 100), (7, 100), (8, 100), (9, 100), (10, 100);
        """

    private static func transfer(_ db: Database, writer: String, index: Int) throws {
        let from = 1 + index % 10
        let to = 1 + (index * 7 + 3) % 10
        let amount = index % 13
        try db.execute(sql: "UPDATE account SET balance = balance - ? WHERE id = ?", arguments: [amount, from])
        try db.execute(sql: "UPDATE account SET balance = balance + ? WHERE id = ?", arguments: [amount, to])
        try db.execute(sql: "INSERT INTO transfer (writer, amount) VALUES (?, ?)", arguments: [writer, amount])
    }

    /// The total (always 1000) and the number of transfers.
    private static func audit(_ db: Database) throws -> (total: Int, transfers: Int) {
        let total = try Int.fetchOne(db, sql: "SELECT SUM(balance) FROM account")!
        let transfers = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM transfer")!
        return (total, transfers)
    }

    @Test(arguments: Storage.allCases)
    func threadsAndTasksLoseNoWrite(storage: Storage) async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        var config = Configuration()
        config.journalMode = storage == .wal ? .wal : .default
        let dbQueue = storage == .memory
            ? try DatabaseQueue(configuration: config)
            : try DatabaseQueue(path: directory.path("db.sqlite"), configuration: config)
        try await dbQueue.write { try $0.execute(sql: Self.schema) }

        let writesPerWorker = 50 * reliabilityScale
        let threadCount = 4
        let taskCount = 4
        let readsSeen = Shared(0)
        let problems = Shared<[String]>([])

        // Threads, with the blocking API: writers and readers.
        // On a thread of its own, not a cooperative one: concurrentPerform
        // blocks its caller until every worker ends, which would starve the
        // tasks of the tests that run alongside.
        async let threads: Void = onThread {
            DispatchQueue.concurrentPerform(iterations: threadCount * 2) { worker in
                for index in 0..<writesPerWorker {
                    do {
                        if worker < threadCount {
                            try dbQueue.write { try Self.transfer($0, writer: "thread \(worker)", index: index) }
                        } else {
                            let audit = try dbQueue.read(Self.audit)
                            if audit.total != 1000 { problems.update { $0.append("thread read total \(audit.total)") } }
                            readsSeen.update { $0 += 1 }
                        }
                    } catch {
                        problems.update { $0.append("thread \(worker): \(error)") }
                    }
                }
            }
        }
        // Tasks, with the async API: writers and readers.
        try await withThrowingTaskGroup(of: Void.self) { group in
            for worker in 0..<taskCount {
                group.addTask {
                    for index in 0..<writesPerWorker {
                        try await dbQueue.write { try Self.transfer($0, writer: "task \(worker)", index: index) }
                    }
                }
                group.addTask {
                    var lastTransfers = 0
                    for _ in 0..<writesPerWorker {
                        let audit = try await dbQueue.read(Self.audit)
                        #expect(audit.total == 1000, "a read saw a partial transaction")
                        #expect(audit.transfers >= lastTransfers, "a committed transfer disappeared")
                        lastTransfers = audit.transfers
                        readsSeen.update { $0 += 1 }
                    }
                }
            }
            try await group.waitForAll()
        }
        try await threads

        #expect(problems.value == [])
        let final = try await dbQueue.read(Self.audit)
        #expect(final.total == 1000)
        #expect(final.transfers == (threadCount + taskCount) * writesPerWorker)
        let perWriter = try await dbQueue.read {
            try Int.fetchAll($0, sql: "SELECT COUNT(*) FROM transfer GROUP BY writer")
        }
        #expect(perWriter == Array(repeating: writesPerWorker, count: threadCount + taskCount))
        #expect(readsSeen.value == (threadCount + taskCount) * writesPerWorker)
    }

    /// A `DatabasePool` with writers and more readers than reader
    /// connections, threads and tasks, all at once: no write is lost, every
    /// read sees whole transactions, the reads of one worker never go back
    /// in time, and a concurrent read spawned after a commit sees exactly
    /// that commit, whatever the writer does next. Barriers and
    /// `releaseMemory()` run among them. (Run it under Thread Sanitizer:
    /// `Scripts/sanitizers.sh`.)
    @Test func poolWritersAndReadersLoseNothing() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        var config = Configuration()
        config.maximumReaderCount = 3
        config.busyMode = .timeout(10)
        let dbPool = try DatabasePool(path: directory.path("db.sqlite"), configuration: config)
        try await dbPool.write { try $0.execute(sql: Self.schema) }

        let writesPerWorker = 50 * reliabilityScale
        let writerThreads = 2
        let writerTasks = 2
        let readerThreads = 4
        let readerTasks = 4
        let readsSeen = Shared(0)
        let problems = Shared<[String]>([])
        let concurrentReads = DispatchGroup()

        @Sendable func audit(_ audit: (total: Int, transfers: Int), _ who: String, after last: inout Int) {
            if audit.total != 1000 { problems.update { $0.append("\(who) read total \(audit.total)") } }
            if audit.transfers < last {
                problems.update { $0.append("\(who) went back from \(last) to \(audit.transfers)") }
            }
            last = audit.transfers
            readsSeen.update { $0 += 1 }
        }

        // Threads, with the blocking API.
        // On a thread of its own, not a cooperative one: concurrentPerform
        // blocks its caller until every worker ends, which would starve the
        // tasks of the tests that run alongside.
        async let threads: Void = onThread {
            DispatchQueue.concurrentPerform(iterations: writerThreads + readerThreads + 1) { worker in
                var last = 0
                for index in 0..<writesPerWorker {
                    do {
                        if worker < writerThreads {
                            // A transaction, then a concurrent read of it.
                            try dbPool.writeWithoutTransaction { db in
                                try db.inTransaction {
                                    try Self.transfer(db, writer: "thread \(worker)", index: index)
                                    return .commit
                                }
                                let committed = try Self.audit(db).transfers
                                concurrentReads.enter()
                                dbPool.asyncConcurrentRead { dbResult in
                                    defer { concurrentReads.leave() }
                                    do {
                                        let seen = try Self.audit(dbResult.get())
                                        if seen.total != 1000 || seen.transfers != committed {
                                            problems.update {
                                                $0.append("concurrent read saw \(seen), expected \(committed)")
                                            }
                                        }
                                    } catch {
                                        problems.update { $0.append("concurrent read: \(error)") }
                                    }
                                }
                                // Changes after the spawn are not seen by it.
                                try db.execute(sql: "UPDATE account SET balance = balance")
                            }
                        } else if worker < writerThreads + readerThreads {
                            audit(try dbPool.read(Self.audit), "thread \(worker)", after: &last)
                        } else if index % 10 == 0 {
                            // Barriers and memory release among the others.
                            try dbPool.barrierWriteWithoutTransaction { db in
                                audit(try Self.audit(db), "barrier", after: &last)
                            }
                            dbPool.releaseMemory()
                        }
                    } catch {
                        problems.update { $0.append("thread \(worker): \(error)") }
                    }
                }
            }
        }
        // Tasks, with the async API.
        try await withThrowingTaskGroup(of: Void.self) { group in
            for worker in 0..<writerTasks {
                group.addTask {
                    for index in 0..<writesPerWorker {
                        try await dbPool.write { try Self.transfer($0, writer: "task \(worker)", index: index) }
                    }
                }
            }
            for worker in 0..<readerTasks {
                group.addTask {
                    var last = 0
                    for _ in 0..<writesPerWorker {
                        audit(try await dbPool.read(Self.audit), "task \(worker)", after: &last)
                    }
                }
            }
            try await group.waitForAll()
        }
        try await threads
        #expect(concurrentReads.wait(timeout: .now() + 60) == .success)

        #expect(problems.value == [])
        let final = try await dbPool.read(Self.audit)
        #expect(final.total == 1000)
        #expect(final.transfers == (writerThreads + writerTasks) * writesPerWorker)
        let perWriter = try await dbPool.read {
            try Int.fetchAll($0, sql: "SELECT COUNT(*) FROM transfer GROUP BY writer")
        }
        #expect(perWriter == Array(repeating: writesPerWorker, count: writerThreads + writerTasks))
        #expect(readsSeen.value >= (readerThreads + readerTasks) * writesPerWorker)
    }

    /// A write that fails in one task does not disturb the others.
    @Test func failingWritesAmongConcurrentWrites() async throws {
        let dbQueue = try DatabaseQueue()
        try await dbQueue.write {
            try $0.execute(sql: "CREATE TABLE t (id INTEGER PRIMARY KEY, worker INTEGER NOT NULL)")
        }
        let failures = Shared(0)
        try await withThrowingTaskGroup(of: Void.self) { group in
            for worker in 0..<8 {
                group.addTask {
                    for index in 0..<50 {
                        do {
                            try await dbQueue.write { db in
                                try db.execute(sql: "INSERT INTO t (worker) VALUES (?)", arguments: [worker])
                                if index % 5 == 0 {
                                    // A constraint violation after a successful insert.
                                    try db.execute(sql: "INSERT INTO t (worker) VALUES (NULL)")
                                }
                            }
                        } catch let error as DatabaseError where error.extendedResultCode == .SQLITE_CONSTRAINT_NOTNULL
                        {
                            failures.update { $0 += 1 }
                        }
                    }
                }
            }
            try await group.waitForAll()
        }
        #expect(failures.value == 8 * 10)
        #expect(try await dbQueue.read { try Int.fetchOne($0, sql: "SELECT COUNT(*) FROM t") } == 8 * 40)
    }

    /// `close()` among accesses that wait for the queue: each access runs
    /// whole before the close, on the open connection, or doesn't run and
    /// throws `SQLITE_MISUSE`; none runs on the closed connection. The
    /// queue is held while threads and tasks line up behind it, so that the
    /// close lands among them, then released.
    ///
    /// The close must land among the accesses, not always before or after
    /// them all, for the round to test anything: some rounds must see
    /// accesses both run and refused.
    @Test func closeAmongWaitingAccesses() async throws {
        let rounds = 10 * reliabilityScale
        var roundsWithBoth = 0
        for iteration in 0..<rounds {
            // The choreography blocks on semaphores: on a thread of its
            // own, not on the tasks' cooperative threads.
            let (problems, outcomes) = await withCheckedContinuation { continuation in
                Thread { continuation.resume(returning: Self.closeAmongWaitingAccesses()) }.start()
            }
            #expect(problems == [], "iteration \(iteration)")
            if outcomes.contains("ran") && outcomes.contains("closed") { roundsWithBoth += 1 }
        }
        print("closeAmongWaitingAccesses: the close landed among the accesses in \(roundsWithBoth) of \(rounds) rounds")
        #expect(roundsWithBoth > 0)
    }

    /// One round of `closeAmongWaitingAccesses`: what went wrong, and the
    /// accesses' outcomes ("ran" or "closed").
    private static func closeAmongWaitingAccesses() -> (problems: [String], outcomes: [String]) {
        let readers = 6
        let dbQueue: DatabaseQueue
        do {
            dbQueue = try DatabaseQueue()
            try dbQueue.write { try $0.execute(sql: "CREATE TABLE t (a); INSERT INTO t VALUES (1)") }
        } catch {
            return (["setup: \(error)"], [])
        }
        let outcomes = Shared<[String]>([])
        let holding = DispatchSemaphore(value: 0)
        let release = DispatchSemaphore(value: 0)
        let starting = DispatchSemaphore(value: 0)
        let done = DispatchSemaphore(value: 0)
        // Generous: the tasks need a cooperative thread to start, and under
        // the sanitizers the other tests can keep both of this machine's
        // busy for a minute.
        let timeout = DispatchTime.now() + 300

        @Sendable func record(_ body: () throws -> Int?) {
            do {
                let value = try body()
                outcomes.update { $0.append(value == 1 ? "ran" : "read \(String(describing: value))") }
            } catch let error as DatabaseError
                where error.resultCode == .SQLITE_MISUSE && error.message == "Connection is closed"
            {
                outcomes.update { $0.append("closed") }
            } catch {
                outcomes.update { $0.append("\(error)") }
            }
        }

        Thread {
            dbQueue.writeWithoutTransaction { _ in
                holding.signal()
                _ = release.wait(timeout: timeout)
            }
            done.signal()
        }.start()
        guard holding.wait(timeout: timeout) == .success else { return (["the queue was not held"], []) }

        for reader in 0..<readers {
            if reader.isMultiple(of: 2) {
                Thread {
                    starting.signal()
                    record { try dbQueue.read { try Int.fetchOne($0, sql: "SELECT a FROM t") } }
                    done.signal()
                }.start()
            } else {
                Task.detached(priority: .high) {
                    starting.signal()
                    do {
                        let value = try await dbQueue.read { try Int.fetchOne($0, sql: "SELECT a FROM t") }
                        record { value }
                    } catch {
                        record { throw error }
                    }
                    done.signal()
                }
            }
            if reader == readers / 2 {
                Thread {
                    starting.signal()
                    do {
                        try dbQueue.close()
                    } catch {
                        outcomes.update { $0.append("close failed: \(error)") }
                    }
                    done.signal()
                }.start()
            }
        }
        for _ in 0...readers where starting.wait(timeout: timeout) == .timedOut {
            return (["an access did not start"], [])
        }
        release.signal()
        for _ in 0..<(readers + 2) where done.wait(timeout: timeout) == .timedOut {
            return (["an access did not end"], [])
        }

        var problems: [String] = []
        let results = outcomes.value
        if results.count != readers || !results.allSatisfy({ $0 == "ran" || $0 == "closed" }) {
            problems.append("outcomes: \(results)")
        }
        // Closed for good.
        do {
            try dbQueue.read { _ in }
            problems.append("a read after close() did not throw")
        } catch let error as DatabaseError where error.resultCode == .SQLITE_MISUSE {
        } catch {
            problems.append("a read after close() threw \(error)")
        }
        return (problems, results)
    }
}
