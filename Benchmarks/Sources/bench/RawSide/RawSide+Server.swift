import BenchSQLite
import Foundation
import Synchronization

/// The server workloads on the C API, the limit on this machine: a fixed
/// pool of threads, no Swift concurrency. As many reader threads as cores,
/// and one writer thread, each with its own connection (WAL mode, the
/// writer with `synchronous = NORMAL`) and its statements prepared once.
/// Requests are handed over through two FIFO queues (a mutex and a
/// condition variable each): reads to the readers, writes to the writer.
/// The T clients are T chains of requests: the run enqueues each task's
/// first request, and the thread that completes a request enqueues the
/// next request of its task, so that T requests are in flight at any time,
/// as with T tasks. A read is `BEGIN`, the two `SELECT`s, `COMMIT`; a
/// write is one `UPDATE` in its own transaction.
extension RawSide {
    static func server(_ fixture: Fixture, plan: ServerPlan) throws -> SideJob {
        let server = try RawServer(path: fixture.serverPath(), plan: plan)
        return SideJob(
            run: { try server.run() },
            fetched: { server.recorder.digest },
            runsOnOtherThreads: true,
            close: { server.stop() },
            latencies: { server.recorder.latencies })
    }
}

/// The threads, queues and connections of the raw server.
final class RawServer: @unchecked Sendable {
    // @unchecked Sendable: `starts[i]` is written by the thread that
    // enqueues request i and read by the one that dequeues it (the queue's
    // mutex orders the two); each connection is used by its thread only.
    let recorder: ServerRecorder
    private let plan: ServerPlan
    private let reads = RequestQueue()
    private let writes = RequestQueue()
    private let starts: UnsafeMutableBufferPointer<ContinuousClock.Instant>
    private let remaining = Atomic(0)
    private let done = DispatchSemaphore(value: 0)
    private let failure = Mutex<(any Error)?>(nil)
    private let readerCount = max(2, ProcessInfo.processInfo.activeProcessorCount)
    private var threads: [BackgroundThread] = []

    init(path: String, plan: ServerPlan) throws {
        self.plan = plan
        recorder = ServerRecorder(requestCount: plan.requestCount)
        starts = .allocate(capacity: plan.requestCount)
        starts.initialize(repeating: .now)
        let readers = try (0..<readerCount).map { _ in try RawServerConnection(path: path, writer: false) }
        let writer = try RawServerConnection(path: path, writer: true)
        threads = readers.map { connection in
            let connection = Unchecked(connection)
            return BackgroundThread { [self] in serve(reads, connection.value) }
        }
        let connection = Unchecked(writer)
        threads.append(BackgroundThread { [self] in serve(writes, connection.value) })
    }

    deinit { starts.deallocate() }

    /// One run: every task's requests, T at a time.
    func run() throws {
        recorder.reset()
        remaining.store(plan.requestCount, ordering: .relaxed)
        for task in 0..<plan.tasks {
            enqueue(plan.range(ofTask: task).lowerBound)
        }
        done.wait()
        if let error = failure.withLock({ $0 }) { throw error }
    }

    /// Stops and joins the threads.
    func stop() {
        for _ in 0..<readerCount { reads.push(-1) }
        writes.push(-1)
        for thread in threads { try? thread.join() }
    }

    private func enqueue(_ index: Int) {
        starts[index] = .now
        (plan.requests[index].isWrite ? writes : reads).push(index)
    }

    /// A thread's loop: serves requests until it dequeues -1.
    private func serve(_ queue: RequestQueue, _ connection: RawServerConnection) {
        while true {
            let index = queue.pop()
            if index < 0 { return }
            do {
                let value = try connection.serve(plan.requests[index])
                recorder.record(index, since: starts[index], value: value)
            } catch {
                failure.withLock { $0 = $0 ?? error }
            }
            if (index + 1) % plan.requestsPerTask != 0 {
                enqueue(index + 1)
            }
            if remaining.wrappingSubtract(1, ordering: .acquiringAndReleasing).newValue == 0 {
                done.signal()
            }
        }
    }
}

