import BenchSQLite
import Synchronization

/// The server workloads: the requests of a web server's handlers on the
/// server file (`Fixture.serverPath()`), T concurrent clients at a time.
///
/// - `server-reads-T`: T concurrent tasks each make R requests, one after
///   the other; a request fetches an author by primary key and its books
///   (2 to 5 rows), in one read.
/// - `server-mix-T`: the same, with one request in ten a write that
///   updates one author (`synchronous = NORMAL` on every side, as in the
///   concurrency workloads).
/// - `server-slow-read-16`: the requests of `server-reads-16`, while one
///   more task runs long reads (``ServerData/slowRead``), one after the
///   other, until the others are done (the last one is interrupted):
///   what a long read costs the fast ones. Only the fast reads are counted and timed. GRDBLite and GRDB.
///
/// R is `Fixture.serverRequestCount / T`: every workload makes the same
/// number of requests per run. The requests (which author, read or write)
/// come from a seeded generator (`SplitMix64`), the same for all sides. Each request's
/// latency runs from its enqueueing (the call of `read` or `write`, or the
/// push onto the raw side's queue) to its result, on `ContinuousClock`;
/// the per-row figures are per request. Timed, not counted by
/// `bench instructions`.
extension Workload {
    static let serverReads16 = server(.reads, tasks: 16)
    static let serverReads64 = server(.reads, tasks: 64)
    static let serverReads256 = server(.reads, tasks: 256)
    static let serverMix16 = server(.mix, tasks: 16)
    static let serverMix64 = server(.mix, tasks: 64)
    static let serverMix256 = server(.mix, tasks: 256)
    static let serverSlowRead16 = slowRead(tasks: 16)

    static let serverRequest = singleTask(.reads, name: "server-request", title: "Server read request, 1 task")
    static let serverRequestWrite = singleTask(
        .writes, name: "server-request-write", title: "Server write request, 1 task")

    /// `server-request` and `server-request-write`: one task makes
    /// ``ServerPlan/singleTaskRequestCount`` requests of the `server-reads`
    /// shape (or its write), one after the other, on the sides that run
    /// a server (raw C's thread pool, GRDBLite's and GRDB's pools): the cost
    /// of one request, from the call of `read` (or `write`) to its result,
    /// hand-overs included. Counted by `bench instructions`, by difference of
    /// whole processes (the requests run on other threads), and its
    /// allocations exactly (callgrind's calls to the allocator); per row is
    /// per request.
    private static func singleTask(_ kind: ServerPlan.Kind, name: String, title: String) -> Workload {
        let plan: @Sendable (Fixture) -> ServerPlan = { _ in
            ServerPlan(kind, tasks: 1, requestsPerTask: ServerPlan.singleTaskRequestCount)
        }
        return Workload(
            name: name, title: title,
            rowCount: { plan($0).requestCount },
            prepare: { _ in },
            result: { job, _ in
                guard let fetched = job.fetched else { throw BenchError("\(name): the job reports nothing") }
                return try fetched()
            },
            expected: { plan($0).expected },
            allocationRule: nil,
            jobs: [
                .raw: { try RawSide.server($0, plan: plan($0)) },
                .lite: { try LiteSide.server($0, plan: plan($0)) },
                .grdb: { try GRDBSide.server($0, plan: plan($0)) },
            ],
            runsOnOtherThreads: true)
    }

    private static func server(_ kind: ServerPlan.Kind, tasks: Int) -> Workload {
        Workload(
            name: "server-\(kind.rawValue)-\(tasks)",
            title: kind == .reads
                ? "Server reads, \(tasks) tasks" : "Server mix (10% writes), \(tasks) tasks",
            rowCount: { ServerPlan(kind, tasks: tasks, fixture: $0).requestCount },
            prepare: { _ in },
            result: { job, _ in
                guard let fetched = job.fetched else { throw BenchError("server: the job reports nothing") }
                return try fetched()
            },
            expected: { ServerPlan(kind, tasks: tasks, fixture: $0).expected },
            allocationRule: nil,
            jobs: [
                .raw: { try RawSide.server($0, plan: ServerPlan(kind, tasks: tasks, fixture: $0)) },
                .lite: { try LiteSide.server($0, plan: ServerPlan(kind, tasks: tasks, fixture: $0)) },
                .grdb: { try GRDBSide.server($0, plan: ServerPlan(kind, tasks: tasks, fixture: $0)) },
                .vapor: { try VaporSide.server($0, plan: ServerPlan(kind, tasks: tasks, fixture: $0)) },
            ],
            measuresInstructions: false,
            latencyGroup: .server)
    }

