import GRDBLite
import Hummingbird
import ServiceLifecycle

/// `GET /authors/count/changes`: the number of authors as server-sent events, one
/// `data: N` event now, then one after each commit that changes it, from a
/// `ValueObservation`. `?limit=N` ends the stream after N events; the server's graceful
/// shutdown (SIGTERM, SIGINT) ends it too.
struct ChangeRoutes<Context: RequestContext>: Sendable {
    let pool: DatabasePool

    func register(on group: RouterGroup<Context>) {
        group.get("authors/count/changes", use: authorCount)
    }

    @Sendable func authorCount(_ request: Request, context: Context) async throws -> Response {
        let limit = try request.integerQuery("limit", default: Int.max, in: 1...Int.max)
        let pool = self.pool
        let body = ResponseBody { writer in
            let counts = ValueObservation
                .tracking { db in try Author.fetchCount(db) }
                .removeDuplicates()
                .values(in: pool)
                .cancelOnGracefulShutdown()
            // The observation stops when the loop ends: at `limit`, on shutdown, or when a
            // write fails because the client went away.
            var sent = 0
            for try await count in counts {
                try await writer.write(ByteBuffer(string: "data: \(count)\n\n"))
                sent += 1
                if sent == limit { break }
            }
            try await writer.finish(nil)
        }
        return Response(
            status: .ok,
            headers: [.contentType: "text/event-stream", .cacheControl: "no-cache"],
            body: body)
    }
}