/// A FIFO of request indices, guarded by a mutex and a condition variable.
final class RequestQueue: @unchecked Sendable {
    // @unchecked Sendable: `items` and `head` are only used under `condition`.
    private let condition = NSCondition()
    private var items: [Int] = []
    private var head = 0

    func push(_ index: Int) {
        condition.lock()
        items.append(index)
        condition.signal()
        condition.unlock()
    }

    func pop() -> Int {
        condition.lock()
        defer { condition.unlock() }
        while head == items.count {
            condition.wait()
        }
        let index = items[head]
        head += 1
        if head == items.count {
            // Empty: reuse the storage from the start.
            items.removeAll(keepingCapacity: true)
            head = 0
        }
        return index
    }
}

/// A connection of the raw server, with its statements prepared once.
final class RawServerConnection {
    private let db: RawDatabase
    private let begin: OpaquePointer
    private let commit: OpaquePointer
    private let selectAuthor: OpaquePointer
    private let selectBooks: OpaquePointer
    private let update: OpaquePointer

    init(path: String, writer: Bool) throws {
        db = try RawDatabase(walPath: path)
        if writer { try db.execute("PRAGMA synchronous = NORMAL") }
        begin = try db.prepare("BEGIN")
        commit = try db.prepare("COMMIT")
        selectAuthor = try db.prepare(ServerData.selectAuthor)
        selectBooks = try db.prepare(ServerData.selectBooks)
        update = try db.prepare(ServerData.updateAuthor)
    }

    deinit {
        for statement in [begin, commit, selectAuthor, selectBooks, update] {
            sqlite3_finalize(statement)
        }
    }

    /// One request: see ``ServerData/value(authorID:bookCount:bookIDSum:)``.
    func serve(_ request: ServerPlan.Request) throws -> Int {
        let id = Int64(request.authorID)
        if request.isWrite {
            try step(update, id, expecting: SQLITE_DONE, ServerData.updateAuthor)
            return Int(sqlite3_changes(db.handle))
        }
        try step(begin, nil, expecting: SQLITE_DONE, "BEGIN")
        defer { _ = try? step(commit, nil, expecting: SQLITE_DONE, "COMMIT") }
        try step(selectAuthor, id, expecting: SQLITE_ROW, ServerData.selectAuthor)
        let authorID = Int(sqlite3_column_int64(selectAuthor, 0))
        _ = sqlite3_column_text(selectAuthor, 1)
        _ = sqlite3_column_int64(selectAuthor, 2)
        sqlite3_reset(selectAuthor)
        sqlite3_bind_int64(selectBooks, 1, id)
        defer { sqlite3_reset(selectBooks) }
        var count = 0
        var idSum = 0
        while true {
            let code = sqlite3_step(selectBooks)
            guard code == SQLITE_ROW else {
                if code == SQLITE_DONE { break }
                throw db.error(code, ServerData.selectBooks)
            }
            idSum += Int(sqlite3_column_int64(selectBooks, 0))
            _ = sqlite3_column_int64(selectBooks, 1)
            _ = sqlite3_column_text(selectBooks, 2)
            _ = sqlite3_column_int64(selectBooks, 3)
            count += 1
        }
        return ServerData.value(authorID: authorID, bookCount: count, bookIDSum: idSum)
    }

    /// Binds `id` (if any), steps once, and resets unless a row is expected.
    private func step(_ statement: OpaquePointer, _ id: Int64?, expecting expected: CInt, _ sql: String) throws {
        if let id { sqlite3_bind_int64(statement, 1, id) }
        let code = sqlite3_step(statement)
        if expected != SQLITE_ROW { sqlite3_reset(statement) }
        if code != expected { throw db.error(code, sql) }
    }
}