    /// `server-slow-read-T`: see the type's comment.
    private static func slowRead(tasks: Int) -> Workload {
        let plan: @Sendable (Fixture) -> ServerPlan = { ServerPlan(.reads, tasks: tasks, fixture: $0) }
        return Workload(
            name: "server-slow-read-\(tasks)",
            title: "Server reads, \(tasks) tasks, one more task running long reads",
            rowCount: { plan($0).requestCount },
            prepare: { _ in },
            result: { job, _ in
                guard let fetched = job.fetched else { throw BenchError("server: the job reports nothing") }
                return try fetched()
            },
            expected: { plan($0).expected },
            allocationRule: nil,
            jobs: [
                .lite: { try LiteSide.server($0, plan: plan($0), slowReads: true) },
                .grdb: { try GRDBSide.server($0, plan: plan($0), slowReads: true) },
            ],
            measuresInstructions: false,
            latencyGroup: .server)
    }
}

/// The requests of a server workload: which author each request reads or
/// updates, in the order of each task.
struct ServerPlan: Sendable {
    enum Kind: String, Sendable {
        case reads
        case mix
        /// Every request a write (`server-request-write`).
        case writes
    }

    /// The requests of `server-request`: enough that the fixed costs of a
    /// run (the task group, the first request) are under 1% of the figures
    /// per request, few enough for callgrind in CI.
    static let singleTaskRequestCount = 256

    /// One request: read author `authorID` and its books, or update it.
    struct Request: Sendable {
        var authorID: Int
        var isWrite: Bool
    }

    let tasks: Int
    let requestsPerTask: Int
    /// Task `t`'s requests are `requests[t * requestsPerTask ..< (t + 1) * requestsPerTask]`.
    let requests: [Request]

    var requestCount: Int { requests.count }

    init(_ kind: Kind, tasks: Int, fixture: Fixture) {
        self.init(kind, tasks: tasks, requestsPerTask: max(1, fixture.serverRequestCount / tasks))
    }

    init(_ kind: Kind, tasks: Int, requestsPerTask: Int) {
        self.tasks = tasks
        self.requestsPerTask = requestsPerTask
        var generator = SplitMix64(seed: kind == .mix ? 4_910 : 49)
        requests = (0..<(tasks * requestsPerTask)).map { _ in
            let authorID = Int(generator.next() % UInt64(ServerData.authorCount)) + 1
            let isWrite = kind == .writes || (kind == .mix && generator.next() % 10 == 0)
            return Request(authorID: authorID, isWrite: isWrite)
        }
    }

    /// The requests of task `task`.
    func range(ofTask task: Int) -> Range<Int> {
        (task * requestsPerTask)..<((task + 1) * requestsPerTask)
    }

    /// What the requests return: a read returns ``ServerData/value(authorID:bookCount:bookIDSum:)``,
    /// a write the rows it changed (1).
    var expected: Digest {
        var sum = 0
        for request in requests {
            sum &+= request.isWrite ? 1 : ServerData.expectedValue(authorID: request.authorID)
        }
        return Digest(count: requests.count, sum: sum)
    }
}

/// The content of the server file: `authorCount` authors; author `n` has
/// `2 + n % 4` books, whose ids follow each other author after author.
enum ServerData {
    static let authorCount = 1_000

    static let schema = """
        CREATE TABLE author(id INTEGER PRIMARY KEY, name TEXT NOT NULL, visits INTEGER NOT NULL);
        CREATE TABLE book(
            id INTEGER PRIMARY KEY,
            authorId INTEGER NOT NULL REFERENCES author(id),
            title TEXT NOT NULL,
            year INTEGER NOT NULL);
        CREATE INDEX book_authorId ON book(authorId);
        """
    static let selectAuthor = "SELECT * FROM author WHERE id = ?"
    static let selectBooks = "SELECT * FROM book WHERE authorId = ?"
    static let updateAuthor = "UPDATE author SET visits = visits + 1 WHERE id = ?"
    /// The long read of `server-slow-read-T`: SQLite counts to 500,000
    /// (about 70 ms of one core here), reading no table.
    static let slowRead = """
        WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < 500000) SELECT sum(x) FROM c
        """
    static let slowReadValue = 500_000 * 500_001 / 2

