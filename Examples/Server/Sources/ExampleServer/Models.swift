import GRDBLite
import Hummingbird

/// An author: a row of the `author` table, which has many books.
struct Author: Codable, Sendable, FetchableRecord, MutablePersistableRecord, ResponseEncodable {
    var id: Int64?
    var name: String
    var country: String?

    /// The books of an author (`book.authorId` references `author.id`).
    static let books = hasMany(Book.self)

    /// Sets `id` to the rowid of the inserted row.
    mutating func didInsert(_ inserted: InsertionSuccess) {
        id = inserted.rowID
    }
}

/// A book: a row of the `book` table, which belongs to an author.
struct Book: Codable, Sendable, FetchableRecord, MutablePersistableRecord, ResponseEncodable {
    var id: Int64?
    var authorId: Int64
    var title: String
    var year: Int?

    /// The author of a book.
    static let author = belongsTo(Author.self)

    /// Sets `id` to the rowid of the inserted row.
    mutating func didInsert(_ inserted: InsertionSuccess) {
        id = inserted.rowID
    }
}

/// An author and their books, fetched with `Author.including(all: Author.books)`.
struct AuthorInfo: Codable, Sendable, FetchableRecord, ResponseEncodable {
    var author: Author
    var books: [Book]
}

/// A book and its author, fetched with `Book.including(required: Book.author)`.
struct BookInfo: Codable, Sendable, FetchableRecord, ResponseEncodable {
    var book: Book
    var author: Author
}

/// The body of `PATCH /authors/:id`: the fields to change, the others are kept.
struct AuthorPatch: Decodable, Sendable {
    var name: String?
    var country: String?
}

/// One page of a list: its items and where it stands in the whole.
struct Page<Item: Encodable & Sendable>: ResponseEncodable {
    var items: [Item]
    var page: Int
    var per: Int
    var total: Int
}
