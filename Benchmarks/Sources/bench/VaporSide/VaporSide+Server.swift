import AsyncKit
import Logging
import NIOCore
import NIOPosix
import SQLiteKit
import SQLiteNIO

/// The server workloads on Vapor's SQLite stack, as a Vapor app with
/// SQLiteKit's defaults runs them: an `EventLoopGroupConnectionPool` of
/// `SQLiteConnectionSource` connections on NIO's singleton event loop
/// group (one connection per event loop, the default, as Fluent's), each
/// request on a connection of the pool, through SQLiteNIO's async API.
/// A read is the two `SELECT`s on one connection, without a transaction
/// (SQLKit and SQLiteNIO have no transaction API, and an app writes none
/// for two reads); a write is one `UPDATE … RETURNING id`. Every new
/// connection gets `synchronous = NORMAL`, as on the other sides.
extension VaporSide {
    static func server(_ fixture: Fixture, plan: ServerPlan) throws -> SideJob {
        let configuration = SQLiteConfiguration(storage: .file(path: try fixture.serverPath()))
        let source = NormalSynchronousSource(base: SQLiteConnectionSource(configuration: configuration))
        let pool = Unchecked(EventLoopGroupConnectionPool(source: source, on: MultiThreadedEventLoopGroup.singleton))
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
                                    let value = try await serve(request, in: pool.value)
                                    recorder.record(index, since: start, value: value)
                                }
                            }
                        }
                        try await group.waitForAll()
                    }
                }
            },
            fetched: { recorder.digest },
            api: "SQLiteKit pool, SQLiteNIO", runsOnOtherThreads: true,
            close: { try awaitBlocking { try await pool.value.shutdownAsync() } },
            latencies: { recorder.latencies })
    }

    /// One request: see ``ServerData/value(authorID:bookCount:bookIDSum:)``.
    private static func serve(
        _ request: ServerPlan.Request, in pool: EventLoopGroupConnectionPool<NormalSynchronousSource>)
        async throws -> Int
    {
        let id = SQLiteData.integer(request.authorID)
        let connection = try await pool.requestConnection().get()
        defer { pool.releaseConnection(connection) }
        if request.isWrite {
            return try await connection.query(ServerData.updateAuthor + " RETURNING id", [id]).count
        }
        guard let author = try await connection.query(ServerData.selectAuthor, [id]).first,
              let authorID = author.column("id")?.integer
        else {
            throw BenchError("server: SQLiteNIO found no author \(request.authorID)")
        }
        let books = try await connection.query(ServerData.selectBooks, [id])
        var idSum = 0
        for book in books {
            guard let bookID = book.column("id")?.integer else { throw BenchError("server: a book without id") }
            idSum += bookID
        }
        return ServerData.value(authorID: authorID, bookCount: books.count, bookIDSum: idSum)
    }
}

/// SQLiteKit's connection source, whose connections run
/// `PRAGMA synchronous = NORMAL` once opened.
struct NormalSynchronousSource: ConnectionPoolSource, Sendable {
    let base: SQLiteConnectionSource

    func makeConnection(logger: Logger, on eventLoop: any EventLoop) -> EventLoopFuture<SQLiteConnection> {
        base.makeConnection(logger: logger, on: eventLoop).flatMap { connection in
            connection.query("PRAGMA synchronous = NORMAL").map { _ in connection }
        }
    }
}
