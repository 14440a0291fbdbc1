import GRDBLite
import Hummingbird

/// The server's routes over one database pool, and the middleware that maps database
/// errors to HTTP statuses.
func buildRouter(pool: DatabasePool) -> Router<BasicRequestContext> {
    let router = Router()
    router.add(middleware: DatabaseErrorMiddleware<BasicRequestContext>())
    router.get("health") { _, _ in HTTPResponse.Status.ok }
    AuthorRoutes(pool: pool).register(on: router.group("authors"))
    BookRoutes(pool: pool).register(on: router.group("books"))
    ChangeRoutes(pool: pool).register(on: router.group())
    return router
}
