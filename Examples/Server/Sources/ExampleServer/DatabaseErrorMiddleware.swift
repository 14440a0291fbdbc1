import GRDBLite
import Hummingbird

/// Turns the database errors that a request handler throws into HTTP statuses: a broken
/// uniqueness is a 409 Conflict, another constraint (check, foreign key, not null) a
/// 422 Unprocessable Content, a missing record a 404 Not Found. Other errors go on (500).
struct DatabaseErrorMiddleware<Context: RequestContext>: RouterMiddleware {
    func handle(
        _ request: Request,
        context: Context,
        next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        do {
            return try await next(request, context)
        } catch let error as DatabaseError where error.resultCode == .SQLITE_CONSTRAINT {
            let isConflict = error.extendedResultCode == .SQLITE_CONSTRAINT_UNIQUE
                || error.extendedResultCode == .SQLITE_CONSTRAINT_PRIMARYKEY
            let message = error.message ?? "constraint violation"
            throw HTTPError(isConflict ? .conflict : .unprocessableContent, message: message)
        } catch let RecordError.recordNotFound(databaseTableName: table, key: key) {
            let id = key.values.first.map { "\($0)" } ?? "?"
            throw HTTPError(.notFound, message: "No \(table) with id \(id)")
        }
    }
}
