import GRDBLite
import Testing

// The library of GRDB's "Recommended Practices for Designing Record
// Types" article: authors and their books, with the records, columns,
// request methods and associations of the article, as written there.
//
// The book table also has the `kind` column of the article's "First
// Example: Enums", and a `year` column for aggregates.

enum Library {
    struct Author: Codable, Hashable {
        var id: Int64?
        var name: String
        var countryCode: String?
    }

    struct Book: Codable, Hashable {
        enum Kind: String, Codable {
            case essay, novel, poetry, theater
        }
        var id: Int64?
        var authorId: Int64
        var title: String
        var kind: Kind
        var year: Int
    }

    /// The migration of the article, with `kind` and `year`.
    static func makeDatabase() throws -> DatabaseQueue {
        let dbQueue = try DatabaseQueue()
        var migrator = DatabaseMigrator()
        migrator.registerMigration("createLibrary") { db in
            try db.create(table: "author") { t in
                t.autoIncrementedPrimaryKey("id")
                t.column("name", .text).notNull()
                t.column("countryCode", .text)
            }

            try db.create(table: "book") { t in
                t.autoIncrementedPrimaryKey("id")
                t.column("title", .text).notNull()
                t.belongsTo("author", onDelete: .cascade)
                    .notNull()
                t.column("kind", .text).notNull()
                t.column("year", .integer).notNull()
            }
        }
        try migrator.migrate(dbQueue)
        try dbQueue.write { db throws in
            for var author in authors {
                try author.insert(db)
            }
            for var book in books {
                try book.insert(db)
            }
        }
        return dbQueue
    }

    /// Authors, by id (1...11).
    static let authors = [
        Author(id: 1, name: "Gabriel García Márquez", countryCode: "CO"),
        Author(id: 2, name: "Jorge Isaacs", countryCode: "CO"),
        Author(id: 3, name: "Thomas Mann", countryCode: "DE"),
        Author(id: 4, name: "Hermann Hesse", countryCode: "DE"),
        Author(id: 5, name: "christa Wolf", countryCode: "DE"),     // no book
        Author(id: 6, name: "Italo Calvino", countryCode: "IT"),
        Author(id: 7, name: "Victor Hugo", countryCode: "FR"),
        Author(id: 8, name: "Miguel de Cervantes", countryCode: "ES"),
        Author(id: 9, name: "Federico García Lorca", countryCode: "ES"),
        Author(id: 10, name: "Haruki Murakami", countryCode: "JP"),
        Author(id: 11, name: "Anonymous", countryCode: nil),         // no book
    ]

    /// Books, by id (1...16).
    static let books = [
        Book(id: 1, authorId: 1, title: "One Hundred Years of Solitude", kind: .novel, year: 1967),
        Book(id: 2, authorId: 1, title: "Love in the Time of Cholera", kind: .novel, year: 1985),
        Book(id: 3, authorId: 1, title: "The Story of a Shipwrecked Sailor", kind: .essay, year: 1970),
        Book(id: 4, authorId: 2, title: "María", kind: .novel, year: 1867),
        Book(id: 5, authorId: 3, title: "The Magic Mountain", kind: .novel, year: 1924),
        Book(id: 6, authorId: 3, title: "Buddenbrooks", kind: .novel, year: 1901),
        Book(id: 7, authorId: 4, title: "Steppenwolf", kind: .novel, year: 1927),
        Book(id: 8, authorId: 4, title: "Siddhartha", kind: .novel, year: 1922),
        Book(id: 9, authorId: 6, title: "If on a Winter's Night a Traveler", kind: .novel, year: 1979),
        Book(id: 10, authorId: 6, title: "invisible Cities", kind: .novel, year: 1972),
        Book(id: 11, authorId: 6, title: "Six Memos for the Next Millennium", kind: .essay, year: 1988),
        Book(id: 12, authorId: 7, title: "Les Misérables", kind: .novel, year: 1862),
        Book(id: 13, authorId: 7, title: "Hernani", kind: .theater, year: 1830),
        Book(id: 14, authorId: 8, title: "Don Quixote", kind: .novel, year: 1605),
        Book(id: 15, authorId: 9, title: "Bodas de sangre", kind: .theater, year: 1932),
        Book(id: 16, authorId: 10, title: "Kafka on the Shore", kind: .novel, year: 2002),
    ]

    static func author(_ id: Int64) -> Author { authors[Int(id) - 1] }
    static func book(_ id: Int64) -> Book { books[Int(id) - 1] }
}

// Add Database access
extension Library.Author: FetchableRecord, MutablePersistableRecord {
    static let databaseTableName = "author"

    // Update auto-incremented id upon successful insertion
    mutating func didInsert(_ inserted: InsertionSuccess) {
        id = inserted.rowID
    }
}

extension Library.Book: FetchableRecord, MutablePersistableRecord {
    static let databaseTableName = "book"

    // Update auto-incremented id upon successful insertion
    mutating func didInsert(_ inserted: InsertionSuccess) {
        id = inserted.rowID
    }
}

extension Library.Book.Kind: DatabaseValueConvertible { }

// HOW TO define columns for a Codable record
extension Library.Author {
    enum Columns {
        static let id = Column(CodingKeys.id)
        static let name = Column(CodingKeys.name)
        static let countryCode = Column(CodingKeys.countryCode)
    }
}

extension Library.Book {
    enum Columns {
        static let id = Column(CodingKeys.id)
        static let authorId = Column(CodingKeys.authorId)
        static let title = Column(CodingKeys.title)
        static let kind = Column(CodingKeys.kind)
        static let year = Column(CodingKeys.year)
    }
}

// Associations
extension Library.Book {
    static let author = belongsTo(Library.Author.self)
}

extension Library.Author {
    static let books = hasMany(Library.Book.self)
}

// Author requests
extension DerivableRequest<Library.Author> {
    /// Order authors by name, in a localized case-insensitive fashion
    func orderByName() -> Self {
        order { $0.name.collating(.localizedCaseInsensitiveCompare) }
    }

    /// Filters authors from a country
    func filter(countryCode: String) -> Self {
        filter { $0.countryCode == countryCode }
    }
}

// Book requests
extension DerivableRequest<Library.Book> {
    /// Order books by title, in a localized case-insensitive fashion
    func orderByTitle() -> Self {
        order { $0.title.collating(.localizedCaseInsensitiveCompare) }
    }

    /// Filters books by kind
    func filter(kind: Library.Book.Kind) -> Self {
        filter { $0.kind == kind }
    }

    /// Filters books from a country
    func filter(authorCountryCode countryCode: String) -> Self {
        // Books do not have any country column. But their author has one!
        // Return books that can be joined to an author from this country:
        joining(required: Library.Book.author.filter(countryCode: countryCode))
    }
}

extension QueryInterfaceRequest<Library.Author> {
    // Selects authors' name
    func selectName() -> QueryInterfaceRequest<String> {
        select(\.name)
    }
}

/// The statements that `body` runs once the schema cache is warm: `body`
/// runs twice, and the statements of the second run are returned.
func recordedSQLWithWarmCache(_ db: Database, _ body: () throws -> Void) rethrows -> [String] {
    try body()
    return try recordedSQL(db, body)
}
