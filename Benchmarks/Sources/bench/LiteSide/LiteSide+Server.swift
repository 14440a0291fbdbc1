import GRDBLite

// GRDBLite's server workloads: the same source as GRDBSide+Server.swift,
// compiled against GRDBLite instead of GRDB. A request is a handler's
// `try await dbPool.read { ... }` (or `write`), from T tasks at once.

extension LiteSide {
    /// An author, with its books as a to-many association (persistable, as
    /// `request(for:)` needs the record's primary key).
    struct ServerAuthor: Codable, FetchableRecord, PersistableRecord {
        static let databaseTableName = "author"
        static let books = hasMany(ServerBook.self)
        var id: Int
        var name: String
        var visits: Int
    }

    struct ServerBook: Decodable, FetchableRecord, TableRecord {
        static let databaseTableName = "book"
        var id: Int
        var authorId: Int
        var title: String
        var year: Int
    }

    /// See ``Workload/serverReads16``: T tasks of R requests on a pool
    /// with `synchronous = NORMAL`, as the concurrency workloads open it.
    /// Its writer waits out the locks of the other sides' connections on
    /// the same file (a last connection that closes checkpoints the WAL
    /// under an exclusive lock), as the raw side's connections do.
    /// `slowReads`: one more task runs long reads beside the requests
    /// (``Workload/serverSlowRead16``); `path`: another copy of the server
    /// file (the Litestream workloads).
    static func server(
        _ fixture: Fixture, plan: ServerPlan, slowReads: Bool = false, path: String? = nil
    ) throws -> SideJob {
        var configuration = Configuration()
        configuration.busyMode = .timeout(10)
        configuration.prepareDatabase { db in
            if !db.configuration.readonly { try db.execute(sql: "PRAGMA synchronous = NORMAL") }
        }
        let dbPool = try DatabasePool(path: path ?? fixture.serverPath(), configuration: configuration)
        let recorder = ServerRecorder(requestCount: plan.requestCount)
        return SideJob(
            run: {
                recorder.reset()
                try awaitBlocking {
                    try await withThrowingTaskGroup(of: Void.self) { group in
                        for task in 0..<plan.tasks {
                            group.addTask {
                                for index in plan.range(ofTask: task) {
                                    let request = plan.requests[index]
                                    let start = ContinuousClock.now
                                    let value = try await serve(request, in: dbPool)
                                    recorder.record(index, since: start, value: value)
                                }
                            }
                        }
                        let slow = slowReads ? Task { try await readSlowly(in: dbPool) } : nil
                        defer { slow?.cancel() }
                        try await group.waitForAll()
                        // The long read in progress is interrupted.
                        slow?.cancel()
                        try await slow?.value
                    }
                }
            },
            fetched: { recorder.digest },
            runsOnOtherThreads: true,
            close: { try dbPool.close() },
            latencies: { recorder.latencies })
    }

    /// The long reads of `server-slow-read-T`, one after the other, until
    /// the task is cancelled.
    private static func readSlowly(in dbPool: DatabasePool) async throws {
        while !Task.isCancelled {
            let value: Int?
            do {
                value = try await dbPool.read { db in try Int.fetchOne(db, sql: ServerData.slowRead) }
            } catch where Task.isCancelled {
                return
            }
            guard value == ServerData.slowReadValue else { throw BenchError("server: a wrong long read") }
        }
    }

    /// One request: see ``ServerData/value(authorID:bookCount:bookIDSum:)``.
    private static func serve(_ request: ServerPlan.Request, in dbPool: DatabasePool) async throws -> Int {
        let id = request.authorID
        if request.isWrite {
            return try await dbPool.write { db in
                try db.execute(sql: ServerData.updateAuthor, arguments: [id])
                return db.changesCount
            }
        }
        return try await dbPool.read { db in
            guard let author = try ServerAuthor.fetchOne(db, key: id) else {
                throw BenchError("server: no author \(id)")
            }
            let books = try author.request(for: ServerAuthor.books).fetchAll(db)
            return ServerData.value(
                authorID: author.id, bookCount: books.count, bookIDSum: books.reduce(0) { $0 + $1.id })
        }
    }
}