    static func bookCount(authorID: Int) -> Int { 2 + authorID % 4 }

    /// The id of the first book of `authorID`.
    static func firstBookID(authorID: Int) -> Int {
        // Authors 1..<n have 2(n-1) books, plus (k % 4) for each k.
        let previous = authorID - 1
        let fullCycles = previous / 4
        var ids = 2 * previous + fullCycles * 6
        for k in (fullCycles * 4 + 1)..<authorID { ids += k % 4 }
        return ids + 1
    }

    /// What a read request returns, on every side: the author's id, plus
    /// its book count, plus the sum of its books' ids.
    static func value(authorID: Int, bookCount: Int, bookIDSum: Int) -> Int {
        authorID &+ bookCount &* 1_000_000 &+ bookIDSum
    }

    static func expectedValue(authorID: Int) -> Int {
        let count = bookCount(authorID: authorID)
        let first = firstBookID(authorID: authorID)
        return value(authorID: authorID, bookCount: count, bookIDSum: count * first + count * (count - 1) / 2)
    }

    /// Writes the tables.
    static func generate(_ db: RawDatabase) throws {
        try db.execute(schema)
        try db.execute("BEGIN")
        let insertAuthor = try db.prepare("INSERT INTO author(id, name, visits) VALUES (?, ?, 0)")
        defer { sqlite3_finalize(insertAuthor) }
        let insertBook = try db.prepare("INSERT INTO book(id, authorId, title, year) VALUES (?, ?, ?, ?)")
        defer { sqlite3_finalize(insertBook) }
        var bookID = 1
        for authorID in 1...authorCount {
            sqlite3_reset(insertAuthor)
            sqlite3_bind_int64(insertAuthor, 1, Int64(authorID))
            _ = "Author \(authorID)".withCString { sqlite3_bind_text(insertAuthor, 2, $0, -1, rawTransient) }
            if sqlite3_step(insertAuthor) != SQLITE_DONE { throw BenchError("server: can't insert an author") }
            for _ in 0..<bookCount(authorID: authorID) {
                sqlite3_reset(insertBook)
                sqlite3_bind_int64(insertBook, 1, Int64(bookID))
                sqlite3_bind_int64(insertBook, 2, Int64(authorID))
                _ = "Book \(bookID)".withCString { sqlite3_bind_text(insertBook, 3, $0, -1, rawTransient) }
                sqlite3_bind_int64(insertBook, 4, Int64(1900 + bookID % 120))
                if sqlite3_step(insertBook) != SQLITE_DONE { throw BenchError("server: can't insert a book") }
                bookID += 1
            }
        }
        try db.execute("COMMIT")
        for authorID in [1, 2, 3, 4, 5, 500, authorCount] {
            let sql = "SELECT MIN(id), COUNT(*) FROM book WHERE authorId = \(authorID)"
            guard try db.integers(sql) == [firstBookID(authorID: authorID), bookCount(authorID: authorID)] else {
                throw BenchError("server: the books of author \(authorID) are not as expected")
            }
        }
    }
}

/// The latencies and results of one run of a server workload, written by
/// the requests as they complete: each request writes its own slot, and
/// the run's end orders those writes before the reads of `latencies`.
final class ServerRecorder: @unchecked Sendable {
    // @unchecked Sendable: each slot of `seconds` is written by one request
    // during a run, and read after the run.
    private let seconds: UnsafeMutableBufferPointer<Double>
    private let sum = Atomic(0)
    private let count = Atomic(0)

    init(requestCount: Int) {
        seconds = .allocate(capacity: requestCount)
        seconds.initialize(repeating: 0)
    }

    deinit { seconds.deallocate() }

    /// Before a run.
    func reset() {
        sum.store(0, ordering: .relaxed)
        count.store(0, ordering: .relaxed)
    }

    /// Records request `index`, enqueued at `start`, that returned `value`.
    @inline(__always)
    func record(_ index: Int, since start: ContinuousClock.Instant, value: Int) {
        let elapsed = ContinuousClock.now - start
        seconds[index] = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) * 1e-18
        sum.wrappingAdd(value, ordering: .relaxed)
        count.wrappingAdd(1, ordering: .relaxed)
    }

    /// Every request's latency in the last run, in seconds.
    var latencies: [Double] { Array(seconds) }

    /// What the requests of the last run returned.
    var digest: Digest {
        Digest(count: count.load(ordering: .acquiring), sum: sum.load(ordering: .acquiring))
    }
}
