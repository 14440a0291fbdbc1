import GRDBLite
import Hummingbird

/// `/books`: create a book of an existing author, get a book with its author.
struct BookRoutes<Context: RequestContext>: Sendable {
    let pool: DatabasePool

    func register(on group: RouterGroup<Context>) {
        group.get(":id", use: show)
        group.post(use: create)
    }

    /// `GET /books/:id`: a book and its author, through the `Book.author` association.
    @Sendable func show(_ request: Request, context: Context) async throws -> BookInfo {
        let id = try context.parameters.require("id", as: Int64.self)
        let info = try await pool.read { db in
            try Book
                .filter(key: id)
                .including(required: Book.author)
                .asRequest(of: BookInfo.self)
                .fetchOne(db)
        }
        guard let info else { throw HTTPError(.notFound, message: "No book with id \(id)") }
        return info
    }

    /// `POST /books` with `{"authorId": ..., "title": ..., "year": ...}`: 201 Created and the
    /// new book. An unknown author breaks the foreign key: a 422.
    @Sendable func create(_ request: Request, context: Context) async throws -> EditedResponse<Book> {
        var book = try await request.decode(as: Book.self, context: context)
        book.id = nil  // the database chooses it
        let inserted = try await pool.write { [book] db in try book.inserted(db) }
        return EditedResponse(status: .created, headers: [.location: "/books/\(inserted.id ?? 0)"], response: inserted)
    }
}
