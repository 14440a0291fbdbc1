import GRDBLite
import Hummingbird

/// `/authors`: list, get with books, create, update, delete. Each handler awaits one
/// `read` or `write` of the pool, which suspends the request's task, never a thread of
/// the server's event loops.
struct AuthorRoutes<Context: RequestContext>: Sendable {
    let pool: DatabasePool

    func register(on group: RouterGroup<Context>) {
        group.get(use: list)
        group.get(":id", use: show)
        group.post(use: create)
        group.patch(":id", use: update)
        group.delete(":id", use: delete)
    }

    /// `GET /authors?page=1&per=20`: a page of authors, in the order of their ids.
    @Sendable func list(_ request: Request, context: Context) async throws -> Page<Author> {
        let page = try request.integerQuery("page", default: 1, in: 1...1_000_000)
        let per = try request.integerQuery("per", default: 20, in: 1...100)
        return try await pool.read { db in
            let authors = try Author.order(Column("id")).limit(per, offset: (page - 1) * per).fetchAll(db)
            return try Page(items: authors, page: page, per: per, total: Author.fetchCount(db))
        }
    }

    /// `GET /authors/:id`: an author and their books, through the `Author.books` association.
    @Sendable func show(_ request: Request, context: Context) async throws -> AuthorInfo {
        let id = try context.parameters.require("id", as: Int64.self)
        let info = try await pool.read { db in
            try Author
                .filter(key: id)
                .including(all: Author.books.order(Column("id")))
                .asRequest(of: AuthorInfo.self)
                .fetchOne(db)
        }
        guard let info else { throw HTTPError(.notFound, message: "No author with id \(id)") }
        return info
    }

    /// `POST /authors` with `{"name": ..., "country": ...}`: 201 Created and the new author.
    @Sendable func create(_ request: Request, context: Context) async throws -> EditedResponse<Author> {
        var author = try await request.decode(as: Author.self, context: context)
        author.id = nil  // the database chooses it
        let inserted = try await pool.write { [author] db in try author.inserted(db) }
        return EditedResponse(
            status: .created,
            headers: [.location: "/authors/\(inserted.id ?? 0)"],
            response: inserted)
    }

    /// `PATCH /authors/:id` with the fields to change: the updated author.
    @Sendable func update(_ request: Request, context: Context) async throws -> Author {
        let id = try context.parameters.require("id", as: Int64.self)
        let patch = try await request.decode(as: AuthorPatch.self, context: context)
        return try await pool.write { db in
            var author = try Author.find(db, key: id)  // RecordError.recordNotFound: a 404
            try author.updateChanges(db) {
                if let name = patch.name { $0.name = name }
                if let country = patch.country { $0.country = country }
            }
            return author
        }
    }

    /// `DELETE /authors/:id`: 204 No Content; the author's books go too (`ON DELETE CASCADE`).
    @Sendable func delete(_ request: Request, context: Context) async throws -> HTTPResponse.Status {
        let id = try context.parameters.require("id", as: Int64.self)
        let deleted = try await pool.write { db in try Author.deleteOne(db, key: id) }
        guard deleted else { throw HTTPError(.notFound, message: "No author with id \(id)") }
        return .noContent
    }
}
